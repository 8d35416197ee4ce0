// move.go: the packed Move and its UCI text.

package chesscore

// Move is a move packed in 16 bits:
//
//	bits  0-5   from square (0..63)
//	bits  6-11  to square (0..63); for castling, the king's destination (e1g1, e1c1, ...)
//	bits 12-13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen (meaningful only for promotions)
//	bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
//
// The zero Move (a1a1, normal) is NullMove and is never legal.
type Move uint16

// NullMove is the zero move, used as "no move".
const NullMove Move = 0

// MoveKind tells normal moves from the three special kinds.
type MoveKind uint8

// The move kinds stored in bits 14-15.
const (
	NormalMove MoveKind = iota
	PromotionMove
	EnPassantMove
	CastlingMove
)

// NewMove returns a normal move.
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

// NewPromotion returns a promotion to piece type t (Knight, Bishop, Rook or Queen).
func NewPromotion(from, to Square, t PieceType) Move {
	return Move(from) | Move(to)<<6 | Move(t-Knight)<<12 | Move(PromotionMove)<<14
}

// NewEnPassant returns an en passant capture; to is the square the capturing pawn lands on.
func NewEnPassant(from, to Square) Move {
	return Move(from) | Move(to)<<6 | Move(EnPassantMove)<<14
}

// NewCastling returns a castling move given by the king's from and to squares.
func NewCastling(from, to Square) Move {
	return Move(from) | Move(to)<<6 | Move(CastlingMove)<<14
}

// From returns the square the moving piece leaves.
func (m Move) From() Square { return Square(m & 63) }

// To returns the square the moving piece lands on.
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Kind returns the kind of move.
func (m Move) Kind() MoveKind { return MoveKind(m >> 14) }

// Promotion returns the promotion piece type, or NoPieceType for other moves.
func (m Move) Promotion() PieceType {
	if m.Kind() != PromotionMove {
		return NoPieceType
	}
	return PieceType(m>>12&3) + Knight
}

// UCI returns the move in UCI long algebraic notation, e.g. "e2e4", "e7e8q", "e1g1";
// NullMove is "0000".
func (m Move) UCI() string {
	if m == NullMove {
		return "0000"
	}
	b := []byte{
		byte('a' + m.From().File()), byte('1' + m.From().Rank()),
		byte('a' + m.To().File()), byte('1' + m.To().Rank()),
	}
	if p := m.Promotion(); p != NoPieceType {
		b = append(b, "  nbrq"[p])
	}
	return string(b)
}

// String returns the UCI text of the move.
func (m Move) String() string { return m.UCI() }

// MaxMoves bounds the number of legal moves in any chess position (the known maximum is 218).
const MaxMoves = 256

// MoveList is a fixed-size list of moves that lives on the caller's stack: generating
// into it allocates nothing.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

// Slice returns the moves in the list (a view, valid until the list changes).
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// Len returns the number of moves.
func (l *MoveList) Len() int { return l.N }

func (l *MoveList) add(m Move) {
	l.Moves[l.N] = m
	l.N++
}

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.Moves[:l.N] {
		if x == m {
			return true
		}
	}
	return false
}

// UCIMove returns m, a move of p, as UCI writes it: Move.UCI, except that castling in a
// Chess960 position is the king taking its own rook (e1h1), as UCI_Chess960 wants it.
func (p *Position) UCIMove(m Move) string {
	if m.Kind() == CastlingMove && p.variant == Chess960 {
		return NewMove(m.From(), p.castleRook[castleRight(p.turn, m.To())]).UCI()
	}
	return m.UCI()
}
