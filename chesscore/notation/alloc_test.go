//go:build !race

package notation

import (
	"testing"

	"github.com/gambitchess/gambit/chesscore"
)

// TestParseAllocatesNothing: reading a legal move, in any language and even when it is
// ambiguous, allocates nothing (the race detector's instrumentation allocates, so this
// file is built without it).
func TestParseAllocatesNothing(t *testing.T) {
	cases := []struct {
		lang      *Language
		fen, text string
	}{
		{English, chesscore.StartFEN, "Nf3"},
		{English, chesscore.StartFEN, "e2e4"},
		{German, chesscore.StartFEN, "Sf3"},
		{Russian, chesscore.StartFEN, "Кf3"},
		{Russian, chesscore.StartFEN, "е4"},
		{Spanish, kingRook, "Re2"},
		{Turkish, kingRook, "Şe2"},
		{German, pawnBishop, "Bc4"},
		{German, promotion, "e8=D"},
		{Polish, twoKnights, "Sbd2"},
	}
	for _, c := range cases {
		p := position(t, c.fen)
		if _, err := Parse(p, c.text, c.lang); err != nil {
			t.Fatalf("Parse(%q): %v", c.text, err)
		}
		if n := testing.AllocsPerRun(50, func() { _, _ = Parse(p, c.text, c.lang) }); n != 0 {
			t.Errorf("%s Parse(%q) allocates %.1f times", c.lang.Name, c.text, n)
		}
	}
}
