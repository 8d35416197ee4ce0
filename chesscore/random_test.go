// random_test.go: random legal placements of given material, for the move generator's
// tests.

package chesscore

import "github.com/gambitchess/gambit/chesscore/internal/fixture"

// testRNG is a small deterministic generator (xorshift64).
type testRNG = fixture.RNG

// randomPosition places the two kings and the pieces (FEN letters, upper case for White)
// on random squares and returns the position if it is legal.
func randomPosition(r *testRNG, pieces string, turn Color) (Position, bool) {
	var board [64]byte
	return placeRandomly(r, &board, pieces, turn)
}

// placeRandomly adds the two kings and the pieces to board on random empty squares (no
// pawn on the first or last rank) and returns the position if it is legal.
func placeRandomly(r *testRNG, board *[64]byte, pieces string, turn Color) (Position, bool) {
	fen, ok := fixture.PlaceRandomly(r, board, pieces, turn == Black)
	if !ok {
		return Position{}, false
	}
	p, err := ParseFEN(fen)
	return p, err == nil
}
