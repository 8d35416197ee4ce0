// plan_mid_board.go: a position as bitboards only, on which the middlegame
// planner makes its hypothetical moves (no board array, no hash) to count what is left.

package dead

import cc "github.com/gambitchess/gambit/chesscore"

// midBoard is the occupancy of a position by colour and by piece type.
type midBoard struct {
	col [2]cc.Bitboard
	typ [cc.King + 1]cc.Bitboard // typ[0]: every occupied square
}

// set copies the bitboards of q.
func (b *midBoard) set(q *cc.Position) {
	b.col = [2]cc.Bitboard{q.ColorPieces(cc.White), q.ColorPieces(cc.Black)}
	b.typ[0] = q.Occupied()
	for t := cc.Pawn; t <= cc.King; t++ {
		b.typ[t] = q.TypePieces(t)
	}
}

// shift moves the piece of colour c and type pt on from to to, taking what stands there:
// a hypothetical move, legal or not.
func (b *midBoard) shift(c cc.Color, pt cc.PieceType, from, to cc.Square) {
	if from == to {
		return
	}
	fb, tb := from.Bitboard(), to.Bitboard()
	if b.typ[0]&tb != 0 {
		b.col[0] &^= tb
		b.col[1] &^= tb
		for t := cc.Pawn; t <= cc.King; t++ {
			b.typ[t] &^= tb
		}
	}
	b.col[c] = b.col[c]&^fb | tb
	b.typ[pt] = b.typ[pt]&^fb | tb
	b.typ[0] = b.typ[0]&^fb | tb
}

// playPlain makes the plain move from-to of the piece of colour c and type pt (its king
// on k) on a copy of b and reports whether it is legal: no piece of its own taken, its own
// king not attacked after it. The move must be one the piece can make on the board (a
// step, a slide through empty squares, a pawn's push or capture; no castling, en passant
// or promotion): then this is IsLegal.
func (b *midBoard) playPlain(c cc.Color, pt cc.PieceType, k, from, to cc.Square) (midBoard, bool) {
	child := *b
	if b.col[c].Has(to) {
		return child, false
	}
	if pt == cc.King {
		k = to
	}
	child.shift(c, pt, from, to)
	return child, !child.attacked(k, c^1, child.typ[0])
}

// has reports whether a piece of colour c and type pt stands on sq.
func (b *midBoard) has(c cc.Color, pt cc.PieceType, sq cc.Square) bool {
	return (b.col[c] & b.typ[pt]).Has(sq)
}

// attackersTo returns the pieces of colour by that attack sq with occupancy occ.
func (b *midBoard) attackersTo(sq cc.Square, by cc.Color, occ cc.Bitboard) cc.Bitboard {
	return b.col[by] & (cc.PawnAttacks(by^1, sq)&b.typ[cc.Pawn] |
		cc.KnightAttacks(sq)&b.typ[cc.Knight] |
		cc.KingAttacks(sq)&b.typ[cc.King] |
		cc.BishopAttacks(sq, occ)&(b.typ[cc.Bishop]|b.typ[cc.Queen]) |
		cc.RookAttacks(sq, occ)&(b.typ[cc.Rook]|b.typ[cc.Queen]))
}

// attacked reports whether a piece of colour by attacks sq with occupancy occ.
func (b *midBoard) attacked(sq cc.Square, by cc.Color, occ cc.Bitboard) bool {
	them := b.col[by]
	if (cc.PawnAttacks(by^1, sq)&b.typ[cc.Pawn]|cc.KnightAttacks(sq)&b.typ[cc.Knight]|cc.KingAttacks(sq)&b.typ[cc.King])&them != 0 {
		return true
	}
	if cc.BishopAttacks(sq, occ)&(b.typ[cc.Bishop]|b.typ[cc.Queen])&them != 0 {
		return true
	}
	return cc.RookAttacks(sq, occ)&(b.typ[cc.Rook]|b.typ[cc.Queen])&them != 0
}

// pushers returns the pawns of colour c that could push onto the empty square sq.
func (b *midBoard) pushers(sq cc.Square, c cc.Color) cc.Bitboard {
	return cc.PawnPushers(b.typ[cc.Pawn]&b.col[c], b.typ[0], sq, c)
}

// attacksNear returns the squares of zone the pieces of colour c attack with occupancy
// occ (and perhaps others): the sliders are looked at only while some square of zone is
// left unattacked.
func (b *midBoard) attacksNear(c cc.Color, occ, zone cc.Bitboard) cc.Bitboard {
	ours := b.col[c]
	att := cc.PawnSpread(c, b.typ[cc.Pawn]&ours) | cc.KnightSpread(b.typ[cc.Knight]&ours)
	if k := b.typ[cc.King] & ours; k != 0 {
		att |= cc.KingAttacks(k.First())
	}
	if zone&^att == 0 {
		return att
	}
	return att | midSliderAttacks(b.typ[cc.Bishop]|b.typ[cc.Queen], b.typ[cc.Rook]|b.typ[cc.Queen], ours, occ)
}

// fillable returns the squares of zone onto which a piece of colour c (its king aside)
// could step in one move (and perhaps others), were they empty (pins aside): the
// sliders are looked at only while the knights and pawns leave a square of zone.
func (b *midBoard) fillable(c cc.Color, zone cc.Bitboard) cc.Bitboard {
	ours := b.col[c]
	occ := b.typ[0]
	fill := cc.KnightSpread(b.typ[cc.Knight]&ours) | midPushed(b.typ[cc.Pawn]&ours, occ, c)
	if zone&^fill == 0 {
		return fill
	}
	return fill | midSliderAttacks(b.typ[cc.Bishop]|b.typ[cc.Queen], b.typ[cc.Rook]|b.typ[cc.Queen], ours, occ)
}

// midPushed returns every square onto which a pawn of pawns (of colour c, occ the
// occupancy) could push, were it empty: as pawnPushers, square by square.
func midPushed(pawns, occ cc.Bitboard, c cc.Color) cc.Bitboard {
	one := pushUp(pawns, c)
	double := cc.Rank4
	if c == cc.Black {
		double = cc.Rank5
	}
	return one | pushUp(one&^occ, c)&double
}

// midSliderAttacks returns the squares the bishops-or-queens diag and rooks-or-queens orth
// of ours attack with occupancy occ, all at once by fills (midSlides), so the cost does
// not depend on how many sliders there are or where they stand.
func midSliderAttacks(diag, orth, ours, occ cc.Bitboard) cc.Bitboard {
	return midSlides(diag&ours, occ, true) | midSlides(orth&ours, occ, false)
}

// midSlides returns the squares a bishop (diag) or rook (not diag) would attack from any
// square of from with occupancy occ: the union of their attacks, made at once by filling
// each direction through the empty squares (doubling the step three times) and stepping
// once more, onto the first piece met.
func midSlides(from, occ cc.Bitboard, diag bool) cc.Bitboard {
	empty := ^occ
	notA, notH := ^cc.FileA, ^cc.FileH
	var att cc.Bitboard
	if diag {
		att = midFillUp(from, empty&notA, 9)<<9&notA | midFillUp(from, empty&notH, 7)<<7&notH |
			midFillDown(from, empty&notA, 7)>>7&notA | midFillDown(from, empty&notH, 9)>>9&notH
	} else {
		att = midFillUp(from, empty, 8)<<8 | midFillDown(from, empty, 8)>>8 |
			midFillUp(from, empty&notA, 1)<<1&notA | midFillDown(from, empty&notH, 1)>>1&notH
	}
	return att
}

// midFillUp returns gen and the squares reached from it by steps of s towards the higher
// squares through pro (the empty squares the step may land on).
func midFillUp(gen, pro cc.Bitboard, s uint) cc.Bitboard {
	gen |= pro & (gen << s)
	pro &= pro << s
	gen |= pro & (gen << (2 * s))
	pro &= pro << (2 * s)
	return gen | pro&(gen<<(4*s))
}

// midFillDown is midFillUp towards the lower squares.
func midFillDown(gen, pro cc.Bitboard, s uint) cc.Bitboard {
	gen |= pro & (gen >> s)
	pro &= pro >> s
	gen |= pro & (gen >> (2 * s))
	pro &= pro >> (2 * s)
	return gen | pro&(gen>>(4*s))
}
