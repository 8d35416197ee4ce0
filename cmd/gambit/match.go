package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/uci"
)

// runMatch implements `gambit match`: two UCI engines play each other from a set of
// opening positions, each opening once with each colour; chesscore decides how every
// game ends; the games go to a PGN file and the score, with an Elo difference and its
// 95% error bar, to stdout.
func runMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", stderr)
	var cfg matchConfig
	var opts [2]optionList
	var cmds [2]string
	fs.StringVar(&cmds[0], "engine1", "", `first engine's command line ("self" runs this binary's uci command, e.g. "self --level 8")`)
	fs.StringVar(&cmds[1], "engine2", "", "second engine's command line")
	fs.StringVar(&cfg.engines[0].name, "name1", "", "first engine's name in the PGN and the report (default: its id name)")
	fs.StringVar(&cfg.engines[1].name, "name2", "", "second engine's name")
	fs.Var(&opts[0], "option1", "UCI option Name=Value for the first engine (repeatable)")
	fs.Var(&opts[1], "option2", "UCI option Name=Value for the second engine (repeatable)")
	fs.IntVar(&cfg.games, "games", 2, "number of games (rounded up to pairs: each opening is played with both colours)")
	openings := fs.String("openings", "", "EPD or FEN file of opening positions, one a line (default: the start position)")
	tc := fs.String("tc", "", `time control in seconds, [moves/]base[+increment], e.g. "10+0.1" or "40/60"`)
	fs.DurationVar(&cfg.moveTime, "movetime", 0, "fixed time per move instead of a clock, e.g. 100ms")
	fs.Uint64Var(&cfg.nodes, "nodes", 0, "node limit per move")
	fs.IntVar(&cfg.depth, "depth", 0, "depth limit per move")
	fs.DurationVar(&cfg.margin, "margin", 100*time.Millisecond, "time an engine may overstep its clock before it loses on time")
	fs.IntVar(&cfg.concurrency, "concurrency", 1, "games played at once (each with its own pair of engine processes)")
	pgn := fs.String("pgn", "", "write the games to this PGN file")
	jsonOut := fs.String("json", "", "write the result as JSON to this file")
	fs.IntVar(&cfg.resignScore, "resign-score", 1000, "adjudicate a win when both engines' scores pass this many cp (0: off)")
	fs.IntVar(&cfg.resignMoves, "resign-moves", 4, "... for this many moves of each side")
	fs.IntVar(&cfg.drawScore, "draw-score", 8, "adjudicate a draw when both engines' scores stay within this many cp (0: off)")
	fs.IntVar(&cfg.drawMoves, "draw-moves", 10, "... for this many moves of each side")
	fs.IntVar(&cfg.drawAfter, "draw-after", 40, "... but not before this move number")
	fs.IntVar(&cfg.maxMoves, "max-moves", 250, "adjudicate a draw after this many moves (0: no limit)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	for i := range cmds {
		spec, err := parseEngineCommand(cmds[i])
		if err != nil {
			return fmt.Errorf("--engine%d: %w", i+1, err)
		}
		spec.name = cfg.engines[i].name
		spec.options = opts[i]
		cfg.engines[i] = spec
	}
	if cfg.games < 1 {
		return fmt.Errorf("--games %d: want at least 1", cfg.games)
	}
	if *tc != "" {
		c, err := parseMatchTC(*tc)
		if err != nil {
			return fmt.Errorf("--tc: %w", err)
		}
		cfg.tc = c
	}
	if cfg.tc.base == 0 && cfg.moveTime == 0 && cfg.nodes == 0 && cfg.depth == 0 {
		return errors.New("no limit per move: give --tc, --movetime, --nodes or --depth")
	}
	if *openings != "" {
		f, err := os.Open(*openings)
		if err != nil {
			return fmt.Errorf("--openings: %w", err)
		}
		cfg.openings, err = parseOpenings(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("--openings %s: %w", *openings, err)
		}
	}
	if *pgn != "" {
		f, err := os.Create(*pgn)
		if err != nil {
			return fmt.Errorf("--pgn: %w", err)
		}
		defer f.Close()
		cfg.pgn = f
	}
	cfg.progress = stderr
	cfg.log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	res, err := playMatch(context.Background(), cfg)
	if err != nil {
		return err
	}
	if err := res.report(stdout); err != nil {
		return err
	}
	if *jsonOut != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("--json: %w", err)
		}
	}
	return nil
}

// optionList collects repeated Name=Value flags.
type optionList []uci.OptionValue

func (o *optionList) String() string { return fmt.Sprint(*o) }

func (o *optionList) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("option %q: want Name=Value", s)
	}
	*o = append(*o, uci.OptionValue{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	return nil
}

var _ flag.Value = (*optionList)(nil)

// engineSpec is one engine of a match.
type engineSpec struct {
	name    string
	path    string
	args    []string
	options []uci.OptionValue
}

// parseEngineCommand splits an engine command line at spaces; "self" is this binary's
// uci command.
func parseEngineCommand(s string) (engineSpec, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return engineSpec{}, errors.New("missing: give the engine's command line")
	}
	if f[0] == "self" {
		exe, err := os.Executable()
		if err != nil {
			return engineSpec{}, fmt.Errorf("self: %w", err)
		}
		return engineSpec{path: exe, args: append([]string{"uci"}, f[1:]...)}, nil
	}
	return engineSpec{path: f[0], args: f[1:]}, nil
}

// matchTC is a match time control: base time, increment, and moves per period (0:
// sudden death).
type matchTC struct {
	moves     int
	base, inc time.Duration
}

// parseMatchTC reads "[moves/]base[+increment]" in seconds, decimals allowed: "10+0.1",
// "40/60", "180+2".
func parseMatchTC(s string) (matchTC, error) {
	var tc matchTC
	rest := strings.TrimSpace(s)
	if m, r, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 || n > 1000 {
			return tc, fmt.Errorf("%q: moves per period %q: want 1 to 1000", s, m)
		}
		tc.moves, rest = n, r
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	seconds := func(what, v string) (time.Duration, error) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 86400 || math.IsNaN(f) {
			return 0, fmt.Errorf("%q: %s %q: want seconds from 0 to 86400", s, what, v)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	var err error
	if tc.base, err = seconds("base", base); err != nil {
		return tc, err
	}
	if tc.base <= 0 {
		return tc, fmt.Errorf("%q: base time must be positive", s)
	}
	if hasInc {
		if tc.inc, err = seconds("increment", inc); err != nil {
			return tc, err
		}
	}
	return tc, nil
}

// String writes the control in PGN's TimeControl form.
func (tc matchTC) String() string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	s := secs(tc.base)
	if tc.moves > 0 {
		s = strconv.Itoa(tc.moves) + "/" + s
	}
	if tc.inc > 0 {
		s += "+" + secs(tc.inc)
	}
	return s
}

// opening is a start position of a match.
type opening struct {
	name string
	pos  chesscore.Position
}

// parseOpenings reads EPD lines (four fields, then operations such as id "name"; hmvc 0;
// fmvn 4;) or FEN lines; blank lines and lines starting with # are skipped.
func parseOpenings(r io.Reader) ([]opening, error) {
	var out []opening
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 {
			return nil, fmt.Errorf("line %d: want placement, side, castling and en passant", n)
		}
		fen := strings.Join(f[:4], " ")
		rest := strings.Join(f[4:], " ")
		var ops map[string]string
		if len(f) >= 6 && isCount(f[4]) && isCount(f[5]) {
			fen += " " + f[4] + " " + f[5]
			ops = epdOps(strings.Join(f[6:], " "))
		} else {
			ops = epdOps(rest)
			hm, fm := "0", "1"
			if v := ops["hmvc"]; isCount(v) {
				hm = v
			}
			if v := ops["fmvn"]; isCount(v) && v != "0" {
				fm = v
			}
			fen += " " + hm + " " + fm
		}
		pos, err := chesscore.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if !pos.HasLegalMove() {
			return nil, fmt.Errorf("line %d: the side to move has no legal move", n)
		}
		out = append(out, opening{name: ops["id"], pos: pos})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no positions")
	}
	return out, nil
}

func isCount(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && n < 10000
}

// epdOps reads EPD operations, "opcode operand;" each, into opcode → first operand
// (quotes removed).
func epdOps(s string) map[string]string {
	ops := map[string]string{}
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		code, rest, _ := strings.Cut(s, " ")
		rest = strings.TrimLeft(rest, " ")
		var val string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				return ops // unterminated string: ignore the rest
			}
			val, rest = rest[1:1+end], rest[2+end:]
		} else {
			val, rest, _ = strings.Cut(rest, ";")
			val = strings.TrimSpace(val)
			rest = ";" + rest
		}
		ops[strings.TrimSuffix(code, ";")] = val
		_, s, _ = strings.Cut(rest, ";")
	}
	return ops
}

// matchConfig is a whole match.
type matchConfig struct {
	engines      [2]engineSpec
	games        int
	openings     []opening
	tc           matchTC
	moveTime     time.Duration
	nodes        uint64
	depth        int
	margin       time.Duration
	concurrency  int
	resignScore  int
	resignMoves  int
	drawScore    int
	drawMoves    int
	drawAfter    int
	maxMoves     int
	pgn          io.Writer
	progress     io.Writer
	log          *slog.Logger
	startTimeout time.Duration
}

// matchResult is the score of a match from the first engine's point of view.
type matchResult struct {
	Engine1, Engine2    string
	Games               int
	Wins, Draws, Losses int
	Score               float64 // engine 1's points
	Percent             float64
	Elo, EloError, LOS  float64
	// EloBound, for a score of 0 or 100% (whose difference has no finite estimate), is
	// the 95% one-sided bound instead: the difference is below it (0%) or above it.
	EloBound             float64 `json:",omitempty"`
	Terminations         map[string]int
	WhiteWins, BlackWins int
}

// gameJob is one game to play: the opening and which engine has White.
type gameJob struct {
	round   int
	opening opening
	white   int // engine index with White
}

// gameRecord is a finished game.
type gameRecord struct {
	job gameJob
	pg  *chesscore.PGNGame
	err error
}

// playMatch plays the match.
func playMatch(ctx context.Context, cfg matchConfig) (matchResult, error) {
	if cfg.log == nil {
		cfg.log = slog.New(slog.DiscardHandler)
	}
	if cfg.progress == nil {
		cfg.progress = io.Discard
	}
	if len(cfg.openings) == 0 {
		cfg.openings = []opening{{name: "start position", pos: chesscore.StartPosition()}}
	}
	cfg.concurrency = max(cfg.concurrency, 1)
	games := cfg.games + cfg.games%2
	jobs := make(chan gameJob)
	records := make(chan gameRecord)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	names := [2]string{cfg.engines[0].name, cfg.engines[1].name}
	var namesMu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < min(cfg.concurrency, games); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var clients [2]*uci.Client
			defer func() {
				for _, c := range clients {
					if c != nil {
						c.Close()
					}
				}
			}()
			for i, spec := range cfg.engines {
				c, err := uci.Start(ctx, uci.Config{Name: spec.name, Path: spec.path, Args: spec.args, Options: spec.options,
					Log: cfg.log, StartTimeout: cfg.startTimeout})
				if err != nil {
					records <- gameRecord{err: fmt.Errorf("engine %d: %w", i+1, err)}
					return
				}
				clients[i] = c
				namesMu.Lock()
				if names[i] == "" {
					names[i], _ = c.ID()
				}
				namesMu.Unlock()
			}
			for job := range jobs {
				namesMu.Lock()
				n := names
				namesMu.Unlock()
				pg, err := playGame(ctx, cfg, clients, n, job)
				records <- gameRecord{job: job, pg: pg, err: err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := 0; i < games; i++ {
			job := gameJob{round: i + 1, opening: cfg.openings[(i/2)%len(cfg.openings)], white: i % 2}
			select {
			case jobs <- job:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(records)
	}()

	res := matchResult{Terminations: map[string]int{}}
	var firstErr error
	for rec := range records {
		if rec.err != nil {
			if firstErr == nil {
				firstErr = rec.err
				cancel()
			}
			continue
		}
		res.add(rec)
		namesMu.Lock()
		res.Engine1, res.Engine2 = names[0], names[1]
		namesMu.Unlock()
		if cfg.pgn != nil {
			if err := chesscore.WritePGN(cfg.pgn, rec.pg); err != nil && firstErr == nil {
				firstErr = fmt.Errorf("write pgn: %w", err)
				cancel()
			}
		}
		o := rec.pg.Game.Outcome()
		fmt.Fprintf(cfg.progress, "game %d/%d %s-%s %s (%s, %s): %s %.1f/%d\n", rec.job.round, games,
			rec.pg.Tags["White"], rec.pg.Tags["Black"], o.Result, o.Termination, rec.job.opening.name,
			res.Engine1, res.Score, res.Games)
	}
	if firstErr != nil {
		return res, firstErr
	}
	res.finish()
	return res, nil
}

// add counts a finished game.
func (r *matchResult) add(rec gameRecord) {
	o := rec.pg.Game.Outcome()
	r.Games++
	r.Terminations[o.Termination.String()]++
	var score1 float64
	switch o.Result {
	case chesscore.WhiteWins:
		r.WhiteWins++
		score1 = 1 - float64(rec.job.white)
	case chesscore.BlackWins:
		r.BlackWins++
		score1 = float64(rec.job.white)
	case chesscore.Draw:
		score1 = 0.5
	}
	switch score1 {
	case 1:
		r.Wins++
	case 0:
		r.Losses++
	default:
		r.Draws++
	}
	r.Score += score1
}

// finish computes the percentage, the Elo difference with its 95% error bar and the
// likelihood of superiority.
func (r *matchResult) finish() {
	r.Elo, r.EloError, r.LOS = eloStats(r.Wins, r.Draws, r.Losses)
	r.EloBound = eloBound(r.Wins, r.Draws, r.Losses)
	if r.Games > 0 {
		r.Percent = 100 * r.Score / float64(r.Games)
	}
}

// eloStats returns the Elo difference of a score of w wins, d draws and l losses, the
// half-width of its 95% confidence interval (from the per-game variance of the score),
// and the likelihood of superiority in percent. A score of 0 or 100% has an infinite
// difference; it is capped at ±1200.
func eloStats(w, d, l int) (elo, margin, los float64) {
	n := float64(w + d + l)
	if n == 0 {
		return 0, 0, 50
	}
	s := (float64(w) + float64(d)/2) / n
	variance := (float64(w)*(1-s)*(1-s) + float64(d)*(0.5-s)*(0.5-s) + float64(l)*s*s) / n
	se := math.Sqrt(variance / n)
	toElo := func(p float64) float64 {
		p = math.Max(math.Min(p, 0.999), 0.001)
		return -400 * math.Log10(1/p-1)
	}
	elo = toElo(s)
	lo, hi := toElo(s-1.96*se), toElo(s+1.96*se)
	margin = (hi - lo) / 2
	if w+l > 0 {
		los = 50 * (1 + math.Erf(float64(w-l)/math.Sqrt(2*float64(w+l))))
	} else {
		los = 50
	}
	return elo, margin, los
}

// eloBound returns, when one engine scored every point of n = w+d+l games, the 95%
// one-sided bound of the Elo difference: the score of the loser that would still give
// n straight losses with 5% probability is 1 − 0.05^(1/n) a game (draws count as half
// a point lost, so a score of 100% needs w = n). It returns 0 for any other score.
func eloBound(w, d, l int) float64 {
	n := w + d + l
	if n == 0 || (w != n && l != n) {
		return 0
	}
	p := 1 - math.Pow(0.05, 1/float64(n)) // the loser's largest plausible score
	bound := 400 * math.Log10(1/p-1)      // how far above the loser the winner is, at least
	if l == n {
		return -bound
	}
	return bound
}

// report prints the result.
func (r matchResult) report(w io.Writer) error {
	terms := make([]string, 0, len(r.Terminations))
	for t, n := range r.Terminations {
		terms = append(terms, fmt.Sprintf("%s %d", t, n))
	}
	sort.Strings(terms)
	elo := fmt.Sprintf("%+.1f +/- %.1f (95%%)", r.Elo, r.EloError)
	switch {
	case r.EloBound > 0:
		elo = fmt.Sprintf("above %+.0f (95%%: every game won)", r.EloBound)
	case r.EloBound < 0:
		elo = fmt.Sprintf("below %+.0f (95%%: every game lost)", r.EloBound)
	}
	_, err := fmt.Fprintf(w, "%s vs %s: %d games, +%d =%d -%d, score %.1f/%d (%.1f%%)\n"+
		"Elo difference: %s, LOS %.1f%%\n"+
		"white wins %d, black wins %d; %s\n",
		r.Engine1, r.Engine2, r.Games, r.Wins, r.Draws, r.Losses, r.Score, r.Games, r.Percent,
		elo, r.LOS, r.WhiteWins, r.BlackWins, strings.Join(terms, ", "))
	return err
}

// playGame plays one game between the engines (clients[i] is engine i), adjudicated by
// chesscore: the Laws' automatic endings, draws claimed as soon as they may be, flag
// falls, and the score adjudications of the config.
func playGame(ctx context.Context, cfg matchConfig, clients [2]*uci.Client, names [2]string, job gameJob) (*chesscore.PGNGame, error) {
	g := chesscore.NewGame(job.opening.pos)
	for _, c := range clients {
		if err := c.NewGame(ctx); err != nil {
			return nil, err
		}
	}
	engineOf := func(c chesscore.Color) int {
		if c == chesscore.White {
			return job.white
		}
		return 1 - job.white
	}
	remaining := [2]time.Duration{cfg.tc.base, cfg.tc.base}
	var done [2]int
	var notes []chesscore.PGNMove
	var scores []engine.Score // White's view, one per ply; hasScore tells missing ones
	var hasScore []bool
	for !g.Over() {
		side := g.Turn()
		e := engineOf(side)
		gp := uci.GoParams{MoveTime: cfg.moveTime, Nodes: cfg.nodes, Depth: cfg.depth}
		if cfg.tc.base > 0 {
			gp.WTime, gp.BTime = max(remaining[0], time.Millisecond), max(remaining[1], time.Millisecond)
			gp.WInc, gp.BInc = cfg.tc.inc, cfg.tc.inc
			if cfg.tc.moves > 0 {
				gp.MovesToGo = cfg.tc.moves - done[side]%cfg.tc.moves
			}
		}
		start := time.Now()
		res, err := clients[e].Go(ctx, uci.PositionOf(g), gp)
		used := time.Since(start)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			cfg.log.Warn("engine failed in a game", "engine", names[e], "round", job.round, "err", err)
			if errors.Is(err, uci.ErrIllegalMove) {
				_ = g.End(chesscore.Outcome{Result: chesscore.WinFor(side.Other()), Termination: chesscore.RulesInfraction})
			} else {
				_ = g.Abandon(side)
			}
			break
		}
		if cfg.tc.base > 0 {
			remaining[side] -= used
			if remaining[side] < -cfg.margin {
				_ = g.FlagFall(side)
				break
			}
			remaining[side] = max(remaining[side], 0) + cfg.tc.inc
			done[side]++
			if cfg.tc.moves > 0 && done[side]%cfg.tc.moves == 0 {
				remaining[side] += cfg.tc.base
			}
		}
		if err := g.Play(res.BestMove); err != nil {
			cfg.log.Warn("engine move refused", "engine", names[e], "round", job.round, "err", err)
			_ = g.End(chesscore.Outcome{Result: chesscore.WinFor(side.Other()), Termination: chesscore.RulesInfraction})
			break
		}
		note := chesscore.PGNMove{Move: res.BestMove, SAN: g.SAN()[g.Ply()-1]}
		ws := res.Info.Score
		if side == chesscore.Black {
			ws = -ws
		}
		if res.Info.HasScore {
			note.Comment = fmt.Sprintf("%s/%d %.2fs", res.Info.Score.String(), res.Info.Depth, used.Seconds())
		}
		if cfg.tc.base > 0 {
			note.Clock, note.HasClock = remaining[side].Round(10*time.Millisecond), true
		}
		notes = append(notes, note)
		scores = append(scores, ws)
		hasScore = append(hasScore, res.Info.HasScore)
		if g.Over() {
			break
		}
		claimDraw(g)
		if !g.Over() {
			adjudicate(g, cfg, scores, hasScore)
		}
	}
	pg := chesscore.NewPGNGame(g)
	for i := range pg.Moves {
		if i < len(notes) {
			pg.Moves[i].Comment, pg.Moves[i].Clock, pg.Moves[i].HasClock = notes[i].Comment, notes[i].Clock, notes[i].HasClock
		}
	}
	pg.Tags["Event"] = "gambit match"
	pg.Tags["Site"] = "local"
	pg.Tags["Date"] = time.Now().Format("2006.01.02")
	pg.Tags["Round"] = strconv.Itoa(job.round)
	pg.Tags["White"] = names[job.white]
	pg.Tags["Black"] = names[1-job.white]
	if job.opening.name != "" {
		pg.Tags["Opening"] = job.opening.name
	}
	switch {
	case cfg.tc.base > 0:
		pg.Tags["TimeControl"] = cfg.tc.String()
	case cfg.moveTime > 0:
		pg.Tags["TimeControl"] = "1/" + strconv.FormatFloat(cfg.moveTime.Seconds(), 'f', -1, 64)
	default:
		pg.Tags["TimeControl"] = "-"
	}
	return pg, nil
}

// claimDraw claims a threefold repetition or the fifty moves as soon as the position
// allows, as an arbiter would for engines.
func claimDraw(g *chesscore.Game) {
	for _, c := range g.Claimable() {
		if c.Move == chesscore.NullMove {
			_ = g.ClaimDraw(chesscore.NullMove)
			return
		}
	}
}

// adjudicate ends a game the engines agree is decided (both past resignScore for
// resignMoves moves each) or dead level (both within drawScore for drawMoves moves each
// after drawAfter), or one that has gone on for maxMoves moves.
func adjudicate(g *chesscore.Game, cfg matchConfig, scores []engine.Score, has []bool) {
	n := len(scores)
	if cfg.maxMoves > 0 && g.Ply() >= 2*cfg.maxMoves {
		_ = g.End(chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Adjudication})
		return
	}
	if k := 2 * cfg.resignMoves; cfg.resignScore > 0 && k > 0 && n >= k {
		sign := 0
		ok := true
		for i := n - k; i < n && ok; i++ {
			s := int(scores[i])
			switch {
			case !has[i]:
				ok = false
			case s >= cfg.resignScore && sign >= 0:
				sign = 1
			case s <= -cfg.resignScore && sign <= 0:
				sign = -1
			default:
				ok = false
			}
		}
		if ok && sign != 0 {
			winner := chesscore.White
			if sign < 0 {
				winner = chesscore.Black
			}
			_ = g.End(chesscore.Outcome{Result: chesscore.WinFor(winner), Termination: chesscore.Adjudication})
			return
		}
	}
	if k := 2 * cfg.drawMoves; cfg.drawScore > 0 && k > 0 && n >= k && g.Ply() >= 2*cfg.drawAfter {
		for i := n - k; i < n; i++ {
			if !has[i] || int(scores[i]) > cfg.drawScore || int(scores[i]) < -cfg.drawScore {
				return
			}
		}
		_ = g.End(chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Adjudication})
	}
}
