// bitboard.go: the Bitboard set of squares and its bit tricks.

package chesscore

import "math/bits"

// Bitboard is a set of squares, one bit per square: bit 0 is a1, bit 63 is h8.
type Bitboard uint64

// Files and ranks as bitboards.
const (
	FileA Bitboard = 0x0101010101010101 << iota
	FileB
	FileC
	FileD
	FileE
	FileF
	FileG
	FileH
)

// Ranks as bitboards.
const (
	Rank1 Bitboard = 0xFF << (8 * iota)
	Rank2
	Rank3
	Rank4
	Rank5
	Rank6
	Rank7
	Rank8
)

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// Has reports whether the square is in the set.
func (b Bitboard) Has(s Square) bool { return b&(1<<(s&63)) != 0 }

// First returns the lowest square of a non-empty set.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// PopFirst removes the lowest square from the set and returns it. The set must not be empty.
func (b *Bitboard) PopFirst() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// Squares returns the squares of the set in ascending order (allocates; not for hot paths).
func (b Bitboard) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for b != 0 {
		out = append(out, b.PopFirst())
	}
	return out
}

// shiftNorth and friends move every square of the set one step, dropping squares that leave
// the board.
func (b Bitboard) north() Bitboard { return b << 8 }
func (b Bitboard) south() Bitboard { return b >> 8 }
func (b Bitboard) east() Bitboard  { return (b &^ FileH) << 1 }
func (b Bitboard) west() Bitboard  { return (b &^ FileA) >> 1 }
