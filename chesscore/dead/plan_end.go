// plan_end.go: the endgame mate planner: the kings walk straight to a classic mating
// picture on an edge and a rook or queen mates there, no search.
//
// # Method
//
// In an endgame (at most endMaxPieces pieces) where the winner w has a rook or a queen,
// or a pawn whose path holds no pawn (it promotes to a queen first), the planner picks a
// picture: a target square t on the edge for the loser's king and a stand square s two
// steps inwards from t for w's king. With the kings there, w's king covers the three
// flight squares of the inner row, and a rook or queen checking along the edge through
// t, from two squares away or more, covers the other two: mate. The pictures are ranked
// by the king steps they need (the longer walk three times, plus both walks; flood fills
// of the squares each king may cross, the promoting pawn's pushes counted as steps of
// w), plus endCrossing when the kings' paths cross, endEdgeBlocker for each piece in the
// way on the edge and endCutOff when the loser's king cannot reach t without crossing a
// square w attacks; the best endEndPlans are tried in turn.
//
// A plan is played move by move on real positions, so the line is legal by
// construction. Each side picks the move that scores best, with no look-ahead:
//
//   - w: a mate in one when the loser's king has at most endFlights flight squares;
//     else the push of the promoting pawn; else a king step along a shortest path to s;
//     else a waiting move far from the loser's king, with no check, that keeps a rook or
//     queen able to reach a checking square on the edge in one move.
//   - the loser: a king step along a shortest path to t; at t, a waiting move of another
//     piece that leaves w's pieces, s and the edge alone, never a capture nor a check,
//     preferring to take a piece watching s or the edge off them; with none, its king
//     steps off t and back. While w's king is still far (endShuffle steps or more), the
//     loser's king steps beside t and back instead.
//
// No list of legal moves is made (plan_end_moves.go): king steps come from the squares
// the other side attacks, the other moves from each piece's targets in the move
// generator's order, narrowed to those that can still beat the best so far, and a move's
// legality is tested only when it scores better. The moves are scored by scanner states
// kept in the planner (endWinScan, endLoseScan), so the hot loop calls no closure.
//
// A plan gives up when a position repeats, a side has no legal move, no king has come
// closer for endStuckPlies plies, the plies run past three times the estimate, or the
// loser takes w's last rook, queen or pawn. A plan that went round in circles is followed
// by endChainPlans other pictures seen from where the circle began. With no plan left,
// the decision goes on to the next step as if the planner had not run. The line found is
// replayed once more (ReplaysToMate) before it is returned: Yes only with a verified
// line, never a No. BenchmarkEndPlanner measures it on every real endgame it fits.

package dead

import cc "github.com/gambitchess/gambit/chesscore"

// endMaxPieces is the number of pieces (kings and pawns included) up to which the
// endgame planner runs: beyond it the kings rarely find a clear way to the edge, and a
// failed plan costs more than the search it would save.
const endMaxPieces = 19

// endMaxPlies bounds the line of one plan.
const endMaxPlies = 96

// endEndPlans is the number of pictures tried from the root; the chains (endChainPlans)
// answer most of what further pictures would.
const endEndPlans = 6

// endCrowdedPlans is the number of pictures tried with more than endCrowded pieces on the
// board, where a plan fails more often and the searches after it are quicker.
const (
	endCrowded      = 15
	endCrowdedPlans = 4
)

// endFlights is the number of flight squares of the loser's king up to which the
// planner looks for a mate in one: a rook's check along the edge takes two of them away.
const endFlights = 2

// endStuckPlies is the number of plies a plan may play without bringing a king closer
// to its square before it gives up.
const endStuckPlies = 24

// endCrossing is the plies added to the estimate of a picture whose stand is nearer the
// loser's king than its target: the kings' paths cross, and the plan often fails.
const endCrossing = 5

// endEdgeBlocker is the cost added to a picture for each of the loser's pieces and w's
// pawns on its edge: they stand in the way of the mating check (w's pawns cannot step
// off it), so a picture without them works more often.
const endEdgeBlocker = 7

// endCutOff is the cost added to a picture whose target the loser's king cannot reach
// (nor step beside) without crossing a square w attacks: w's pieces must first clear its
// way, and such a plan fails more often.
const endCutOff = 12

// endChainPlans is the number of pictures tried from where a failed picture went round
// in circles: its kings are already on their way, and another picture near them often
// works: a chain goes on from the kings' way, where the next picture would start from
// the root again. It answers most of what the pictures alone leave, each a search saved.
const endChainPlans = 5

// endShuffle is the number of king steps w still needs from which the loser's king,
// waiting at its target, steps beside it and back instead of moving a piece: as many
// plies, and no scan of every waiting move.
const endShuffle = 3

// endFreeStand is the score the loser gains by moving a piece that attacks the stand off
// it: w's king can then step in.
const endFreeStand = 24

// endFar is the flood-fill distance of a square a king cannot reach.
const endFar = 63

// endPicture is a mating picture: the loser's king on target, the winner's king on stand,
// the mate given along the edge line through target; plies estimates the plies needed,
// cost ranks the pictures (the longer walk three times, plus both walks: the fewer steps in all,
// the fewer chances for the kings to get in each other's way).
type endPicture struct {
	target, stand cc.Square
	edge          cc.Bitboard
	cost, plies   int
}

// endPlanner is the state of the endgame planner (kept in the pooled decider).
type endPlanner struct {
	w, l     cc.Color
	pic      endPicture
	pawn0    cc.Square   // the pawn of w to promote, NoSquare when w has a rook or queen
	pawn     cc.Square   // where that pawn is now in the plan played, NoSquare once promoted or taken
	pawnPath cc.Bitboard // the squares in front of that pawn
	n        int         // plies of line
	plies    int         // plies played over every plan tried (the decision's nodes)
	line     [endMaxPlies]cc.Move
	hashes   [endMaxPlies + 1]uint64
	pics     [endEndPlans]endPicture
	picPlies [128]uint8           // by picture number (2*target+side): its plies, as choosePictures ranks them
	distL    [64]uint8            // flood-fill distances from the loser's king
	distW    [64]uint8            // flood-fill distances from the winner's king
	rings    endRings             // flood-fill rings around the current goal square
	ringsL   endRings             // flood-fill rings around the target, only w's king and pawns in the way
	togo     [2]int32             // king steps left to the stand (w) and the target (the loser)
	nextTogo int32                // togo[1] after the loser's move chosen at w's turn
	attW     cc.Bitboard          // what w attacks after its move, the loser's king aside
	cut      int                  // where the last plan played went round in circles
	cutPos   cc.Position          // the position there
	chain    [endMaxPlies]cc.Move // the failed plan's line up to there
	skip     [2]cc.Move           // w's moves passed over this turn: they stalemate
	nSkip    int
	wscan    endWinScan      // winnerMove's scoring state
	lscan    endLoseScan     // loserMove's scoring state
	attOf    [32]cc.Bitboard // by piece of w: the near squares it attacks or stands on (endMaxPieces < 32)
	sqOf     [32]cc.Square
	othersOf [64]cc.Bitboard // by square of a piece of w: the near squares w's other pieces attack or stand on
}

// planEnd runs the endgame planner for c on the root: Yes with a verified line, or
// nothing (the decision goes on).
func (d *decider) planEnd(c cc.Color) (Decision, bool) {
	if !endPlanFits(&d.root, c) {
		return Decision{}, false
	}
	if d.end == nil {
		d.end = new(endPlanner)
	}
	n, ok := d.end.find(&d.root, c)
	if !ok {
		return Decision{}, false
	}
	return Decision{Verdict: cc.Yes, Proof: ProofMate, Line: d.end.line[:n], Nodes: d.end.plies}, true
}

// endPlanFits reports whether the endgame planner may answer for w in p: few pieces, and
// w has a rook or queen or a pawn.
func endPlanFits(p *cc.Position, w cc.Color) bool {
	if p.Occupied().Count() > endMaxPieces {
		return false
	}
	return p.ColorPieces(w)&(p.TypePieces(cc.Rook)|p.TypePieces(cc.Queen)|p.TypePieces(cc.Pawn)) != 0
}

// find looks for a helpmate by w from p with the plans; it returns the line's length and
// whether a verified line is in e.line.
func (e *endPlanner) find(p *cc.Position, w cc.Color) (int, bool) {
	e.w, e.l = w, w^1
	e.plies = 0
	if !endPlanFits(p, w) {
		return 0, false
	}
	e.pawn0, e.pawnPath = cc.NoSquare, 0
	pushes := 0
	if p.ColorPieces(w)&(p.TypePieces(cc.Rook)|p.TypePieces(cc.Queen)) == 0 {
		if pushes = e.choosePawn(p); pushes < 0 {
			return 0, false
		}
	}
	np := e.choosePictures(p, pushes)
	if p.Occupied().Count() > endCrowded {
		np = min(np, endCrowdedPlans)
	}
	// A picture that goes round in circles is followed by endChainPlans others seen from
	// where the circle began, before the next picture from p.
	pics := e.pics
	pawn0, pawnPath := e.pawn0, e.pawnPath
	for i := 0; i < np; i++ {
		e.pawn0, e.pawnPath = pawn0, pawnPath
		e.pic = pics[i]
		if e.play(p, *p, 0) && cc.ReplaysToMate(p, w, e.line[:e.n]) {
			return e.n, true
		}
		if cut := e.cut; cut > 0 {
			copy(e.chain[:cut], e.line[:cut])
			if n, ok := e.chainFrom(p, cut, pics[i]); ok {
				return n, true
			}
		}
	}
	return 0, false
}

// chainFrom tries the best endChainPlans pictures other than failed from the position
// that e.chain[:cut] reaches from p (the line goes on from there); it returns the line's
// length and whether a verified line is in e.line.
func (e *endPlanner) chainFrom(p *cc.Position, cut int, failed endPicture) (int, bool) {
	w := e.w
	q := e.cutPos // what e.chain[:cut] reaches from p: the position that came round again
	e.pawn0, e.pawnPath = cc.NoSquare, 0
	pushes := 0
	if q.ColorPieces(w)&(q.TypePieces(cc.Rook)|q.TypePieces(cc.Queen)) == 0 {
		if pushes = e.choosePawn(&q); pushes < 0 {
			return 0, false
		}
	}
	np := e.choosePictures(&q, pushes)
	tried := 0
	for i := 0; i < np && tried < endChainPlans; i++ {
		e.pic = e.pics[i]
		if e.pic.target == failed.target && e.pic.stand == failed.stand {
			continue
		}
		tried++
		copy(e.line[:cut], e.chain[:cut])
		if e.play(p, q, cut) && cc.ReplaysToMate(p, w, e.line[:e.n]) {
			return e.n, true
		}
	}
	return 0, false
}

// choosePawn picks w's pawn to promote: the one with the fewest pushes left whose path
// to the last rank holds no pawn (the pieces on it can step aside). It returns the
// pushes, or -1 when no pawn is free.
func (e *endPlanner) choosePawn(p *cc.Position) int {
	best := -1
	occ := p.TypePieces(cc.Pawn)
	for b := p.Pieces(e.w, cc.Pawn); b != 0; {
		sq := b.PopFirst()
		var path cc.Bitboard
		pushes := 0
		for s := sq; ; {
			if e.w == cc.White {
				s += 8
			} else {
				s -= 8
			}
			path |= s.Bitboard()
			pushes++
			if s.Rank() == 0 || s.Rank() == 7 {
				break
			}
		}
		if e.w == cc.White && sq.Rank() == 1 || e.w == cc.Black && sq.Rank() == 6 {
			pushes-- // the double step
		}
		if path&occ != 0 || best >= 0 && pushes >= best {
			continue
		}
		best, e.pawn0, e.pawnPath = pushes, sq, path
	}
	return best
}

// endFlood fills dist, on the squares of mask, with the king-step distances from start
// over the allowed squares (start itself always counts); it returns the squares of mask
// it reached. The other squares of dist are left as they were: only those returned hold
// a distance.
func endFlood(start cc.Square, allowed, mask cc.Bitboard, dist *[64]uint8) cc.Bitboard {
	frontier := start.Bitboard()
	seen := frontier
	for d := uint8(0); frontier != 0; d++ {
		for b := frontier & mask; b != 0; {
			dist[b.PopFirst()] = d
		}
		frontier = cc.KingSpread(frontier) & allowed &^ seen
		seen |= frontier
	}
	return seen & mask
}

// endStands are the squares two steps inwards from an edge: where a picture's stand is.
const endStands = cc.FileC | cc.FileF | cc.Rank3 | cc.Rank6

// endRings are the rings of a flood fill around a goal square: ring i holds the squares
// i king steps away from it.
type endRings struct {
	ring [64]cc.Bitboard // ring[n] is kept empty (n < endFar+1 = 64)
	n    int
	at   int32 // the ring of the square fill was given as until (endFar when none holds it)
}

// fill floods from goal over the allowed squares (goal itself always counts), up to one
// ring past the ring holding until, and notes that ring in r.at.
func (r *endRings) fill(goal cc.Square, allowed cc.Bitboard, until cc.Square) {
	frontier := goal.Bitboard()
	seen := frontier
	r.n, r.at = 0, endFar
	stop := endFar
	for frontier != 0 && r.n < stop {
		r.ring[r.n] = frontier
		if frontier.Has(until) {
			stop, r.at = r.n+2, int32(r.n)
		}
		r.n++
		frontier = cc.KingSpread(frontier) & allowed &^ seen
		seen |= frontier
	}
	r.ring[r.n&63] = 0 // the frontiers fill ring[0..62]: ring[63] is only ever cleared
}

// dist returns the ring of sq (endFar when no ring filled holds it).
func (r *endRings) dist(sq cc.Square) int32 {
	for i := 0; i < r.n; i++ {
		if r.ring[i].Has(sq) {
			return int32(i)
		}
	}
	return endFar
}

// step returns the ring of sq, a square next to the one fill was given as until, when
// a ring holds that one (r.at < endFar): with it in ring r.at, sq is in ring r.at-1, r.at
// or r.at+1, or in none. Only those rings are looked at, without a branch: which of them
// holds sq no predictor guesses, and the loop of dist mispredicted on it.
func (r *endRings) step(sq cc.Square) int32 {
	here := r.at
	// For here = 0 the nearer ring is ring[63], always empty (fill never reaches it);
	// here+1 <= r.n, and ring[r.n] is empty. (min and max, inlined, became branches.)
	lo := r.ring[(here-1)&63] >> sq & 1
	mid := r.ring[here&63] >> sq & 1
	hi := r.ring[(here+1)&63] >> sq & 1
	in := -int32(lo | mid | hi) // every bit set when a ring holds sq
	return (here-1+int32(mid+2*hi))&in | endFar&^in
}

// endEdges are the four edges of the board: the first rank, the last, the a-file, the
// h-file.
var endEdges = [4]cc.Bitboard{cc.Rank1, cc.Rank8, cc.FileA, cc.FileH}

// edgeSquares are the squares on the edge of the board.
const edgeSquares = cc.FileA | cc.FileH | cc.Rank1 | cc.Rank8

// endPictureOf returns the picture with target t, on a rank's edge (side 0) or a file's
// (side 1): its stand, two squares inwards, and its edge (an index into endEdges).
func endPictureOf(t cc.Square, side int) (stand cc.Square, edge int) {
	if side == 0 {
		r := t.Rank() / 7
		return t + cc.Square(16-32*r), r
	}
	f := t.File() / 7
	return t + cc.Square(2-4*f), 2 + f
}

// choosePictures ranks the mating pictures by their estimated cost (pushes: the moves w
// spends promoting first) and keeps the best endEndPlans in e.pics; it returns how many.
func (e *endPlanner) choosePictures(p *cc.Position, pushes int) int {
	w, l := e.w, e.l
	wk, lk := p.KingSquare(w), p.KingSquare(l)
	pawns := p.TypePieces(cc.Pawn)
	wPawnAtt := cc.PawnSpread(w, p.Pieces(w, cc.Pawn))
	lPawnAtt := cc.PawnSpread(l, p.Pieces(l, cc.Pawn))
	reachT := endFlood(lk, ^(cc.KingAttacks(wk) | wPawnAtt | pawns | e.pawnPath), edgeSquares, &e.distL)
	reachS := endFlood(wk, ^(cc.KingAttacks(lk)|lPawnAtt|pawns), endStands, &e.distW) &^ p.Pieces(l, cc.Pawn)
	loserPieces := p.ColorPieces(l) &^ p.TypePieces(cc.King)
	// The squares the loser's king reaches, or steps beside, without crossing one that w
	// attacks.
	reachL := endReach(lk, ^(attacksBy(p, w, p.Occupied()&^lk.Bitboard()) | pawns | e.pawnPath))
	cand := edgeSquares &^ p.ColorPieces(w) &^ e.pawnPath & reachT
	// The loser's pieces and w's pawns on each edge stand in the way of the mating check.
	var blockers [4]int
	for i, edge := range endEdges {
		blockers[i] = endEdgeBlocker * (edge & (loserPieces | p.Pieces(w, cc.Pawn))).Count()
	}
	// The pictures whose target the loser's king reaches and whose stand w's king
	// reaches: on the ranks' edges (side 0) and the files' (side 1), the stand two
	// squares inwards.
	sides := [2]cc.Bitboard{
		cand & (cc.Rank1&(reachS>>16) | cc.Rank8&(reachS<<16)),
		cand & (cc.FileA&(reachS>>2) | cc.FileH&(reachS<<2)),
	}
	// The best endEndPlans, sorted by key: the cost, then the steps in all, then the
	// picture's number (2*target+side: a corner's rank picture before its file picture),
	// the order they were once inserted in. Kept without a branch: each picture's key goes
	// down the list, each place keeping the smaller (the insertion loop mispredicted).
	// The insertion below is written out for endEndPlans = 6: with another value the
	// assignment to a [6]uint64 does not compile.
	keys := [6]uint64([endEndPlans]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)})
	for side, bt := range sides {
		for bt != 0 {
			t := bt.PopFirst()
			s, edge := endPictureOf(t, side)
			dl := int(e.distL[t&63])
			dw := int(e.distW[s&63]) + pushes
			// The longer walk sets the plies: three times it, with both walks added.
			long := max(dl, dw)
			cost := 3*long + dl + dw + blockers[edge]
			plies := 2*long + 1
			cross := 0
			if distance(lk, s) < distance(lk, t) {
				cross = endCrossing // the loser's king must get past the stand
			}
			cost += cross + endCutOff*int(^reachL>>t&1) // w's pieces must first clear the way
			seq := 2*int(t) + side
			e.picPlies[seq&127] = uint8(plies + cross)
			key := uint64(cost)<<16 | uint64(dl+dw-pushes)<<8 | uint64(seq)
			// Written out (endEndPlans places): the loop cost as much as the keys.
			keys[0], key = min(keys[0], key), max(keys[0], key)
			keys[1], key = min(keys[1], key), max(keys[1], key)
			keys[2], key = min(keys[2], key), max(keys[2], key)
			keys[3], key = min(keys[3], key), max(keys[3], key)
			keys[4], key = min(keys[4], key), max(keys[4], key)
			keys[5] = min(keys[5], key)
		}
	}
	n := 0
	for ; n < endEndPlans && keys[n] != ^uint64(0); n++ {
		seq := int(keys[n] & 255)
		t := cc.Square(seq >> 1)
		s, edge := endPictureOf(t, seq&1)
		e.pics[n] = endPicture{target: t, stand: s, edge: endEdges[edge], cost: int(keys[n] >> 16), plies: int(e.picPlies[seq])}
	}
	return n
}

// play plays the current plan from q, reached from p by e.line[:n0], into e.line and
// reports whether it ends with w mating. When it goes round in circles, e.cut is where
// the circle began (0 for any other failure).
func (e *endPlanner) play(p *cc.Position, q cc.Position, n0 int) bool {
	e.n = n0
	e.cut = 0
	e.pawn = e.pawn0
	limit := min(n0+e.pic.plies*3+10, endMaxPlies)
	e.hashes[n0] = q.Hash()
	// seen filters the repetition test: by the parity of the ply, a bit for each top byte
	// of a hash in e.hashes (the line before n0 included); a hash whose bit is clear was
	// not seen, and the hashes are scanned only when it is set.
	var seen [2][4]uint64
	for i, h := range e.hashes[:n0+1] {
		seen[i&1][h>>62] |= 1 << (h >> 56 & 63)
	}
	e.togo = [2]int32{endFar, endFar}
	if q.Turn() == e.l {
		e.attW = attacksBy(&q, e.w, q.Occupied()&^q.KingSquare(e.l).Bitboard())
	}
	best, bestAt := int32(2*endFar), n0
	// attWKept: e.attW still holds what w attacks, the loser's king aside (the loser's
	// last move was a king step that took nothing: the rest of the board is as it was).
	attWKept := false
	var child cc.Position // declared once: zeroing it on every ply costs
	next := cc.NullMove   // the loser's move, when chosen at w's turn
	for e.n < limit {
		// Progress: the king steps both sides still need; none for a while means stuck.
		if left := e.togo[0] + e.togo[1]; left < best {
			best, bestAt = left, e.n
		} else if e.n-bestAt > endStuckPlies {
			return false
		}
		if q.Turn() == e.w {
			if free, near := e.mateNear(&q, attWKept); near {
				if m, ok := endMateIn1(&q, free); ok {
					e.line[e.n] = m
					e.n++
					e.plies++
					return true
				}
			}
			e.nSkip = 0
			for {
				m, ok := e.winnerMove(&q)
				if !ok {
					return false
				}
				child = q.Play(m)
				e.plies++
				e.line[e.n] = m
				// The loser has a move: a king step (what w attacks is kept for loserMove)
				// or another.
				lk := child.KingSquare(e.l)
				e.attW = attacksBy(&child, e.w, child.Occupied()&^lk.Bitboard())
				if cc.KingAttacks(lk)&^child.ColorPieces(e.l)&^e.attW != 0 {
					break
				}
				// The king cannot step: the loser's move is chosen now (it is the next
				// ply's), and only when it has none is HasLegalMove asked (castling and en
				// passant, which loserMove leaves out).
				togo := e.togo[1]
				lm, ok := e.loserMove(&child)
				e.togo[1], e.nextTogo = togo, e.togo[1] // the progress test reads it next ply
				if ok {
					next = lm
					break
				}
				if child.HasLegalMove() {
					break
				}
				if child.InCheck() {
					e.n++
					return true // a mate the plan did not foresee
				}
				// A stalemate: try w's next best move.
				if e.nSkip == len(e.skip) {
					return false
				}
				e.skip[e.nSkip] = m
				e.nSkip++
			}
		} else {
			m, ok := next, next != cc.NullMove
			if ok {
				e.togo[1] = e.nextTogo
			} else {
				m, ok = e.loserMove(&q)
			}
			next = cc.NullMove
			if !ok {
				return false
			}
			took := q.PieceAt(m.To()) != cc.NoPiece
			attWKept = m.From() == q.KingSquare(e.l) && !took
			child = q.Play(m)
			e.plies++
			e.line[e.n] = m
			if took && !e.armed(&child) {
				return false // w has nothing left to give the plan's mate with: no circle to chain from
			}
		}
		// The promoting pawn moves only by w's own moves, and is gone once promoted or
		// taken: a piece of the loser that took it stands on its square, and moves of
		// that piece from there are no pawn's (played as one, they took w's king).
		if e.pawn != cc.NoSquare {
			if m := e.line[e.n]; q.Turn() == e.w && m.From() == e.pawn {
				e.pawn = m.To()
				if m.Kind() == cc.PromotionMove {
					e.pawn = cc.NoSquare
				}
			} else if child.PieceAt(e.pawn) != cc.MakePiece(e.w, cc.Pawn) {
				e.pawn = cc.NoSquare
			}
		}
		q = child
		e.n++
		h := q.Hash()
		if f := &seen[e.n&1][h>>62]; *f&(1<<(h>>56&63)) == 0 {
			*f |= 1 << (h >> 56 & 63)
		} else {
			for i := e.n - 2; i >= 0; i -= 2 {
				if e.hashes[i] == h {
					e.cut, e.cutPos = i, q // q is the position the circle began in
					return false           // going round in circles
				}
			}
		}
		e.hashes[e.n] = h
	}
	return false
}

// armed reports whether w still has in q what a plan mates with: a rook or queen, or a
// pawn that may become one (w's waiting moves push pawns too: a real endgame was
// answered by a pawn promoted after the loser took w's queen).
func (e *endPlanner) armed(q *cc.Position) bool {
	return q.ColorPieces(e.w)&(q.TypePieces(cc.Rook)|q.TypePieces(cc.Queen)|q.TypePieces(cc.Pawn)) != 0
}

// mateNear reports whether a mate in one by w is worth looking for in q: the loser's king
// has at most endFlights flight squares (empty or w's, not attacked by w); it returns them.
// With kept, e.attW already holds what w attacks in q, the loser's king aside.
func (e *endPlanner) mateNear(q *cc.Position, kept bool) (cc.Bitboard, bool) {
	lk := q.KingSquare(e.l)
	att := e.attW
	if !kept {
		att = attacksBy(q, e.w, q.Occupied()&^lk.Bitboard())
	}
	free := cc.KingAttacks(lk) &^ q.ColorPieces(e.l) &^ att
	return free, free.Count() <= endFlights
}

// noteNear notes the np-th piece of w, on sq, with a the near squares it attacks or
// stands on, and before those of the pieces noted before it; it returns before with a.
func (e *endPlanner) noteNear(np int, sq cc.Square, a, before cc.Bitboard) cc.Bitboard {
	e.sqOf[np&31], e.attOf[np&31], e.othersOf[sq&63] = sq, a, before
	return before | a
}

// majorReady reports whether a rook or queen of w moving to sq (occupancy occ after the
// move) can reach, in one move, one of checks: the squares checking the target along the
// edge from two squares away or more.
func majorReady(pt cc.PieceType, sq cc.Square, occ, checks cc.Bitboard) bool {
	if checks.Has(sq) {
		return true
	}
	switch pt {
	case cc.Rook:
		return cc.RookAttacks(sq, occ)&checks != 0
	case cc.Queen:
		return cc.QueenAttacks(sq, occ)&checks != 0
	}
	return false
}

// winnerMove picks w's legal move in q (none of e.skip): the best scored, its legality
// checked only when it scores better than the best so far. It reports false when w has
// no such move.
func (e *endPlanner) winnerMove(q *cc.Position) (cc.Move, bool) {
	w, l := e.w, e.l
	s, t := e.pic.stand, e.pic.target
	wk, lk := q.KingSquare(w), q.KingSquare(l)
	occ := q.Occupied()
	attL := attacksBy(q, l, occ&^wk.Bitboard())
	e.rings.fill(s, ^attL&^q.TypePieces(cc.Pawn), wk)
	here := e.rings.at
	e.togo[0] = here
	// The squares that bring the loser's king closer to its target (by a flood fill that
	// only w's king and pawns hinder), and the target itself: w's pieces should leave
	// them free.
	var near cc.Bitboard
	if lk != t {
		pawns := q.TypePieces(cc.Pawn)
		e.ringsL.fill(t, ^(cc.KingAttacks(wk) | cc.PawnSpread(w, q.Pieces(w, cc.Pawn)) | pawns | e.pawnPath), lk)
		if dl := e.ringsL.at; dl > 0 && dl < endFar {
			near = cc.KingAttacks(lk) & e.ringsL.ring[dl-1]
			if e.togo[1] == endFar {
				// The loser's king found no way: every square nearer its target counts.
				for i := 1; i < int(dl); i++ {
					near |= e.ringsL.ring[i]
				}
			}
		}
		near |= t.Bitboard()
	}
	// What the other pieces of each piece of w attack or stand on among the near
	// squares: those before it in one pass, those after it in a pass back (read by square
	// in try and worth, no loop over the pieces for each piece moved).
	// The pieces are taken kind by kind (a switch on each piece's kind mispredicted).
	if near != 0 {
		own := q.ColorPieces(w)
		np := 0
		before := e.noteNear(np, wk, (cc.KingAttacks(wk)|wk.Bitboard())&near, 0)
		np++
		for b := own & q.TypePieces(cc.Pawn); b != 0; np++ {
			sq := b.PopFirst()
			before = e.noteNear(np, sq, (cc.PawnAttacks(w, sq)|sq.Bitboard())&near, before)
		}
		for b := own & q.TypePieces(cc.Knight); b != 0; np++ {
			sq := b.PopFirst()
			before = e.noteNear(np, sq, (cc.KnightAttacks(sq)|sq.Bitboard())&near, before)
		}
		for b := own & q.TypePieces(cc.Bishop); b != 0; np++ {
			sq := b.PopFirst()
			before = e.noteNear(np, sq, (cc.BishopAttacks(sq, occ)|sq.Bitboard())&near, before)
		}
		for b := own & q.TypePieces(cc.Rook); b != 0; np++ {
			sq := b.PopFirst()
			before = e.noteNear(np, sq, (cc.RookAttacks(sq, occ)|sq.Bitboard())&near, before)
		}
		for b := own & q.TypePieces(cc.Queen); b != 0; np++ {
			sq := b.PopFirst()
			before = e.noteNear(np, sq, (cc.QueenAttacks(sq, occ)|sq.Bitboard())&near, before)
		}
		var after cc.Bitboard
		for j := np - 1; j >= 0; j-- {
			e.othersOf[e.sqOf[j&31]&63] |= after
			after |= e.attOf[j&31]
		}
	}
	// A rook or queen must stay able to give the mating check (or become able to).
	majors := q.ColorPieces(w) & (q.TypePieces(cc.Rook) | q.TypePieces(cc.Queen))
	var checks, ready, reach, reachQ cc.Bitboard
	if majors != 0 {
		checks = cc.RookAttacks(t, occ&^lk.Bitboard()&^majors) & e.pic.edge &^ cc.KingAttacks(t)
		for b := majors; b != 0; {
			sq := b.PopFirst()
			if majorReady(q.PieceAt(sq).Type(), sq, occ, checks) {
				ready |= sq.Bitboard()
			}
		}
		if ready == 0 {
			// None can check next move: the squares from which one could.
			for b := checks; b != 0; {
				c := b.PopFirst()
				reach |= cc.RookAttacks(c, occ)
				reachQ |= cc.BishopAttacks(c, occ)
			}
			reach &^= q.ColorPieces(w)
			reachQ = reachQ&^q.ColorPieces(w) | reach
		}
	}
	ws := &e.wscan
	// Set field by field: side and pawns are set before they are used.
	ws.e, ws.pawn, ws.pawnPath, ws.theirs, ws.w, ws.l, ws.lk = e, e.pawn, e.pawnPath, q.ColorPieces(l), w, l, lk
	ws.occ, ws.here, ws.near = occ, here, near
	ws.majors, ws.ready, ws.checks, ws.reach, ws.reachQ = majors, ready, checks, reach, reachQ
	ws.best, ws.bestScore = cc.NullMove, 1<<30
	// The king's steps (legal: attL has the squares the loser attacks) and the promoting
	// pawn's moves first; the other moves score at least floor, and are looked at only
	// when they could be better.
	if b := cc.KingAttacks(wk) &^ q.ColorPieces(w) &^ attL; b != 0 {
		// As try scores them, without the terms a king's step never has.
		others := e.othersOf[wk] // stale, but unused, when near is empty
		leave := int32(0)
		if e.pawnPath.Has(wk) {
			leave = -30
		}
		for b != 0 {
			to := b.PopFirst()
			d := e.rings.step(to)
			if here == endFar {
				d = e.rings.dist(to)
			}
			sc := 16 * d
			if sc == 16*endFar {
				sc = 16 * (here + 2)
			}
			if e.pawnPath.Has(to) {
				sc += 30 // in the way of the promoting pawn
			} else {
				sc += leave
			}
			blocked := (to.Bitboard()&near | others) & near
			if sc+5*int32(blocked.Count()) >= ws.bestScore {
				continue
			}
			if near != 0 {
				blocked |= cc.KingAttacks(to) & near
				sc += 5 * int32(blocked.Count())
				if blocked == near {
					sc += 20 // the loser's king cannot come closer
				}
			}
			if m := cc.NewMove(wk, to); sc < ws.bestScore && e.allowed(m) {
				ws.best, ws.bestScore = m, sc
			}
		}
	}
	if e.pawn != cc.NoSquare {
		ws.side = endSideOf(q) // the other moves' legality is tested
		pawnMoves(q, e.pawn.Bitboard(), occ, false, ws)
	}
	floor := 16*here + 2
	if e.pawnPath&q.ColorPieces(w)&^q.TypePieces(cc.Pawn) != 0 {
		floor -= 30
	}
	if ws.bestScore >= floor {
		if e.pawn == cc.NoSquare {
			ws.side = endSideOf(q)
		}
		pieceMoves(q, occ, ws)
		// The other pawns' moves (the squares near the loser's king only add).
		ws.pawns = q.Pieces(w, cc.Pawn)
		if e.pawn != cc.NoSquare {
			ws.pawns &^= e.pawn.Bitboard() // NoSquare's bitboard is a1's, not empty
		}
		pawnMoves(q, ws.pawns, occ, true, ws)
	}
	return ws.best, ws.best != cc.NullMove
}

// endWinScan is what winnerMove scores w's moves with (kept in the planner).
type endWinScan struct {
	e                     *endPlanner
	side                  endSide     // what w's moves are tested for legality against
	theirs                cc.Bitboard // the loser's pieces
	w, l                  cc.Color
	lk                    cc.Square
	here, bestScore       int32
	best                  cc.Move
	occ, near             cc.Bitboard
	majors, ready         cc.Bitboard
	checks, reach, reachQ cc.Bitboard
	pawns                 cc.Bitboard // the pawns of w other than the promoting one
	pawn                  cc.Square   // e.pawn
	pawnPath              cc.Bitboard // e.pawnPath
}

// try scores m (the piece pt lands on to) and keeps it when it is legal and the best so
// far. The terms that need no attack set come first: the others (a check, a lone major
// that is no longer ready, the squares near the loser's king the move attacks) only add,
// so a move whose first terms already reach the best score is dropped at once. It
// reports whether it kept m.
func (s *endWinScan) try(m cc.Move, pt cc.PieceType, from, to cc.Square, legal bool) bool {
	var sc int32
	switch {
	case from == s.pawn:
		sc = -1000
		if m.Kind() == cc.PromotionMove && pt != cc.Queen {
			sc = 1000
		}
	default:
		sc = 16*s.here + 4
		if m.Kind() == cc.PromotionMove && pt != cc.Queen {
			sc += 200
		}
		if s.occ.Has(to) {
			sc -= 3
		}
		sc += 8 - int32(distance(to, s.lk)) // wait far from the loser's king
	}
	if s.pawnPath.Has(to) && pt != cc.Pawn {
		sc += 30 // in the way of the promoting pawn
	} else if s.pawnPath.Has(from) {
		sc -= 30
	}
	others := s.e.othersOf[from&63] // stale, but unused, when s.near is empty
	blocked := (to.Bitboard()&s.near | others) & s.near
	lone := int32(0) // the lone major's term, sure before the attacks for a minor piece
	if s.ready == 0 && s.majors != 0 && pt != cc.Rook && pt != cc.Queen && from != s.pawn {
		lone = 12
	}
	if sc+lone+5*int32(blocked.Count()) >= s.bestScore {
		return false
	}
	occ2 := s.occ&^from.Bitboard() | to.Bitboard()
	att := cc.PieceAttacks(pt, s.w, to, occ2)
	if from != s.pawn {
		if att.Has(s.lk) {
			sc += 100 // a check that does not mate
		}
		// A major moved is still ready when it lands on a checking square or attacks one
		// from there (majorReady, with the attacks already at hand: pt is its kind).
		if s.majors != 0 && s.ready&^from.Bitboard() == 0 && (!s.majors.Has(from) || !s.checks.Has(to) && att&s.checks == 0) {
			sc += 12
			if s.ready == 0 && (pt == cc.Rook && att&s.reach != 0 || pt == cc.Queen && att&s.reachQ != 0) {
				sc -= 6 // one move from a checking square: on its way
			}
		}
	}
	if s.near != 0 {
		blocked |= att & s.near
		sc += 5 * int32(blocked.Count())
		if blocked == s.near {
			sc += 20 // the loser's king cannot come closer
		}
	}
	if sc < s.bestScore && s.e.allowed(m) && (legal || s.side.legal(from, to)) {
		s.best, s.bestScore = m, sc
		return true
	}
	return false
}

// worth keeps the targets far enough from the loser's king: the rest of a waiting move's
// score is at least that of a capture off the near squares.
func (s *endWinScan) worth(pt cc.PieceType, from cc.Square, tg cc.Bitboard) cc.Bitboard {
	others := s.e.othersOf[from&63] // stale, but unused, when s.near is empty
	// A target d squares from the loser's king adds 8-d to the base, a capture -3, a
	// new square s.near the loser's king 5, a square on the pawn's path 30, a piece
	// leaving that path -30 otherwise: keep the targets that stay under the s.best.
	room := s.bestScore - (16*s.here + 4) - 5*int32((others&s.near).Count())
	if s.ready == 0 && s.majors != 0 && pt != cc.Rook && pt != cc.Queen {
		room -= 12 // a minor piece's move leaves no major s.ready
	}
	leave := int32(0)
	if s.pawnPath.Has(from) {
		leave = -30
	}
	nearNew := s.near &^ others
	theirs := s.theirs
	path := tg & s.pawnPath
	tg &^= path
	keep := tg&^theirs&^nearNew&endFarFrom[s.lk][endClampFar(9-room+leave)] |
		tg&theirs&^nearNew&endFarFrom[s.lk][endClampFar(6-room+leave)] |
		tg&^theirs&nearNew&endFarFrom[s.lk][endClampFar(14-room+leave)] |
		tg&theirs&nearNew&endFarFrom[s.lk][endClampFar(11-room+leave)]
	if path != 0 {
		keep |= path & endFarFrom[s.lk][endClampFar(6-room+30)]
	}
	return keep
}

// pawnWorth keeps the targets of the other pawns far enough from the loser's king (the
// squares near it only add).
func (s *endWinScan) pawnWorth(tg cc.Bitboard) cc.Bitboard {
	dmin := 6 - (s.bestScore - (16*s.here + 4))
	if s.pawns&s.pawnPath != 0 {
		dmin -= 30
	}
	if s.ready == 0 && s.majors != 0 && tg&pawnLastRank[s.w] == 0 {
		dmin += 12 // a pawn's move leaves no major s.ready
	}
	switch {
	case dmin > 7:
		return 0
	case dmin <= 0:
		return tg
	}
	return tg & endFarFrom[s.lk][dmin]
}

// narrow drops the targets that cannot beat the new best: worth and pawnWorth drop only
// those (the lines are the same as without narrowing, over every real endgame).
func (s *endWinScan) narrow(pt cc.PieceType, from cc.Square, tg cc.Bitboard) cc.Bitboard {
	if pt == cc.Pawn {
		return s.pawnWorth(tg)
	}
	return s.worth(pt, from, tg)
}

// endScanner scores the candidate moves of a side handed to it (try: the move, the piece
// it leaves on to, its squares, whether it is known to be legal; true when it kept the
// move as its best) and narrows a piece's targets (worth) or a pawn set's (pawnWorth) to
// those that may still beat its best; after a move kept, narrow drops the rest of a
// piece's targets (or a pawn set's, pt Pawn) that cannot beat the new best, and only
// those: the move chosen is the one every target scored would give.
type endScanner interface {
	try(m cc.Move, pt cc.PieceType, from, to cc.Square, legal bool) bool
	narrow(pt cc.PieceType, from cc.Square, tg cc.Bitboard) cc.Bitboard
	worth(pt cc.PieceType, from cc.Square, tg cc.Bitboard) cc.Bitboard
	pawnWorth(tg cc.Bitboard) cc.Bitboard
}

// pawnMoves hands every move of the pawns (of the side to move in q) to s, in the order
// the move generator lists them: single pushes, promotions (each as its four pieces),
// double pushes, captures to one side, then to the other; with filter, only the targets
// s.pawnWorth lets through.
func pawnMoves[S endScanner](q *cc.Position, pawns, occ cc.Bitboard, filter bool, s S) {
	if pawns == 0 {
		return
	}
	us := q.Turn()
	up := pawnUp[us]
	last := pawnLastRank[us]
	single := pushUp(pawns, us) &^ occ
	double := pushUp(single&pawnRank3[us], us) &^ occ
	theirs := q.ColorPieces(us ^ 1)
	sets := [...]struct {
		to    cc.Bitboard
		delta int
	}{
		{single &^ last, up}, {single & last, up}, {double, 2 * up},
		{pushUp(pawns&^cc.FileA, us) >> 1 & theirs &^ last, up - 1}, {pushUp(pawns&^cc.FileA, us) >> 1 & theirs & last, up - 1},
		{pushUp(pawns&^cc.FileH, us) << 1 & theirs &^ last, up + 1}, {pushUp(pawns&^cc.FileH, us) << 1 & theirs & last, up + 1},
	}
	for _, set := range sets {
		b := set.to
		if b == 0 {
			continue
		}
		if filter {
			b = s.pawnWorth(b)
		}
		for b != 0 {
			to := b.PopFirst()
			from := cc.Square(int(to) - set.delta)
			if !last.Has(to) {
				if s.try(cc.NewMove(from, to), cc.Pawn, from, to, false) && filter {
					b = s.narrow(cc.Pawn, cc.NoSquare, b)
				}
				continue
			}
			for _, pr := range endPromotions {
				s.try(cc.NewPromotion(from, to, pr), pr, from, to, false)
			}
		}
	}
}

// pieceMoves hands every move of the pieces of the side to move in q other than the king
// and pawns to s, in the order the move generator lists them: knights, then the bishops'
// and queens' diagonal moves, then the rooks' and queens' straight ones; only the targets
// s.worth lets through.
func pieceMoves[S endScanner](q *cc.Position, occ cc.Bitboard, s S) {
	us := q.Turn()
	own := q.ColorPieces(us)
	for b := q.TypePieces(cc.Knight) & own; b != 0; {
		from := b.PopFirst()
		for tg := s.worth(cc.Knight, from, cc.KnightAttacks(from)&^own); tg != 0; {
			to := tg.PopFirst()
			if s.try(cc.NewMove(from, to), cc.Knight, from, to, false) {
				tg = s.narrow(cc.Knight, from, tg)
			}
		}
	}
	for b := (q.TypePieces(cc.Bishop) | q.TypePieces(cc.Queen)) & own; b != 0; {
		from := b.PopFirst()
		pt := q.PieceAt(from).Type()
		for tg := s.worth(pt, from, cc.BishopAttacks(from, occ)&^own); tg != 0; {
			to := tg.PopFirst()
			if s.try(cc.NewMove(from, to), pt, from, to, false) {
				tg = s.narrow(pt, from, tg)
			}
		}
	}
	for b := (q.TypePieces(cc.Rook) | q.TypePieces(cc.Queen)) & own; b != 0; {
		from := b.PopFirst()
		pt := q.PieceAt(from).Type()
		for tg := s.worth(pt, from, cc.RookAttacks(from, occ)&^own); tg != 0; {
			to := tg.PopFirst()
			if s.try(cc.NewMove(from, to), pt, from, to, false) {
				tg = s.narrow(pt, from, tg)
			}
		}
	}
}

// allowed reports whether m is none of the moves of w passed over (they stalemate).
func (e *endPlanner) allowed(m cc.Move) bool {
	for _, x := range e.skip[:e.nSkip] {
		if x == m {
			return false
		}
	}
	return true
}

// loserMove picks the loser's legal move in q: the best scored (or the first quiet
// waiting move that leaves alone what it must), its legality checked only when it
// scores better than the best so far. It reports false when the loser has no legal move.
func (e *endPlanner) loserMove(q *cc.Position) (cc.Move, bool) {
	w, l := e.w, e.l
	t, s := e.pic.target, e.pic.stand
	lk := q.KingSquare(l)
	wk := q.KingSquare(w)
	occ := q.Occupied()
	attW := e.attW // what w attacks, the loser's king aside: play has just computed it
	e.rings.fill(t, ^attW&^q.TypePieces(cc.Pawn)&^e.pawnPath, lk)
	here := e.rings.at
	e.togo[1] = here
	// What the loser's other pieces must leave alone: w's pieces, the stand, the edge near
	// the target, the pawn's path.
	keep := q.ColorPieces(w) | s.Bitboard() | cc.KingAttacks(wk) | e.pic.edge | e.pawnPath
	best, bestScore := cc.NullMove, int32(1<<30)
	// The king's steps first (legal: attW has the squares w attacks); the other moves
	// score at least 16*here+2, and are looked at only when they could be better.
	for b := cc.KingAttacks(lk) &^ q.ColorPieces(l) &^ attW; b != 0; {
		to := b.PopFirst()
		d := e.rings.step(to)
		if here == endFar {
			d = e.rings.dist(to)
		}
		sc := 16 * d
		if sc == 16*endFar {
			sc = 16 * (here + 3)
		}
		if e.pawnPath.Has(to) {
			sc += 30 // in the way of the promoting pawn
		}
		if q.PieceAt(to) != cc.NoPiece {
			sc += 60
		}
		if sc < bestScore {
			best, bestScore = cc.NewMove(lk, to), sc
		}
	}
	if bestScore < 16*here+2 {
		return best, true
	}
	// At the target while w's king still has endShuffle steps or more to make, the
	// loser's king steps along the edge beside the target (and back next move) rather
	// than wait with a piece: no other move need be looked at.
	if here == 0 && e.togo[0] >= endShuffle && e.togo[0] < endFar {
		if b := cc.KingAttacks(lk) & e.pic.edge &^ occ &^ attW &^ e.pawnPath; b != 0 {
			return cc.NewMove(lk, b.First()), true
		}
	}
	// The loser's pieces that attack the stand or the edge keep w's king out or the
	// mating check off: moving them off those squares is worth endFreeStand.
	watch := e.pic.edge&^t.Bitboard() | s.Bitboard()
	// Kind by kind (a switch on each piece's kind mispredicted).
	var attS cc.Bitboard
	theirs := q.ColorPieces(l)
	for b := theirs & q.TypePieces(cc.Knight); b != 0; {
		sq := b.PopFirst()
		if cc.KnightAttacks(sq)&watch != 0 {
			attS |= sq.Bitboard()
		}
	}
	for b := theirs & (q.TypePieces(cc.Bishop) | q.TypePieces(cc.Queen)); b != 0; {
		sq := b.PopFirst()
		if cc.BishopAttacks(sq, occ)&watch != 0 {
			attS |= sq.Bitboard()
		}
	}
	for b := theirs & (q.TypePieces(cc.Rook) | q.TypePieces(cc.Queen)) &^ attS; b != 0; {
		sq := b.PopFirst()
		if cc.RookAttacks(sq, occ)&watch != 0 {
			attS |= sq.Bitboard()
		}
	}
	ls := &e.lscan
	ls.side, ls.l, ls.wk, ls.t, ls.occ, ls.base, ls.keep = endSideOf(q), l, wk, t, occ, 16*here+6, keep
	ls.watch, ls.attS, ls.beside, ls.theirs = watch, attS, cc.KingAttacks(t)&^e.pic.edge, q.ColorPieces(w)
	ls.best, ls.bestScore = best, bestScore
	pieceMoves(q, occ, ls)
	if pawns := q.Pieces(l, cc.Pawn); pawns != 0 && ls.bestScore > ls.base {
		pawnMoves(q, pawns, occ, true, ls)
	}
	return ls.best, ls.best != cc.NullMove
}

// endLoseScan is what loserMove scores the loser's waiting moves with (kept in the
// planner).
type endLoseScan struct {
	side             endSide // what the loser's moves are tested for legality against
	l                cc.Color
	wk, t            cc.Square
	base, bestScore  int32
	best             cc.Move
	occ, keep, watch cc.Bitboard
	attS, beside     cc.Bitboard
	theirs           cc.Bitboard // w's pieces
}

// try scores m (the piece pt lands on to) and keeps it when it is legal and the best so
// far; the attacks, which only add, are looked at only when the rest scores better. It
// reports whether it kept m.
func (ls *endLoseScan) try(m cc.Move, pt cc.PieceType, from, to cc.Square, _ bool) bool {
	sc := ls.base
	if m.Kind() == cc.PromotionMove {
		sc += 4
	}
	if ls.keep.Has(to) {
		sc += 6
	}
	if ls.beside.Has(to) {
		sc -= 4 // a blocker beside the target helps
	}
	if ls.occ.Has(to) {
		sc += 60
	}
	free := ls.attS.Has(from) && pt != cc.Pawn
	if free {
		sc -= endFreeStand
	}
	if sc >= ls.bestScore {
		return false
	}
	occ2 := ls.occ&^from.Bitboard() | to.Bitboard()
	att := cc.PieceAttacks(pt, ls.l, to, occ2)
	if att.Has(ls.wk) {
		sc += 100
	}
	if free && att&ls.watch != 0 {
		sc += endFreeStand
	}
	sc += 3 * int32((att & ls.keep).Count())
	if sc < ls.bestScore && ls.side.legal(from, to) {
		ls.best, ls.bestScore = m, sc
		return true
	}
	return false
}

// worth drops the targets whose first terms already reach the best score: a capture (at
// least 62 over the base), a square to keep (6, or 2 beside the target); and once a move
// scores the base (quiet, off the squares to keep and attacking none of them) it drops
// every target: that move is good enough, the rest is not scanned (the pawns are looked
// at only when no piece has such a move).
func (ls *endLoseScan) worth(pt cc.PieceType, from cc.Square, tg cc.Bitboard) cc.Bitboard {
	room := ls.bestScore - ls.base
	if ls.attS.Has(from) && pt != cc.Pawn {
		room += endFreeStand
	}
	if room <= 62 {
		tg &^= ls.theirs
	}
	if room <= 6 {
		tg &^= ls.keep &^ ls.beside
	}
	if room <= 2 {
		tg &^= ls.keep
	}
	if room <= 0 {
		tg = 0 // good enough: a quiet move off the squares to keep
	}
	return tg
}

// narrow drops the targets whose first terms (try's, before the attacks) reach the new
// best once it is the base or less (a quiet waiting move, attacking nothing to keep, was
// found); unlike worth it keeps what may still beat it (a square beside the target
// scores under the base), so that the move chosen is the one every target scored would
// give. Above the base it drops nothing: an exact narrowing there cost more than it saved.
func (ls *endLoseScan) narrow(pt cc.PieceType, from cc.Square, tg cc.Bitboard) cc.Bitboard {
	room := ls.bestScore - ls.base
	if ls.attS.Has(from) && pt != cc.Pawn {
		room += endFreeStand
	}
	switch {
	case room <= -4:
		return 0
	case room <= 0:
		// Only a quiet move beside the target, off the squares to keep, scores under.
		return tg & ls.beside &^ ls.keep &^ ls.theirs
	}
	return tg
}

// pawnWorth drops the pawns' targets as worth does.
func (ls *endLoseScan) pawnWorth(tg cc.Bitboard) cc.Bitboard {
	return ls.worth(cc.Pawn, cc.NoSquare, tg)
}

// endClampFar returns the index into endFarFrom for "at least d steps": 8 (no square)
// past 7, 0 (every square) below 1.
func endClampFar(d int32) int32 {
	// Without a branch (max and min, inlined, became branches that mispredicted).
	d &^= d >> 31 // at least 0
	o := d - 8
	return 8 + o&(o>>31) // at most 8
}

// endFarFrom[sq][d] holds the squares at least d king steps from sq (none for d = 8).
var endFarFrom = func() (t [64][9]cc.Bitboard) {
	for a := range cc.Square(64) {
		for b := range cc.Square(64) {
			for d := 0; d <= distance(a, b); d++ {
				t[a][d] |= b.Bitboard()
			}
		}
	}
	return t
}()

// endReach returns the squares a king on start reaches, or steps beside, in king steps
// over the allowed squares.
func endReach(start cc.Square, allowed cc.Bitboard) cc.Bitboard {
	reach := start.Bitboard()
	for {
		next := reach | cc.KingSpread(reach)&allowed
		if next == reach {
			return reach | cc.KingSpread(reach)
		}
		reach = next
	}
}
