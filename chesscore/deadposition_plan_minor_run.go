// deadposition_plan_minor_run.go: the pawn-run planner: a winner with only pawns clears
// the way of one of them (the loser's pieces given up, the pawns in front taken) and
// hands the endgame planner a position where that pawn promotes and mates.
//
// # Method
//
// A winner w with king and pawns only, against a loser l with pieces or with a pawn
// in the path of one of w's, is the endgame planner's case once l's pieces are off the
// board and one pawn of w has a free path: the endgame planner has already failed on the
// position as it stands, so the pawn-run planner first plays towards that. It picks the
// pawn of w to run (the fewest pawns of l in front of it, then the fewest pushes; no
// pawn of w in front), and plays greedily, one chosen move a side, for runMaxPlies
// plies at most:
//
//   - w: its king takes a piece of l (or, with none left, a pawn of l in the runner's
//     path) when it can; else it steps towards the nearest of them (a flood fill over
//     the squares l does not attack).
//   - l: a piece steps next to w's king where nothing of l guards it (w takes it); else
//     the piece nearest to w's king steps closer; with no piece left, its king or a pawn
//     not in the runner's path moves, keeping away from the path and leaving the pawns
//     in it unguarded (never a capture, never a check).
//
// With no piece of l left and the runner's path free of pawns, the endgame planner plays
// on from there, its line replayed to a mate; the run's moves are replayed to the
// position handed over (replaysToPosition) before the two lines joined are returned: Yes
// only with a verified line, never a No. A move leading to a position
// already played is replaced by the next best; with none left, or the plies spent, the
// planner gives up. w's king steps alone are listed (kingMoves: it moves nothing
// else), l's checks are looked up (minorChecks) and its moves scored on the pieces
// alone (minorApply: bitboards only) where a piece offered or a pawn left unguarded
// needs them; w's king steps are scored on rings of the flood fill. It runs without the
// structure's proof first (that proved nothing on the real games where it fits, and
// cost an eighth of the step). On the real games it costs about 124 thousand
// instructions a call (0-11 pieces; 158 thousand before the lookups, the structure
// included), over 40% of it the endgame planner it hands over to. The promotion
// planner answers 120 of the 153 real-game decisions per pass where this one runs, so
// it runs first there (decider.planStep), this planner only after it: 15.8 million
// instructions per pass for that step, 19.0 the other way round, the same answers.

package chesscore

// runMaxPlies bounds the line the pawn-run planner plays before the endgame planner.
const runMaxPlies = 40

// runMaxPieces is the number of pieces up to which the pawn-run planner runs.
const runMaxPieces = 11

// runPlanner is the state of the pawn-run planner (kept in the pooled decider).
type runPlanner struct {
	w, l   Color
	runner Square   // w's pawn to promote, where it stands now
	path   Bitboard // the squares in front of the runner
	n      int      // plies of line
	line   [runMaxPlies + endMaxPlies]Move
	hashes [runMaxPlies + 1]uint64
	ml     MoveList
	costs  [MaxMoves]int
	child  Position     // the position a move of l is scored on (chooseL)
	next   Position     // the position after the move pick returns
	near   [4]Bitboard  // near[d]: the squares at most d king steps from the runner or its path
	rings  [64]Bitboard // flood fill from w king's goals: ring d reached in d steps
	nrings int
}

// runPlanFits reports whether the pawn-run planner may answer for w in p: few pieces, w
// has only its king and pawns, and l has a piece or a pawn in the path of one of w's.
func runPlanFits(p *Position, w Color) bool {
	if p.byType[0].Count() > runMaxPieces {
		return false
	}
	ours, theirs := p.byColor[w], p.byColor[w^1]
	pawns := ours & p.byType[Pawn]
	if pawns == 0 || ours&^p.byType[King]&^pawns != 0 {
		return false
	}
	if theirs&^p.byType[King]&^p.byType[Pawn] != 0 {
		return true
	}
	for b := pawns; b != 0; {
		if runPath(b.PopFirst(), w)&theirs&p.byType[Pawn] != 0 {
			return true
		}
	}
	return false
}

// planRun runs the pawn-run planner for c on the root: Yes with a verified line, or
// nothing (the decision goes on).
// decider.planStep runs it where it fits (runPlanFits), after the promotion planner.
func (d *decider) planRun(c Color) (Decision, bool) {
	if d.minor == nil {
		d.minor = new(minorPlanner)
	}
	if d.end == nil {
		d.end = new(endPlanner)
	}
	r := &d.minor.run
	n, ok := r.find(&d.root, c, d.end)
	if !ok {
		return Decision{}, false
	}
	return Decision{Verdict: Yes, Proof: ProofMate, Line: r.line[:n], Nodes: n + d.end.plies}, true
}

// find plays the way clear from p and hands over to the endgame planner e; it returns
// the length of the verified line in r.line.
func (r *runPlanner) find(p *Position, w Color, e *endPlanner) (int, bool) {
	r.w, r.l = w, w^1
	if !r.chooseRunner(p) {
		return 0, false
	}
	q := *p
	r.n = 0
	r.hashes[0] = q.hash
	r.near[0] = r.path | r.runner.Bitboard()
	for i := 1; i < len(r.near); i++ {
		r.near[i] = r.near[i-1] | kingSpread(r.near[i-1])
	}
	for !r.clear(&q) {
		if r.n == runMaxPlies {
			return 0, false
		}
		var mv Move
		if q.turn == r.w {
			r.kingMoves(&q)
			mv = r.chooseW(&q)
		} else {
			q.LegalMoves(&r.ml)
			mv = r.chooseL(&q)
		}
		if mv == NullMove {
			return 0, false
		}
		q = r.next
		r.line[r.n] = mv
		r.n++
		r.hashes[r.n] = q.hash
	}
	m, ok := e.find(&q, w)
	if !ok {
		return 0, false
	}
	// The endgame planner replayed its line from q to a mate: the run's moves must lead
	// to q.
	n := r.n + copy(r.line[r.n:], e.line[:m])
	if n != r.n+m || !replaysToPosition(p, r.line[:r.n], &q) {
		return 0, false
	}
	return n, true
}

// chooseRunner picks w's pawn to run: the fewest pawns of l in its path, then the fewest
// pushes, and no pawn of w in its path.
func (r *runPlanner) chooseRunner(p *Position) bool {
	best := -1
	for b := p.Pieces(r.w, Pawn); b != 0; {
		sq := b.PopFirst()
		path := runPath(sq, r.w)
		if path&p.byColor[r.w]&p.byType[Pawn] != 0 {
			continue
		}
		pushes := path.Count()
		cost := 8*(path&p.byType[Pawn]).Count() + pushes
		if best < 0 || cost < best {
			best, r.runner, r.path = cost, sq, path
		}
	}
	return best >= 0
}

// runPath returns the squares in front of a pawn of colour c on sq.
func runPath(sq Square, c Color) Bitboard {
	var path Bitboard
	for s := sq; ; {
		if c == White {
			if s.Rank() == 7 {
				return path
			}
			s += 8
		} else {
			if s.Rank() == 0 {
				return path
			}
			s -= 8
		}
		path |= s.Bitboard()
	}
}

// clear reports whether l has no piece left and the runner's path no pawn.
func (r *runPlanner) clear(q *Position) bool {
	theirs := q.byColor[r.l]
	return theirs&^q.byType[King]&^q.byType[Pawn] == 0 && r.path&q.byType[Pawn] == 0
}

// prey returns what w's king is to take in q: l's pieces, else the pawns in the
// runner's path.
func (r *runPlanner) prey(q *Position) Bitboard {
	theirs := q.byColor[r.l] &^ q.byType[King]
	if pieces := theirs &^ q.byType[Pawn]; pieces != 0 {
		return pieces
	}
	return theirs & r.path
}

// kingMoves fills r.ml with the legal moves of the side to move's king in q (w moves
// nothing else), in the order LegalMoves lists them: its steps by square, then castling
// (from LegalMoves itself, where a right is left).
func (r *runPlanner) kingMoves(q *Position) {
	if q.castling != 0 {
		q.LegalMoves(&r.ml)
		return
	}
	r.ml.N = 0
	us := q.turn
	k := q.KingSquare(us)
	occ := q.byType[0] &^ k.Bitboard()
	for b := kingAttacks[k] &^ q.byColor[us]; b != 0; {
		if to := b.PopFirst(); !q.attacked(to, us^1, occ) {
			r.ml.add(NewMove(k, to))
		}
	}
}

// chooseW returns w's move in q (w to move, r.ml its king's legal moves): a capture of its
// prey by the king, else a king step towards it; NullMove when nothing fits.
func (r *runPlanner) chooseW(q *Position) Move {
	prey := r.prey(q)
	k := q.KingSquare(r.w)
	occ := q.byType[0] &^ k.Bitboard()
	r.floodFrom(prey, ^q.attacksBy(r.l, occ)&^q.byColor[r.w]|prey)
	kl := q.KingSquare(r.l)
	for i, mv := range r.ml.Moves[:r.ml.N] {
		r.costs[i] = minorRuledOut
		if mv.From() != k {
			continue
		}
		if prey.Has(mv.To()) {
			r.costs[i] = 0
			continue
		}
		if q.board[mv.To()] != NoPiece || kingAttacks[mv.To()].Has(kl) {
			continue
		}
		r.costs[i] = 1 + r.dist(mv.To())
	}
	return r.pick(q)
}

// chooseL returns l's move in q (l to move, r.ml its legal moves): a piece offered to
// w's king, else the piece nearest to w's king stepping closer, else a quiet move away
// from the runner's path; NullMove when nothing fits.
func (r *runPlanner) chooseL(q *Position) Move {
	kw := q.KingSquare(r.w)
	pieces := q.byColor[r.l] &^ q.byType[King] &^ q.byType[Pawn]
	prey := q.byColor[r.l] & q.byType[Pawn] & r.path
	child := &r.child
	var cs minorChecks // l's checks on w's king, looked up
	cs.init(q)
	for i, mv := range r.ml.Moves[:r.ml.N] {
		r.costs[i] = minorRuledOut
		from, to := mv.From(), mv.To()
		if q.board[to] != NoPiece || mv.Promotion() == Queen || mv.Promotion() == Rook {
			continue
		}
		check := cs.gives(q, mv)
		if pieces.Has(from) {
			if kingAttacks[kw].Has(to) {
				// Offered: w's king takes it unless l guards it (the pieces alone moved).
				minorApply(child, q, mv)
				if !child.attacked(to, r.l, child.byType[0]&^kw.Bitboard()) {
					r.costs[i] = 0
				}
				continue
			}
			if check {
				continue
			}
			r.costs[i] = 2 + 2*distance(to, kw)
			continue
		}
		if check || r.path.Has(to) {
			continue
		}
		// A quiet move: away from the runner's path, where w's king goes.
		c := 40
		if pieces == 0 {
			c = 20
		}
		for _, ring := range r.near { // less the king steps to the path, at most 4
			if !ring.Has(to) {
				c--
			}
		}
		if q.board[from].Type() == King {
			c -= min(distance(to, kw), 3)
		}
		// The pawns w's king is to take, left unguarded.
		if prey != 0 {
			minorApply(child, q, mv)
		}
		for b := prey; b != 0; {
			if child.attacked(b.PopFirst(), r.l, child.byType[0]) {
				c += 8
			}
		}
		r.costs[i] = c
	}
	return r.pick(q)
}

// pick returns the move of r.ml of least cost whose position is not in the line yet (that
// position in r.next).
func (r *runPlanner) pick(q *Position) Move {
	moves := r.ml.Moves[:r.ml.N]
	for {
		best := -1
		for i := range moves {
			if r.costs[i] < minorRuledOut && (best < 0 || r.costs[i] < r.costs[best]) {
				best = i
			}
		}
		if best < 0 {
			return NullMove
		}
		if r.next = q.Play(moves[best]); !r.seen(r.next.hash) {
			return moves[best]
		}
		r.costs[best] = minorRuledOut
	}
}

// seen reports whether a position of hash h is already in the line.
func (r *runPlanner) seen(h uint64) bool {
	for _, x := range r.hashes[:r.n+1] {
		if x == h {
			return true
		}
	}
	return false
}

// floodFrom fills r.rings with the squares reached from the goals over the squares
// allowed: ring 0 the goals, ring d those reached in at most d king steps.
func (r *runPlanner) floodFrom(goals, allowed Bitboard) {
	reached := goals
	r.rings[0] = reached
	r.nrings = 1
	for r.nrings < len(r.rings) {
		frontier := kingSpread(reached) &^ reached & allowed
		if frontier == 0 {
			return
		}
		reached |= frontier
		r.rings[r.nrings] = reached
		r.nrings++
	}
}

// dist returns the king steps from sq to the goals of the last flood: 0 on a goal, else
// one more than the nearest ring next to it (the squares next to the region count too:
// the king steps from there); 255 where cut off.
func (r *runPlanner) dist(sq Square) int {
	if r.rings[0].Has(sq) {
		return 0
	}
	near := kingAttacks[sq]
	for d := 0; d < r.nrings; d++ {
		if r.rings[d]&near != 0 {
			return d + 1
		}
	}
	return 255
}
