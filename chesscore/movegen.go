// movegen.go: legal move generation with pin and check masks, and its counting twin for
// perft's bulk counting. This is the hot code: it allocates nothing.

package chesscore

// Castling, by right (the bit index of a CastlingRights): where the king and the rook
// end (FIDE 3.8.2 and the Chess960 guidelines: the squares of standard chess, wherever
// they started).
var (
	castleKingTo = [4]Square{G1, C1, G8, C8}
	castleRookTo = [4]Square{F1, D1, F8, D8}
)

// castlePath is what one castling asks of the board, for one pair of king and rook
// start squares.
type castlePath struct {
	empty Bitboard // squares the king and rook cross or land on, but their own: must be empty
	safe  Bitboard // squares the king crosses or lands on (its start too when it stays): must not be attacked
}

// castlePaths[right][king file][rook file] for every start of king and castling rook.
var castlePaths [4][8][8]castlePath

// rookRays and bishopRays are slider attacks on an empty board.
var rookRays, bishopRays [64]Bitboard

func init() {
	for i := range castlePaths {
		rank := 7 * (i / 2)
		for kf := range 8 {
			for rf := range 8 {
				k, r, kt, rt := MakeSquare(kf, rank), MakeSquare(rf, rank), castleKingTo[i], castleRookTo[i]
				path := betweenBB[k][kt] | kt.Bitboard()
				castlePaths[i][kf][rf] = castlePath{
					empty: (path | betweenBB[r][rt] | rt.Bitboard()) &^ k.Bitboard() &^ r.Bitboard(),
					safe:  path&^k.Bitboard() | kt.Bitboard(), // a king that stays may lose the rook's cover
				}
			}
		}
	}
	for sq := A1; sq <= H8; sq++ {
		rookRays[sq] = RookAttacks(sq, 0)
		bishopRays[sq] = BishopAttacks(sq, 0)
	}
}

// canCastle reports whether the side to move, its king on ksq and not in check, may
// castle with right i: the right held, the paths empty, and no square the king crosses
// or lands on attacked once king and rook have left their squares.
func (p *Position) canCastle(i int, ksq Square, occ Bitboard) bool {
	i &= 3
	if p.castling&(1<<i) == 0 {
		return false
	}
	rsq := p.castleRook[i] & 63
	cp := &castlePaths[i][ksq&7][rsq&7]
	if occ&cp.empty != 0 {
		return false
	}
	occ ^= ksq.Bitboard() | rsq.Bitboard()
	for b := cp.safe; b != 0; {
		if p.attacked(b.PopFirst(), p.turn^1, occ) {
			return false
		}
	}
	return true
}

// Pawn geometry by colour.
var (
	pawnRank3    = [2]Bitboard{Rank3, Rank6} // where a single push lands before a double push
	pawnLastRank = [2]Bitboard{Rank8, Rank1}
	pawnUp       = [2]int{8, -8}
)

func pushUp(b Bitboard, c Color) Bitboard {
	if c == White {
		return b << 8
	}
	return b >> 8
}

// pinnedPieces returns the pieces of colour us that are pinned to their king on ksq.
func (p *Position) pinnedPieces(ksq Square, us Color, occ Bitboard) Bitboard {
	them := p.byColor[us^1]
	snipers := them & ((rookRays[ksq] & (p.byType[Rook] | p.byType[Queen])) |
		(bishopRays[ksq] & (p.byType[Bishop] | p.byType[Queen])))
	var pinned Bitboard
	for snipers != 0 {
		s := snipers.PopFirst()
		b := betweenBB[ksq][s] & occ
		if b != 0 && b&(b-1) == 0 {
			pinned |= b
		}
	}
	return pinned & p.byColor[us]
}

// epLegal reports whether the pawn of the side to move on from may capture en passant onto
// ep without leaving its king attacked. It covers every case at once: the horizontal pin,
// a diagonal pin, and en passant as an evasion of check.
func (p *Position) epLegal(from, ep Square, ksq Square) bool {
	us := p.turn
	capsq := Square(int(ep) - pawnUp[us])
	occ := p.byType[0] ^ from.Bitboard() ^ capsq.Bitboard() | ep.Bitboard()
	return p.AttackersTo(ksq, us^1, occ)&^capsq.Bitboard() == 0
}

// LegalMoves fills ml with every legal move of the side to move.
func (p *Position) LegalMoves(ml *MoveList) {
	ml.N = 0
	us, them := p.turn, p.turn^1
	occ := p.byType[0]
	ours := p.byColor[us]
	ksq := (p.byType[King] & ours).First()
	checkers := p.AttackersTo(ksq, them, occ)

	occNoKing := occ ^ ksq.Bitboard()
	for b := kingAttacks[ksq] &^ ours; b != 0; {
		to := b.PopFirst()
		if !p.attacked(to, them, occNoKing) {
			ml.add(NewMove(ksq, to))
		}
	}
	if checkers&(checkers-1) != 0 {
		return // double check: only the king moves
	}
	var target Bitboard
	if checkers != 0 {
		target = betweenBB[ksq][checkers.First()] | checkers
	} else {
		target = ^ours
		for i := 2 * int(us); i < 2*int(us)+2; i++ {
			if p.canCastle(i, ksq, occ) {
				ml.add(NewCastling(ksq, castleKingTo[i&3]))
			}
		}
	}
	pinned := p.pinnedPieces(ksq, us, occ)

	for b := p.byType[Knight] & ours &^ pinned; b != 0; {
		from := b.PopFirst()
		for t := knightAttacks[from] & target; t != 0; {
			ml.add(NewMove(from, t.PopFirst()))
		}
	}
	for b := (p.byType[Bishop] | p.byType[Queen]) & ours; b != 0; {
		from := b.PopFirst()
		t := BishopAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= lineBB[ksq][from]
		}
		for t != 0 {
			ml.add(NewMove(from, t.PopFirst()))
		}
	}
	for b := (p.byType[Rook] | p.byType[Queen]) & ours; b != 0; {
		from := b.PopFirst()
		t := RookAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= lineBB[ksq][from]
		}
		for t != 0 {
			ml.add(NewMove(from, t.PopFirst()))
		}
	}

	// Pawns: the unpinned ones set-wise, the pinned ones one by one along their pin line.
	pawns := p.byType[Pawn] & ours
	theirs := p.byColor[them]
	empty := ^occ
	up := pawnUp[us]
	last := pawnLastRank[us]
	free := pawns &^ pinned
	single := pushUp(free, us) & empty
	double := pushUp(single&pawnRank3[us], us) & empty & target
	single &= target
	for b := single &^ last; b != 0; {
		to := b.PopFirst()
		ml.add(NewMove(Square(int(to)-up), to))
	}
	for b := single & last; b != 0; {
		to := b.PopFirst()
		addPromotions(ml, Square(int(to)-up), to)
	}
	for b := double; b != 0; {
		to := b.PopFirst()
		ml.add(NewMove(Square(int(to)-2*up), to))
	}
	for _, side := range [2]int{-1, 1} {
		var caps Bitboard
		if side < 0 {
			caps = pushUp(free&^FileA, us) >> 1
		} else {
			caps = pushUp(free&^FileH, us) << 1
		}
		caps &= theirs & target
		delta := up + side
		for b := caps &^ last; b != 0; {
			to := b.PopFirst()
			ml.add(NewMove(Square(int(to)-delta), to))
		}
		for b := caps & last; b != 0; {
			to := b.PopFirst()
			addPromotions(ml, Square(int(to)-delta), to)
		}
	}
	for b := pawns & pinned; b != 0; {
		from := b.PopFirst()
		line := lineBB[ksq][from]
		to := Square(int(from) + up)
		if empty.Has(to) && line.Has(to) {
			if target.Has(to) {
				if last.Has(to) {
					addPromotions(ml, from, to)
				} else {
					ml.add(NewMove(from, to))
				}
			}
			if to2 := Square(int(to) + up); pawnRank3[us].Has(to) && empty.Has(to2) && target.Has(to2) {
				ml.add(NewMove(from, to2))
			}
		}
		for t := pawnAttacks[us][from] & theirs & target & line; t != 0; {
			to := t.PopFirst()
			if last.Has(to) {
				addPromotions(ml, from, to)
			} else {
				ml.add(NewMove(from, to))
			}
		}
	}
	if p.ep != NoSquare {
		for b := pawnAttacks[them][p.ep] & pawns; b != 0; {
			from := b.PopFirst()
			if p.epLegal(from, p.ep, ksq) {
				ml.add(NewEnPassant(from, p.ep))
			}
		}
	}
}

func addPromotions(ml *MoveList, from, to Square) {
	base := Move(from) | Move(to)<<6 | Move(PromotionMove)<<14
	ml.Moves[ml.N] = base | 3<<12
	ml.Moves[ml.N+1] = base | 0<<12
	ml.Moves[ml.N+2] = base | 2<<12
	ml.Moves[ml.N+3] = base | 1<<12
	ml.N += 4
}

// CountLegalMoves returns the number of legal moves without listing them: the same
// generation as LegalMoves with population counts in place of move lists. Perft uses it
// at the last ply (bulk counting).
func (p *Position) CountLegalMoves() int {
	us, them := p.turn, p.turn^1
	occ := p.byType[0]
	ours := p.byColor[us]
	ksq := (p.byType[King] & ours).First()
	checkers := p.AttackersTo(ksq, them, occ)

	n := 0
	occNoKing := occ ^ ksq.Bitboard()
	for b := kingAttacks[ksq] &^ ours; b != 0; {
		if !p.attacked(b.PopFirst(), them, occNoKing) {
			n++
		}
	}
	if checkers&(checkers-1) != 0 {
		return n
	}
	var target Bitboard
	if checkers != 0 {
		target = betweenBB[ksq][checkers.First()] | checkers
	} else {
		target = ^ours
		for i := 2 * int(us); i < 2*int(us)+2; i++ {
			if p.canCastle(i, ksq, occ) {
				n++
			}
		}
	}
	pinned := p.pinnedPieces(ksq, us, occ)

	for b := p.byType[Knight] & ours &^ pinned; b != 0; {
		n += (knightAttacks[b.PopFirst()] & target).Count()
	}
	for b := (p.byType[Bishop] | p.byType[Queen]) & ours; b != 0; {
		from := b.PopFirst()
		t := BishopAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= lineBB[ksq][from]
		}
		n += t.Count()
	}
	for b := (p.byType[Rook] | p.byType[Queen]) & ours; b != 0; {
		from := b.PopFirst()
		t := RookAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= lineBB[ksq][from]
		}
		n += t.Count()
	}

	pawns := p.byType[Pawn] & ours
	theirs := p.byColor[them]
	empty := ^occ
	up := pawnUp[us]
	last := pawnLastRank[us]
	free := pawns &^ pinned
	single := pushUp(free, us) & empty
	double := pushUp(single&pawnRank3[us], us) & empty & target
	single &= target
	capsW := pushUp(free&^FileA, us) >> 1 & theirs & target
	capsE := pushUp(free&^FileH, us) << 1 & theirs & target
	n += (single &^ last).Count() + double.Count() + (capsW &^ last).Count() + (capsE &^ last).Count() +
		4*((single&last).Count()+(capsW&last).Count()+(capsE&last).Count())
	for b := pawns & pinned; b != 0; {
		from := b.PopFirst()
		line := lineBB[ksq][from]
		to := Square(int(from) + up)
		if empty.Has(to) && line.Has(to) {
			if target.Has(to) {
				if last.Has(to) {
					n += 4
				} else {
					n++
				}
			}
			if to2 := Square(int(to) + up); pawnRank3[us].Has(to) && empty.Has(to2) && target.Has(to2) {
				n++
			}
		}
		t := pawnAttacks[us][from] & theirs & target & line
		if t&last != 0 {
			n += 4 * t.Count()
		} else {
			n += t.Count()
		}
	}
	if p.ep != NoSquare {
		for b := pawnAttacks[them][p.ep] & pawns; b != 0; {
			if p.epLegal(b.PopFirst(), p.ep, ksq) {
				n++
			}
		}
	}
	return n
}

// HasLegalMove reports whether the side to move has at least one legal move. A king step
// answers most positions at once. In check, only the moves that take the checker or step
// between are then tried, each tested alone (none against a double check); otherwise,
// or with an en passant capture to consider, the other moves are generated.
func (p *Position) HasLegalMove() bool {
	us, them := p.turn&1, (p.turn^1)&1 // masked: no bounds checks
	ksq := p.KingSquare(us) & 63
	occ := p.byType[0]
	occNoKing := occ &^ ksq.Bitboard()
	// The enemy pawns, knights and king cover their squares whatever the occupancy: the
	// flight squares they leave are tried against the sliders alone.
	theirs := p.byColor[them]
	theirKing := p.byType[King] & theirs
	kingCover := kingAttacks[theirKing.First()&63]
	if theirKing == 0 {
		kingCover = 0
	}
	leapers := PawnSpread(them, p.byType[Pawn]&theirs) | KnightSpread(p.byType[Knight]&theirs) | kingCover
	if b := kingAttacks[ksq] &^ p.byColor[us] &^ leapers; b != 0 {
		bq, rq := (p.byType[Bishop]|p.byType[Queen])&theirs, (p.byType[Rook]|p.byType[Queen])&theirs
		for b != 0 {
			sq := b.PopFirst()
			if BishopAttacks(sq, occNoKing)&bq == 0 && RookAttacks(sq, occNoKing)&rq == 0 {
				return true
			}
		}
	}
	if checkers := p.AttackersTo(ksq, them, occ); checkers != 0 && p.ep == NoSquare {
		return p.hasEvasion(ksq, checkers)
	}
	var ml MoveList
	p.LegalMoves(&ml)
	return ml.N > 0
}

// hasEvasion reports whether a piece other than the king can answer the check of
// checkers on the king on ksq, no en passant capture being possible: by taking the single
// checker or stepping between it and the king.
func (p *Position) hasEvasion(ksq Square, checkers Bitboard) bool {
	if checkers&(checkers-1) != 0 {
		return false // a double check: only the king may answer
	}
	us := p.turn & 1
	c := checkers.First()
	occ := p.byType[0]
	ours := p.byColor[us] &^ p.byType[King]
	pawns := p.byType[Pawn] & ours
	for t := Between(c, ksq) | checkers; t != 0; {
		sq := t.PopFirst()
		from := p.AttackersTo(sq, us, occ) & ours &^ pawns
		if sq == c {
			from |= pawnAttacks[us^1][c] & pawns
		} else {
			from |= PawnPushers(pawns, occ, sq, us)
		}
		promotes := pawnLastRank[us].Has(sq)
		for b := from; b != 0; {
			f := b.PopFirst()
			m := NewMove(f, sq)
			if promotes && pawns.Has(f) {
				m = NewPromotion(f, sq, Queen)
			}
			if p.IsLegal(m) {
				return true
			}
		}
	}
	return false
}

// PawnPushers returns the pawns of pawns (of colour c, occ the occupancy) that could push
// onto the empty square sq: one step, or two from their first rank.
func PawnPushers(pawns, occ Bitboard, sq Square, c Color) Bitboard {
	c &= 1
	one := int(sq) - pawnUp[c]
	if one < 0 || one > 63 {
		return 0
	}
	if pawns.Has(Square(one)) {
		return Square(one).Bitboard()
	}
	if pawnRank3[c].Has(Square(one)) && !occ.Has(Square(one)) {
		if two := Square(one - pawnUp[c]); pawns.Has(two) {
			return two.Bitboard()
		}
	}
	return 0
}

// IsLegal reports whether m is a legal move in the position: exactly the moves LegalMoves
// lists, decided for m alone (its piece, its path, then whether it leaves the king
// attacked) without generating the others.
func (p *Position) IsLegal(m Move) bool {
	us, them := p.turn&1, (p.turn^1)&1 // masked: no bounds checks
	from, to := m.From(), m.To()
	ours := p.byColor[us]
	occ := p.byType[0]
	ksq := (p.byType[King] & ours).First()
	kind := m.Kind()
	if kind == CastlingMove {
		i := castleRight(us, to)
		return m>>12&3 == 0 && from == ksq && to == castleKingTo[i] &&
			p.AttackersTo(ksq, them, occ) == 0 && p.canCastle(i, ksq, occ)
	}
	if !ours.Has(from) || ours.Has(to) {
		return false
	}
	if kind != PromotionMove && m>>12&3 != 0 {
		return false // LegalMoves never sets the promotion bits of other moves
	}
	pt := p.board[from].Type()
	switch kind {
	case EnPassantMove:
		return pt == Pawn && p.ep != NoSquare && to == p.ep &&
			pawnAttacks[us][from].Has(to) && p.epLegal(from, to, ksq)
	}
	if pt == Pawn {
		if pawnLastRank[us].Has(to) != (kind == PromotionMove) {
			return false
		}
		up := pawnUp[us]
		switch {
		case int(to) == int(from)+up:
			if occ.Has(to) {
				return false
			}
		case int(to) == int(from)+2*up:
			mid := Square(int(from) + up)
			if !pawnRank3[us].Has(mid) || occ.Has(mid) || occ.Has(to) {
				return false
			}
		case pawnAttacks[us][from].Has(to):
			if !p.byColor[them].Has(to) {
				return false
			}
		default:
			return false
		}
	} else {
		if kind == PromotionMove {
			return false
		}
		var reach Bitboard
		switch pt {
		case Knight:
			reach = knightAttacks[from]
		case Bishop:
			reach = BishopAttacks(from, occ)
		case Rook:
			reach = RookAttacks(from, occ)
		case Queen:
			reach = BishopAttacks(from, occ) | RookAttacks(from, occ)
		case King:
			return kingAttacks[from].Has(to) && !p.attacked(to, them, occ&^from.Bitboard())
		}
		if !reach.Has(to) {
			return false
		}
	}
	// The king stays where it is: no enemy piece but the one captured may attack it once
	// the move is made (this settles pins, checks and double checks alike).
	after := occ&^from.Bitboard() | to.Bitboard()
	return p.AttackersTo(ksq, them, after)&^to.Bitboard() == 0
}
