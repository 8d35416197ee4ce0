// deadposition_plan_minor.go: the minor-piece mate planner: a winner with only bishops,
// knights and pawns mates the loser's king on the edge, walled in by the loser's own pieces.
//
// # Method
//
// A winner w with no rook or queen can mate only where the loser l's own pieces take the
// king's flight squares: the flag falls that matter in real play (a lone bishop or
// knight against rook and pawns). The planner tries pictures: a square t on the edge
// for l's king, a stand s two steps from t for w's king, and the flight squares of t that
// s does not cover (nor a bishop's check along a diagonal into t) to be filled by l's
// pieces: a pawn already there, a knight, a bishop (on the fill squares of its colour),
// a rook or queen only against a knight's check (against a bishop's it would
// interpose), or a pawn promoted to a knight or bishop for it. A bishop mates from the
// diagonal step into t when w's king on s guards it (the mating square: nothing of l
// interposes there), else from along that diagonal. The pictures are ranked by cheap
// estimates (twice the loser king's distance to t, the winner king's to s, the fill
// squares, twice the moves the nearest knight, bishop or (against a knight's check)
// rook or queen of l needs to each fill square on an empty board, at most 3
// (fillReach), the pushes and knight moves of the pawns to promote, minorBlockedCost
// for such a pawn with the stand or the target on its way, minorEdgeCost off the
// corners); the best minorPlans are played, minorBudget plies at most over all of
// them (the planner gives up fast).
//
// Where w has a pawn, the promotion planner (deadposition_plan_promote.go) runs first
// (decider.planStep): on the real games it answers most of those positions (all those
// from 12 pieces) in a tenth of this planner's time.
//
// A picture is played move by move on real positions, greedily, each side ranking its
// legal moves by the position each leads to (no look-ahead), so the line is legal by
// construction. A move is scored on the pieces alone (the bitboards with the move made:
// no board, no hash); only the best so far is played whole, for its hash (a position
// already in the line), whether it stalemates and, for l, whether it checks. Whether a
// move of w checks is looked up (minorChecks: the squares each kind of piece checks
// from, the pieces that uncover a check), not played. The moves always ruled out are
// dropped before they are scored:
//
//   - w: a move that mates at once, tried first at every turn (it also catches mates the
//     picture did not foresee); with the picture standing (l's king on t, the fill
//     squares taken, w's king on s), a mate in two moves (a knight or bishop move from
//     where it can check next, any reply, mate: only the checking moves of w's knights,
//     bishops and pawns are tried, each alone, minorMateIn1); else the move of least
//     cost: its king's steps to s (a flood fill over the squares l does not attack), the
//     rooks and queens of l off the fill squares (w takes those l offers), a knight's
//     distance to t and its knight moves to a checking square, a bishop not one move
//     from the mating square or standing on the line through it and t (twice that when
//     it is not even one move from a square off that line that is one move from the
//     mating square: without that step the bishop wandered), a piece of w on t, s or a
//     fill square, a bishop pinning a piece of l to its king, a piece
//     attacking t before l's king stands there; never a check that does not mate nor a
//     capture of a pawn or minor piece (l needs them to fill).
//   - l: the move of least cost: its king's steps to t (a flood fill over the squares w
//     does not attack), each empty fill square (more when no piece of l reaches it at
//     once), each knight or bishop on a fill square from which it attacks the stand or
//     the mating square (as much as an empty one: it would check w's king there or take
//     the checker; l promotes to a bishop where a knight would), the moves of its spare
//     knights and bishops to them, each rook or queen off
//     the fill squares that w does not attack (l offers it: it could interpose or take
//     the checker; a check only to offer it), the pushes of its most advanced pawn while
//     a fill square lacks a piece, each push a pawn still needs before it stops guarding
//     s or the mating square; never a capture, a promotion to rook or queen, nor another
//     check.
//
// A move of w that stalemates, or of either side to a position already in the line, is
// replaced by the next best. A picture gives up when a side has no move left, neither
// side has lowered its cost for minorStuckPlies plies, l's king has been cut off from
// the target (the flood of l's turn does not reach it) for more than minorCutTurns
// turns in a row (on the real games a picture that mates never is for more than two;
// this cut the plies played by 6%), it has looked minorFinishes times
// for a mate in two and played minorAfterFinishes plies since (on the real games every
// mate found after that came within 8 plies), or the plies run out; the decision
// then goes on to the next step as if the planner had not run. It does not run where the
// structure (step 4, computed once and kept) proves No. A line found is replayed once
// more (replaysToMate): Yes only with a verified line, and never a No. A winner with
// only pawns goes to the pawn-run planner instead (deadposition_plan_minor_run.go).
//
// # Figures
//
// Measured on the real games (TestMinorPlannerRealGames: every position where a planner
// fits, for each colour): the two planners answer 703 of the 903 positions they fit.
// Where the decision reaches them (the endgame and middlegame planners failed, no
// structure proof), this planner answers 111 of 137 positions per pass over the real
// games and the pawn-run planner 156 of 165, where before this planner answered 77 of
// 137 and nothing answered the pawn-only winners. The best-first search then decides 27
// positions of 0-7 pieces instead of 189 (over three passes), 153 of 8-11 pieces
// instead of 549, and the slowest of them (a lone bishop against queen or rook, 13-18
// ms in the search) are answered here in 50-200 µs. BenchmarkCanCheckmate/real, in one
// sitting on a noisy machine: the mean fell from 45-75 µs to 37-53 µs, the largest
// decision from 19-55 ms to 2-5 ms.
//
// With the promotion planner first, the moves scored on the pieces alone and the give-up
// after the last mate in two (the answers are the same: the minor-piece step, the
// promotion planner after it, answers the same 820 of 835 decisions per pass), the step
// costs, in instructions counted by cachegrind per call on the decisions that reach it
// (BenchmarkCanCheckmate/real's, per class of piece count): 0-7 pieces 493 to 372
// thousand, 8-11 487 to 285, 12-19 396 to 120, 20 and more (the promotion planner alone
// nearly everywhere) 113 to 103. The planners of the step now answer 867 of the 903
// positions they fit (TestMinorPlannerRealGames). BenchmarkCanCheckmate/real went from
// 113 to 108 thousand instructions a decision.
//
// With the moves scored on bitboards alone, the checks looked up, the king steps read
// from bit planes of the flood (kingSteps) and the pawns' guards from masks made once a
// picture (guards), the mate in two among the checking moves only, and the pictures
// ranked also by the fillers' reach, this planner costs 41 instead of 56 million
// instructions over the 89 real-game decisions per pass that reach it (cachegrind), and
// answers one more of them (75 instead of 74). Its failed pictures are still about two
// thirds of the plies it plays: most give up by minorStuckPlies, two thirds of those
// with both kings in place and one fill square empty, and no cheap test found tells
// them apart from the pictures that mate: those also wait up to 31 plies for their last
// filler, and counting the units of l that could still fill never found one short.
//
// Then (one sitting, BenchmarkCanCheckmate/real's 12,708 decisions, 83 of which reach
// this planner): the table of knight moves (minorKnightMoves), built from knightAttacks
// before init filled it, had been all zeros, so that no knight of either side was ever
// drawn towards its square; built with knightSpread, and with a bishop two moves from
// the mating square drawn to a square one move from it, a filler that would attack the
// stand or the mating square counted as missing, the pictures with a king in the way
// of the pawn to promote ranked lower and a picture given up once l's king is cut off
// from the target, the planner answers all 83 (75 before: the search then took 211 to
// 6,708 nodes for each of the 8 others), its pictures play 2,592 plies a pass instead
// of 5,854, and a call costs 251 thousand instructions and 1,712 mispredicted branches
// instead of 454 thousand and 2,938. The best-first search is reached by 6 real
// decisions instead of 14 (2,266 nodes a pass instead of 21,547), none of them a
// winner with only minor pieces; a decision costs 55,403 instructions instead of 58,650.
// Tried and dropped: a knight drawn less towards the target (1% fewer plies), w's king
// held back while l's king is far from the target (1%), a picture given up when w's
// king is cut off from the stand (it lost answers), a filler counted missing when it
// attacks every square a knight would mate from (no gain).

package chesscore

import "math/bits"

// minorPlans is the number of pictures played.
const minorPlans = 5

// minorBudget bounds the plies played over all the pictures of one decision (the
// replies tried by a mate in two count too): the planner gives up fast.
const minorBudget = 240

// minorMaxPlies bounds the line of one picture.
const minorMaxPlies = 64

// minorPicture is a mating picture of the minor-piece planner: l's king on target, w's
// king on stand, fill the flight squares l's own pieces must take; cost ranks it.
type minorPicture struct {
	target, stand Square
	fill          Bitboard
	heavyFills    bool   // a rook or queen of l may fill (a knight checks: nothing to interpose)
	check         Square // the diagonal step w's king guards, where a bishop mates; else NoSquare
	cost          int
}

// minorPlanner is the state of the minor-piece planner (kept in the pooled decider).
type minorPlanner struct {
	w, l    Color
	pic     minorPicture
	n       int // plies of line
	plies   int // plies played over every picture tried (the decision's nodes)
	line    [minorMaxPlies]Move
	hashes  [minorMaxPlies + 1]uint64
	pics    [minorPlans]minorPicture
	ml      MoveList
	costs   [MaxMoves]int  // by move of ml: its cost
	checks  [MaxMoves]bool // by move of ml (w to move): whether it gives check
	child   Position       // the position a move is scored on (choose)
	next    Position       // the position after the move choose returns
	attW    Bitboard       // the squares w attacks before l's move
	steps   [4]Bitboard    // the last flood: bit k of a square's king steps to the goal
	within  Bitboard       // the last flood: the squares fewer than minorRings steps away
	guard   [3]Bitboard    // by push i: the squares where a pawn of l still guards after i pushes
	guarded Bitboard       // the stand and the mating square: no piece of l may attack them
	run     runPlanner     // the pawn-run planner, for a winner with only pawns
}

// minorRings is the number of flood-fill rings kept: farther squares count as that far.
const minorRings = 16

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
	if d.provenByStructure(c) {
		return Decision{}, false // the structure's proof (step 4, cached) is cheaper
	}
	if d.minor == nil {
		d.minor = new(minorPlanner)
	}
	n, ok := d.minor.find(&d.root, c)
	if !ok {
		return Decision{}, false
	}
	return Decision{Verdict: Yes, Proof: ProofMate, Line: d.minor.line[:n], Nodes: d.minor.plies}, true
}

// minorNoPawn stands for the pushes of a pawn l does not have.
const minorNoPawn = 99

// minorEdgeCost is added to the cost of a picture on an edge rather than in a corner.
const minorEdgeCost = 8

// minorEdge is the squares on the edge of the board, where the pictures put l's king.
const minorEdge = Bitboard(0xFF818181818181FF)

// find looks for a helpmate by w from p with the pictures; it returns the line's length
// and whether a verified line is in m.line.
func (m *minorPlanner) find(p *Position, w Color) (int, bool) {
	m.w, m.l = w, w^1
	m.plies = 0
	np := m.choosePictures(p)
	for i := 0; i < np && m.plies < minorBudget; i++ {
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
	knightsL := (theirs & p.byType[Knight]).Count()
	bishopsL := theirs & p.byType[Bishop]
	reach := m.fillReach(p)
	push0, at0 := m.twoPushes(pawnsL)
	n := 0
	for tb := minorEdge; tb != 0; {
		t := tb.PopFirst()
		// Every term of a picture's cost adds: a target farther than the worst picture
		// kept is not looked at.
		base := 2 * distance(kl, t)
		if kingAttacks[t].Count() > 3 {
			base += minorEdgeCost // five flight squares: more can go wrong
		}
		if n == minorPlans && base >= m.pics[n-1].cost {
			continue
		}
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
				cost := base + distance(kw, s) + 2*fill.Count()
				if n == minorPlans && cost >= m.pics[n-1].cost {
					continue
				}
				heavyReach := 0 // a rook or queen of l fills only against a knight's check
				if diag == 0 {
					heavyReach = 1
				}
				for f := fill &^ pawnsL; f != 0; {
					cost += 2 * int(reach[heavyReach][f.PopFirst()]) // the filler's moves there
				}
				if n == minorPlans && cost >= m.pics[n-1].cost {
					continue // the pushes only add: it would not be kept
				}
				have := knightsL + (fill & pawnsL).Count()
				for b := bishopsL; b != 0; {
					if minorSameColour(b.PopFirst())&fill&^pawnsL != 0 {
						have++ // a bishop reaches only the fill squares of its colour
					}
				}
				if diag == 0 {
					have += heavyL
				}
				var push [2]int
				var at [2]Square
				if fill.Count() > have {
					push, at = push0, at0
					if fill&pawnsL != 0 {
						push, at = m.twoPushes(pawnsL &^ fill) // the pawns on fill squares stay
					}
				}
				for i := 0; i < fill.Count()-have; i++ {
					if i == 2 || push[i] == minorNoPawn {
						cost = -1
						break
					}
					cost += push[i] + 2 + minorKnightNearest(at[i], fill)
					if minorAhead(at[i], push[i], s) || minorAhead(at[i], push[i], t) {
						cost += minorBlockedCost // a king would stand in the pawn's way
					}
				}
				if cost < 0 {
					continue
				}
				check := NoSquare
				if diag&kingAttacks[s] != 0 {
					check = diag.First()
				}
				pic := minorPicture{target: t, stand: s, fill: fill, heavyFills: diag == 0, check: check, cost: cost}
				n = m.insert(n, pic)
			}
			if diags &= diags - 1; diags == 0 {
				break
			}
		}
	}
	return n
}

// minorBlockedCost is added to the cost of a picture for each pawn of l to promote whose
// way the stand or the target crosses.
const minorBlockedCost = 8

// minorAhead reports whether sq lies on the way of a pawn that promotes on promo after
// pushes more pushes (the squares it has still to pass, promo included).
func minorAhead(promo Square, pushes int, sq Square) bool {
	if sq.File() != promo.File() {
		return false
	}
	if promo.Rank() == 7 {
		return sq.Rank() > 7-pushes
	}
	return sq.Rank() < pushes
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
	m.guards()
	best, stuck := [2]int{int(^uint(0) >> 1), int(^uint(0) >> 1)}, 0
	finishes, finished, cut := 0, 0, 0
	for m.n < minorMaxPlies && m.plies < minorBudget {
		if finishes == minorFinishes && m.n-finished > minorAfterFinishes {
			return false // the picture stood twice and did not mate
		}
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
			if finishes < minorFinishes && m.n+3 <= minorMaxPlies && m.ready(&q) {
				finishes, finished = finishes+1, m.n
				if m.mateIn2(&q) {
					return true
				}
				q.LegalMoves(&m.ml)
			}
			occ := q.byType[0] &^ q.byColor[m.w]
			m.flood(m.pic.stand, ^q.attacksBy(m.l, occ)&^(q.byColor[m.w]&^q.byType[King]))
			mv, cost = m.choose(&q, true)
		} else {
			occ := q.byType[0] &^ q.byColor[m.l]
			m.attW = q.attacksBy(m.w, q.byType[0])
			m.flood(m.pic.target, ^q.attacksBy(m.w, occ)&^(q.byColor[m.l]&^q.byType[King]))
			if m.within.Has(q.KingSquare(m.l)) {
				cut = 0
			} else if cut++; cut > minorCutTurns {
				return false // l's king kept from its target
			}
			mv, cost = m.choose(&q, false)
		}
		if mv == NullMove {
			return false
		}
		if cost < best[q.turn] {
			best[q.turn], stuck = cost, 0
		} else if stuck++; stuck > minorStuckPlies {
			return false
		}
		q = m.next
		m.line[m.n] = mv
		m.n++
		m.hashes[m.n] = q.hash
		m.plies++
	}
	return false
}

// minorStuckPlies is the number of plies a picture may play without either side reaching
// a lower cost than it had before: then it gives up.
const minorStuckPlies = 16

// minorCutTurns is the number of turns in a row l's king may be cut off from the target
// (no king steps reach it over the squares w does not attack) before the picture gives up.
const minorCutTurns = 4

// minorFinishes is the number of times a picture looks for a mate in two moves of w.
const minorFinishes = 2

// minorAfterFinishes is the number of plies a picture plays on after its last look for a
// mate in two before it gives up.
const minorAfterFinishes = 8

// ready reports whether the picture stands (w to move in q): l's king on the target, the
// fill squares taken by l, w's king on the stand. Only a move of w's checker is missing.
func (m *minorPlanner) ready(q *Position) bool {
	return q.KingSquare(m.l) == m.pic.target && q.KingSquare(m.w) == m.pic.stand &&
		m.pic.fill&^q.byColor[m.l] == 0
}

// mateIn2 looks (w to move in q, after m.line[:m.n]) for a move of w, any reply of l and a
// mate by w; it appends the three moves to the line and reports whether it found them.
func (m *minorPlanner) mateIn2(q *Position) bool {
	var replies MoveList
	k := q.KingSquare(m.l)
	for _, mv := range m.ml.Moves[:m.ml.N] {
		if !m.nearCheck(q, mv, k) || q.givesCheck(mv, k) {
			continue // only the checker's move is missing; a check is not mate (mateIn1 ran)
		}
		c1 := q.Play(mv)
		c1.LegalMoves(&replies)
		for _, r := range replies.Moves[:replies.N] {
			c2 := c1.Play(r)
			m.plies++
			if mate, ok := minorMateIn1(&c2); ok {
				m.line[m.n], m.line[m.n+1], m.line[m.n+2] = mv, r, mate
				m.n += 3
				return true
			}
		}
	}
	return false
}

// minorMateIn1 returns a move of the side to move in q that mates at once. Only the
// checking moves are tried, each tested alone (IsLegal): a knight, bishop or pawn onto a
// square it checks from (minorChecks). Where a check may come otherwise (a rook or
// queen of the side, a piece between its slider and the king, a promotion or an en
// passant capture in reach), it asks mateIn1Move, which tries every legal move.
func minorMateIn1(q *Position) (Move, bool) {
	us := q.turn
	ours := q.byColor[us]
	pawns := q.byType[Pawn] & ours
	if q.ep != NoSquare || ours&(q.byType[Rook]|q.byType[Queen]) != 0 || pawns&pushUp(pawnLastRank[us], us^1) != 0 {
		return mateIn1Move(q, us)
	}
	var cs minorChecks
	cs.init(q)
	if cs.discover != 0 {
		return mateIn1Move(q, us)
	}
	occ := q.byType[0]
	try := func(mv Move) bool {
		if !q.IsLegal(mv) {
			return false
		}
		child := q.Play(mv)
		return checkmated(&child)
	}
	for b := q.byType[Knight] & ours; b != 0; {
		from := b.PopFirst()
		for t := knightAttacks[from] & cs.knight &^ ours; t != 0; {
			if mv := NewMove(from, t.PopFirst()); try(mv) {
				return mv, true
			}
		}
	}
	for b := q.byType[Bishop] & ours; b != 0; {
		from := b.PopFirst()
		for t := BishopAttacks(from, occ) & cs.diag &^ ours; t != 0; {
			if mv := NewMove(from, t.PopFirst()); try(mv) {
				return mv, true
			}
		}
	}
	// The pawns: a push onto an empty square (two from the start), or a capture.
	theirs := q.byColor[us^1]
	for t := cs.pawn &^ occ; t != 0; {
		to := t.PopFirst()
		from := Square(int(to) - pawnUp[us])
		if from < 64 && pawns.Has(from) {
			if mv := NewMove(from, to); try(mv) {
				return mv, true
			}
		}
		if from < 64 && !occ.Has(from) && pawnRank3[us].Has(from) {
			if from2 := Square(int(from) - pawnUp[us]); pawns.Has(from2) {
				if mv := NewMove(from2, to); try(mv) {
					return mv, true
				}
			}
		}
	}
	for t := cs.pawn & theirs; t != 0; {
		to := t.PopFirst()
		for f := pawnAttacks[us^1][to] & pawns; f != 0; {
			if mv := NewMove(f.PopFirst(), to); try(mv) {
				return mv, true
			}
		}
	}
	return NullMove, false
}

// nearCheck reports whether mv (w to move in q) takes a knight or bishop of w to a
// square from which it can check l's king on k with its next move.
func (m *minorPlanner) nearCheck(q *Position, mv Move, k Square) bool {
	to := mv.To()
	switch q.board[mv.From()].Type() {
	case Knight:
		return knightAttacks[to]&knightAttacks[k]&^q.byColor[m.w] != 0
	case Bishop:
		occ := q.byType[0] &^ mv.From().Bitboard()
		return BishopAttacks(to, occ)&BishopAttacks(k, occ)&^q.byColor[m.w] != 0
	}
	return false
}

// mateIn1 returns a move of m.ml (w to move in q) that mates at once; it notes in
// m.checks which moves give check (choose reads them).
func (m *minorPlanner) mateIn1(q *Position) (Move, bool) {
	var cs minorChecks
	cs.init(q)
	for i, mv := range m.ml.Moves[:m.ml.N] {
		m.checks[i] = cs.gives(q, mv)
		if !m.checks[i] {
			continue
		}
		if child := q.Play(mv); checkmated(&child) {
			return mv, true
		}
	}
	return NullMove, false
}

// minorChecks holds, for the side to move in a position, the squares from which each
// kind of its pieces would check the enemy king, and its pieces that would check by
// moving off a line: whether a move checks is then a lookup (gives).
type minorChecks struct {
	k              Square
	pawn, knight   Bitboard // the squares a pawn or knight of the side checks from
	diag, straight Bitboard // the squares a bishop (diag), rook (straight) or queen checks from
	discover       Bitboard // the side's pieces alone between its slider and the king
}

// init fills cs for the side to move in q.
func (cs *minorChecks) init(q *Position) {
	us := q.turn
	k := q.KingSquare(us ^ 1)
	occ := q.byType[0]
	ours := q.byColor[us]
	cs.k = k
	cs.pawn = pawnAttacks[us^1][k]
	cs.knight = knightAttacks[k]
	cs.diag = BishopAttacks(k, occ)
	cs.straight = RookAttacks(k, occ)
	cs.discover = 0
	diagSliders := (q.byType[Bishop] | q.byType[Queen]) & ours & BishopAttacks(k, 0)
	straightSliders := (q.byType[Rook] | q.byType[Queen]) & ours & RookAttacks(k, 0)
	for b := diagSliders | straightSliders; b != 0; {
		if between := Between(b.PopFirst(), k) & occ; between.Count() == 1 && between&ours != 0 {
			cs.discover |= between
		}
	}
}

// gives reports whether mv (of the side to move in q, for which cs was filled) checks.
// A normal move is looked up: the piece lands on a square it checks from (the square it
// leaves cannot open its own line: it would have been checking already), or it leaves
// a line between its slider and the king; other moves are asked of givesCheck.
func (cs *minorChecks) gives(q *Position, mv Move) bool {
	if mv.Kind() != NormalMove {
		return q.givesCheck(mv, cs.k)
	}
	from, to := mv.From(), mv.To()
	if cs.discover.Has(from) && !Line(cs.k, from).Has(to) {
		return true
	}
	switch q.board[from].Type() {
	case Pawn:
		return cs.pawn.Has(to)
	case Knight:
		return cs.knight.Has(to)
	case Bishop:
		return cs.diag.Has(to)
	case Rook:
		return cs.straight.Has(to)
	case Queen:
		return (cs.diag | cs.straight).Has(to)
	}
	return false
}

// choose returns the move of m.ml of least cost (by the position it leads to) for w
// (winner) or l, with its cost (the position it leads to in m.next); NullMove when every
// move is ruled out. A move leading to
// a position already in the line, or of w stalemating, is replaced by the next best.
// The moves are scored on m.child, the move applied to the pieces alone (no hash, no
// turn); only the best so far is played whole (its hash, whether it stalemates) and, for
// l, tested for check.
func (m *minorPlanner) choose(q *Position, winner bool) (Move, int) {
	moves := m.ml.Moves[:m.ml.N]
	child := &m.child
	best, bestCost := -1, minorRuledOut // the first move of least cost, found while scoring
	for i, mv := range moves {
		m.costs[i] = minorRuledOut
		capt := q.board[mv.To()]
		if winner {
			// A check that does not mate (mateIn1 ran and noted the checks), or a capture
			// of a pawn or minor piece of l (l needs them to fill).
			if m.checks[i] || capt != NoPiece && capt.Type() != Rook && capt.Type() != Queen {
				continue
			}
		} else if capt != NoPiece || mv.Promotion() == Queen || mv.Promotion() == Rook {
			continue // a capture of a piece w may mate with, a piece that could interpose
		}
		minorApply(child, q, mv)
		c := 0
		if winner {
			c = m.costW(child)
		} else {
			c = m.costL(child)
		}
		m.costs[i] = c
		if c < bestCost {
			best, bestCost = i, c
		}
	}
	k := q.KingSquare(q.turn ^ 1)
	for {
		if best < 0 {
			return NullMove, 0
		}
		mv := moves[best]
		// l checks only to offer the checker: a rook or queen w takes.
		if winner || !q.givesCheck(mv, k) || m.offered(q, mv) {
			if m.next = q.Play(mv); !m.seen(m.next.hash) && (!winner || m.next.HasLegalMove()) {
				return mv, m.costs[best]
			}
		}
		m.costs[best] = minorRuledOut
		best = -1
		for i := range moves {
			if m.costs[i] < minorRuledOut && (best < 0 || m.costs[i] < m.costs[best]) {
				best = i
			}
		}
	}
}

// minorApply sets dst's bitboards to q's with mv applied to the pieces alone; the rest of
// dst (its board, hash, turn) is not kept and must not be read. Castling and en passant
// are played whole.
func minorApply(dst, q *Position, mv Move) {
	from, to := mv.From(), mv.To()
	switch mv.Kind() {
	case NormalMove, PromotionMove:
		dst.byType, dst.byColor = q.byType, q.byColor
		fb, tb := from.Bitboard(), to.Bitboard()
		if capt := q.board[to]; capt != NoPiece {
			dst.byType[capt&7] &^= tb
			dst.byColor[capt>>3] &^= tb
		}
		pc := q.board[from]
		pt := pc.Type()
		if mv.Kind() == PromotionMove {
			pt = mv.Promotion()
		}
		dst.byType[pc&7] &^= fb
		dst.byType[pt] |= tb
		dst.byType[0] = dst.byType[0]&^fb | tb
		dst.byColor[pc>>3] = dst.byColor[pc>>3]&^fb | tb
	default:
		*dst = q.Play(mv)
	}
}

// offered reports whether l's checking move mv (l to move in q) offers the checker, a
// rook or queen, to w.
func (m *minorPlanner) offered(q *Position, mv Move) bool {
	pt := q.board[mv.From()].Type()
	if mv.Kind() == PromotionMove {
		pt = mv.Promotion()
	}
	if pt != Rook && pt != Queen {
		return false
	}
	minorApply(&m.child, q, mv)
	return m.child.attacked(mv.To(), m.w, m.child.byType[0])
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
func (m *minorPlanner) costW(child *Position) int {
	heavy := child.byType[Rook] | child.byType[Queen]
	c := 4 * m.kingSteps(child.KingSquare(m.w))
	c += 12 * (child.byColor[m.l] & heavy &^ m.heavyFill()).Count()
	occ := child.byType[0]
	kl := child.KingSquare(m.l)
	away := kl != m.pic.target // the target must stay free of w's attacks for l's king
	// A knight one move from a square where it would check on the target.
	for b := child.Pieces(m.w, Knight); b != 0; {
		sq := b.PopFirst()
		c += distance(sq, m.pic.target) + 2*max(minorKnightNearest(sq, knightAttacks[m.pic.target]&^child.byColor[m.w])-1, 0)
		if away && knightAttacks[sq].Has(m.pic.target) {
			c += 4
		}
	}
	// A bishop one move from a square where it would check on the target.
	var checks, xray, before Bitboard // xray: a bishop there pins what stands between it and the target
	if m.pic.check != NoSquare {
		checks = m.pic.check.Bitboard() // the mate comes from the square w's king guards
		xray = Line(m.pic.target, m.pic.check)
		// before: the squares one move from the mating square, off the line through the
		// target (a bishop there would check at once): a bishop two moves away goes there.
		before = BishopAttacks(m.pic.check, occ) &^ xray &^ child.byColor[m.w]
	} else {
		checks = BishopAttacks(m.pic.target, occ) &^ child.byColor[m.w]
	}
	for b := child.Pieces(m.w, Bishop) & minorSameColour(m.pic.target); b != 0; {
		sq := b.PopFirst()
		att := BishopAttacks(sq, occ)
		if att&checks == 0 || xray.Has(sq) {
			c += 3
			if before != 0 && att&before == 0 {
				c += 3
			}
		}
		if away && att.Has(m.pic.target) {
			c += 4
		}
	}
	// A piece of w in the way: on the target, a fill square or the stand.
	c += 8 * (child.byColor[m.w] &^ child.byType[King] & (m.pic.fill | m.pic.target.Bitboard() | m.pic.stand.Bitboard())).Count()
	// A bishop pinning a piece of l to its king: the piece could not go to its square.
	for b := child.Pieces(m.w, Bishop) & BishopAttacks(kl, 0); b != 0; {
		if (Between(b.PopFirst(), kl) & occ).Count() == 1 {
			c += 6
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

// costL scores l's move from q to child: lower is better.
func (m *minorPlanner) costL(child *Position) int {
	heavy := child.byType[Rook] | child.byType[Queen]
	ours := child.byColor[m.l] &^ child.byType[King]
	fillers := ours &^ heavy
	if m.pic.heavyFills {
		fillers = ours
	}
	occ := child.byType[0]
	c := 16 * m.kingSteps(child.KingSquare(m.l))
	empty := 0
	for b := m.pic.fill &^ fillers; b != 0; {
		f := b.PopFirst()
		empty++
		c += 6
		// No knight, bishop or (filling) rook or queen of l reaches it at once.
		hit := knightAttacks[f]&child.byType[Knight] | BishopAttacks(f, occ)&(child.byType[Bishop]|child.byType[Queen])
		if m.pic.heavyFills {
			hit |= RookAttacks(f, occ) & (child.byType[Rook] | child.byType[Queen])
		}
		if hit&fillers&^child.byType[Pawn] == 0 {
			c += 3
		}
	}
	// A knight or bishop of l on a fill square from which it attacks the stand or the
	// mating square counts as missing: it would check w's king there, or take the
	// checker (a knight promoted where a bishop fits).
	for b := m.pic.fill & fillers & (child.byType[Knight] | child.byType[Bishop]); b != 0; {
		f := b.PopFirst()
		att := knightAttacks[f]
		if child.byType[Bishop].Has(f) {
			att = BishopAttacks(f, occ)
		}
		if att&m.guarded != 0 {
			c += 9
		}
	}
	// A pawn of l guarding the stand or the mating square: 6 for each push still guarding
	// (m.guard, up to three pushes).
	pawnsL := child.Pieces(m.l, Pawn)
	c += 6 * ((pawnsL & m.guard[0]).Count() + (pawnsL & m.guard[1]).Count() + (pawnsL & m.guard[2]).Count())
	attW := m.attW // l captures nothing: w's attacks barely change with its move
	spare := 0
	for b := ours &^ (m.pic.fill & fillers) &^ child.byType[Pawn]; b != 0; {
		sq := b.PopFirst()
		switch { // the piece's type read from the bitboards (minorApply keeps no board)
		case heavy.Has(sq):
			if !attW.Has(sq) {
				c += 8
			}
		default: // a knight or bishop
			c += 2
			spare++
			if empty > 0 {
				if child.byType[Bishop].Has(sq) {
					c += 2 * minorNearest(Bishop, sq, m.pic.fill&^fillers)
				} else {
					c += 2 * minorKnightNearest(sq, m.pic.fill&^fillers)
				}
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

// minorNearest returns the moves a piece of type pt on sq needs to the nearest square of
// b.
func minorNearest(pt PieceType, sq Square, b Bitboard) int {
	best := 8
	for b != 0 {
		best = min(best, minorMoves(pt, sq, b.PopFirst()))
	}
	return best
}

// minorKnightNearest is minorNearest for a knight: the knight moves from sq to the
// nearest square of b (8 with none).
func minorKnightNearest(sq Square, b Bitboard) int {
	best := uint8(8)
	row := &minorKnightMoves[sq]
	for b != 0 {
		best = min(best, row[b.PopFirst()])
	}
	return int(best)
}

// flood fills in the king steps from every square to goal over the squares allowed, up
// to minorRings-1 steps, as bit planes (m.steps) and the squares reached (m.within).
func (m *minorPlanner) flood(goal Square, allowed Bitboard) {
	r := goal.Bitboard()
	m.steps = [4]Bitboard{}
	for d := 1; d < minorRings; d++ {
		next := r | kingSpread(r)&allowed
		if next == r {
			break
		}
		ring := next &^ r
		for k := range m.steps {
			if d>>k&1 != 0 {
				m.steps[k] |= ring
			}
		}
		r = next
	}
	m.within = r
}

// kingSteps returns the king steps from sq to the goal of the last flood (minorRings when
// too far or cut off).
func (m *minorPlanner) kingSteps(sq Square) int {
	if !m.within.Has(sq) {
		return minorRings
	}
	return int(m.steps[0]>>sq&1 | m.steps[1]>>sq&1<<1 | m.steps[2]>>sq&1<<2 | m.steps[3]>>sq&1<<3)
}

// minorKnightMoves holds the knight moves between every pair of squares. It is built
// with knightSpread: the attack tables (knightAttacks) are filled only by init, after
// the package's variables (built from them, this table was all zeros).
var minorKnightMoves = func() (t [64][64]uint8) {
	for from := Square(0); from < 64; from++ {
		reached := from.Bitboard()
		frontier := reached
		for d := uint8(1); frontier != 0; d++ {
			next := knightSpread(frontier)
			frontier = next &^ reached
			reached |= next
			for b := frontier; b != 0; {
				t[from][b.PopFirst()] = d
			}
		}
	}
	return t
}()

// minorMoves returns the moves a piece of type pt needs from sq to to on an empty board
// (8 when it never gets there).
func minorMoves(pt PieceType, sq, to Square) int {
	switch {
	case sq == to:
		return 0
	case pt == Knight:
		return int(minorKnightMoves[sq][to])
	case pt == Bishop:
		if !minorSameColour(sq).Has(to) {
			return 8
		}
		if BishopAttacks(sq, 0).Has(to) {
			return 1
		}
		return 2
	}
	return distance(sq, to)
}

// twoPushes returns, for the two most advanced of l's pawns, the pushes to promotion
// and the square where each promotes: a fill square no piece can take needs one of them
// promoted to a knight or bishop (minorNoPawn pushes for a pawn l does not have).
func (m *minorPlanner) twoPushes(pawns Bitboard) ([2]int, [2]Square) {
	push := [2]int{minorNoPawn, minorNoPawn}
	var at [2]Square
	for pawns != 0 {
		sq := pawns.PopFirst()
		k, promo := 7-sq.Rank(), MakeSquare(sq.File(), 7)
		if m.l == Black {
			k, promo = sq.Rank(), MakeSquare(sq.File(), 0)
		}
		if k < push[0] {
			push[0], push[1], at[0], at[1] = k, push[0], promo, at[0]
		} else if k < push[1] {
			push[1], at[1] = k, promo
		}
	}
	return push, at
}

// guards fills m.guard for m.pic: guard[i] holds the squares from which a pawn of l
// guards the stand or the mating square for at least i+1 of its next positions (it
// standing there, then pushed), up to three, before the last rank.
func (m *minorPlanner) guards() {
	guard := m.pic.stand.Bitboard()
	if m.pic.check != NoSquare {
		guard |= m.pic.check.Bitboard()
	}
	m.guarded = guard
	m.guard = [3]Bitboard{}
	for sq := Square(8); sq < 56; sq++ {
		s := sq
		for i := 0; i < 3 && s.Rank() > 0 && s.Rank() < 7 && pawnAttacks[m.l][s]&guard != 0; i++ {
			m.guard[i] |= sq.Bitboard()
			s = minorPush(s, m.l)
		}
	}
}

// minorPush returns the square in front of a pawn of colour c on sq.
func minorPush(sq Square, c Color) Square {
	if c == White {
		return sq + 8
	}
	return sq - 8
}

// fillReach returns, by square, the moves the nearest knight or bishop of l needs to
// it on an empty board, at most 3 ([0]), and the same with its rooks and queens too
// ([1]: where they may fill); a pawn promoted to fill is counted apart, by its pushes.
func (m *minorPlanner) fillReach(p *Position) (reach [2][64]int8) {
	for sq := range reach[0] {
		reach[0][sq], reach[1][sq] = 3, 3
	}
	for b := p.byColor[m.l] &^ p.byType[King] &^ p.byType[Pawn]; b != 0; {
		from := b.PopFirst()
		pt := p.board[from].Type()
		if pt == Knight || pt == Bishop {
			for sq := Square(0); sq < 64; sq++ {
				d := int8(min(minorMoves(pt, from, sq), 3))
				reach[0][sq] = min(reach[0][sq], d)
				reach[1][sq] = min(reach[1][sq], d)
			}
			continue
		}
		one := RookAttacks(from, 0) // a rook or queen: one move along its lines, else two
		if pt == Queen {
			one |= BishopAttacks(from, 0)
		}
		for sq := Square(0); sq < 64; sq++ {
			d := int8(2)
			if one.Has(sq) {
				d = 1
			}
			reach[1][sq] = min(reach[1][sq], d)
		}
		reach[1][from] = 0
	}
	return reach
}
