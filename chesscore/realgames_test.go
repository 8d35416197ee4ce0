// realgames_test.go: the real-game corpora of testdata (realgames.fen, realgames.uci),
// read for the move generator's and the game record's tests.

package chesscore

import (
	"os"
	"testing"

	"github.com/gambitchess/gambit/chesscore/internal/fixture"
)

// loadRealGames reads the positions of testdata/realgames.fen.
func loadRealGames(t testing.TB) []Position {
	t.Helper()
	var out []Position
	for _, l := range fixture.Lines(t, os.DirFS("testdata"), "realgames.fen") {
		p, err := ParseFEN(l.Text)
		if err != nil {
			t.Fatalf("realgames.fen:%d: %v", l.N, err)
		}
		out = append(out, p)
	}
	return out
}

// realGame is a game of testdata/realgames.uci: its start and its moves.
type realGame struct {
	start Position
	moves []Move
}

// loadRealGameMoves reads testdata/realgames.uci (format in its header).
func loadRealGameMoves(t testing.TB) []realGame {
	t.Helper()
	var out []realGame
	for _, fg := range fixture.RealGames(t, os.DirFS("testdata"), "realgames.uci") {
		g := realGame{start: sanFEN(t, fg.FEN)}
		p := g.start
		for _, s := range fg.Moves {
			m, err := p.ParseUCI(s)
			if err != nil {
				t.Fatalf("realgames.uci:%d: %s: %v", fg.N, s, err)
			}
			g.moves = append(g.moves, m)
			p = p.Play(m)
		}
		out = append(out, g)
	}
	return out
}

// eachRealPositionAndChild calls fn with every step-th real-game position and each
// position one legal move after it.
func eachRealPositionAndChild(t *testing.T, step int, fn func(q *Position)) {
	t.Helper()
	real := loadRealGames(t)
	var ml MoveList
	for i := 0; i < len(real); i += step {
		p := &real[i]
		fn(p)
		p.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			q := p.Play(m)
			fn(&q)
		}
	}
}
