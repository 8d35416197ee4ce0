// game_test.go: Decider in a chesscore.Game: the games that end in a dead position,
// and those that go on.

package dead

import (
	"bytes"
	"os"
	"strings"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// gameFrom starts a game with Decider from fen or stops the test.
func gameFrom(t testing.TB, fen string) *cc.Game {
	t.Helper()
	g, err := cc.NewGameFromFEN(fen, Decider{})
	if err != nil {
		t.Fatalf("NewGameFromFEN(%q): %v", fen, err)
	}
	return g
}

// playAll plays the moves (SAN, separated by spaces) or stops the test.
func playAll(t testing.TB, g *cc.Game, moves string) {
	t.Helper()
	for _, s := range strings.Fields(moves) {
		if _, err := g.PlaySAN(s); err != nil {
			t.Fatalf("play %s after %v: %v", s, g.SAN(), err)
		}
	}
}

func TestDeadPositionEndsTheGame(t *testing.T) {
	tests := []struct {
		fen, moves string
	}{
		{"4k3/8/8/8/8/8/4r3/4KB2 w - - 0 1", "Kxe2"},                               // K+B vs K
		{"4k3/8/8/8/8/8/3n4/3NK3 w - - 0 1", "Kxd2"},                               // K+N vs K
		{"4k3/8/8/2b5/8/8/3r4/2B1K3 w - - 0 1", "Kxd2"},                            // bishops on one colour
		{"8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/7r w - - 0 1", "Kf2 Rh2+ Kg3 Rh3+ Kxh3"}, // blockade
		// The only legal move takes the queen: dead already (any series of legal moves
		// leads to K vs K), before the capture is played.
		{"4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", ""},
		{"7k/8/8/8/8/8/6r1/7K w - - 0 1", ""},
		// A blockade with a bishop that can neither take a pawn nor mate alone: proven by
		// seeing every reachable position.
		{"8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/5B2 w - - 0 1", ""},
	}
	for _, tc := range tests {
		g := gameFrom(t, tc.fen)
		playAll(t, g, tc.moves)
		if g.Outcome() != (cc.Outcome{Result: cc.Draw, Termination: cc.DeadPosition}) {
			t.Errorf("%s %s: outcome %v, want a dead position", tc.fen, tc.moves, g.Outcome())
		}
	}
	// Alive although it looks thin.
	for _, fen := range []string{
		"4k3/8/8/8/8/8/4p3/4KB2 w - - 0 1",              // the pawn can promote
		"4k3/8/8/8/8/8/8/3NKn2 w - - 0 1",               // K+N vs K+N: a helpmate exists
		"4k3/8/8/8/8/8/8/3BKn2 w - - 0 1",               // K+B vs K+N
		"4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1",              // bishops of both colours
		"8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/6B1 w - - 0 1", // the bishop can take a pawn
	} {
		if g := gameFrom(t, fen); g.Over() {
			t.Errorf("%s: over (%v), want the game going on", fen, g.Outcome())
		}
	}
}

// BenchmarkReadPGN times a PGN import as the bot makes it: chesscore's testdata/pgn
// games read with Decider, every move's dead-position test included.
func BenchmarkReadPGN(b *testing.B) {
	data, err := os.ReadFile("../testdata/pgn/games.pgn")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, err := cc.ReadPGN(bytes.NewReader(data), Decider{}); err != nil {
			b.Fatal(err)
		}
	}
}
