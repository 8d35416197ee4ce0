// deadposition_plan_minor.go: the minor-piece mate planner: a winner with only bishops,
// knights and pawns mates the loser's king in a corner, walled in by the loser's own pieces.
//
// # Method
//
// A winner w with no rook or queen can mate only where the loser l's own pieces take the
// king's flight squares. The planner tries pictures: a corner t for l's king, a stand s
// two steps from t for w's king, and the flight squares of t that s does not cover (nor
// a bishop's check along the diagonal into t) to be filled by l's pieces. The pictures are
// ranked by the kings' distances to t and s plus the fillers needed; the best minorPlans
// (with enough pieces of l to fill) are played, minorMaxPlies plies at most each.
//
// A picture is played move by move on real positions, greedily, each side scoring every
// legal move by the position it leads to (no look-ahead), so the line is legal by
// construction:
//
//   - w: a move that mates at once, tried first at every turn (it also catches mates the
//     picture did not foresee); else the move of least cost: its king's distance to s, the
//     heavy pieces (rook, queen) of l left on the board (w takes those l offers), a knight's
//     distance to the corner; a check that does not mate, a stalemate or a position already
//     seen in the line is never chosen.
//   - l: the move of least cost: its king's distance to t, each flight square to fill that
//     is empty (less when a piece of l can step there at once), each rook or queen of l on
//     no flight square that w does not attack (l offers it: a heavy piece can interpose or
//     capture the checker), each other piece off the flight squares; never a capture of
//     w's pieces, a check, a promotion or a position already seen.
//
// A picture gives up when a side has no move left to choose or the plies run out; the
// decision then goes on to the next step as if the planner had not run. A line found is
// replayed once more (replaysToMate): Yes only with a verified line, and never a No.

package chesscore

import "math/bits"

// minorPlans is the number of pictures played.
const minorPlans = 3

// minorMaxPlies bounds the line of one picture.
const minorMaxPlies = 64

// minorPicture is a mating picture of the minor-piece planner: l's king on target, w's
// king on stand, fill the flight squares l's own pieces must take; cost ranks it.
type minorPicture struct {
	target, stand Square
	fill          Bitboard
	heavyFills    bool // a rook or queen of l may fill (a knight checks: nothing to interpose)
	cost          int
}

// minorPlanner is the state of the minor-piece planner (kept in the pooled decider).
type minorPlanner struct {
	w, l   Color
	pic    minorPicture
	n      int // plies of line
	plies  int // plies played over every picture tried (the decision's nodes)
	line   [minorMaxPlies]Move
	hashes [minorMaxPlies + 1]uint64
	pics   [minorPlans]minorPicture
	ml     MoveList
}

// minorPlanFits reports whether the minor-piece planner may answer for w in p: w has a
// bishop or knight and no rook or queen, l has some piece or pawn to wall its king in.
func minorPlanFits(p *Position, w Color) bool {
	ours := p.byColor[w]
	if ours&(p.byType[Rook]|p.byType[Queen]) != 0 || ours&(p.byType[Bishop]|p.byType[Knight]) == 0 {
		return false
	}
	return p.byColor[w^1]&^p.byType[King] != 0
}

// planMinor runs the minor-piece planner for c on the root: Yes with a verified line, or
// nothing (the decision goes on).
func (d *decider) planMinor(c Color) (Decision, bool) {
	if !minorPlanFits(&d.root, c) {
		return Decision{}, false
	}
	n, ok := d.minor.find(&d.root, c)
	if !ok {
		return Decision{}, false
	}
	return Decision{Verdict: Yes, Proof: ProofMate, Line: d.minor.line[:n], Nodes: d.minor.plies}, true
}

// minorNoPawn stands for the pushes of a pawn l does not have.
const minorNoPawn = 99

// minorEdge is the squares on the edge of the board, where the pictures put l's king.
const minorEdge = Bitboard(0xFF818181818181FF)

// find looks for a helpmate by w from p with the pictures; it returns the line's length
// and whether a verified line is in m.line.
func (m *minorPlanner) find(p *Position, w Color) (int, bool) {
	m.w, m.l = w, w^1
	m.plies = 0
	np := m.choosePictures(p)
	for i := 0; i < np; i++ {
		m.pic = m.pics[i]
		if m.play(p) && replaysToMate(p, w, m.line[:m.n]) {
			return m.n, true
		}
	}
	return 0, false
}

// choosePictures fills m.pics with the best pictures, best first, and returns how many.
func (m *minorPlanner) choosePictures(p *Position) int {
	kl, kw := p.KingSquare(m.l), p.KingSquare(m.w)
	bishops := p.Pieces(m.w, Bishop)
	knights := p.Pieces(m.w, Knight)
	theirs := p.byColor[m.l] &^ p.byType[King]
	pawnsL := theirs & p.byType[Pawn]
	heavyL := (theirs & (p.byType[Rook] | p.byType[Queen])).Count()
	minorsL := (theirs &^ p.byType[Pawn]).Count() - heavyL
	// The pushes of l's two most advanced pawns: a fill square no piece can take needs
	// a pawn promoted to a knight or bishop.
	push := [2]int{minorNoPawn, minorNoPawn}
	for b := pawnsL; b != 0; {
		sq := b.PopFirst()
		k := 7 - sq.Rank()
		if m.l == Black {
			k = sq.Rank()
		}
		if k < push[0] {
			push[0], push[1] = k, push[0]
		} else if k < push[1] {
			push[1] = k
		}
	}
	n := 0
	for tb := minorEdge; tb != 0; {
		t := tb.PopFirst()
		// A bishop checks along a diagonal through t and covers the diagonal step; a
		// knight covers no flight square.
		var diags Bitboard
		if bishops&minorSameColour(t) != 0 {
			diags = kingAttacks[t] & BishopAttacks(t, 0)
		}
		if diags == 0 && knights == 0 {
			continue // no piece of w can ever check there
		}
		for {
			diag := diags & -diags
			for b := kingSpread(kingAttacks[t]) &^ kingAttacks[t] &^ t.Bitboard(); b != 0; {
				s := b.PopFirst()
				fill := kingAttacks[t] &^ kingAttacks[s] &^ diag
				have := minorsL + (fill & pawnsL).Count()
				if diag == 0 {
					have += heavyL
				}
				cost := 2*distance(kl, t) + distance(kw, s) + 2*fill.Count()
				for i := 0; i < fill.Count()-have; i++ {
					if i == 2 || push[i] == minorNoPawn {
						cost = -1
						break
					}
					cost += push[i] + 2
				}
				if cost < 0 {
					continue
				}
				pic := minorPicture{target: t, stand: s, fill: fill, heavyFills: diag == 0, cost: cost}
				n = m.insert(n, pic)
			}
			if diags &= diags - 1; diags == 0 {
				break
			}
		}
	}
	return n
}

// insert puts pic into the ranked m.pics[:n] (dropping the worst past minorPlans) and
// returns the new count.
func (m *minorPlanner) insert(n int, pic minorPicture) int {
	i := n
	if i == minorPlans {
		if pic.cost >= m.pics[i-1].cost {
			return n
		}
		i--
	} else {
		n++
	}
	for ; i > 0 && m.pics[i-1].cost > pic.cost; i-- {
		m.pics[i] = m.pics[i-1]
	}
	m.pics[i] = pic
	return n
}

// minorSameColour returns the squares of t's colour.
func minorSameColour(t Square) Bitboard {
	const light = Bitboard(0x55AA55AA55AA55AA)
	if light.Has(t) {
		return light
	}
	return ^light
}

// play plays m.pic from p into m.line; it reports whether the line ends with w mating.
func (m *minorPlanner) play(p *Position) bool {
	q := *p
	m.n = 0
	m.hashes[0] = q.hash
	best, stuck := int(^uint(0)>>1), 0
	for m.n < minorMaxPlies {
		q.LegalMoves(&m.ml)
		if m.ml.N == 0 {
			return false
		}
		var mv Move
		var cost int
		if q.turn == m.w {
			if mate, ok := m.mateIn1(&q); ok {
				m.line[m.n] = mate
				m.n++
				return true
			}
			mv, cost = m.choose(&q, true)
		} else {
			mv, cost = m.choose(&q, false)
		}
		if mv == NullMove {
			return false
		}
		if cost < best {
			best, stuck = cost, 0
		} else if stuck++; stuck > minorStuckPlies {
			return false
		}
		q = q.Play(mv)
		m.line[m.n] = mv
		m.n++
		m.hashes[m.n] = q.hash
		m.plies++
	}
	return false
}

// minorStuckPlies is the number of plies a picture may play without a side reaching a
// lower cost than before before it gives up.
const minorStuckPlies = 10

// mateIn1 returns a move of m.ml (w to move in q) that mates at once.
func (m *minorPlanner) mateIn1(q *Position) (Move, bool) {
	k := q.KingSquare(m.l)
	for _, mv := range m.ml.Moves[:m.ml.N] {
		if !q.givesCheck(mv, k) {
			continue
		}
		if child := q.Play(mv); checkmated(&child) {
			return mv, true
		}
	}
	return NullMove, false
}

// choose returns the move of m.ml of least cost (by the position it leads to) for w
// (winner) or l, with its cost; NullMove when every move is ruled out. A move of w that
// stalemates is replaced by the next best.
func (m *minorPlanner) choose(q *Position, winner bool) (Move, int) {
	var banned Move = NullMove
	for {
		best, bestCost := NullMove, int(^uint(0)>>1)
		var bestChild Position
		for _, mv := range m.ml.Moves[:m.ml.N] {
			if mv == banned {
				continue
			}
			child := q.Play(mv)
			if m.seen(child.hash) {
				continue
			}
			var c int
			if winner {
				c = m.costW(q, &child, mv)
			} else {
				c = m.costL(q, &child, mv)
			}
			if c < bestCost {
				best, bestCost, bestChild = mv, c, child
			}
		}
		if best == NullMove || bestCost >= minorRuledOut {
			return NullMove, 0
		}
		if !winner || bestChild.HasLegalMove() || banned != NullMove {
			if !bestChild.HasLegalMove() {
				return NullMove, 0
			}
			return best, bestCost
		}
		banned = best
	}
}

// seen reports whether a position of hash h is already in the line.
func (m *minorPlanner) seen(h uint64) bool {
	for _, x := range m.hashes[:m.n+1] {
		if x == h {
			return true
		}
	}
	return false
}

// minorRuledOut is the cost of a move never to be chosen.
const minorRuledOut = 1 << 20

// costW scores w's move mv from q to child: lower is better.
func (m *minorPlanner) costW(q, child *Position, mv Move) int {
	if child.InCheck() {
		return minorRuledOut // a check that does not mate
	}
	heavy := child.byType[Rook] | child.byType[Queen]
	if cap := q.board[mv.To()].Type(); q.board[mv.To()] != NoPiece && cap != Rook && cap != Queen {
		return minorRuledOut // a pawn or minor piece of l: l needs them to fill
	}
	c := 4 * distance(child.KingSquare(m.w), m.pic.stand)
	c += 12 * (child.byColor[m.l] & heavy &^ m.heavyFill()).Count()
	for b := child.Pieces(m.w, Knight); b != 0; {
		c += distance(b.PopFirst(), m.pic.target)
	}
	// A bishop one move from a square where it would check on the target.
	occ := child.byType[0]
	checks := BishopAttacks(m.pic.target, occ) &^ child.byColor[m.w]
	for b := child.Pieces(m.w, Bishop) & minorSameColour(m.pic.target); b != 0; {
		if BishopAttacks(b.PopFirst(), occ)&checks == 0 {
			c += 3
		}
	}
	return c
}

// heavyFill returns the fill squares a rook or queen of l may stand on in m.pic.
func (m *minorPlanner) heavyFill() Bitboard {
	if m.pic.heavyFills {
		return m.pic.fill
	}
	return 0
}

// costL scores l's move mv from q to child: lower is better.
func (m *minorPlanner) costL(q, child *Position, mv Move) int {
	if q.board[mv.To()] != NoPiece {
		return minorRuledOut // a capture of a piece w may mate with
	}
	if pr := mv.Promotion(); pr == Queen || pr == Rook {
		return minorRuledOut // a new piece that could interpose or capture
	}
	if child.InCheck() {
		// A check only to offer the checker: a rook or queen w takes.
		if pt := child.board[mv.To()].Type(); pt != Rook && pt != Queen ||
			!child.attacked(mv.To(), m.w, child.byType[0]) {
			return minorRuledOut
		}
	}
	heavy := child.byType[Rook] | child.byType[Queen]
	ours := child.byColor[m.l] &^ child.byType[King]
	fillers := ours &^ heavy
	if m.pic.heavyFills {
		fillers = ours
	}
	occ := child.byType[0]
	c := 16 * distance(child.KingSquare(m.l), m.pic.target)
	empty := 0
	for b := m.pic.fill &^ fillers; b != 0; {
		f := b.PopFirst()
		empty++
		c += 6
		if child.AttackersTo(f, m.l, occ)&fillers&^child.byType[Pawn] == 0 {
			c += 3
		}
	}
	attW := child.attacksBy(m.w, occ)
	spare := 0
	for b := ours &^ (m.pic.fill & fillers) &^ child.byType[Pawn]; b != 0; {
		sq := b.PopFirst()
		switch pt := child.board[sq].Type(); {
		case (pt == Rook || pt == Queen) && !attW.Has(sq):
			c += 8
		case pt == Knight || pt == Bishop:
			c += 2
			spare++
			if empty > 0 {
				c += minorNearest(sq, m.pic.fill&^fillers)
			}
		}
	}
	if empty > spare {
		// A pawn of l is to promote to a knight or bishop to fill.
		c += 2 * m.pushesLeft(child)
	}
	return c
}

// pushesLeft returns the pushes l's most advanced pawn needs to promote (8 with none).
func (m *minorPlanner) pushesLeft(p *Position) int {
	pawns := p.Pieces(m.l, Pawn)
	if pawns == 0 {
		return 8
	}
	if m.l == White {
		return 7 - Square(63-bits.LeadingZeros64(uint64(pawns))).Rank()
	}
	return pawns.First().Rank()
}

// minorNearest returns the king-step distance from sq to the nearest square of b.
func minorNearest(sq Square, b Bitboard) int {
	best := 8
	for b != 0 {
		best = min(best, distance(sq, b.PopFirst()))
	}
	return best
}
