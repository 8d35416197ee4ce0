// match.go: `gambit match`, the flags of an engine match (package uci/match plays it).

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/gambitchess/gambit/uci"
	"github.com/gambitchess/gambit/uci/match"
)

// runMatch implements `gambit match`: two UCI engines play each other from a set of
// opening positions, each opening once with each colour; the games go to a PGN file and
// the score, with an Elo difference and its 95% error bar, to stdout.
func runMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", stderr)
	var cfg match.Config
	var opts [2]optionList
	var cmds [2]string
	fs.StringVar(&cmds[0], "engine1", "", `first engine's command line ("self" runs this binary's uci command, e.g. "self --level 8")`)
	fs.StringVar(&cmds[1], "engine2", "", "second engine's command line")
	fs.StringVar(&cfg.Engines[0].Name, "name1", "", "first engine's name in the PGN and the report (default: its id name)")
	fs.StringVar(&cfg.Engines[1].Name, "name2", "", "second engine's name")
	fs.Var(&opts[0], "option1", "UCI option Name=Value for the first engine (repeatable)")
	fs.Var(&opts[1], "option2", "UCI option Name=Value for the second engine (repeatable)")
	fs.IntVar(&cfg.Games, "games", 2, "number of games (rounded up to pairs: each opening is played with both colours)")
	openings := fs.String("openings", "", "EPD or FEN `file` of opening positions, one a line (default: the start position)")
	book := fs.Bool("book", false, "play from the built-in book of balanced openings (tools/bookgen) instead of --openings")
	tc := fs.String("tc", "", `time control in seconds, [moves/]base[+increment], e.g. "10+0.1" or "40/60"`)
	fs.DurationVar(&cfg.MoveTime, "movetime", 0, "fixed time per move instead of a clock, e.g. 100ms")
	fs.Uint64Var(&cfg.Nodes, "nodes", 0, "node limit per move")
	fs.IntVar(&cfg.Depth, "depth", 0, "depth limit per move")
	fs.DurationVar(&cfg.Margin, "margin", 100*time.Millisecond, "time an engine may overstep its clock before it loses on time")
	fs.IntVar(&cfg.Concurrency, "concurrency", 1, "games played at once (each with its own pair of engine processes)")
	pgn := fs.String("pgn", "", "write the games to this PGN `file`")
	jsonOut := fs.String("json", "", "write the result as JSON to this `file`")
	adj := &cfg.Adjudication
	fs.IntVar(&adj.ResignScore, "resign-score", 1000, "adjudicate a win when both engines' scores pass this many cp (0: off)")
	fs.IntVar(&adj.ResignMoves, "resign-moves", 4, "... for this many moves of each side")
	fs.IntVar(&adj.DrawScore, "draw-score", 8, "adjudicate a draw when both engines' scores stay within this many cp (0: off)")
	fs.IntVar(&adj.DrawMoves, "draw-moves", 10, "... for this many moves of each side")
	fs.IntVar(&adj.DrawAfter, "draw-after", 40, "... but not before this move number")
	fs.IntVar(&adj.MaxMoves, "max-moves", 250, "adjudicate a draw after this many moves (0: no limit)")
	sprt := fs.Bool("sprt", false, "run a sequential probability ratio test over game pairs and stop at its verdict (--games is then the most played)")
	var test match.SPRT
	fs.Float64Var(&test.Elo0, "elo0", 0, "SPRT: H0, engine 1 is this many Elo stronger")
	fs.Float64Var(&test.Elo1, "elo1", 5, "SPRT: H1, engine 1 is this many Elo stronger")
	fs.Float64Var(&test.Alpha, "alpha", 0.05, "SPRT: chance of accepting H1 when H0 holds")
	fs.Float64Var(&test.Beta, "beta", 0.05, "SPRT: chance of accepting H0 when H1 holds")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	for i := range cmds {
		e, err := engineCommand(cmds[i])
		if err != nil {
			return fmt.Errorf("--engine%d: %w", i+1, err)
		}
		e.Name, e.Options = cfg.Engines[i].Name, opts[i]
		cfg.Engines[i] = e
	}
	if cfg.Games < 1 {
		return fmt.Errorf("--games %d: want at least 1", cfg.Games)
	}
	if *tc != "" {
		c, err := match.ParseTimeControl(*tc)
		if err != nil {
			return fmt.Errorf("--tc: %w", err)
		}
		cfg.TimeControl = c
	}
	if cfg.TimeControl.Base == 0 && cfg.MoveTime == 0 && cfg.Nodes == 0 && cfg.Depth == 0 {
		return errors.New("no limit per move: give --tc, --movetime, --nodes or --depth")
	}
	if *sprt {
		if err := test.Validate(); err != nil {
			return fmt.Errorf("--sprt: %w", err)
		}
		cfg.SPRT = &test
	}
	if *book {
		if *openings != "" {
			return errors.New("--book and --openings: give one")
		}
		ops, err := match.Book()
		if err != nil {
			return err
		}
		cfg.Openings = ops
	}
	if *openings != "" {
		ops, err := readOpeningsFile(*openings)
		if err != nil {
			return err
		}
		cfg.Openings = ops
	}
	if *pgn != "" {
		f, err := os.Create(*pgn)
		if err != nil {
			return fmt.Errorf("--pgn: %w", err)
		}
		defer f.Close()
		cfg.PGN = f
	}
	cfg.Progress = stderr
	cfg.Log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	res, err := match.Play(context.Background(), cfg)
	if err != nil {
		return err
	}
	if err := res.Report(stdout); err != nil {
		return err
	}
	if *jsonOut != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return fmt.Errorf("--json: %w", err)
		}
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("--json: %w", err)
		}
	}
	return nil
}

// engineCommand reads an engine's command line; "self" is this binary's uci command.
func engineCommand(s string) (match.Engine, error) {
	e, err := match.ParseEngineCommand(s)
	if err != nil || e.Path != "self" {
		return e, err
	}
	exe, err := os.Executable()
	if err != nil {
		return e, fmt.Errorf("self: %w", err)
	}
	e.Path, e.Args = exe, append([]string{"uci"}, e.Args...)
	return e, nil
}

// readOpeningsFile reads the --openings file.
func readOpeningsFile(path string) ([]match.Opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--openings: %w", err)
	}
	defer f.Close()
	ops, err := match.ReadOpenings(f)
	if err != nil {
		return nil, fmt.Errorf("--openings %s: %w", path, err)
	}
	return ops, nil
}

// optionList collects repeated Name=Value flags.
type optionList []uci.OptionValue

// String lists the options given so far.
func (o *optionList) String() string { return fmt.Sprint(*o) }

// Set adds one Name=Value option.
func (o *optionList) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("option %q: want Name=Value", s)
	}
	*o = append(*o, uci.OptionValue{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	return nil
}

var _ flag.Value = (*optionList)(nil)
