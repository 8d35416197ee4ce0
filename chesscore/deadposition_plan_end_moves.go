// deadposition_plan_end_moves.go: the endgame planner's move questions answered without
// listing every legal move: where a piece may go, whether one move is legal, and a mate
// in one among the checking moves only.

package chesscore

// endTargets returns the squares the piece of type pt and colour us on from may move to,
// ignoring pins and checks (no castling, no en passant): for a pawn its pushes and
// captures.
func endTargets(q *Position, pt PieceType, us Color, from Square, occ Bitboard) Bitboard {
	tgt, _ := endTargetsChecks(q, pt, us, from, occ, from)
	return tgt
}

// endTargetsChecks returns endTargets and, with one switch on the kind, the squares from
// which the piece would attack k, the piece lifted off from (for a pawn, also the last
// rank: a promotion may check).
func endTargetsChecks(q *Position, pt PieceType, us Color, from Square, occ Bitboard, k Square) (tgt, checks Bitboard) {
	own := q.byColor[us]
	occK := occ &^ from.Bitboard()
	switch pt {
	case Pawn:
		one := pushUp(from.Bitboard(), us) &^ occ
		two := pushUp(one&pawnRank3[us], us) &^ occ
		return one | two | pawnAttacks[us][from]&q.byColor[us^1], pawnAttacks[us^1][k] | pawnLastRank[us]
	case Knight:
		return knightAttacks[from] &^ own, knightAttacks[k]
	case Bishop:
		return BishopAttacks(from, occ) &^ own, BishopAttacks(k, occK)
	case Rook:
		return RookAttacks(from, occ) &^ own, RookAttacks(k, occK)
	case Queen:
		return QueenAttacks(from, occ) &^ own, QueenAttacks(k, occK)
	case King:
		return kingAttacks[from] &^ own, 0
	}
	return 0, 0
}

// endPromotions are the promotion pieces in the order the move generator lists them.
var endPromotions = [4]PieceType{Queen, Knight, Rook, Bishop}

// endLegal reports whether the normal or promotion move from→to of the side to move in q
// (a move endTargets gives) leaves its own king unattacked.
func endLegal(q *Position, from, to Square) bool {
	us := q.turn
	k := q.KingSquare(us)
	if k == from {
		k = to
	}
	occ := q.byType[0]&^from.Bitboard() | to.Bitboard()
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
func endMateIn1(q *Position, free Bitboard) (Move, bool) {
	w := q.turn
	k := q.KingSquare(w ^ 1)
	occ := q.byType[0]
	own := q.byColor[w]
	var disc Bitboard
	for s := own & (rookRays[k]&(q.byType[Rook]|q.byType[Queen]) | bishopRays[k]&(q.byType[Bishop]|q.byType[Queen])); s != 0; {
		if b := betweenBB[k][s.PopFirst()] & occ; b != 0 && b&(b-1) == 0 && b&own != 0 {
			disc |= b
		}
	}
	for b := own; b != 0; {
		from := b.PopFirst()
		pt := q.board[from].Type()
		tgt, checks := endTargetsChecks(q, pt, w, from, occ, k)
		if !disc.Has(from) {
			tgt &= checks
		}
		uncover := free &^ (rookRays[from] | bishopRays[from])
		for tgt != 0 {
			to := tgt.PopFirst()
			occ2 := occ&^from.Bitboard()&^k.Bitboard() | to.Bitboard()
			promo := pt == Pawn && pawnLastRank[w].Has(to)
			if uncover != 0 && !promo && uncover&^pieceAttacks(pt, w, to, occ2) != 0 {
				continue
			}
			if !endLegal(q, from, to) {
				continue
			}
			if promo {
				for _, pr := range endPromotions {
					if uncover&^pieceAttacks(pr, w, to, occ2) != 0 {
						continue
					}
					if m := NewPromotion(from, to, pr); endMates(q, m, k) {
						return m, true
					}
				}
				continue
			}
			if m := NewMove(from, to); endMates(q, m, k) {
				return m, true
			}
		}
	}
	return NullMove, false
}

// endMates reports whether the legal move m of the side to move in q mates the king on k.
// With every flight square covered, what is left of HasLegalMove is its answer to a
// check (hasEvasion), asked without it first trying every king step again: en passant
// aside, which only HasLegalMove answers.
func endMates(q *Position, m Move, k Square) bool {
	w := q.turn
	child := q.Play(m)
	occ := child.byType[0]
	checkers := child.AttackersTo(k, w, occ)
	if checkers == 0 {
		return false
	}
	flights := kingAttacks[k] &^ child.byColor[w^1]
	if flights&^child.attacksBy(w, occ&^k.Bitboard()) != 0 {
		return false
	}
	if child.ep != NoSquare {
		return !child.HasLegalMove()
	}
	return !child.hasEvasion(k, checkers)
}

// endSide is what the legality of a move of the side to move depends on: its king and
// occupancy, and the other side's pieces by kind. It is a copy of what it needs from
// the position, so that a scoring state kept in the planner holds no pointer to it.
type endSide struct {
	k                    Square
	us                   Color
	safe                 bool // no check, and no enemy slider on a line through k: only a king move can be illegal
	occ                  Bitboard
	pawns, knights, king Bitboard
	diagonal, straight   Bitboard
}

// endSideOf returns what the legality of a move of the side to move in q depends on.
func endSideOf(q *Position) endSide {
	us := q.turn
	them := q.byColor[us^1]
	x := endSide{
		k: q.KingSquare(us), us: us, occ: q.byType[0],
		pawns: q.byType[Pawn] & them, knights: q.byType[Knight] & them, king: q.byType[King] & them,
		diagonal: (q.byType[Bishop] | q.byType[Queen]) & them, straight: (q.byType[Rook] | q.byType[Queen]) & them,
	}
	x.safe = bishopRays[x.k]&x.diagonal|rookRays[x.k]&x.straight|pawnAttacks[us][x.k]&x.pawns|knightAttacks[x.k]&x.knights == 0
	return x
}

// legal reports, as endLegal does, whether the normal or promotion move from→to leaves
// the king of the side to move unattacked.
func (x *endSide) legal(from, to Square) bool {
	k := x.k
	if k == from {
		k = to
	} else if x.safe {
		return true // no check to answer, no pin
	}
	occ := x.occ&^from.Bitboard() | to.Bitboard()
	att := pawnAttacks[x.us][k]&x.pawns | knightAttacks[k]&x.knights | kingAttacks[k]&x.king |
		BishopAttacks(k, occ)&x.diagonal | RookAttacks(k, occ)&x.straight
	return att&^to.Bitboard() == 0
}
