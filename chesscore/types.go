// Package chesscore is Gambit's rules of chess: bitboards, legal move generation,
// positions, notation and game outcomes, as the FIDE Laws define them.
//
// The package is pure: no I/O, no clock reads, no goroutines, standard library only.
// The same inputs always give the same outputs.
package chesscore

// Color is the colour of a side: White or Black.
type Color uint8

// The two colours.
const (
	White Color = iota
	Black
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType is a kind of piece without colour.
type PieceType uint8

// The piece types. NoPieceType is zero so the zero value means "empty".
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Letter returns the upper-case SAN letter of the piece type ('P' for a pawn).
func (t PieceType) Letter() byte { return " PNBRQK"[t&7] }

// String returns the English name of the piece type.
func (t PieceType) String() string {
	return [...]string{"none", "pawn", "knight", "bishop", "rook", "queen", "king", "?"}[t&7]
}

// Piece is a coloured piece: bits 0-2 the PieceType, bit 3 the Color.
// NoPiece (0) is an empty square.
type Piece uint8

// NoPiece marks an empty square.
const NoPiece Piece = 0

// The twelve pieces.
const (
	WhitePawn   = Piece(Pawn)
	WhiteKnight = Piece(Knight)
	WhiteBishop = Piece(Bishop)
	WhiteRook   = Piece(Rook)
	WhiteQueen  = Piece(Queen)
	WhiteKing   = Piece(King)
	BlackPawn   = Piece(Pawn) | 8
	BlackKnight = Piece(Knight) | 8
	BlackBishop = Piece(Bishop) | 8
	BlackRook   = Piece(Rook) | 8
	BlackQueen  = Piece(Queen) | 8
	BlackKing   = Piece(King) | 8
)

// MakePiece returns the piece of the given colour and type.
func MakePiece(c Color, t PieceType) Piece { return Piece(t) | Piece(c)<<3 }

// Type returns the piece type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece colour (White for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

// FENLetter returns the piece's FEN letter: upper case for White, lower case for Black,
// '.' for NoPiece.
func (p Piece) FENLetter() byte {
	if p == NoPiece {
		return '.'
	}
	l := p.Type().Letter()
	if p.Color() == Black {
		l += 'a' - 'A'
	}
	return l
}

// String returns the FEN letter as a string.
func (p Piece) String() string { return string(p.FENLetter()) }

// Square is a square index from a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file).
type Square uint8

// NoSquare marks the absence of a square (for example no en passant square).
const NoSquare Square = 64

// The 64 squares.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 8*iota + 0, 8*iota + 1, 8*iota + 2, 8*iota + 3, 8*iota + 4, 8*iota + 5, 8*iota + 6, 8*iota + 7
	A2, B2, C2, D2, E2, F2, G2, H2
	A3, B3, C3, D3, E3, F3, G3, H3
	A4, B4, C4, D4, E4, F4, G4, H4
	A5, B5, C5, D5, E5, F5, G5, H5
	A6, B6, C6, D6, E6, F6, G6, H6
	A7, B7, C7, D7, E7, F7, G7, H7
	A8, B8, C8, D8, E8, F8, G8, H8
)

// MakeSquare returns the square at file (0 = a) and rank (0 = first rank).
func MakeSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns the file, 0 (a) to 7 (h).
func (s Square) File() int { return int(s & 7) }

// Rank returns the rank, 0 (first) to 7 (eighth).
func (s Square) Rank() int { return int(s >> 3) }

// Bitboard returns the bitboard with only this square set.
func (s Square) Bitboard() Bitboard { return 1 << (s & 63) }

// String returns the algebraic name, e.g. "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare parses an algebraic square name such as "e4".
func ParseSquare(name string) (Square, bool) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return NoSquare, false
	}
	return MakeSquare(int(name[0]-'a'), int(name[1]-'1')), true
}

// CastlingRights is a set of castling rights: bit 0 White king side (K), bit 1 White
// queen side (Q), bit 2 Black king side (k), bit 3 Black queen side (q).
type CastlingRights uint8

// The four castling rights.
const (
	WhiteKingSide CastlingRights = 1 << iota
	WhiteQueenSide
	BlackKingSide
	BlackQueenSide
	NoCastling  CastlingRights = 0
	AllCastling CastlingRights = 15
)
