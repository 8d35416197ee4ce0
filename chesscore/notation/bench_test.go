package notation

import (
	"testing"

	"github.com/gambitchess/gambit/chesscore"
)

// BenchmarkParse reads a German, a Spanish (ambiguous) and a Russian move, and an
// English one, in turn; it reports nanoseconds and allocations per move.
func BenchmarkParse(b *testing.B) {
	cases := []struct {
		lang      *Language
		fen, text string
	}{
		{German, twoKnights, "Sbd2"},
		{Spanish, kingRook, "Re2"},
		{Russian, kingRook, "Кре2"},
		{English, twoKnights, "Nfd2"},
	}
	pos := make([]*chesscore.Position, len(cases))
	for i, c := range cases {
		pos[i] = position(b, c.fen)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := &cases[i%len(cases)]
		if _, err := Parse(pos[i%len(cases)], c.text, c.lang); err != nil {
			b.Fatal(err)
		}
	}
}
