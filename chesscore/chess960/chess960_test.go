package chess960

import (
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
)

func TestChess960StartNumbers(t *testing.T) {
	cases := []struct {
		n    int
		rank string // White's first rank, a to h
	}{
		{0, "BBQNNRKR"},
		{1, "BQNBNRKR"},
		{4, "QBBNNRKR"},
		{518, "RNBQKBNR"},
		{959, "RKRNNQBB"},
		{534, "RNBKQBNR"},
	}
	for _, c := range cases {
		p, err := Start(c.n)
		if err != nil {
			t.Fatalf("Start(%d): %v", c.n, err)
		}
		want := strings.ToLower(c.rank) + "/pppppppp/8/8/8/8/PPPPPPPP/" + c.rank + " w KQkq - 0 1"
		if got := p.FEN(); got != want {
			t.Errorf("Start(%d) = %s, want %s", c.n, got, want)
		}
		if p.Variant() != chesscore.Chess960 {
			t.Errorf("Start(%d) variant %s", c.n, p.Variant())
		}
	}
}

// TestChess960StartAll checks the rules of the FIDE guideline on all 960: bishops on
// opposite colours, king between the rooks, Black mirroring White, and all different.
func TestChess960StartAll(t *testing.T) {
	seen := map[string]int{}
	for n := range Positions {
		p, err := Start(n)
		if err != nil {
			t.Fatal(err)
		}
		rank := p.FEN()[strings.LastIndexByte(p.FEN(), '/')+1:][:8]
		if m, ok := seen[rank]; ok {
			t.Fatalf("positions %d and %d are both %s", m, n, rank)
		}
		seen[rank] = n
		b1, b2 := strings.IndexByte(rank, 'B'), strings.LastIndexByte(rank, 'B')
		r1, k, r2 := strings.IndexByte(rank, 'R'), strings.IndexByte(rank, 'K'), strings.LastIndexByte(rank, 'R')
		if (b1+b2)%2 == 0 || !(r1 < k && k < r2) || strings.Count(rank, "N") != 2 || strings.Count(rank, "Q") != 1 {
			t.Errorf("position %d is %s", n, rank)
		}
		if p.FEN()[:8] != strings.ToLower(rank) {
			t.Errorf("position %d: Black does not mirror White: %s", n, p.FEN())
		}
	}
	for _, n := range []int{-1, 960, 1 << 20} {
		if _, err := Start(n); err == nil || !strings.Contains(err.Error(), "0 to 959") {
			t.Errorf("Start(%d) = %v, want an error naming 0 to 959", n, err)
		}
	}
}
