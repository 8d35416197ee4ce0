// position.go: the Position type, its accessors and attack queries.

package chesscore

// Position is a chess position: placement, side to move, castling rights, en passant
// square, the two move counters and an incrementally kept Zobrist hash.
//
// A Position is a value: copy it to keep it. Play returns the position after a move and
// leaves the receiver unchanged (copy-make).
//
// The en passant square is kept only when an en passant capture is legal, so two positions
// that FIDE Article 9.2.3 calls the same have the same Hash (and the same FEN but for the
// counters).
type Position struct {
	byType   [7]Bitboard // by PieceType; index 0 is every occupied square
	byColor  [2]Bitboard
	board    [64]Piece
	hash     uint64
	turn     Color
	castling CastlingRights
	ep       Square // NoSquare unless an en passant capture is legal
	variant  Variant
	halfmove uint16
	fullmove uint16
	// castleRook[i] is the start square of the rook castling right 1<<i castles with,
	// NoSquare while that right is not held.
	castleRook [4]Square
	// castleEnds holds a nibble per back-rank square (backNibble): the rights held that
	// a move from or to the square ends, set on their rooks' and kings' squares.
	castleEnds uint64
}

// StartFEN is the FEN of the initial position (FIDE Article 2).
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// StartPosition returns the initial position.
func StartPosition() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("chesscore: start position: " + err.Error())
	}
	return p
}

// Turn returns the side to move.
func (p *Position) Turn() Color { return p.turn }

// PieceAt returns the piece on sq, or NoPiece.
func (p *Position) PieceAt(sq Square) Piece { return p.board[sq&63] }

// Board returns the placement as 64 squares, a1 first.
func (p *Position) Board() [64]Piece { return p.board }

// Castling returns the castling rights still held.
func (p *Position) Castling() CastlingRights { return p.castling }

// EnPassant returns the square a pawn may capture en passant onto, or NoSquare when no en
// passant capture is legal.
func (p *Position) EnPassant() Square { return p.ep }

// HalfmoveClock returns the number of half-moves since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber returns the number of the current full move, starting at 1.
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// Hash returns the Zobrist key of the position: placement, side to move, castling rights
// and a legal en passant file. Move counters are not part of it.
func (p *Position) Hash() uint64 { return p.hash }

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.byType[0] }

// ColorPieces returns the squares of every piece of colour c.
func (p *Position) ColorPieces(c Color) Bitboard { return p.byColor[c&1] }

// Pieces returns the squares of the pieces of colour c and type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.byType[t&7] & p.byColor[c&1] }

// TypePieces returns the squares of the pieces of type t of both colours.
func (p *Position) TypePieces(t PieceType) Bitboard { return p.byType[t&7] }

// KingSquare returns the square of c's king.
func (p *Position) KingSquare(c Color) Square {
	return (p.byType[King] & p.byColor[c&1]).First()
}

// AttackersTo returns the pieces of colour by that attack sq, with occ as the occupancy.
func (p *Position) AttackersTo(sq Square, by Color, occ Bitboard) Bitboard {
	them := p.byColor[by&1]
	sq &= 63 // the masks let the compiler drop its bounds checks
	return them & ((pawnAttacks[(by^1)&1][sq] & p.byType[Pawn]) |
		(knightAttacks[sq] & p.byType[Knight]) |
		(kingAttacks[sq] & p.byType[King]) |
		(BishopAttacks(sq, occ) & (p.byType[Bishop] | p.byType[Queen])) |
		(RookAttacks(sq, occ) & (p.byType[Rook] | p.byType[Queen])))
}

// attacked reports whether any piece of colour by attacks sq with occupancy occ.
func (p *Position) attacked(sq Square, by Color, occ Bitboard) bool {
	them := p.byColor[by&1]
	sq &= 63 // the masks let the compiler drop its bounds checks
	if pawnAttacks[(by^1)&1][sq]&p.byType[Pawn]&them != 0 ||
		knightAttacks[sq]&p.byType[Knight]&them != 0 ||
		kingAttacks[sq]&p.byType[King]&them != 0 {
		return true
	}
	if BishopAttacks(sq, occ)&(p.byType[Bishop]|p.byType[Queen])&them != 0 {
		return true
	}
	return RookAttacks(sq, occ)&(p.byType[Rook]|p.byType[Queen])&them != 0
}

// Checkers returns the opponent pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard {
	return p.AttackersTo(p.KingSquare(p.turn), p.turn^1, p.byType[0])
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	return p.attacked(p.KingSquare(p.turn), p.turn^1, p.byType[0])
}

// put places piece pc on the empty square sq, updating the hash.
func (p *Position) put(pc Piece, sq Square) {
	b := sq.Bitboard()
	p.byType[0] |= b
	p.byType[pc&7] |= b
	p.byColor[pc>>3] |= b
	p.board[sq] = pc
	p.hash ^= zobristPiece[pc][sq]
}

// remove takes piece pc off square sq, updating the hash.
func (p *Position) remove(pc Piece, sq Square) {
	b := sq.Bitboard()
	p.byType[0] &^= b
	p.byType[pc&7] &^= b
	p.byColor[pc>>3] &^= b
	p.board[sq] = NoPiece
	p.hash ^= zobristPiece[pc][sq]
}

// MovedPiece returns the piece that m moves.
func (p *Position) MovedPiece(m Move) Piece { return p.board[m.From()] }

// IsCapture reports whether m captures (en passant included).
func (p *Position) IsCapture(m Move) bool {
	return m.Kind() == EnPassantMove || (m.Kind() != CastlingMove && p.board[m.To()] != NoPiece)
}

// CapturedPiece returns the piece m captures, or NoPiece.
func (p *Position) CapturedPiece(m Move) Piece {
	switch m.Kind() {
	case EnPassantMove:
		return MakePiece(p.turn^1, Pawn)
	case CastlingMove:
		return NoPiece
	}
	return p.board[m.To()]
}

// computeHash recomputes the Zobrist key from scratch (for parsing and for Verify).
func (p *Position) computeHash() uint64 {
	var h uint64
	for sq := A1; sq <= H8; sq++ {
		if pc := p.board[sq]; pc != NoPiece {
			h ^= zobristPiece[pc][sq]
		}
	}
	h ^= zobristCastling[p.castling]
	if p.ep != NoSquare {
		h ^= zobristEPFile[p.ep.File()]
	}
	if p.turn == Black {
		h ^= zobristBlack
	}
	return h
}
