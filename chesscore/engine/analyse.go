// analyse.go: analysis for people: the best lines of a position, and a game annotated
// move by move with the mistakes it contains.

package engine

import (
	"fmt"

	cc "github.com/gambitchess/gambit/chesscore"
)

// Analyse returns the multiPV best lines of pos (best first) within lim, with prior as in
// Search. Fewer lines come back when the position has fewer legal moves, none when it
// has no legal move.
func (e *Engine) Analyse(pos cc.Position, prior []uint64, lim Limits, multiPV int) ([]Line, error) {
	lim.MultiPV = max(multiPV, 1)
	res, err := e.Search(pos, prior, lim)
	if err != nil {
		return nil, err
	}
	if res.Move == cc.NullMove {
		return nil, nil
	}
	return res.Lines, nil
}

// PlyNote is the annotation of one move of a game. Scores are from White's point of view,
// so that a list of them draws an evaluation chart.
type PlyNote struct {
	Ply   int      // index of the move in the game, from 0
	Color cc.Color // the side that moved
	Move  cc.Move
	SAN   string
	// Before is the evaluation before the move (with best play), After the evaluation after
	// the move played.
	Before, After Score
	// Best is the engine's choice in the position before the move, BestSAN its SAN.
	Best    cc.Move
	BestSAN string
	// Drop is the loss in the mover's expected points, Best against the move played (0
	// when the move is the engine's choice, never negative); Judgement classifies it
	// (Judge).
	Drop      float64
	Judgement Judgement
}

// Accuracy is the move's accuracy, MoveAccuracy of its drop.
func (n PlyNote) Accuracy() float64 { return MoveAccuracy(n.Drop) }

// Annotate evaluates every position of g within lim (each searched once) and returns one
// note per move. Time limits apply per position.
func (e *Engine) Annotate(g *cc.Game, lim Limits) ([]PlyNote, error) {
	start := g.Start()
	moves := g.Moves()
	keys := g.Keys()
	// scores[i] is the best score of the position before move i, White's view.
	scores := make([]Score, len(moves)+1)
	best := make([]cc.Move, len(moves)+1)
	pos := start
	e.NewGame()
	for i := 0; i <= len(moves); i++ {
		white := pos.Turn() == cc.White
		var res Result
		var err error
		if i == len(moves) && g.Over() && (g.Outcome().Termination == cc.Checkmate || g.Outcome().Result == cc.Draw) {
			res = terminalResult(g)
		} else {
			res, err = e.Search(pos, keys[:i], lim)
			if err != nil {
				return nil, fmt.Errorf("annotate ply %d: %w", i, err)
			}
		}
		s := res.Score
		if !white {
			s = -s
		}
		scores[i], best[i] = s, res.Move
		if i < len(moves) {
			pos = pos.Play(moves[i])
		}
	}
	san := g.SAN()
	notes := make([]PlyNote, len(moves))
	pos = start
	for i, m := range moves {
		c := pos.Turn()
		n := PlyNote{Ply: i, Color: c, Move: m, SAN: san[i], Before: scores[i], After: scores[i+1], Best: best[i]}
		if best[i] != cc.NullMove {
			n.BestSAN = pos.SAN(best[i])
		}
		n.Drop, n.Judgement = Judge(c, scores[i], scores[i+1], m == best[i])
		notes[i] = n
		pos = pos.Play(m)
	}
	return notes, nil
}

// terminalResult is the "search" of a finished game's last position: mated, or a draw.
func terminalResult(g *cc.Game) Result {
	if g.Outcome().Termination == cc.Checkmate {
		return Result{Score: matedIn(0)}
	}
	return Result{}
}
