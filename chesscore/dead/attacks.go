// attacks.go: the attack questions the planners and the search share: does a move check,
// what a side attacks.

package dead

import cc "github.com/gambitchess/gambit/chesscore"

// givesCheck reports whether the move m of the side to move in p checks the enemy king
// on k.
func givesCheck(p *cc.Position, m cc.Move, k cc.Square) bool {
	from, to := m.From(), m.To()
	if m.Kind() != cc.NormalMove && m.Kind() != cc.PromotionMove {
		child := p.Play(m)
		return child.InCheck()
	}
	us := p.Turn() & 1 // masked: no bounds checks
	occ := p.Occupied()&^from.Bitboard() | to.Bitboard()
	pt := p.PieceAt(from).Type()
	if m.Kind() == cc.PromotionMove {
		pt = m.Promotion()
	}
	switch pt {
	case cc.Pawn:
		if cc.PawnAttacks(us, to).Has(k) {
			return true
		}
	case cc.Knight:
		if cc.KnightAttacks(to).Has(k) {
			return true
		}
	}
	ours := p.ColorPieces(us)&^from.Bitboard() | to.Bitboard()
	rq, bq := p.TypePieces(cc.Rook)|p.TypePieces(cc.Queen), p.TypePieces(cc.Bishop)|p.TypePieces(cc.Queen)
	rq, bq = rq&^(from.Bitboard()|to.Bitboard()), bq&^(from.Bitboard()|to.Bitboard())
	switch pt {
	case cc.Rook:
		rq |= to.Bitboard()
	case cc.Bishop:
		bq |= to.Bitboard()
	case cc.Queen:
		rq |= to.Bitboard()
		bq |= to.Bitboard()
	}
	return (cc.RookAttacks(k, occ)&rq|cc.BishopAttacks(k, occ)&bq)&ours != 0
}

// attacksBy returns every square the pieces of colour c attack in p with occupancy occ.
func attacksBy(p *cc.Position, c cc.Color, occ cc.Bitboard) cc.Bitboard {
	ours := p.ColorPieces(c)
	att := cc.PawnSpread(c, p.TypePieces(cc.Pawn)&ours) | cc.KnightSpread(p.TypePieces(cc.Knight)&ours) |
		cc.KingAttacks((p.TypePieces(cc.King) & ours).First())
	for b := (p.TypePieces(cc.Bishop) | p.TypePieces(cc.Queen)) & ours; b != 0; {
		att |= cc.BishopAttacks(b.PopFirst(), occ)
	}
	for b := (p.TypePieces(cc.Rook) | p.TypePieces(cc.Queen)) & ours; b != 0; {
		att |= cc.RookAttacks(b.PopFirst(), occ)
	}
	return att
}

// Pawn geometry by colour.
var (
	pawnRank3    = [2]cc.Bitboard{cc.Rank3, cc.Rank6} // where a single push lands before a double push
	pawnLastRank = [2]cc.Bitboard{cc.Rank8, cc.Rank1}
	pawnUp       = [2]int{8, -8}
)

// pushUp returns the squares one step ahead of the pawns b of colour c.
func pushUp(b cc.Bitboard, c cc.Color) cc.Bitboard { return cc.PawnPushes(c, b) }
