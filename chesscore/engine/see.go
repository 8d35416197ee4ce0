// see.go: static exchange evaluation: what a capture sequence on one square wins.

package engine

import cc "github.com/gambitchess/gambit/chesscore"

// seeValue is the piece value the exchange evaluation counts with.
var seeValue = [7]int32{0, 100, 320, 330, 500, 950, 20000}

// see returns the material the side to move wins by the exchange that m starts on its
// destination square, both sides recapturing with their least valuable piece and either
// side free to stop when going on would lose. Pins are ignored; a promotion counts as
// the capture alone.
func see(p *cc.Position, m cc.Move) int32 {
	if m.Kind() == cc.CastlingMove {
		return 0
	}
	from, to := m.From(), m.To()
	var gain [32]int32
	gain[0] = seeValue[p.CapturedPiece(m).Type()]
	onSquare := seeValue[p.MovedPiece(m).Type()] // value of the piece now standing on to
	occ := p.Occupied() ^ from.Bitboard()
	if m.Kind() == cc.EnPassantMove {
		occ ^= cc.MakeSquare(to.File(), from.Rank()).Bitboard()
	}
	diagonal := p.TypePieces(cc.Bishop) | p.TypePieces(cc.Queen)
	straight := p.TypePieces(cc.Rook) | p.TypePieces(cc.Queen)
	attackers := p.AttackersTo(to, cc.White, occ) | p.AttackersTo(to, cc.Black, occ)
	stm := p.Turn()
	d := 0
	for d < len(gain)-1 {
		stm = stm.Other()
		attackers &= occ
		mine := attackers & p.ColorPieces(stm)
		if mine == 0 {
			break
		}
		pt := cc.Pawn
		for ; pt < cc.King; pt++ {
			if mine&p.TypePieces(pt) != 0 {
				break
			}
		}
		if pt == cc.King && attackers&p.ColorPieces(stm.Other()) != 0 {
			break // the king may not take a defended piece
		}
		d++
		gain[d] = onSquare - gain[d-1]
		onSquare = seeValue[pt]
		occ ^= (mine & p.TypePieces(pt)).First().Bitboard()
		switch pt {
		case cc.Pawn, cc.Bishop:
			attackers |= cc.BishopAttacks(to, occ) & diagonal
		case cc.Rook:
			attackers |= cc.RookAttacks(to, occ) & straight
		case cc.Queen:
			attackers |= cc.BishopAttacks(to, occ)&diagonal | cc.RookAttacks(to, occ)&straight
		}
	}
	// Either side may decline to go on: fold the list back from the end.
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// seeGE reports whether the exchange m starts wins at least threshold.
func seeGE(p *cc.Position, m cc.Move, threshold int32) bool { return see(p, m) >= threshold }
