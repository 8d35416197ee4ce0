// chess960.go: the variants, and the 960 start positions of Chess960 by their standard
// numbers (FIDE Laws, Guidelines II).

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

// SetVariant sets the variant of the position. Standard is refused for a position whose
// castling rights only Chess960 has.
func (p *Position) SetVariant(v Variant) error {
	if v > Chess960 {
		return fmt.Errorf("variant %d is not known", v)
	}
	if v == Standard && p.needsChess960() {
		return fmt.Errorf("castling rights %s: the king and rooks are not on standard chess's squares, so this is a Chess960 position", p.castlingField())
	}
	p.variant = v
	return nil
}

// needsChess960 reports whether a castling right is held with the king off the e-file or
// its rook off the a- or h-file.
func (p *Position) needsChess960() bool {
	for i, rsq := range p.castleRook {
		if p.castling&(1<<i) != 0 && (p.KingSquare(Color(i/2)).File() != 4 || rsq.File() != 7*(1-i%2)) {
			return true
		}
	}
	return false
}

// Chess960Positions is the number of Chess960 start positions, numbered 0 to 959.
const Chess960Positions = 960

// Chess960Standard is the number of the standard start position (RNBQKBNR).
const Chess960Standard = 518

// chess960Knights are the ten placements of the two knights among five empty squares,
// in the order of the numbering scheme.
var chess960Knights = [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}

// Chess960Start returns start position n (0 to 959) of Chess960, with all four castling
// rights and the Chess960 variant. The number gives, in turn, the light-square bishop
// (n mod 4, on b, d, f or h), the dark-square bishop (the quotient mod 4, on a, c, e or
// g), the queen (mod 6, among the empty squares), the knights (one of the ten
// placements among the five left); rook, king and rook take the last three squares.
// Black mirrors White.
func Chess960Start(n int) (Position, error) {
	if n < 0 || n >= Chess960Positions {
		return Position{}, fmt.Errorf("start position %d does not exist: Chess960 numbers its positions 0 to 959", n)
	}
	var rank [8]PieceType
	rank[2*(n%4)+1] = Bishop
	n /= 4
	rank[2*(n%4)] = Bishop
	n /= 4
	place := func(t PieceType, k int) { // on the k-th empty square
		for f := range rank {
			if rank[f] == NoPieceType {
				if k == 0 {
					rank[f] = t
					return
				}
				k--
			}
		}
	}
	place(Queen, n%6)
	n /= 6
	place(Knight, chess960Knights[n][1]) // the later one first: the earlier keeps its index
	place(Knight, chess960Knights[n][0])
	place(Rook, 0)
	place(King, 0)
	place(Rook, 0)
	row := make([]byte, 8)
	for f, t := range rank {
		row[f] = t.Letter()
	}
	black := make([]byte, 8)
	for f := range row {
		black[f] = row[f] + 'a' - 'A'
	}
	p, err := ParseFEN(string(black) + "/pppppppp/8/8/8/8/PPPPPPPP/" + string(row) + " w KQkq - 0 1")
	if err != nil {
		return Position{}, fmt.Errorf("chess960 position: %w", err)
	}
	p.variant = Chess960
	return p, nil
}
