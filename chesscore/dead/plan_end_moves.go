// plan_end_moves.go: the endgame planner's move questions answered without
// listing every legal move: where a piece may go, whether one move is legal, and a mate
// in one among the checking moves only.

package dead

import cc "github.com/gambitchess/gambit/chesscore"

// endTargets returns the squares the piece of type pt and colour us on from may move to,
// ignoring pins and checks (no castling, no en passant): for a pawn its pushes and
// captures.
func endTargets(q *cc.Position, pt cc.PieceType, us cc.Color, from cc.Square, occ cc.Bitboard) cc.Bitboard {
	tgt, _ := endTargetsChecks(q, pt, us, from, occ, from)
	return tgt
}

// endTargetsChecks returns endTargets and, with one switch on the kind, the squares from
// which the piece would attack k, the piece lifted off from (for a pawn, also the last
// rank: a promotion may check).
func endTargetsChecks(q *cc.Position, pt cc.PieceType, us cc.Color, from cc.Square, occ cc.Bitboard, k cc.Square) (tgt, checks cc.Bitboard) {
	own := q.ColorPieces(us)
	occK := occ &^ from.Bitboard()
	switch pt {
	case cc.Pawn:
		one := pushUp(from.Bitboard(), us) &^ occ
		two := pushUp(one&pawnRank3[us], us) &^ occ
		return one | two | cc.PawnAttacks(us, from)&q.ColorPieces(us^1), cc.PawnAttacks(us^1, k) | pawnLastRank[us]
	case cc.Knight:
		return cc.KnightAttacks(from) &^ own, cc.KnightAttacks(k)
	case cc.Bishop:
		return cc.BishopAttacks(from, occ) &^ own, cc.BishopAttacks(k, occK)
	case cc.Rook:
		return cc.RookAttacks(from, occ) &^ own, cc.RookAttacks(k, occK)
	case cc.Queen:
		return cc.QueenAttacks(from, occ) &^ own, cc.QueenAttacks(k, occK)
	case cc.King:
		return cc.KingAttacks(from) &^ own, 0
	}
	return 0, 0
}

// endPromotions are the promotion pieces in the order the move generator lists them.
var endPromotions = [4]cc.PieceType{cc.Queen, cc.Knight, cc.Rook, cc.Bishop}

// endLegal reports whether the normal or promotion move from→to of the side to move in q
// (a move endTargets gives) leaves its own king unattacked.
func endLegal(q *cc.Position, from, to cc.Square) bool {
	us := q.Turn()
	k := q.KingSquare(us)
	if k == from {
		k = to
	}
	occ := q.Occupied()&^from.Bitboard() | to.Bitboard()
	return q.AttackersTo(k, us^1, occ)&^to.Bitboard() == 0
}

// endMateIn1 returns a move of the side to move in q that mates at once, trying only the
// moves that can check: a piece landing on a square from which it attacks the enemy
// king, a promotion, or any move of a piece that stands alone between the enemy king and
// one of its own sliders (castling and en passant are left out). free are the enemy
// king's flight squares the side to move does not attack: a move can cover one only from
// where it lands or through the square it leaves, and a move that cannot cover them all
// is not played. A check that leaves the king a flight square is passed over without
// generating the answers to it.
func endMateIn1(q *cc.Position, free cc.Bitboard) (cc.Move, bool) {
	w := q.Turn()
	k := q.KingSquare(w ^ 1)
	occ := q.Occupied()
	own := q.ColorPieces(w)
	var disc cc.Bitboard
	for s := own & (emptyRook[k]&(q.TypePieces(cc.Rook)|q.TypePieces(cc.Queen)) | emptyBishop[k]&(q.TypePieces(cc.Bishop)|q.TypePieces(cc.Queen))); s != 0; {
		if b := cc.Between(k, s.PopFirst()) & occ; b != 0 && b&(b-1) == 0 && b&own != 0 {
			disc |= b
		}
	}
	for b := own; b != 0; {
		from := b.PopFirst()
		pt := q.PieceAt(from).Type()
		tgt, checks := endTargetsChecks(q, pt, w, from, occ, k)
		if !disc.Has(from) {
			tgt &= checks
		}
		uncover := free &^ (emptyRook[from] | emptyBishop[from])
		for tgt != 0 {
			to := tgt.PopFirst()
			occ2 := occ&^from.Bitboard()&^k.Bitboard() | to.Bitboard()
			promo := pt == cc.Pawn && pawnLastRank[w].Has(to)
			if uncover != 0 && !promo && uncover&^cc.PieceAttacks(pt, w, to, occ2) != 0 {
				continue
			}
			if !endLegal(q, from, to) {
				continue
			}
			if promo {
				for _, pr := range endPromotions {
					if uncover&^cc.PieceAttacks(pr, w, to, occ2) != 0 {
						continue
					}
					if m := cc.NewPromotion(from, to, pr); endMates(q, m, k) {
						return m, true
					}
				}
				continue
			}
			if m := cc.NewMove(from, to); endMates(q, m, k) {
				return m, true
			}
		}
	}
	return cc.NullMove, false
}

// endMates reports whether the legal move m of the side to move in q mates the king on k:
// a check with every flight square covered first (cheap), then no legal answer.
func endMates(q *cc.Position, m cc.Move, k cc.Square) bool {
	w := q.Turn()
	child := q.Play(m)
	occ := child.Occupied()
	if child.AttackersTo(k, w, occ) == 0 {
		return false
	}
	flights := cc.KingAttacks(k) &^ child.ColorPieces(w^1)
	if flights&^attacksBy(&child, w, occ&^k.Bitboard()) != 0 {
		return false
	}
	return !child.HasLegalMove()
}

// endSide is what the legality of a move of the side to move depends on: its king and
// occupancy, and the other side's pieces by kind. It is a copy of what it needs from
// the position, so that a scoring state kept in the planner holds no pointer to it.
type endSide struct {
	k                    cc.Square
	us                   cc.Color
	safe                 bool // no check, and no enemy slider on a line through k: only a king move can be illegal
	occ                  cc.Bitboard
	pawns, knights, king cc.Bitboard
	diagonal, straight   cc.Bitboard
}

// endSideOf returns what the legality of a move of the side to move in q depends on.
func endSideOf(q *cc.Position) endSide {
	us := q.Turn()
	them := q.ColorPieces(us ^ 1)
	x := endSide{
		k: q.KingSquare(us), us: us, occ: q.Occupied(),
		pawns: q.TypePieces(cc.Pawn) & them, knights: q.TypePieces(cc.Knight) & them, king: q.TypePieces(cc.King) & them,
		diagonal: (q.TypePieces(cc.Bishop) | q.TypePieces(cc.Queen)) & them, straight: (q.TypePieces(cc.Rook) | q.TypePieces(cc.Queen)) & them,
	}
	x.safe = emptyBishop[x.k]&x.diagonal|emptyRook[x.k]&x.straight|cc.PawnAttacks(us, x.k)&x.pawns|cc.KnightAttacks(x.k)&x.knights == 0
	return x
}

// legal reports, as endLegal does, whether the normal or promotion move from→to leaves
// the king of the side to move unattacked.
func (x *endSide) legal(from, to cc.Square) bool {
	k := x.k
	if k == from {
		k = to
	} else if x.safe {
		return true // no check to answer, no pin
	}
	occ := x.occ&^from.Bitboard() | to.Bitboard()
	att := cc.PawnAttacks(x.us, k)&x.pawns | cc.KnightAttacks(k)&x.knights | cc.KingAttacks(k)&x.king |
		cc.BishopAttacks(k, occ)&x.diagonal | cc.RookAttacks(k, occ)&x.straight
	return att&^to.Bitboard() == 0
}
