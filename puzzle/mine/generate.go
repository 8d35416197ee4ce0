// generate.go: the generator: finding a puzzle in a played game with the engine.

// Package mine finds chess puzzles in played games with the engine and verifies them:
// a Generator scans a game for the opponent's mistakes that leave the side to move a
// single clearly winning line, builds and checks that line, tags its themes and
// estimates its rating; PGN mines every game of a PGN stream on several workers; Verify
// re-checks a puzzle from a fresh search.
package mine

import (
	"fmt"
	"hash/fnv"
	"strings"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/puzzle"
)

// Options tune the generator. The zero value gets the defaults of DefaultOptions.
type Options struct {
	// ScanNodes is the node budget of the quick look at every position of a game.
	ScanNodes uint64
	// VerifyNodes is the node budget for each solver move of a candidate line.
	VerifyNodes uint64
	// MaxSolverMoves bounds a line's length.
	MaxSolverMoves int
	// Win is the advantage (centipawns, for the solver) that counts as clearly winning.
	Win engine.Score
	// Margin is how much better the solution must be than every alternative.
	Margin engine.Score
	// Swing is how much the opponent's move must have worsened their position: a puzzle
	// starts from a mistake.
	Swing engine.Score
}

// DefaultOptions are the generator's defaults.
func DefaultOptions() Options {
	return Options{ScanNodes: 20_000, VerifyNodes: 150_000, MaxSolverMoves: 5, Win: 300, Margin: 250, Swing: 200}
}

// Generator finds puzzles in games: positions where the side to move has a single clearly
// winning line, a forced mate or a decisive gain of material that the engine confirms with
// a clear margin over every alternative, right after the opponent's mistake.
type Generator struct {
	e   *engine.Engine
	opt Options
}

// NewGenerator returns a generator using the engine e (not shared with other goroutines).
func NewGenerator(e *engine.Engine, opt Options) *Generator {
	d := DefaultOptions()
	if opt.ScanNodes == 0 {
		opt.ScanNodes = d.ScanNodes
	}
	if opt.VerifyNodes == 0 {
		opt.VerifyNodes = d.VerifyNodes
	}
	if opt.MaxSolverMoves == 0 {
		opt.MaxSolverMoves = d.MaxSolverMoves
	}
	if opt.Win == 0 {
		opt.Win = d.Win
	}
	if opt.Margin == 0 {
		opt.Margin = d.Margin
	}
	if opt.Swing == 0 {
		opt.Swing = d.Swing
	}
	return &Generator{e: e, opt: opt}
}

func (g *Generator) analyse(pos cc.Position, nodes uint64, multiPV int) []engine.Line {
	lines, err := g.e.Analyse(pos, nil, engine.Limits{Nodes: nodes}, multiPV)
	if err != nil {
		return nil
	}
	return lines
}

// FromGame returns the puzzles found in the game, each with the given source and an id
// made from idPrefix and a hash of the puzzle's position and line (so the same puzzle
// mined twice has the same id).
func (g *Generator) FromGame(game *cc.Game, idPrefix, source string) []puzzle.Puzzle {
	moves := game.Moves()
	var out []puzzle.Puzzle
	prev := engine.Score(0) // the previous position's score for its side to move
	havePrev := false
	for ply := 1; ply < len(moves); ply++ {
		before := game.PositionAt(ply - 1)
		shown := game.PositionAt(ply)
		scan := g.analyse(shown, g.opt.ScanNodes, 2)
		if len(scan) == 0 {
			havePrev = false
			continue
		}
		best := scan[0].Score
		worsened := !havePrev || -prev+g.opt.Swing <= best || best.IsMate() && !(-prev).IsMate()
		prev, havePrev = best, true
		if !worsened || !g.winning(best) || (len(scan) > 1 && !g.unique(scan[0], scan[1])) {
			continue
		}
		line, mate, ok := g.line(shown)
		if !ok {
			continue
		}
		p := puzzle.Puzzle{
			FEN:    before.FEN(),
			Moves:  append([]string{moves[ply-1].UCI()}, uciAll(line)...),
			Source: source,
		}
		h := fnv.New64a()
		h.Write([]byte(p.FEN + " " + strings.Join(p.Moves, " ")))
		p.ID = fmt.Sprintf("%s%010x", idPrefix, h.Sum64()>>24)
		l, err := p.Validate()
		if err != nil {
			continue
		}
		p.Themes = Themes(l, mate)
		p.Rating = EstimateRating(l, p.Themes)
		out = append(out, p)
		ply += len(line) // the next puzzle starts after this line's moves at the earliest
		havePrev = false
	}
	return out
}

func uciAll(ms []cc.Move) []string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.UCI()
	}
	return s
}

func (g *Generator) winning(s engine.Score) bool {
	return s.MateIn() > 0 || !s.IsMate() && s >= g.opt.Win
}

// unique reports whether best is clearly better than second: a mate against no mate, or a
// winning score against one that is not winning and at least Margin lower.
func (g *Generator) unique(best, second engine.Line) bool {
	if best.Score.MateIn() > 0 {
		if best.Score.MateIn() == 1 {
			return true // any mate in one is accepted as a solution
		}
		return second.Score.MateIn() <= 0
	}
	return !g.winning(second.Score) && best.Score-second.Score >= g.opt.Margin
}

// line builds the solution from the shown position: at every solver move the engine's
// best move must be the only winning one; the opponent answers with the engine's best
// reply. It stops at mate, or once the material won is kept after the best reply.
func (g *Generator) line(shown cc.Position) ([]cc.Move, bool, bool) {
	solver := shown.Turn()
	start := material(&shown, solver)
	pos := shown
	var line []cc.Move
	for step := 0; step < g.opt.MaxSolverMoves; step++ {
		cand := g.analyse(pos, g.opt.VerifyNodes, 2)
		if len(cand) == 0 || !g.winning(cand[0].Score) || (len(cand) > 1 && !g.unique(cand[0], cand[1])) {
			return nil, false, false
		}
		mating := cand[0].Score.MateIn() > 0
		line = append(line, cand[0].Move)
		pos = pos.Play(cand[0].Move)
		if !pos.HasLegalMove() {
			return line, pos.InCheck(), pos.InCheck()
		}
		reply := g.analyse(pos, g.opt.VerifyNodes/2, 1)
		if len(reply) == 0 {
			return nil, false, false
		}
		after := pos.Play(reply[0].Move)
		if !mating && material(&after, solver)-start >= int(g.opt.Win)-100 {
			return line, false, true
		}
		line = append(line, reply[0].Move)
		pos = after
	}
	return nil, false, false
}

var pieceValue = [7]int{0, 100, 300, 300, 500, 900, 0}

// material returns c's material minus the opponent's, in centipawns.
func material(p *cc.Position, c cc.Color) int {
	v := 0
	for t := cc.Pawn; t <= cc.Queen; t++ {
		v += pieceValue[t] * (p.Pieces(c, t).Count() - p.Pieces(c.Other(), t).Count())
	}
	return v
}
