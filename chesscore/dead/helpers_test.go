package dead

import (
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// sanFEN parses a FEN or stops the test.
func sanFEN(t testing.TB, fen string) cc.Position {
	t.Helper()
	p, err := cc.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}
