// deadposition_dive.go: the quick helpmate search: a narrow, iteratively widened and
// deepened depth-first search that finds a mate in a few moves where material is plentiful.

package chesscore

import "math/bits"

// diveNodes is the node budget of the quick helpmate search: when it fails, the
// best-first search runs.
const diveNodes = 300

// diveMinPieces is the number of pieces (kings and pawns included) from which the dive
// runs. It is more than a board holds: the dive is off. Since the best-first search
// scores and queues its nodes cheaply (bucket queue, lazy structure proofs), it finds
// the short mates of full-material positions as fast alone: over the real games, with
// the dive from 24 pieces, those positions cost about twice as much (the dive, ~150-200
// µs, answered only about a third of them, and fewer still of those the planners leave).
const diveMinPieces = 33

// diveSchedule lists the (depth in plies, moves tried per node) pairs the dive runs, in
// order: short and narrow first.
var diveSchedule = [...]struct{ depth, width int }{
	{1, 256}, {2, 256}, {3, 8}, {4, 4}, {3, 256}, {5, 4}, {4, 8}, {6, 3}, {5, 6}, {7, 3}, {6, 5}, {8, 3}, {9, 2}, {11, 2},
}

// diver is the state of one quick helpmate search for a mate by w against l.
type diver struct {
	w, l   Color
	nodes  int
	budget int
	width  int
	found  int      // plies of the line found
	line   [32]Move // the moves of the current path; line[:depth] after success
	tt     [1 << 10]uint64
}

// dive looks for a helpmate by w within budget nodes. It returns the number of moves of
// the line found (in d.line) or -1.
func (d *diver) dive(p *Position, w Color, budget int) int {
	d.w, d.l = w, w^1
	d.nodes, d.budget = 0, budget
	for _, step := range diveSchedule {
		d.width = step.width
		clear(d.tt[:])
		if d.search(p, 0, step.depth) {
			return d.found
		}
		if d.nodes >= d.budget {
			break
		}
	}
	return -1
}

// scoredMove is a move with its ordering score.
type scoredMove struct {
	m Move
	s int32
}

// search looks for a mate by w within depth plies from p (ply plies from the root).
func (d *diver) search(p *Position, ply, depth int) bool {
	if d.nodes >= d.budget {
		return false
	}
	if p.turn == d.w && depth == 1 {
		return d.mateIn1(p, ply)
	}
	if depth < 2 || ply >= len(d.line)-2 {
		return false
	}
	if p.turn == d.l && depth == 2 {
		return d.helpIn1(p, ply)
	}
	slot := &d.tt[p.hash&uint64(len(d.tt)-1)]
	tag := p.hash&^0xFF | uint64(depth)
	if *slot == tag {
		return false // searched already at this depth in this round
	}
	*slot = tag
	var ml MoveList
	p.LegalMoves(&ml)
	if ml.N == 0 {
		return false
	}
	var buf [MaxMoves]scoredMove
	moves := buf[:ml.N]
	d.score(p, ml.Moves[:ml.N], moves)
	width := d.width
	for i := 0; i < len(moves) && i < width; i++ {
		best := i
		for j := i + 1; j < len(moves); j++ {
			if moves[j].s > moves[best].s {
				best = j
			}
		}
		moves[i], moves[best] = moves[best], moves[i]
		m := moves[i].m
		child := p.Play(m)
		d.nodes++
		d.line[ply] = m
		if d.search(&child, ply+1, depth-1) {
			return true
		}
		if d.nodes >= d.budget {
			return false
		}
	}
	return false
}

// mateIn1 tries every checking move of w and reports a mate, recorded in the line.
func (d *diver) mateIn1(p *Position, ply int) bool {
	var ml MoveList
	p.LegalMoves(&ml)
	k := p.KingSquare(d.l)
	for _, m := range ml.Moves[:ml.N] {
		if !p.givesCheck(m, k) {
			continue
		}
		child := p.Play(m)
		d.nodes++
		if child.InCheck() && !child.HasLegalMove() {
			d.line[ply] = m
			d.found = ply + 1
			return true
		}
	}
	return false
}

// helpIn1 looks for a move of l (to move in p) after which w mates at once, recorded in
// the line. Rather than trying every move of l, it looks at w's checks as if l passed:
// for a check with few answers, the moves of l that could take the first answer away
// (a piece onto the king's flight square, the defending piece out of the way) are tried.
func (d *diver) helpIn1(p *Position, ply int) bool {
	var ours MoveList
	p.LegalMoves(&ours)
	if ours.N == 0 {
		return false
	}
	if p.InCheck() {
		for _, y := range ours.Moves[:ours.N] {
			child := p.Play(y)
			d.nodes++
			d.line[ply] = y
			if d.mateIn1(&child, ply+1) {
				return true
			}
		}
		return false
	}
	n := nullMoved(p)
	var checks MoveList
	n.LegalMoves(&checks)
	k := p.KingSquare(d.l)
	for _, x := range checks.Moves[:checks.N] {
		if !n.givesCheck(x, k) {
			continue
		}
		c := n.Play(x)
		d.nodes++
		var replies MoveList
		c.LegalMoves(&replies)
		if replies.N > 3 {
			continue
		}
		var r Move
		if replies.N > 0 {
			r = replies.Moves[0]
		}
		for _, y := range ours.Moves[:ours.N] {
			if replies.N > 0 {
				if r.From() == k {
					if y.To() != r.To() || y.From() == k || p.board[r.To()] != NoPiece {
						continue // not a piece onto the flight square
					}
				} else if y.From() != r.From() {
					continue // not the defender moving away
				}
			}
			q := p.Play(y)
			if !q.IsLegal(x) {
				continue
			}
			mate := q.Play(x)
			d.nodes++
			if mate.InCheck() && !mate.HasLegalMove() {
				d.line[ply], d.line[ply+1] = y, x
				d.found = ply + 2
				return true
			}
			if d.nodes >= d.budget {
				return false
			}
		}
	}
	return false
}

// nullMoved returns p with the other side to move and no en passant square: a pass, for
// looking at what the side not to move threatens. p must not be in check.
func nullMoved(p *Position) Position {
	q := *p
	if q.ep != NoSquare {
		q.hash ^= zobristEPFile[q.ep.File()]
		q.ep = NoSquare
	}
	q.turn ^= 1
	q.hash ^= zobristBlack
	return q
}

// givesCheck reports whether the move m of the side to move checks the enemy king on k.
func (p *Position) givesCheck(m Move, k Square) bool {
	from, to := m.From(), m.To()
	if m.Kind() != NormalMove && m.Kind() != PromotionMove {
		child := p.Play(m)
		return child.InCheck()
	}
	us := p.turn
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

// score gives each legal move of p an ordering score. For w: moves that check, press on
// the squares around the enemy king, take its defenders or come closer. For l: king steps
// towards the squares w attacks (into the net), pieces onto the king's flight squares, no
// captures. For either side, the move that disturbs least (a tempo, far from the enemy
// king) is ranked second, so that the other side's plan can go on.
func (d *diver) score(p *Position, ml []Move, out []scoredMove) {
	k := p.KingSquare(d.l)
	zone := kingAttacks[k]
	near := kingSpread(zone)
	occ := p.byType[0]
	winner := p.turn == d.w
	var wAtt Bitboard
	if !winner {
		wAtt = p.attacksBy(d.w, occ)
	}
	best, bestTempo, tempoScore := int32(-1<<30), -1, int32(-1<<30)
	for i, m := range ml {
		from, to := m.From(), m.To()
		pt := p.board[from].Type()
		if m.Kind() == PromotionMove {
			pt = m.Promotion()
		}
		capture := p.board[to] != NoPiece && m.Kind() != CastlingMove
		var s int32
		if winner {
			occ2 := occ&^from.Bitboard() | to.Bitboard()
			att := pieceAttacks(pt, d.w, to, occ2)
			if att.Has(k) {
				s += 40
			}
			s += 6 * int32(bits.OnesCount64(uint64(att&zone)))
			if capture {
				s += 4
				if distance(to, k) <= 2 {
					s += 16
				}
			}
			s += 2 * int32(distance(from, k)-distance(to, k))
			switch {
			case m.Kind() == PromotionMove:
				s += pieceWorth[pt] / 3
			case pt == Pawn:
				s += 3
			case pt == King:
				s -= 4
			}
		} else {
			if pt == King {
				s += 8*int32(bits.OnesCount64(uint64(kingAttacks[to]&wAtt))) + 4
			} else {
				if zone.Has(to) {
					s += 12 // a self-block
				}
				s += int32(distance(to, k) - distance(from, k))
			}
			if capture {
				s -= 10
			}
		}
		out[i] = scoredMove{m, s}
		best = max(best, s)
		if !capture && pt != Pawn && pt != King || pt == King && winner {
			if pieceAttacks(pt, p.turn, from, occ)&near == 0 && pieceAttacks(pt, p.turn, to, occ)&near == 0 {
				if t := int32(distance(from, k) + distance(to, k)); t > tempoScore {
					bestTempo, tempoScore = i, t
				}
			}
		}
	}
	if bestTempo >= 0 && out[bestTempo].s < best {
		out[bestTempo].s = best - 1
	}
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
