// verify.go: the invariants of a Position, checked by tests after every move.

package chesscore

import "fmt"

// Verify checks the position's internal invariants: the bitboards and the square array
// agree, colours do not overlap, each side has one king, the en passant square is set only
// when legal, and the hash equals a fresh computation. It returns the first broken one.
func (p *Position) Verify() error {
	var occ, byType [7]Bitboard
	var byColor [2]Bitboard
	for sq := A1; sq <= H8; sq++ {
		pc := p.board[sq]
		if pc == NoPiece {
			continue
		}
		if pc.Type() == NoPieceType || pc.Type() > King || pc&^15 != 0 {
			return fmt.Errorf("square %s holds bad piece %d", sq, pc)
		}
		byType[pc.Type()] |= sq.Bitboard()
		byColor[pc.Color()] |= sq.Bitboard()
		occ[0] |= sq.Bitboard()
	}
	byType[0] = occ[0]
	if byType != p.byType || byColor != p.byColor {
		return fmt.Errorf("bitboards disagree with the board")
	}
	for c := White; c <= Black; c++ {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return fmt.Errorf("%s has %d kings", c, n)
		}
	}
	if p.ep != NoSquare {
		legal := false
		ksq := p.KingSquare(p.turn)
		for b := pawnAttacks[p.turn^1][p.ep] & p.Pieces(p.turn, Pawn); b != 0; {
			if p.epLegal(b.PopFirst(), p.ep, ksq) {
				legal = true
			}
		}
		if !legal {
			return fmt.Errorf("en passant square %s set but no en passant capture is legal", p.ep)
		}
	}
	if h := p.computeHash(); h != p.hash {
		return fmt.Errorf("hash %#x, recomputed %#x", p.hash, h)
	}
	return nil
}
