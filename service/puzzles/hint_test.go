package puzzles

import (
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/puzzle"
)

func TestHintCountsAsAMiss(t *testing.T) {
	f := newFixture(t, sampleCSV(t))
	h, err := f.svc.Hint(ctx, "g1", "alice", "Alice", "000rZ")
	if err != nil {
		t.Fatal(err)
	}
	if h.From != cc.D6 || !h.Rated || h.RatingAfter >= h.RatingBefore {
		t.Errorf("hint %+v", h)
	}
	a, err := f.svc.Solve(ctx, SolveRequest{RequestID: "x", Guild: "g1", User: "alice", Move: "Qh2#"})
	if err != nil || a.Verdict != puzzle.Solved || a.Rated || a.Player.Solved != 0 {
		t.Errorf("solve after a hint: %+v, %v", a, err)
	}
}
