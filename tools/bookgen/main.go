// Command bookgen makes an opening book of balanced positions for engine matches: short
// random openings from the start position, each move drawn among the moves Gambit's own
// search finds close to the best (so the openings are varied but not absurd), and each
// final position kept only when an oracle engine (Stockfish) at a fixed depth scores it
// within a margin of equality. It writes EPD lines with the moves (c0), the oracle's
// score for the side to move (ce) and its depth (acd).
//
//	go run ./tools/bookgen -n 400 -depth 14 -margin 50 -seed 1 > uci/match/testdata/balanced.epd
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/uci"
)

// settings are the generator's knobs.
type settings struct {
	n                  int // positions to write
	minPlies, maxPlies int // length of the random openings
	candidates         int // moves of Gambit's MultiPV to choose among
	spread             int // a candidate may trail the best by this much, cp
	gambitDepth        int // Gambit's search depth for the candidates
	depth              int // the oracle's depth
	margin             int // kept when the oracle's score is within ±margin cp
	seed               uint64
}

func main() {
	var s settings
	flag.IntVar(&s.n, "n", 400, "positions to write")
	flag.IntVar(&s.minPlies, "min-plies", 6, "shortest opening, plies")
	flag.IntVar(&s.maxPlies, "max-plies", 10, "longest opening, plies")
	flag.IntVar(&s.candidates, "candidates", 6, "moves of Gambit's search to draw each move from")
	flag.IntVar(&s.spread, "spread", 60, "a candidate may trail Gambit's best move by this many cp")
	flag.IntVar(&s.gambitDepth, "gambit-depth", 6, "Gambit's search depth for the candidates")
	flag.IntVar(&s.depth, "depth", 14, "the oracle's search depth")
	flag.IntVar(&s.margin, "margin", 50, "keep positions the oracle scores within this many cp of equality")
	flag.Uint64Var(&s.seed, "seed", 1, "random seed (the same seed gives the same openings)")
	sf := flag.String("stockfish", "/usr/games/stockfish", "the oracle engine's command")
	flag.Parse()
	if err := run(s, *sf, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bookgen:", err)
		os.Exit(1)
	}
}

func run(s settings, sfPath string, stdout, stderr io.Writer) error {
	ctx := context.Background()
	c, err := uci.Start(ctx, uci.Config{Path: sfPath, Options: []uci.OptionValue{{Name: "Threads", Value: "1"}, {Name: "Hash", Value: "16"}}})
	if err != nil {
		return fmt.Errorf("start oracle: %w", err)
	}
	defer c.Close()
	name, _ := c.ID()
	o := func(p cc.Position) (engine.Score, error) {
		if err := c.NewGame(ctx); err != nil {
			return 0, fmt.Errorf("oracle: %w", err)
		}
		res, err := c.Go(ctx, uci.Position{FEN: p.FEN()}, uci.GoParams{Depth: s.depth})
		if err != nil {
			return 0, fmt.Errorf("oracle: %w", err)
		}
		if !res.Info.HasScore {
			return 0, fmt.Errorf("oracle: no score for %s", p.FEN())
		}
		return res.Info.Score, nil
	}
	w := bufio.NewWriter(stdout)
	fmt.Fprintf(w, "# Balanced openings for gambit match --book, made by tools/bookgen: random openings of %d to %d plies,\n", s.minPlies, s.maxPlies)
	fmt.Fprintf(w, "# each move drawn from Gambit's %d best at depth %d within %d cp, kept when %s at depth %d\n", s.candidates, s.gambitDepth, s.spread, name, s.depth)
	fmt.Fprintf(w, "# scores the position within %d cp (ce: its score for the side to move). Seed %d.\n", s.margin, s.seed)
	start := time.Now()
	tried := 0
	err = generate(s, o, func(b bookLine) error {
		_, err := fmt.Fprintln(w, b.epd(s.depth))
		return err
	}, func(kept, t int) {
		tried = t
		if kept%25 == 0 {
			fmt.Fprintf(stderr, "%d kept of %d tried, %s\n", kept, t, time.Since(start).Round(time.Second))
		}
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%d positions from %d openings tried in %s\n", s.n, tried, time.Since(start).Round(time.Second))
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write book: %w", err)
	}
	return nil
}

// oracle scores a position for the side to move.
type oracle func(cc.Position) (engine.Score, error)

// bookLine is one kept opening.
type bookLine struct {
	n     int // its number, from 1
	pos   cc.Position
	san   []string
	score engine.Score // the oracle's, for the side to move
}

// epd is the line's EPD form.
func (b bookLine) epd(depth int) string {
	f := strings.Fields(b.pos.FEN())
	e := cc.EPD{FEN: b.pos.FEN(), Ops: []cc.EPDOp{
		{Code: "hmvc", Operands: []string{f[4]}},
		{Code: "fmvn", Operands: []string{f[5]}},
		{Code: "id", Operands: []string{b.epdName()}},
		{Code: "c0", Operands: []string{strings.Join(b.san, " ")}},
		{Code: "ce", Operands: []string{strconv.Itoa(int(b.score))}},
		{Code: "acd", Operands: []string{strconv.Itoa(depth)}},
	}}
	return strings.Join(f[:4], " ") + e.String()[len(e.FEN):]
}

// epdName is the line's id.
func (b bookLine) epdName() string { return fmt.Sprintf("bookgen %03d", b.n) }

// generate draws openings until s.n are kept, calling keep for each and progress after
// every one tried.
func generate(s settings, score oracle, keep func(bookLine) error, progress func(kept, tried int)) error {
	rng := rand.New(rand.NewPCG(s.seed, s.seed^0x5DEECE66D))
	eng := engine.New(engine.Options{HashMB: 8})
	seen := map[string]bool{}
	kept, tried := 0, 0
	for kept < s.n {
		if tried > 50*s.n+100 {
			return fmt.Errorf("only %d balanced positions in %d openings: widen -margin or -spread", kept, tried)
		}
		tried++
		pos, san, ok, err := randomOpening(s, eng, rng)
		if err != nil {
			return err
		}
		key := positionKey(pos)
		if !ok || seen[key] {
			progress(kept, tried)
			continue
		}
		seen[key] = true
		sc, err := score(pos)
		if err != nil {
			return err
		}
		if sc.IsMate() || int(sc) > s.margin || int(sc) < -s.margin {
			progress(kept, tried)
			continue
		}
		kept++
		if err := keep(bookLine{n: kept, pos: pos, san: san, score: sc}); err != nil {
			return fmt.Errorf("write book: %w", err)
		}
		progress(kept, tried)
	}
	return nil
}

// positionKey is the position without its move counters: two openings that transpose
// into each other give one book line.
func positionKey(p cc.Position) string {
	f := strings.Fields(p.FEN())
	return strings.Join(f[:4], " ")
}

// randomOpening plays a random number of plies from the start, each move drawn evenly
// among Gambit's best candidates that trail the best by at most s.spread. ok is false
// when the opening ends in check or with the game over, which a book does not want.
func randomOpening(s settings, eng *engine.Engine, rng *rand.Rand) (cc.Position, []string, bool, error) {
	pos := cc.StartPosition()
	plies := s.minPlies + rng.IntN(s.maxPlies-s.minPlies+1)
	var san []string
	var prior []uint64
	eng.NewGame()
	for range plies {
		res, err := eng.Search(pos, prior, engine.Limits{Depth: s.gambitDepth, MultiPV: s.candidates})
		if err != nil {
			return pos, nil, false, fmt.Errorf("candidates: %w", err)
		}
		if len(res.Lines) == 0 {
			return pos, san, false, nil
		}
		var pick []cc.Move
		for _, l := range res.Lines {
			if l.Score >= res.Lines[0].Score-engine.Score(s.spread) {
				pick = append(pick, l.Move)
			}
		}
		m := pick[rng.IntN(len(pick))]
		san = append(san, pos.SAN(m))
		prior = append(prior, pos.Hash())
		pos = pos.Play(m)
	}
	if pos.InCheck() || !pos.HasLegalMove() {
		return pos, san, false, nil
	}
	return pos, san, true, nil
}
