// random_test.go: random legal placements of given material, for the move generator's
// tests.

package chesscore

import (
	"fmt"
	"strings"
)

// testRNG is a small deterministic generator (xorshift64).
type testRNG uint64

func (r *testRNG) next() uint64 {
	x := uint64(*r)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*r = testRNG(x)
	return x
}

// randomPosition places the two kings and the pieces (FEN letters, upper case for White)
// on random squares and returns the position if it is legal.
func randomPosition(r *testRNG, pieces string, turn Color) (Position, bool) {
	var board [64]byte
	return placeRandomly(r, &board, pieces, turn)
}

// placeRandomly adds the two kings and the pieces to board on random empty squares (no
// pawn on the first or last rank) and returns the position if it is legal.
func placeRandomly(r *testRNG, board *[64]byte, pieces string, turn Color) (Position, bool) {
	for _, c := range []byte("Kk" + pieces) {
		for tries := 0; ; tries++ {
			if tries > 200 {
				return Position{}, false
			}
			sq := int(r.next() % 64)
			if board[sq] != 0 || (c == 'P' || c == 'p') && (sq < 8 || sq >= 56) {
				continue
			}
			board[sq] = c
			break
		}
	}
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			c := board[rank*8+file]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString([]string{" w - - 0 1", " b - - 0 1"}[turn])
	p, err := ParseFEN(b.String())
	return p, err == nil
}
