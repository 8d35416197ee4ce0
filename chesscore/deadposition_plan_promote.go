// deadposition_plan_promote.go: the promotion planner: a pawn of the winner runs to a
// queen (the loser clearing its way, offering units to take, or waiting) and the
// middlegame or endgame planner mates with the new queen.
//
// # Method
//
// Where the other planners fail, the search's mate nearly always promotes a pawn of the
// winner w first, the loser l stepping out of its way or making quiet moves, and the
// new queen mates, often after captures. The planner plays exactly that, choosing each
// move directly (whole move lists are scanned only for a wait, an offer or a step aside):
//
//   - Routes. For each pawn of w, the cheapest way to the last rank over the squares in
//     front of w's pawns, found cost level by cost level on bitboards (promoteReach: the
//     squares a route costs k or less from, made from the levels below k, with no branch
//     a square), each route then read back square by square as a dynamic programme
//     backwards rank by rank would choose it (TestPromoteRoutesMatchRankByRank). A push
//     onto an empty square costs 1; onto a piece (not a king) 2, since it must step
//     aside first; onto a pawn of l 2+promoteOfferCost when w can give that pawn a unit
//     to take (a unit of w on a square it takes on, or one that gets there in one or two
//     moves), else it closes the way, as any other pawn or a king does. A capture onto a
//     unit of l (not its king) costs 1; onto an empty square promoteOfferCost when a unit
//     of l can move there at once (l offers it), one more when that takes l two moves;
//     onto w's own units or a king, none. To a route's cost is added promoteCheckCost
//     when its promotion square is on a line
//     of l's king (the new queen would check at once); the promoteRoutes cheapest are
//     tried in turn.
//   - Play. w pushes (a double step where it can) or captures along the route; with its
//     way shut, a piece of w on the next square steps aside, or w gives the pawn of l in
//     the way a unit (or brings one nearer), else w waits. l first moves its units off
//     the route (a pawn only by taking), then offers a unit on the square w takes next
//     (or brings one a move nearer), else waits. A wait is a legal move that neither
//     captures nor checks, lands off the route and keeps the units w is to take where
//     they are; it prefers undoing the side's previous wait (a shuffle, checked alone
//     with IsLegal: no move list), then pieces away from their king (tried one by one in
//     the move list's order, each with IsLegal: waitAway; only without one is the list
//     made), then pawns, then the king (l's king keeps its wall). A side in check with
//     none of these moves gets out of it (w taking the checker where it can).
//   - Mate. With the queen on the board, the middlegame planner (from midMinPieces
//     pieces), then the endgame planner (up to endMaxPieces), runs on the new position;
//     the two lines joined are kept when the moves before the hand-over replay to the
//     position handed over (replaysToPosition), the other planner having verified its
//     own line from there. Yes only with a verified line, never a No. They are the
//     decider's own planners, not a second decider's (33.6 KB): the same instructions,
//     168 D1 misses a decision in cachegrind's cache model where a second set took 176.
//     Where l is to move after the promotion and not in check, it first waits (wait, as
//     in the play) and the planner is handed the position with w to move (its quick mate
//     in one fires at once, its plans start from w's move); only if that fails is the
//     endgame planner, where it fits, handed the position as the promotion left it. Of
//     2,527 such hand-overs to the middlegame planner on the real games, 2,472 mate after
//     the wait: 53,255-53,263 to 52,791-52,855 instructions a decision (icount2.sh, runs
//     vary by some 30; 463 to 462 mispredicts); 52,985 with the middlegame planner handed
//     the promoted position too after a failed wait. Measured and left out: no planner after a failed wait (53,778:
//     answers lost to the later steps); the endgame planner also after the wait, then on
//     the promoted position (52,803: the same within the noise), or only after the wait (52,860); a
//     mate in one looked for after the wait before the planner (mateIn1Move:
//     211 mates in 3,300 calls, 54,873: the move list costs more than the planner's
//     short mates, about 15 thousand instructions each); stopping after a route whose
//     play failed (no kind of failure, the mate, a loop or a side without a move,
//     foretells the next routes failing: 129 answers come from the second or third).
//
// It gives up at once when no pawn of w has a route, and a route when a side has no move
// to make, promoteMaxPlies plies are spent, or the play meets again the state it was in
// four plies before (the position, the previous waits, the route's step: the moves
// chosen depend on nothing else, so the two sides' shuffles would never end). On the
// real games that stops all 75 routes that ran to promoteMaxPlies, after 6 to 18 plies:
// 58,416 instructions a decision, was 58,607 (cachegrind's simple branch model counts
// 712 mispredicts, was 695, spread over functions this change does not touch: the code's
// layout moved).
//
// It runs ahead of the minor-piece planner (decider.planStep): where both fit, it
// answers most often and at a tenth of the cost.
//
// Measured on the real games (every position, both colours; the machine being noisy,
// also in instructions counted by cachegrind): of the decisions the other planners and
// the structure leave to the search, it answers 488 of 491 with 20 pieces or more, 49
// of 49 with 12 to 19 and 25 of 37 with fewer (TestPromotePlannerRealGames asks for 95%
// from 12 pieces), at 104, 123 and 82 thousand instructions a call against the search's
// 729, 793 and 1,741 thousand (about 25 us against 140 us; BenchmarkPromotePlanner), the
// middlegame planner on the promoted position most of that. With it,
// BenchmarkCanCheckmate/real went from 149 to 113 thousand instructions a decision
// (-24%; the mean from about 37 to 28 us, p99 from 300 to 185 us), the hard corpus from
// 1,467 to 1,112 thousand, BenchmarkGameDeadCheck from 67 to 63 thousand. Run first
// in the minor-piece step, it answers 17 of 17 of the decisions there with 12 to 19
// pieces (about 12 µs a call against the minor-piece planner's 180) and 28 of 38 with 8
// to 11; with 20 pieces or more it still costs about 100 thousand instructions a call
// (12-25 µs), three quarters of them the middlegame planner on the promoted position.
//
// Run first from 14 pieces where w has no queen (decider.planOrder), it is called 3,314
// times on the real corpus (12,708 decisions) and answers all but a few: find costs 240.7
// million instructions there (callgrind), 73 thousand a call: the mate after the
// promotion 176.8 million (the middlegame planner some 52 thousand a call, 3,100 calls;
// the endgame planner 330), the play before it 26 million, the routes 19.3 million (25.6
// before the capture squares were asked one by one: reachesIn2, giftOn), the final
// replay 18.5 million. Later, with 209 million in all for the same calls: the mate 154.5
// million (the middlegame planner 137, 44 thousand a call; the endgame planner 16), the
// routes 19.3 million (about 120 mispredicts a call in cachegrind's model: the
// rank-by-rank programme branched on every square), the play before the mate 26, the
// replay 9. Then (cachegrind, BenchmarkCanCheckmate/real, a decision): the routes by
// levels (12.4 million, about 68 mispredicts a call), the loop's stop, the decider's own
// planners for the mate, the moves made in place and the routes ranked without the
// king-distance term took 58,607 instructions to 57,632 and find to 196.8 million (the
// mate 152.9: the middlegame planner 133.6, the endgame planner 17.9; the play 22.6; the
// routes 12.4; the replay 8.7). The mate's cost follows its length (2 plies about 2.5
// µs, 4 plies 4, 6 plies 7, the play before it included): of the routes tried, the one
// whose mate costs least would save about a third of a call, but nothing cheap on the
// board predicts it (the promotion square's distance to l's king, the queen's attacks on
// its squares, the square attacked by l: each measured, 0 to 2% of a call at best). Also
// measured and left out: promotion squares near l's king first answer 430 fewer, l
// filling its king's squares while it waits 12 fewer and longer lines, an underpromotion
// where the queen would check 17 fewer and slower; promoteRoutes 2 costs 1,260
// instructions a decision more than 3, 4 to 6 no less; promoteOfferCost 2 or 4 no less.
// Below 12 pieces after the promotion the endgame planner costs less than the
// middlegame planner (about 4 µs against 11 to 15 with 7 or 8 pieces); from 12 to 19
// it costs more (about 6 µs against 4 with 12 to 15).

package chesscore

import "math/bits"

// promoteRoutes is the number of routes tried, cheapest first.
const promoteRoutes = 3

// promoteMaxPlies bounds the line played before the promotion.
const promoteMaxPlies = 32

// promoteOfferCost is the cost of a capture onto a square l must first put a unit on.
const promoteOfferCost = 3

// promoteCheckCost is added to a route whose promotion square is on a line of l's king
// (the board as it stands): the new queen would check at once, l must answer the check
// instead of the plan, and the queen often stands where it is taken. On the real games
// (3,314 calls where it runs in the decision) the middlegame planner after such a
// promotion cost 6.5 µs against 4.6 (634 of the 3,229 answers with 2). 20 (such a
// square tried after nearly every other) answers as many as 2, in 57,612 instructions a
// decision against 57,900 (8 to 12: 57,640 to 57,654). It was 2, with 7 less the
// promotion square's distance from l's king added too (far squares first): that term
// answered no more and cost 256 instructions a decision (57,956 with it, 57,900
// without); the queen's attacks on the king's squares added (1 or 2 a square) saved
// nothing.
const promoteCheckCost = 20

// promoteFar is the route cost of a square from which the pawn cannot promote.
const promoteFar = 100

// promoteRoute is the way of one pawn of w to the last rank: the squares it moves to,
// in order, the last one the promotion square.
type promoteRoute struct {
	pawn  Square
	steps [7]Square
	n     int
	cost  int
}

// promotePlanner is the state of the promotion planner (kept in the pooled decider).
type promotePlanner struct {
	w, l    Color
	routes  [promoteRoutes]promoteRoute
	nr      int
	rc      promoteReach // the route costs, level by level
	n       int          // plies of line
	line    [promoteMaxPlies + max(midMaxPlies, endMaxPlies)]Move
	ml      MoveList
	prev    [2]Move  // by colour: its previous wait
	dec     *decider // whose middlegame and endgame planners mate after the promotion
	handPos Position // the position handed over to them
	handed  int      // the plies of line before the other planner's, -1 if none took over
	plies   int
	seen    [promoteMaxPlies]promoteState // by ply of the route's play: the state it was in
}

// promoteState is what play's choice of a move depends on, besides the route: the
// position (its hash), the side's previous waits and the route's step.
type promoteState struct {
	hash uint64
	prev [2]Move
	idx  int
}

// promotePlanFits reports whether the promotion planner may answer for w in p: w has a
// pawn.
func promotePlanFits(p *Position, w Color) bool {
	return p.Pieces(w, Pawn) != 0
}

// planPromote runs the promotion planner for c on the root: Yes with a verified line,
// or nothing (the decision goes on).
func (d *decider) planPromote(c Color) (Decision, bool) {
	if !promotePlanFits(&d.root, c) {
		return Decision{}, false
	}
	if d.promote == nil {
		d.promote = new(promotePlanner)
	}
	pp := d.promote
	pp.dec = d
	n, ok := pp.find(&d.root, c)
	if !ok {
		return Decision{}, false
	}
	return Decision{Verdict: Yes, Proof: ProofMate, Line: pp.line[:n], Nodes: pp.plies}, true
}

// find looks for a helpmate by w from p through a promotion; it returns the line's
// length and whether a verified line is in pp.line.
func (pp *promotePlanner) find(p *Position, w Color) (int, bool) {
	pp.w, pp.l = w, w^1
	pp.plies = 0
	pp.chooseRoutes(p)
	for i := 0; i < pp.nr; i++ {
		if pp.play(p, &pp.routes[i]) && pp.verified(p) {
			return pp.n, true
		}
	}
	return 0, false
}

// promoteOffers returns the empty squares l can put a unit on at once: its pieces' moves,
// its pawns' pushes.
func promoteOffers(p *Position, l Color) Bitboard {
	occ, theirs := p.byType[0], p.byColor[l]
	offer := knightSpread(p.byType[Knight]&theirs) | pushUp(p.Pieces(l, Pawn), l)
	for b := (p.byType[Bishop] | p.byType[Queen]) & theirs; b != 0; {
		offer |= BishopAttacks(b.PopFirst(), occ)
	}
	for b := (p.byType[Rook] | p.byType[Queen]) & theirs; b != 0; {
		offer |= RookAttacks(b.PopFirst(), occ)
	}
	return offer &^ occ
}

// pawnCone returns the cone of the pawns of colour w: every square a route of theirs to
// the last rank may cross (their squares, and each square ahead of the cone, or beside
// one ahead).
func pawnCone(pawns Bitboard, w Color) Bitboard {
	cone := pawns
	for range 6 {
		ahead := pushUp(cone, w)
		cone |= ahead | ahead.east() | ahead.west()
	}
	return cone
}

// chooseRoutes fills pp.routes with the cheapest routes of w's pawns, cheapest first.
// The costs are found level by level on bitboards: reach[k] is the set of squares of
// the cone from which the last rank is reached at a cost of k or less, made from the
// levels below it by each kind of move (a push onto an empty square from reach[k-1],
// one onto a piece from reach[k-2], a capture from reach[k-1], an offer from reach[k-3]
// and so on), with no branch a square; reachesIn2 and giftOn are asked only of the
// squares where they could lower a cost. A route is then read back square by square,
// each move the one the rank-by-rank dynamic programme would choose (the push first, then
// the push past l's pawn, then the captures in square order).
func (pp *promotePlanner) chooseRoutes(p *Position) {
	w, l := pp.w, pp.l
	occ := p.byType[0]
	theirs := p.byColor[l]
	pawns := p.byType[Pawn]
	kings := p.byType[King]
	offer := promoteOffers(p, l)
	mine := p.Pieces(w, Pawn)
	cone := pawnCone(mine, w)
	rc := &pp.rc
	*rc = promoteReach{
		empty:   ^occ,
		pieces:  occ &^ pawns &^ kings,
		gifts:   theirs & pawns, // l's pawns, to pass once given a unit to take
		taken:   theirs &^ kings,
		offer:   offer,
		further: ^occ &^ offer, // an offer l needs two moves for
		cone:    cone &^ pawnLastRank[w],
		w:       w,
	}
	rc.reach[0] = cone & pawnLastRank[w]
	pp.nr = 0
	lk := p.KingSquare(l)
	kingLines := RookAttacks(lk, occ) | BishopAttacks(lk, occ) // a queen there checks
	for k := 1; k < len(rc.reach); k++ {
		rc.level(p, k)
		for b := rc.reach[k] & mine &^ rc.reach[k-1]; b != 0; {
			pp.addRoute(p, b.PopFirst(), k, kingLines)
		}
		switch {
		case pp.nr == len(pp.routes) && pp.routes[pp.nr-1].cost <= k:
			return // a route found later costs more than k: none is kept
		case rc.reach[k]&mine == mine:
			return
		case k >= promoteStepMax && rc.reach[k] == rc.reach[k-promoteStepMax]:
			return // no level above changes any more
		}
	}
}

// addRoute reads back the route of cost k of w's pawn on sq and keeps it among the
// promoteRoutes cheapest (promoteRouteCost); of two at the same cost the pawn on the
// lower square first.
func (pp *promotePlanner) addRoute(p *Position, sq Square, k int, kingLines Bitboard) {
	rt := promoteRoute{pawn: sq}
	for s, left := sq, k; left > 0 && rt.n < len(rt.steps); {
		s, left = pp.rc.step(p, s, left)
		rt.steps[rt.n] = s
		rt.n++
	}
	c := promoteRouteCost(k, rt.steps[rt.n-1], kingLines)
	rt.cost = c
	after := func(r *promoteRoute) bool { return r.cost > c || r.cost == c && r.pawn > sq }
	i := pp.nr
	if i < len(pp.routes) {
		pp.nr++
	} else if !after(&pp.routes[i-1]) {
		return
	} else {
		i--
	}
	for ; i > 0 && after(&pp.routes[i-1]); i-- {
		pp.routes[i] = pp.routes[i-1]
	}
	pp.routes[i] = rt
}

// promoteRouteCost returns the cost by which the routes are ranked: the cost k of the
// pawn's moves, promoteCheckCost more when the promotion square last is on kingLines, the
// lines of l's king as the board stands.
func promoteRouteCost(k int, last Square, kingLines Bitboard) int {
	if kingLines.Has(last) {
		return k + promoteCheckCost
	}
	return k
}

// promoteStepMax is the highest cost of one move of the pawn: the push past l's pawn.
const promoteStepMax = 2 + promoteOfferCost

// promoteMaxCost is the highest cost of a route: six moves of the pawn.
const promoteMaxCost = 6 * promoteStepMax

// promoteReach holds the levels of route costs chooseRoutes computes, with what the
// levels are made of.
type promoteReach struct {
	reach   [promoteMaxCost + 1]Bitboard // reach[k]: the squares a route costs k or less from
	empty   Bitboard                     // a push costs 1 there, a capture needs an offer
	pieces  Bitboard                     // a push costs 2: the piece steps aside first
	gifts   Bitboard                     // l's pawns: a push costs 2+promoteOfferCost, given a unit
	taken   Bitboard                     // l's units but its king: a capture costs 1
	offer   Bitboard                     // a capture costs promoteOfferCost: l offers a unit at once
	further Bitboard                     // the empty squares l cannot offer a unit on at once
	cone    Bitboard                     // the squares a route may cross, the last rank aside
	asked   Bitboard                     // the squares of further whose reachesIn2 is known
	in2     Bitboard                     // of those, the ones l reaches in two moves
	gAsked  Bitboard                     // the pawns of gifts whose giftOn is known
	given   Bitboard                     // of those, the ones w can give a unit to take
	w       Color
}

// at returns reach[k], empty below level 0.
func (rc *promoteReach) at(k int) Bitboard {
	if k < 0 {
		return 0
	}
	return rc.reach[k]
}

// back returns the squares from which a pawn of w pushes onto b.
func (rc *promoteReach) back(b Bitboard) Bitboard { return pushUp(b, rc.w^1) }

// level fills reach[k] from the levels below it.
func (rc *promoteReach) level(p *Position, k int) {
	l := rc.w ^ 1
	r := rc.reach[0] | rc.back(rc.at(k-1)&rc.empty|rc.at(k-2)&rc.pieces) |
		pawnAttacksOf(rc.at(k-1)&rc.taken|rc.at(k-promoteOfferCost)&rc.offer, l)
	r |= rc.reach[k-1]
	// The captures onto a square l reaches in two moves, asked only where they could
	// lower a cost: a square of the cone not yet at k, one capture away.
	if cand := rc.at(k-promoteOfferCost-1) & rc.further &^ rc.asked & pawnAttacksOf(rc.cone&^r, rc.w); cand != 0 {
		rc.asked |= cand
		for ; cand != 0; cand &= cand - 1 {
			if d := cand.First(); reachesIn2(p, l, d) {
				rc.in2 |= d.Bitboard()
			}
		}
	}
	r |= pawnAttacksOf(rc.at(k-promoteOfferCost-1)&rc.in2, l)
	// The pushes past l's pawns, likewise.
	if cand := rc.at(k-promoteStepMax) & rc.gifts &^ rc.gAsked & pushUp(rc.cone&^r, rc.w); cand != 0 {
		rc.gAsked |= cand
		for ; cand != 0; cand &= cand - 1 {
			if t := cand.First(); giftOn(p, rc.w, pawnAttacks[l][t]) {
				rc.given |= t.Bitboard()
			}
		}
	}
	r |= rc.back(rc.at(k-promoteStepMax) & rc.given)
	rc.reach[k] = r & (rc.cone | rc.reach[0])
}

// inReach reports whether sq is at level k or below.
func (rc *promoteReach) inReach(sq Square, k int) bool { return rc.at(k).Has(sq) }

// step returns the square a route of cost k from sq moves to, and the cost from there:
// the push where it costs k in all, else the push past l's pawn, else the first capture
// in square order, as the rank-by-rank programme chooses.
func (rc *promoteReach) step(p *Position, sq Square, k int) (Square, int) {
	t := Square(int(sq) + pawnUp[rc.w])
	switch {
	case rc.empty.Has(t) && rc.inReach(t, k-1):
		return t, k - 1
	case rc.pieces.Has(t) && rc.inReach(t, k-2):
		return t, k - 2
	case rc.gifts.Has(t) && rc.inReach(t, k-2-promoteOfferCost) && rc.gift(p, t):
		return t, k - 2 - promoteOfferCost
	}
	for diag := pawnAttacks[rc.w][sq] & (rc.taken | rc.empty); diag != 0; {
		d := diag.PopFirst()
		switch {
		case rc.taken.Has(d) && rc.inReach(d, k-1):
			return d, k - 1
		case rc.offer.Has(d) && rc.inReach(d, k-promoteOfferCost):
			return d, k - promoteOfferCost
		case rc.further.Has(d) && rc.inReach(d, k-promoteOfferCost-1) && rc.twoMoves(p, d):
			return d, k - promoteOfferCost - 1
		}
	}
	return NoSquare, 0 // not reached: some move gives the cost k
}

// twoMoves is reachesIn2 for l and the square d of further, asked once.
func (rc *promoteReach) twoMoves(p *Position, d Square) bool {
	if !rc.asked.Has(d) {
		rc.asked |= d.Bitboard()
		if reachesIn2(p, rc.w^1, d) {
			rc.in2 |= d.Bitboard()
		}
	}
	return rc.in2.Has(d)
}

// gift is giftOn for w and l's pawn on t, asked once.
func (rc *promoteReach) gift(p *Position, t Square) bool {
	if !rc.gAsked.Has(t) {
		rc.gAsked |= t.Bitboard()
		if giftOn(p, rc.w, pawnAttacks[rc.w^1][t]) {
			rc.given |= t.Bitboard()
		}
	}
	return rc.given.Has(t)
}

// reachesIn2 reports whether a piece of l (not its king) reaches the empty square d of
// p in two moves through empty squares, or a pawn of l in two pushes, at the cost of two
// attack sets a piece (the attacks of knights and sliders are symmetric: the piece
// reaches d from f exactly when one of its kind on d attacks f). Asking only of the
// squares a route needs costs less than making the whole set (offerIn2 in the tests).
func reachesIn2(p *Position, l Color, d Square) bool {
	occ := p.byType[0]
	pawns := p.Pieces(l, Pawn)
	if pushUp(pushUp(pawns, l)&^occ, l).Has(d) {
		return true
	}
	for b := p.byColor[l] &^ p.byType[King] &^ pawns; b != 0; {
		sq := b.PopFirst()
		pt := p.board[sq].Type()
		first := pieceAttacks(pt, l, sq, occ) &^ occ
		if first&pieceAttacks(pt, l, d, occ&^sq.Bitboard()) != 0 {
			return true
		}
	}
	return false
}

// giftOn reports whether w has, or can put in one or two moves, a unit (not its king)
// on one of the squares targets for a pawn of l to take.
func giftOn(p *Position, w Color, targets Bitboard) bool {
	occ := p.byType[0]
	ours := p.byColor[w] &^ p.byType[King]
	if targets&ours != 0 {
		return true
	}
	empty := targets &^ occ
	if empty&pushUp(ours&p.byType[Pawn], w) != 0 {
		return true
	}
	for b := ours &^ p.byType[Pawn]; b != 0; {
		sq := b.PopFirst()
		if pieceAttacks(p.board[sq].Type(), w, sq, occ)&empty != 0 {
			return true
		}
	}
	for ; empty != 0; empty &= empty - 1 {
		if reachesIn2(p, w, empty.First()) {
			return true
		}
	}
	return false
}

// play plays the route rt from p to the promotion, then hands over to the middlegame and
// endgame planners; it reports whether pp.line[:pp.n] ends with a mate (not yet verified
// as a whole).
func (pp *promotePlanner) play(p *Position, rt *promoteRoute) bool {
	w := pp.w
	q := *p
	pp.n, pp.handed = 0, -1
	pp.prev = [2]Move{NullMove, NullMove}
	pawn, idx := rt.pawn, 0
	for idx < rt.n {
		if pp.n >= promoteMaxPlies {
			return false
		}
		// The moves chosen are a function of the position, the previous waits and the
		// route's step: a state met again is a loop that never promotes (on the real
		// games always the two sides' shuffles, four plies long).
		st := &pp.seen[pp.n]
		*st = promoteState{q.hash, pp.prev, idx}
		if pp.n >= 4 && pp.seen[pp.n-4] == *st {
			return false
		}
		var m Move
		if q.turn == w {
			m = pp.pawnMove(&q, pawn, rt, idx)
			if m != NullMove && q.IsLegal(m) {
				pawn = m.To()
				idx++
				if idx < rt.n && rt.steps[idx] == pawn {
					idx++ // the double step
				}
			} else {
				m = pp.stepAsideW(&q, pawn, rt, idx)
			}
		} else {
			m = pp.moveL(&q, pawn, rt, idx)
		}
		if m == NullMove && q.InCheck() {
			m = pp.evade(&q, pawn, rt.rest(idx))
		}
		if m == NullMove {
			return false
		}
		pp.line[pp.n] = m
		pp.n++
		pp.plies++
		q.doMove(m)
	}
	return pp.mate(&q)
}

// pawnMove returns the pawn's next move along rt from step idx (a double step where the
// two squares ahead are empty, a queen on the last rank), legal or not.
func (pp *promotePlanner) pawnMove(q *Position, pawn Square, rt *promoteRoute, idx int) Move {
	to := rt.steps[idx]
	up := pawnUp[pp.w]
	if idx+1 < rt.n && int(to) == int(pawn)+up && int(rt.steps[idx+1]) == int(pawn)+2*up &&
		pawnRank3[pp.w].Has(to) && q.byType[0]&(to.Bitboard()|rt.steps[idx+1].Bitboard()) == 0 {
		return NewMove(pawn, rt.steps[idx+1])
	}
	if pawnLastRank[pp.w].Has(to) {
		return NewPromotion(pawn, to, Queen)
	}
	return NewMove(pawn, to)
}

// rest returns the squares of rt from step idx on.
func (rt *promoteRoute) rest(idx int) Bitboard {
	var b Bitboard
	for i := idx; i < rt.n; i++ {
		b |= rt.steps[i].Bitboard()
	}
	return b
}

// stepAsideW returns w's move when its pawn cannot step on now: a piece of w on the
// next square steps aside, else a wait.
func (pp *promotePlanner) stepAsideW(q *Position, pawn Square, rt *promoteRoute, idx int) Move {
	next := rt.steps[idx]
	path := rt.rest(idx)
	lk := q.KingSquare(pp.l)
	if q.byColor[pp.w].Has(next) {
		q.LegalMoves(&pp.ml)
		for _, m := range pp.ml.Moves[:pp.ml.N] {
			if m.From() == next && !path.Has(m.To()) && !q.givesCheck(m, lk) {
				return m
			}
		}
		return NullMove
	}
	if q.board[next] == MakePiece(pp.l, Pawn) {
		if m := pp.gift(q, pawn, next, lk); m != NullMove {
			return m
		}
	}
	return pp.wait(q, path, 0, lk)
}

// gift returns w's move that gives l's pawn on blocker a unit to take (or brings one
// a move nearer), NullMove when there is one to take already or none can come.
func (pp *promotePlanner) gift(q *Position, pawn, blocker Square, lk Square) Move {
	targets := pawnAttacks[pp.l][blocker]
	occ := q.byType[0]
	if targets&q.byColor[pp.w]&^q.byType[King] != 0 {
		return NullMove // l takes it at its turn
	}
	q.LegalMoves(&pp.ml)
	approach := NullMove
	for _, m := range pp.ml.Moves[:pp.ml.N] {
		from, to := m.From(), m.To()
		pt := q.board[from].Type()
		if pt == King || from == pawn || occ.Has(to) || m.Kind() != NormalMove || q.givesCheck(m, lk) {
			continue
		}
		if targets.Has(to) {
			return m
		}
		if approach == NullMove && (pt == Pawn && targets.Has(Square(int(to)+pawnUp[pp.w])) ||
			pt != Pawn && pieceAttacks(pt, pp.w, to, occ&^from.Bitboard()|to.Bitboard())&targets != 0) {
			approach = m
		}
	}
	return approach
}

// moveL returns l's move: a piece off the route, a unit offered on the square w takes
// next, else a wait.
func (pp *promotePlanner) moveL(q *Position, pawn Square, rt *promoteRoute, idx int) Move {
	path := rt.rest(idx)
	wk := q.KingSquare(pp.w)
	theirs := q.byColor[pp.l]
	straight := Bitboard(0) // route squares the pawn pushes onto
	diag := Bitboard(0)     // route squares the pawn captures onto
	prev := pawn
	for i := idx; i < rt.n; i++ {
		s := rt.steps[i]
		if s.File() == prev.File() {
			straight |= s.Bitboard()
		} else {
			diag |= s.Bitboard()
		}
		prev = s
	}
	if blocked := straight & theirs; blocked != 0 {
		// the nearest blocker first
		var from Square
		if pp.w == White {
			from = blocked.First()
		} else {
			from = Square(63 - bits.LeadingZeros64(uint64(blocked)))
		}
		best := NullMove
		q.LegalMoves(&pp.ml)
		isPawn := q.board[from].Type() == Pawn
		for _, m := range pp.ml.Moves[:pp.ml.N] {
			if m.From() != from || m.To() == pawn || path.Has(m.To()) || q.givesCheck(m, wk) {
				continue
			}
			if q.board[m.To()] == NoPiece {
				if isPawn {
					continue // a pawn steps aside only by taking
				}
				return m
			}
			if best == NullMove {
				best = m
			}
		}
		if best != NullMove || !isPawn {
			return best
		}
		return pp.wait(q, path, diag&theirs|straight&theirs, wk) // the gift is on its way
	}
	next := rt.steps[idx]
	if diag.Has(next) && q.board[next] == NoPiece {
		q.LegalMoves(&pp.ml)
		for _, m := range pp.ml.Moves[:pp.ml.N] {
			if m.To() == next && !q.givesCheck(m, wk) {
				return m
			}
		}
		// No unit reaches it at once: one steps to a square from which it does.
		occ := q.byType[0]
		for _, m := range pp.ml.Moves[:pp.ml.N] {
			from, to := m.From(), m.To()
			pt := q.board[from].Type()
			if pt == King || occ.Has(to) || m.Kind() != NormalMove || q.givesCheck(m, wk) {
				continue
			}
			if pt == Pawn && int(to)+pawnUp[pp.l] == int(next) ||
				pt != Pawn && pieceAttacks(pt, pp.l, to, occ&^from.Bitboard()|to.Bitboard()).Has(next) {
				return m
			}
		}
		return NullMove
	}
	return pp.wait(q, path, diag&theirs, wk)
}

// evade returns a move out of check for the side to move: w takes the checker where it
// can, l keeps off the pawn and its route; else the first legal move.
func (pp *promotePlanner) evade(q *Position, pawn Square, path Bitboard) Move {
	q.LegalMoves(&pp.ml)
	checkers := q.Checkers()
	first := NullMove
	for _, m := range pp.ml.Moves[:pp.ml.N] {
		if q.turn == pp.w && checkers.Has(m.To()) {
			return m
		}
		if q.turn == pp.l && (m.To() == pawn || path.Has(m.To())) {
			continue
		}
		if first == NullMove {
			first = m
		}
	}
	return first
}

// wait returns a quiet move of the side to move: no capture, no check, off path, keep's
// units left where they are; the previous wait undone first (checked alone, with no
// move list), then pieces away from their king, then pawns, then the king.
func (pp *promotePlanner) wait(q *Position, path, keep Bitboard, enemyKing Square) Move {
	us := q.turn
	back := NullMove
	if pv := pp.prev[us]; pv != NullMove {
		back = NewMove(pv.To(), pv.From())
		if q.board[back.To()] == NoPiece && !path.Has(back.To()) && !keep.Has(back.From()) &&
			q.IsLegal(back) && !q.givesCheck(back, enemyKing) {
			pp.prev[us] = back
			return back
		}
	}
	ownKing := q.KingSquare(us)
	near := kingAttacks[ownKing]
	if m := pp.waitAway(q, path, keep, near, enemyKing); m != NullMove {
		pp.prev[us] = m
		return m
	}
	q.LegalMoves(&pp.ml)
	best, bestScore := NullMove, 99
	for _, m := range pp.ml.Moves[:pp.ml.N] {
		from, to := m.From(), m.To()
		if q.board[to] != NoPiece || m.Kind() != NormalMove || path.Has(to) || keep.Has(from) {
			continue
		}
		var score int
		pt := q.board[from].Type()
		switch {
		case m == back:
			score = 0
		case pt == King:
			score = 6
		case pt == Pawn:
			score = 3
			if near.Has(from) {
				score = 5
			}
		default:
			score = 1
			if near.Has(from) {
				score = 4
			}
		}
		if score >= bestScore || q.givesCheck(m, enemyKing) {
			continue
		}
		best, bestScore = m, score
		if score == 0 {
			break
		}
	}
	if best != NullMove {
		pp.prev[us] = best
	}
	return best
}

// waitAway returns the wait wait prefers after a shuffle back: the first move, in the
// order LegalMoves lists them (knights, then the diagonal moves of bishops and queens,
// then the straight ones of rooks and queens, each by square), of a piece away from its
// king to an empty square off path, not of keep's units, legal and giving no check; each
// tried alone (IsLegal), with no move list. NullMove when there is none.
func (pp *promotePlanner) waitAway(q *Position, path, keep, near Bitboard, enemyKing Square) Move {
	occ := q.byType[0]
	free := ^occ &^ path
	pieces := q.byColor[q.turn] &^ near &^ keep
	try := func(from Square, to Bitboard) Move {
		for ; to != 0; to &= to - 1 {
			if m := NewMove(from, to.First()); q.IsLegal(m) && !q.givesCheck(m, enemyKing) {
				return m
			}
		}
		return NullMove
	}
	for b := pieces & q.byType[Knight]; b != 0; {
		from := b.PopFirst()
		if m := try(from, knightAttacks[from]&free); m != NullMove {
			return m
		}
	}
	for b := pieces & (q.byType[Bishop] | q.byType[Queen]); b != 0; {
		from := b.PopFirst()
		if m := try(from, BishopAttacks(from, occ)&free); m != NullMove {
			return m
		}
	}
	for b := pieces & (q.byType[Rook] | q.byType[Queen]); b != 0; {
		from := b.PopFirst()
		if m := try(from, RookAttacks(from, occ)&free); m != NullMove {
			return m
		}
	}
	return NullMove
}

// mate runs the middlegame and endgame planners on q (the pawn just promoted) and
// appends their line to pp.line. The planners are the decider's own (planPromote's):
// they start afresh on every call, and one set of them stays warmer in the caches than
// two. Where l is to move and not in check, it first waits (as in the play) and the
// planner that fits is handed the position with w to move; only if that fails is the
// endgame planner, where it fits, handed the position as the promotion left it.
func (pp *promotePlanner) mate(q *Position) bool {
	if pp.dec == nil {
		pp.dec = new(decider)
	}
	pp.handPos = *q
	if !q.HasLegalMove() {
		return q.InCheck() && q.turn == pp.l
	}
	mid := q.byType[0].Count() >= midMinPieces
	if q.turn == pp.l && !q.InCheck() && pp.n < promoteMaxPlies {
		if wm := pp.wait(q, 0, 0, q.KingSquare(pp.w)); wm != NullMove {
			pp.handPos.doMove(wm)
			pp.line[pp.n] = wm
			pp.n++
			if pp.handOver(mid) {
				return true
			}
			pp.n--
			pp.handPos = *q
			return pp.handOver(false)
		}
	}
	return mid && pp.handOver(true) || pp.handOver(false)
}

// handOver runs the middlegame planner (mid) or the endgame planner, where it fits, on
// pp.handPos and appends its line to pp.line.
func (pp *promotePlanner) handOver(mid bool) bool {
	d := pp.dec
	if mid {
		n := d.mid.plan(&pp.handPos, pp.w)
		return n > 0 && pp.appendLine(d.mid.line[:n])
	}
	if !endPlanFits(&pp.handPos, pp.w) {
		return false
	}
	if d.end == nil {
		d.end = new(endPlanner)
	}
	n, ok := d.end.find(&pp.handPos, pp.w)
	return ok && pp.appendLine(d.end.line[:n])
}

// verified reports whether pp.line, just played from p, mates: its moves up to the hand-over
// replay to the position the other planner was given, whose own line from there that
// planner verified (replayed to a mate; a mate in one made with IsLegal and tested for
// mate); a line that mates before any hand-over replays whole.
func (pp *promotePlanner) verified(p *Position) bool {
	if pp.handed < 0 {
		return replaysToMate(p, pp.w, pp.line[:pp.n])
	}
	return replaysToPosition(p, pp.line[:pp.handed], &pp.handPos)
}

// appendLine appends l to pp.line when it fits.
func (pp *promotePlanner) appendLine(l []Move) bool {
	if pp.n+len(l) > len(pp.line) {
		return false
	}
	pp.handed = pp.n
	pp.n += copy(pp.line[pp.n:], l)
	return true
}
