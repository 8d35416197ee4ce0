// deadposition_plan_mid_legal.go: the legality of one move, tested alone: the middlegame
// planner checks the move its plan chooses instead of listing every legal move.

package chesscore

// midLegal reports whether mv is a legal move of the side to move in q, exactly as
// q.IsLegal does. A plain move (no promotion, castling or en passant) is tested alone: the
// piece's own move on the board as it stands, then its king's safety afterwards; the
// other kinds fall back to IsLegal.
func midLegal(q *Position, mv Move) bool {
	if mv.Kind() != NormalMove {
		return q.IsLegal(mv)
	}
	us := q.turn
	from, to := mv.From(), mv.To()
	pc := q.board[from]
	if from == to || pc == NoPiece || pc.Color() != us || q.byColor[us].Has(to) || q.byType[King].Has(to) {
		return false
	}
	occ := q.byType[0]
	switch pt := pc.Type(); pt {
	case Pawn:
		if pawnLastRank[us].Has(to) {
			return false // a promotion is not a plain move
		}
		up := int(from) + pawnUp[us]
		switch {
		case pawnAttacks[us][from].Has(to):
			if !q.byColor[us^1].Has(to) {
				return false // en passant is not a plain move
			}
		case Square(up) == to:
			if occ.Has(to) {
				return false
			}
		case up+pawnUp[us] == int(to) && pawnRank3[us].Has(Square(up)):
			if occ.Has(Square(up)) || occ.Has(to) {
				return false
			}
		default:
			return false
		}
	case King:
		return kingAttacks[from].Has(to) && !q.attacked(to, us^1, occ&^from.Bitboard())
	default:
		if !pieceAttacks(pt, us, from, occ).Has(to) {
			return false
		}
	}
	ksq := q.KingSquare(us)
	occ2 := occ&^from.Bitboard() | to.Bitboard()
	return q.AttackersTo(ksq, us^1, occ2)&^to.Bitboard() == 0
}

// midReplays reports whether the moves l are legal one after the other from p and end
// with c mating: replaysToMate, each move's legality tested alone (midLegal) rather than
// looked up in the list of every legal move.
func midReplays(p *Position, c Color, l []Move) bool {
	q := *p
	for _, mv := range l {
		if !midLegal(&q, mv) {
			return false
		}
		q = q.Play(mv)
	}
	return q.turn == c^1 && q.InCheck() && checkmated(&q)
}
