// verify.go: re-checking a puzzle with a fresh search.

package mine

import (
	"fmt"

	"github.com/gambitchess/gambit/puzzle"
)

// Verify re-checks a puzzle the way the generator accepts one, from a fresh search (the
// engine's table is cleared first, so the verdict does not depend on what was analysed
// before): the line replays legally, and at every solver move the engine's best move is
// the solution's (or, when the solution mates at once, any other mate) and clearly the only winning one, with
// the generator's verification budget.
func (g *Generator) Verify(p puzzle.Puzzle) error {
	l, err := p.Validate()
	if err != nil {
		return err
	}
	g.e.NewGame()
	for k := 0; k < l.Steps(); k++ {
		pos, _ := l.PositionAt(k)
		want := l.Moves[1+2*k]
		lines := g.analyse(pos, g.opt.VerifyNodes, 2)
		if len(lines) == 0 {
			return fmt.Errorf("%w %s: step %d: no analysis", puzzle.ErrPuzzle, p.ID, k+1)
		}
		after := pos.Play(want)
		wantMates := after.InCheck() && !after.HasLegalMove()
		if lines[0].Move != want && !(wantMates && lines[0].Score.MateIn() == 1) {
			return fmt.Errorf("%w %s: step %d: the engine prefers %s (%s) to the solution %s", puzzle.ErrPuzzle, p.ID, k+1, lines[0].Move, lines[0].Score, want)
		}
		if len(lines) > 1 && !g.unique(lines[0], lines[1]) {
			return fmt.Errorf("%w %s: step %d: not the only winning move: %s %s vs %s %s", puzzle.ErrPuzzle, p.ID, k+1,
				lines[0].Move, lines[0].Score, lines[1].Move, lines[1].Score)
		}
	}
	return nil
}
