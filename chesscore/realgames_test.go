// realgames_test.go: the real-game corpora of testdata (realgames.fen, realgames.uci),
// read for the move generator's and the game record's tests.

package chesscore

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// loadRealGames reads the positions of testdata/realgames.fen.
func loadRealGames(t testing.TB) []Position {
	t.Helper()
	f, err := os.Open("testdata/realgames.fen")
	if err != nil {
		t.Fatalf("open real games: %v", err)
	}
	defer f.Close()
	var out []Position
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		p, err := ParseFEN(line)
		if err != nil {
			t.Fatalf("realgames.fen:%d: %v", n, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read real games: %v", err)
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
	f, err := os.Open("testdata/realgames.uci")
	if err != nil {
		t.Fatalf("open real games: %v", err)
	}
	defer f.Close()
	var out []realGame
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		fen, moves, ok := strings.Cut(line, ";")
		if !ok {
			t.Fatalf("realgames.uci:%d: no ';'", n)
		}
		g := realGame{start: sanFEN(t, fen)}
		p := g.start
		for _, s := range strings.Fields(moves) {
			m, err := p.ParseUCI(s)
			if err != nil {
				t.Fatalf("realgames.uci:%d: %s: %v", n, s, err)
			}
			g.moves = append(g.moves, m)
			p = p.Play(m)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read real games: %v", err)
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
