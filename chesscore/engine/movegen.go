// movegen.go: generation of the noisy moves (captures and queen promotions) for the
// quiescence search, pseudo-legal: the search checks each move's legality after playing
// it, so the quiet moves the quiescence search never looks at are never generated.

package engine

import cc "github.com/gambitchess/gambit/chesscore"

// genNoisy fills ml with the captures and queen promotions of the side to move that obey
// the pieces' movement rules; some may leave the mover's king attacked (see legalAfter).
func genNoisy(p *cc.Position, ml *cc.MoveList) {
	ml.N = 0
	us := p.Turn()
	occ := p.Occupied()
	theirs := p.ColorPieces(us.Other())
	push := func(from cc.Square, targets cc.Bitboard) {
		for targets != 0 {
			ml.Moves[ml.N] = cc.NewMove(from, targets.PopFirst())
			ml.N++
		}
	}
	for b := p.Pieces(us, cc.Knight); b != 0; {
		from := b.PopFirst()
		push(from, cc.KnightAttacks(from)&theirs)
	}
	for b := p.Pieces(us, cc.Bishop) | p.Pieces(us, cc.Queen); b != 0; {
		from := b.PopFirst()
		push(from, cc.BishopAttacks(from, occ)&theirs)
	}
	for b := p.Pieces(us, cc.Rook) | p.Pieces(us, cc.Queen); b != 0; {
		from := b.PopFirst()
		push(from, cc.RookAttacks(from, occ)&theirs)
	}
	ksq := p.KingSquare(us)
	push(ksq, cc.KingAttacks(ksq)&theirs)

	pawns := p.Pieces(us, cc.Pawn)
	var west, east, forward cc.Bitboard
	var dWest, dEast, dUp int
	last := cc.Rank8
	if us == cc.White {
		west, east, forward = (pawns&^cc.FileA)<<7, (pawns&^cc.FileH)<<9, pawns<<8
		dWest, dEast, dUp = 7, 9, 8
	} else {
		west, east, forward = (pawns&^cc.FileA)>>9, (pawns&^cc.FileH)>>7, pawns>>8
		dWest, dEast, dUp = -9, -7, -8
		last = cc.Rank1
	}
	pawnMoves := func(targets cc.Bitboard, delta int) {
		for targets != 0 {
			to := targets.PopFirst()
			from := cc.Square(int(to) - delta)
			if last.Has(to) {
				ml.Moves[ml.N] = cc.NewPromotion(from, to, cc.Queen)
			} else {
				ml.Moves[ml.N] = cc.NewMove(from, to)
			}
			ml.N++
		}
	}
	pawnMoves(west&theirs, dWest)
	pawnMoves(east&theirs, dEast)
	pawnMoves(forward&^occ&last, dUp)
	if ep := p.EnPassant(); ep != cc.NoSquare {
		for b := cc.PawnAttacks(us.Other(), ep) & pawns; b != 0; {
			ml.Moves[ml.N] = cc.NewEnPassant(b.PopFirst(), ep)
			ml.N++
		}
	}
}

// legalAfter reports whether child, the position after a move by mover, leaves the
// mover's king safe, which makes the move legal.
func legalAfter(child *cc.Position, mover cc.Color) bool {
	return child.AttackersTo(child.KingSquare(mover), mover.Other(), child.Occupied()) == 0
}
