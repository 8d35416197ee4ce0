// Tests of a match game's adjudication.
package match

import (
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/chesscore/engine"
)

func TestAdjudicate(t *testing.T) {
	a := Adjudication{ResignScore: 500, ResignMoves: 2, DrawScore: 10, DrawMoves: 2, DrawAfter: 0, MaxMoves: 100}
	mk := func(vals ...int) ([]engine.Score, []bool) {
		s := make([]engine.Score, len(vals))
		h := make([]bool, len(vals))
		for i, v := range vals {
			s[i], h[i] = engine.Score(v), true
		}
		return s, h
	}
	cases := []struct {
		name string
		vals []int
		want chesscore.Result
	}{
		{"white winning", []int{0, 600, 700, 800, 900}, chesscore.WhiteWins},
		{"black winning", []int{-501, -600, -700, -800}, chesscore.BlackWins},
		{"one side disagrees", []int{600, 700, 100, 800}, chesscore.NoResult},
		{"dead level", []int{0, 5, -3, 2}, chesscore.Draw},
		{"not yet level", []int{0, 5, -30, 2}, chesscore.NoResult},
	}
	for _, c := range cases {
		g := chesscore.NewGame(chesscore.StartPosition(), dead.Decider{})
		s, h := mk(c.vals...)
		adjudicate(g, a, s, h)
		if got := g.Outcome().Result; got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		if c.want != chesscore.NoResult && g.Outcome().Termination != chesscore.Adjudication {
			t.Errorf("%s: termination %s", c.name, g.Outcome().Termination)
		}
	}
}
