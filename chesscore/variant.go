// variant.go: the variants: standard chess and Chess960 (FIDE Laws, Guidelines II).

package chesscore

import "fmt"

// Variant is the kind of chess a position is played in. The rules of play are the same
// (castling is generalised: standard castling is the case of king on e1, rooks on a1 and
// h1); the variant decides how castling is written in UCI and PGN, and where a game may
// start.
type Variant uint8

// The variants.
const (
	Standard Variant = iota
	Chess960
)

// String returns "standard" or "chess960".
func (v Variant) String() string {
	if v == Chess960 {
		return "chess960"
	}
	return "standard"
}

// Variant returns the variant the position is played in. ParseFEN gives Chess960 to a
// position whose castling rights standard chess cannot have, Standard otherwise.
func (p *Position) Variant() Variant { return p.variant }

// SetVariant sets the variant of the position, Standard or Chess960. Standard is refused for a position whose
// castling rights only Chess960 has.
func (p *Position) SetVariant(v Variant) error {
	if v == Standard && p.needsChess960() {
		return fmt.Errorf("castling rights %s: the king and rooks are not on standard chess's squares, so this is a Chess960 position", p.castlingField())
	}
	p.variant = v
	return nil
}

// needsChess960 reports whether a castling right is held with the king off the e-file or
// its rook off the a- or h-file.
func (p *Position) needsChess960() bool {
	for i, std := range [4]Square{H1, A1, H8, A8} {
		if p.castling&(1<<i) != 0 && (p.castleRook[i] != std || p.KingSquare(Color(i/2)).File() != 4) {
			return true
		}
	}
	return false
}
