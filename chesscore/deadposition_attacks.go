// deadposition_attacks.go: the attack questions the planners and the searches share:
// does a move check, what a side or a piece attacks.

package chesscore

// givesCheck reports whether the move m of the side to move checks the enemy king on k.
func (p *Position) givesCheck(m Move, k Square) bool {
	from, to := m.From(), m.To()
	if m.Kind() != NormalMove && m.Kind() != PromotionMove {
		child := p.Play(m)
		return child.InCheck()
	}
	us := p.turn & 1 // masked: no bounds checks
	occ := p.byType[0]&^from.Bitboard() | to.Bitboard()
	pt := p.board[from].Type()
	if m.Kind() == PromotionMove {
		pt = m.Promotion()
	}
	switch pt {
	case Pawn:
		if pawnAttacks[us][to].Has(k) {
			return true
		}
	case Knight:
		if knightAttacks[to].Has(k) {
			return true
		}
	}
	ours := p.byColor[us]&^from.Bitboard() | to.Bitboard()
	rq, bq := p.byType[Rook]|p.byType[Queen], p.byType[Bishop]|p.byType[Queen]
	rq, bq = rq&^(from.Bitboard()|to.Bitboard()), bq&^(from.Bitboard()|to.Bitboard())
	switch pt {
	case Rook:
		rq |= to.Bitboard()
	case Bishop:
		bq |= to.Bitboard()
	case Queen:
		rq |= to.Bitboard()
		bq |= to.Bitboard()
	}
	return (RookAttacks(k, occ)&rq|BishopAttacks(k, occ)&bq)&ours != 0
}

// attacksBy returns every square the pieces of colour c attack with occupancy occ.
func (p *Position) attacksBy(c Color, occ Bitboard) Bitboard {
	ours := p.byColor[c]
	att := pawnAttacksOf(p.byType[Pawn]&ours, c) | knightSpread(p.byType[Knight]&ours) |
		kingAttacks[(p.byType[King]&ours).First()]
	for b := (p.byType[Bishop] | p.byType[Queen]) & ours; b != 0; {
		att |= BishopAttacks(b.PopFirst(), occ)
	}
	for b := (p.byType[Rook] | p.byType[Queen]) & ours; b != 0; {
		att |= RookAttacks(b.PopFirst(), occ)
	}
	return att
}

// pieceAttacks returns the squares a piece of type pt and colour c on sq attacks with occ.
func pieceAttacks(pt PieceType, c Color, sq Square, occ Bitboard) Bitboard {
	c, sq = c&1, sq&63 // masked: no bounds checks
	switch pt {
	case Pawn:
		return pawnAttacks[c][sq]
	case Knight:
		return knightAttacks[sq]
	case Bishop:
		return BishopAttacks(sq, occ)
	case Rook:
		return RookAttacks(sq, occ)
	case Queen:
		return QueenAttacks(sq, occ)
	case King:
		return kingAttacks[sq]
	}
	return 0
}
