// plan_mid.go: the middlegame mate planner: with plenty of material, a mating
// configuration at the loser's king, picked statically and played straight to.
//
// The planner answers Yes quickly where the loser's king is walled in by its own pieces,
// as it usually is in a middlegame, and gives up quickly everywhere else:
//
//   - Plans. A plan mates the loser l's king where it stands, or one or two steps away
//     (each step a task of l): a piece of the winner w (queen, rook, bishop, knight; a
//     pawn near the king in one move) walks to a square from which it checks there, in
//     one to three moves through empty squares (breadth-first over its moves on the
//     board as it stands). The planner counts statically with bitboards what l must do
//     first: fill each flight square w would not cover, and move away every piece of l
//     that could then capture the checker or interpose, or that stands on the checker's
//     route. A square no piece of l can fill (or the checking square, next to the king)
//     needs a supporter: a piece or pawn of w that covers it after one move. Plans asking
//     more than midMaxTasks moves of l are dropped.
//   - Levels. Plans are made level by level (the moves of w before the mate plus the
//     king's steps) and played at each level best first, by the plies they should take
//     (midPawnPenalty more for each pawn of l to move away: such plans fail most),
//     midTries plans at most in all: short mates are found first and cheaply, and a
//     position without one is given up quickly. A plan within midEager plies of its
//     level's floor is played as soon as it is collected, the queens' plans first.
//   - Cheap first. A plan is counted once when collected, on the bitboards of the
//     position as it stands, and dropped at once when the defenders it must move away are
//     too many or what l cannot fill no supporter can cover; the rest of its evaluation
//     is made lazily, lowest estimate first.
//   - Play. A plan is played on real positions, each move chosen from the plan and its
//     legality tested alone (IsLegal), never picked from a list of every legal move: w
//     plays the supporter's move, then the checker's route, then the check; l makes the
//     first move that leaves it less to do among the few the plan names (the king's step,
//     a piece or pawn onto a flight square, a blocker away), counted on bitboards
//     (midBoard); whichever side has nothing to do makes a waiting move away from the
//     squares involved. What l has left to do is carried over the moves that cannot
//     change it (waitSeen). Where l has at most midQuickLeft tasks left, a mate the plan
//     did not foresee is looked for cheaply (quickMate: only the checks that also cover
//     the king's free squares, and discovered checks).
//   - Verify. A line found replays to a mate by w (ReplaysToMate) or is dropped.
//
// It never answers No: a failure falls through to the next step of the decision.
// BenchmarkMidPlanner measures it on the real positions it runs on.

package dead

import cc "github.com/gambitchess/gambit/chesscore"

// midMinPieces is the number of pieces (kings and pawns included) from which the
// planner runs. Below it the positions it could answer are the easy ones, which the
// endgame planner and the search settle quickly too.
const midMinPieces = 12

// midMaxTasks bounds the moves the loser must make in a plan (fillers and defenders).
const midMaxTasks = 3

// midTries is the number of plans played, best first: past it a plan rarely mates, and
// most failures run out of plans before.
const midTries = 16

// midEager is how many plies above the fewest a plan of its level can take (the floor)
// a plan may take that is played as soon as it is collected: such plans mate often
// enough that collecting the rest of the level first is wasted.
const midEager = 2

// midMaxLevel is the last level of plans made: the moves of the winner before the mate
// (three at most) plus the steps of the loser's king (two at most).
const midMaxLevel = 4

// midSideSteps is the number of moves of l in a plan that may leave it as much to do,
// when no move leaves it less: a filler onto a hole that then guards the checker's square,
// say, moved on later. One such move finds a few more mates; more add nothing.
const midSideSteps = 1

// midMaxPlies bounds the length of a plan's line.
const midMaxPlies = 14

// midPawnPenalty is added to a plan's plies (and its bound) for each pawn of l it must
// move away: a pawn that guards the checker's square or stands in the way can only push
// or take, and such plans fail more often, so they are played after the others of their
// length.
const midPawnPenalty = 2

// midPlan is one mating configuration: the piece of type pt on from checks the loser's
// king from to, reached through the squares vias[:nv], after the supporter of type
// spt (if any: sfrom is not NoSquare) has stepped from sfrom to sto to cover what no
// piece of the loser can fill.
type midPlan struct {
	king       cc.Square // where l's king is mated: where it stands or a step or two away
	kmid       cc.Square // the square between, for two steps (else NoSquare)
	pt         cc.PieceType
	from, to   cc.Square
	vias       [2]cc.Square
	nv         int
	spt        cc.PieceType
	sfrom, sto cc.Square
	plies      int32 // the estimated plies, once evaluated
	bound      int32 // a lower bound of plies, known before the evaluation
	state      midState
	// What needs finds in the position as it stands, no supporter moved (counted by add):
	// the flight squares l must fill, the pieces it must move away, the flight squares w
	// must cover itself.
	holes, blockers, uncovered cc.Bitboard
	// What needs finds at stage 0 with the supporter (if any) still on sfrom: set by
	// evaluate, read by play at its first ply instead of counting again.
	startHoles, startBlockers, startUncovered cc.Bitboard
	startRest                                 cc.Bitboard // of startBlockers, those off the paths (see carry)

	path    [4]cc.Square   // by stage: the checker's square, to from stage nv+1 on (see at, setRoute0)
	routes  [3]cc.Bitboard // by stage: the squares the checker must still cross (see route)
	stopsAt [3]cc.Bitboard // by stage: the squares where it is still to stop (see stops)
}

// midState is how far a plan has got: collected, evaluated, dropped or played.
type midState uint8

const (
	midCollected midState = iota // its bound known, not yet evaluated
	midEvaluated                 // its supporter and plies known
	midDropped                   // it cannot work or asks the loser too much
	midPlayed                    // played, and failed
)

// at returns the square of the checker at stage st of the plan: from, the vias, to.
// (Read from path, set by setRoute: a switch here is mispredicted.)
func (pl *midPlan) at(st int) cc.Square { return pl.path[st&3] }

// route returns the squares the checker must still cross from stage st: the squares
// between its stops and the stops themselves, to aside.
func (pl *midPlan) route(st int) cc.Bitboard { return pl.routes[st] }

// stops returns the squares where the checker is still to stop from stage st, to aside.
func (pl *midPlan) stops(st int) cc.Bitboard { return pl.stopsAt[st] }

// setRoute computes the routes and stops of every stage once the checker's squares are
// known (setRoute0 has set path). Each stage is computed as if the checker had two vias,
// those it lacks on to: to, never on a route nor a stop, is then taken off (no loop on
// the vias, whose end the processor mispredicts).
func (pl *midPlan) setRoute() {
	p, tb := &pl.path, pl.to.Bitboard()
	r2 := cc.Between(p[2], p[3])
	r1 := cc.Between(p[1], p[2]) | p[2].Bitboard() | r2
	s1 := p[2].Bitboard()
	pl.routes = [3]cc.Bitboard{(cc.Between(p[0], p[1]) | p[1].Bitboard() | r1) &^ tb, r1 &^ tb, r2}
	pl.stopsAt = [3]cc.Bitboard{(p[1].Bitboard() | s1) &^ tb, s1 &^ tb, 0}
}

// setRoute0 sets the checker's squares by stage and computes the route and stops of
// stage 0 alone, all a candidate needs until add keeps it (add then calls setRoute).
func (pl *midPlan) setRoute0() {
	switch pl.nv {
	case 0:
		pl.path = [4]cc.Square{pl.from, pl.to, pl.to, pl.to}
	case 1:
		pl.path = [4]cc.Square{pl.from, pl.vias[0], pl.to, pl.to}
	default:
		pl.path = [4]cc.Square{pl.from, pl.vias[0], pl.vias[1], pl.to}
	}
	p, tb := &pl.path, pl.to.Bitboard()
	pl.routes[0] = (cc.Between(p[0], p[1]) | p[1].Bitboard() | cc.Between(p[1], p[2]) | p[2].Bitboard() | cc.Between(p[2], p[3])) &^ tb
	pl.stopsAt[0] = (p[1].Bitboard() | p[2].Bitboard()) &^ tb
}

// midPiece is a piece of the winner that may check: its square, its type, and the squares
// it reaches in one, two and three moves on the board as it stands (stops: the squares
// it may pass through, empty or taking a piece of the loser).
type midPiece struct {
	sq    cc.Square
	pt    cc.PieceType
	reach [3]cc.Bitboard
	stop  [2]cc.Bitboard
	rest  cc.Bitboard // the squares w's other pieces attack once it has left (see restAttacks)
	hasR  bool        // rest is known
}

// midKing is a square where l's king may be mated: steps (0 to 2) away from where it
// stands, through mid for two.
type midKing struct {
	sq, mid cc.Square
	steps   int
	checks  [cc.King + 1]cc.Bitboard // by piece type: the squares from which it would check there; [King] set once computed
}

// midMover is a piece of the winner that may support a plan: its square, its type and
// the squares it reaches in one move (a pawn: its push) on the board as it stands.
type midMover struct {
	sq    cc.Square
	pt    cc.PieceType
	steps cc.Bitboard
}

// midPlanner is the state of the planner for one decision, kept in the pooled decider.
type midPlanner struct {
	w, l      cc.Color
	kfrom     cc.Square // the square of l's king
	king      cc.Square // where l's king is to be mated, in the plan at hand
	kmid      cc.Square // the king's square between, in the plan at hand (or NoSquare)
	pieces    [16]midPiece
	np        int
	movers    [16]midMover
	nmov      int
	movSteps  [cc.King + 1]cc.Bitboard // by piece type, the movers' steps
	movOf     [cc.King + 1]cc.Bitboard // by piece type, the movers' squares
	movAt     [64]uint8                // by square, the index in movers of the mover there
	coverSeen cc.Bitboard              // the squares whose coverability is known (see coverable)
	coverOK   cc.Bitboard              // of those, the ones some mover may cover
	checkers  cc.Bitboard              // the squares of pieces[:np]
	kings     [25]midKing              // kfrom and the squares one or two steps away the king may go to
	nk        int
	kfirst    [4]int // kings[kfirst[s]:kfirst[s+1]] are the squares s steps away
	stepsSeen uint8  // bit s set when kings holds a square s steps away
	plans     [96]midPlan
	n         int
	order     [96]uint8 // the plans by bound, lowest first
	ev        int       // the plans of order evaluated so far
	good      [96]uint8 // the plans evaluated and kept, in the order evaluated
	cand      midPlan   // the plan collect makes, before add keeps it
	ng        int
	hops      int   // the moves of w's pieces whose reach is known (reach[:hops])
	tries     int   // plans played
	floor     int32 // the fewest plies of a plan of the level at hand (-1: none played while collected)
	line      [midMaxPlies + 2]cc.Move
	nodes     int         // positions played, the verification aside
	sides     int         // moves of l in the plan at hand that left it as much to do
	left      int         // the tasks l's last move in the plan at hand left it (holes and blockers)
	rest      cc.Bitboard // the blockers off the paths, from needsOn's last complete count
	// What l's last move in the plan at hand left it to do, counted completely (see carry):
	// the holes and the blockers off the paths.
	carry                 bool
	carryHoles, carryRest cc.Bitboard
}

// plan looks for a helpmate by w from p. It returns the number of moves of the line found
// (in m.line) or -1.
func (m *midPlanner) plan(p *cc.Position, w cc.Color) int {
	m.setup(p, w)
	if p.Turn() == w {
		if mate := m.quickMate(p); mate != cc.NullMove {
			m.line[0] = mate
			return 1
		}
	}
	// Level by level: the moves of w before the mate, and the king's steps.
	for level := 0; level <= midMaxLevel; level++ {
		if n := m.collectLevel(p, level, true); n > 0 {
			return n
		}
		if n := m.tryPlans(p); n > 0 {
			return n
		}
		if m.tries >= midTries {
			break
		}
	}
	// No plan played catches a mate at once that no plan foresaw: look for it.
	if m.tries == 0 && p.Turn() == w {
		var ml cc.MoveList
		p.LegalMoves(&ml)
		if mate, ok := m.mateIn1(p, &ml); ok {
			m.line[0] = mate
			return 1
		}
	}
	return -1
}

// collectLevel makes m.plans the plans of the given level. Eager, it plays at once a
// plan that is sure to be among the first played at this level or nearly (its plies at
// most midEager above the fewest any plan of the level can have: the floor), and collects
// first at the squares of the king where such plans may be: the line's length is returned
// when one mates, else -1.
func (m *midPlanner) collectLevel(p *cc.Position, level int, eager bool) int {
	m.n = 0
	m.reach(p, min(level, 2)+1)
	m.floor = -1
	// By the king's steps, the fewest plies a plan of the level may take.
	var floors [3]int32
	for s := range floors {
		floors[s] = -1
		if hops := level - s; hops >= 0 && hops <= 2 && m.stepsSeen&(1<<s) != 0 {
			floors[s] = m.plies(p, int32(1+hops), int32(s))
			if eager && (m.floor < 0 || floors[s]+midEager < m.floor) {
				m.floor = floors[s] + midEager
			}
		}
	}
	for pass := 0; pass < 2; pass++ {
		// The king's squares by their steps (kings holds them so ordered), a test for each
		// number of steps rather than each square.
		for s, f := range floors {
			if f < 0 || (f+midEager <= m.floor) != (pass == 0) {
				continue
			}
			for ki := m.kfirst[s]; ki < m.kfirst[s+1]; ki++ {
				if n := m.collect(p, &m.kings[ki], level-s); n > 0 {
					return n
				}
			}
		}
	}
	return -1
}

// reach extends the reach of w's pieces (pawns aside) to hops moves.
func (m *midPlanner) reach(p *cc.Position, hops int) {
	ours := p.ColorPieces(m.w)
	for ; m.hops < hops; m.hops++ {
		h := m.hops
		for i := 0; i < m.np; i++ {
			pc := &m.pieces[i]
			if pc.pt == cc.Pawn {
				continue
			}
			occ1 := p.Occupied() &^ pc.sq.Bitboard()
			// What the piece attacks from any of its stops, all at once.
			stops := pc.stop[h-1]
			var r cc.Bitboard
			switch pc.pt {
			case cc.Knight:
				r = cc.KnightSpread(stops)
			case cc.Bishop:
				r = midSlides(stops, occ1, true)
			case cc.Rook:
				r = midSlides(stops, occ1, false)
			default:
				r = midSlides(stops, occ1, true) | midSlides(stops, occ1, false)
			}
			r &^= ours | pc.sq.Bitboard()
			for j := 0; j < h; j++ {
				r &^= pc.reach[j]
			}
			pc.reach[h] = r
			if h < len(pc.stop) {
				pc.stop[h] = r
			}
		}
	}
}

// setup readies m for a decision for w from p: w's pieces that may check and their
// reach in one move, the movers that may support, the squares where l's king may be
// mated.
func (m *midPlanner) setup(p *cc.Position, w cc.Color) {
	m.w, m.l = w, w^1
	m.kfrom = p.KingSquare(m.l)
	m.nodes, m.tries = 0, 0
	occ := p.Occupied()
	ours := p.ColorPieces(w)
	m.np = 0
	m.nmov, m.movSteps, m.movOf = 0, [cc.King + 1]cc.Bitboard{}, [cc.King + 1]cc.Bitboard{}
	// Queens first, then rooks, bishops and knights: the plans of the strongest pieces mate
	// most often, and a plan played as soon as it is collected ends the collection. Each is
	// a mover too, its steps its reach in one move.
	for pt := cc.Queen; pt >= cc.Knight; pt-- {
		for b := ours & p.TypePieces(pt); b != 0 && m.np < len(m.pieces); {
			sq := b.PopFirst()
			pc := &m.pieces[m.np]
			m.np++
			pc.sq, pc.pt, pc.hasR = sq, pt, false
			pc.reach[0] = cc.PieceAttacks(pt, w, sq, occ) &^ ours
			pc.stop[0] = pc.reach[0]
			m.addMover(sq, pt, pc.reach[0])
		}
	}
	m.hops = 1
	// Pawns near the king check in one move: a push or a capture (no promotion).
	for b := ours & p.TypePieces(cc.Pawn) & cc.KingSpread(cc.KingSpread(cc.KingSpread(m.kfrom.Bitboard()))); b != 0 && m.np < len(m.pieces); {
		sq := b.PopFirst()
		pc := &m.pieces[m.np]
		m.np++
		pc.sq, pc.pt, pc.hasR = sq, cc.Pawn, false
		pc.reach[0] = (pushUp(sq.Bitboard(), w)&^occ | cc.PawnAttacks(w, sq)&p.ColorPieces(m.l)) &^ (cc.Rank1 | cc.Rank8)
		pc.stop, pc.reach[1], pc.reach[2] = [2]cc.Bitboard{}, 0, 0
	}
	m.coverSeen, m.coverOK, m.checkers = 0, 0, 0
	for i := 0; i < m.np; i++ {
		m.checkers |= m.pieces[i].sq.Bitboard()
	}
	// The other movers: the pawns (their push) and the king.
	for b := ours & p.TypePieces(cc.Pawn); b != 0; {
		sq := b.PopFirst()
		m.addMover(sq, cc.Pawn, pushUp(sq.Bitboard(), w)&^occ&^(cc.Rank1|cc.Rank8))
	}
	wk := p.KingSquare(w)
	m.addMover(wk, cc.King, cc.KingAttacks(wk)&^ours)
	m.kings[0], m.nk, m.stepsSeen = midKing{sq: m.kfrom, mid: cc.NoSquare}, 1, 1
	m.kfirst[0], m.kfirst[1] = 0, 1
	occK := occ &^ m.kfrom.Bitboard()
	seen := m.kfrom.Bitboard()
	// What w attacks of the squares one or two steps away, l's king off the board.
	var bb midBoard
	bb.set(p)
	near := cc.KingSpread(cc.KingAttacks(m.kfrom)) &^ occ
	safe := near &^ bb.attacksNear(w, occK, near)
	for b := cc.KingAttacks(m.kfrom) & safe; b != 0; {
		seen |= m.addKing(b.PopFirst(), cc.NoSquare, 1)
	}
	m.kfirst[2] = m.nk
	for i := 1; i < m.nk && m.nk < len(m.kings); i++ {
		if m.kings[i].steps != 1 {
			break
		}
		mid := m.kings[i].sq
		for b := cc.KingAttacks(mid) & safe &^ cc.KingAttacks(m.kfrom) &^ seen; b != 0 && m.nk < len(m.kings); {
			seen |= m.addKing(b.PopFirst(), mid, 2)
		}
	}
	m.kfirst[3] = m.nk
}

// addKing adds k, steps (1 or 2) away from l's king through mid (for two), to the squares
// where the king may be mated, and returns its bitboard.
func (m *midPlanner) addKing(k, mid cc.Square, steps int) cc.Bitboard {
	m.kings[m.nk] = midKing{sq: k, mid: mid, steps: steps}
	m.nk++
	m.stepsSeen |= 1 << steps
	return k.Bitboard()
}

// addMover adds the piece of w of type pt on sq, with the given steps, to the movers.
func (m *midPlanner) addMover(sq cc.Square, pt cc.PieceType, steps cc.Bitboard) {
	if m.nmov == len(m.movers) {
		return
	}
	m.movers[m.nmov] = midMover{sq: sq, pt: pt, steps: steps}
	m.movAt[sq] = uint8(m.nmov)
	m.nmov++
	m.movOf[pt] |= sq.Bitboard()
	m.movSteps[pt] |= steps
}

// tryPlans plays the best plans of m.plans, verifying the line found, until midTries
// plans have been played in all. Plans are evaluated lazily: one whose bound cannot beat
// the best plan evaluated so far is left for later. It returns the number of moves of the
// line (in m.line) or -1.
func (m *midPlanner) tryPlans(p *cc.Position) int {
	// The plans by bound, lowest first (an insertion sort: a few tens of plans).
	for i := 0; i < m.n; i++ {
		j := i
		for ; j > 0 && m.plans[m.order[j-1]].bound > m.plans[i].bound; j-- {
			m.order[j] = m.order[j-1]
		}
		m.order[j] = uint8(i)
	}
	m.ev, m.ng = 0, 0
	for m.tries < midTries {
		best := m.next(p)
		if best < 0 {
			return -1
		}
		if n := m.try(p, &m.plans[best]); n > 0 {
			return n
		}
	}
	return -1
}

// try plays the plan pl, counted among the tries, and verifies the line found: it returns
// the number of moves of the line (in m.line) or -1.
func (m *midPlanner) try(p *cc.Position, pl *midPlan) int {
	pl.state = midPlayed
	m.king, m.kmid = pl.king, pl.kmid
	m.tries++
	if n := m.play(p, pl); n > 0 && cc.ReplaysToMate(p, m.w, m.line[:n]) {
		return n
	}
	return -1
}

// next returns the index of the plan of m.plans to play next, or -1: the evaluated plan
// with the fewest plies, once no plan left to evaluate has a bound below them. Plans are
// evaluated lowest bound first.
func (m *midPlanner) next(p *cc.Position) int {
	for {
		best := -1
		for _, i := range m.good[:m.ng] {
			if pl := &m.plans[i]; pl.state == midEvaluated && (best < 0 || pl.plies < m.plans[best].plies) {
				best = int(i)
			}
		}
		if m.ev == m.n || best >= 0 && m.plans[m.order[m.ev]].bound >= m.plans[best].plies {
			return best
		}
		i := m.order[m.ev]
		m.ev++
		pl := &m.plans[i]
		if pl.state == midCollected { // else evaluated or played while collected
			m.evaluate(p, pl)
		}
		if pl.state == midEvaluated {
			m.good[m.ng] = i
			m.ng++
		}
	}
}

// collect adds to m.plans the plans of p mating l's king on k where a checker moves
// hops+1 times (its last move the check), with their estimated plies. A checker's route
// passes through squares (empty, or taking a piece) from which it does not check yet.
func (m *midPlanner) collect(p *cc.Position, mk *midKing, hops int) int {
	w, k := m.w, mk.sq
	if mk.checks[cc.King] == 0 {
		occ := p.Occupied()&^m.kfrom.Bitboard() | k.Bitboard()
		ours := p.ColorPieces(w)
		r, b := cc.RookAttacks(k, occ)&^ours, cc.BishopAttacks(k, occ)&^ours
		mk.checks = [cc.King + 1]cc.Bitboard{cc.Pawn: cc.PawnAttacks(m.l, k) &^ ours, cc.Knight: cc.KnightAttacks(k) &^ ours, cc.Bishop: b, cc.Rook: r, cc.Queen: r | b}
		mk.checks[cc.King] = 1 // computed
	}
	for i := 0; i < m.np; i++ {
		pc := &m.pieces[i]
		chk := mk.checks[pc.pt]
		for t := chk & pc.reach[hops]; t != 0; {
			// The candidate in m.cand, each field set before it is read (add sets the counts).
			pl := &m.cand
			pl.king, pl.kmid, pl.pt, pl.from, pl.to, pl.nv = k, mk.mid, pc.pt, pc.sq, t.PopFirst(), hops
			pl.spt, pl.sfrom, pl.sto = 0, cc.NoSquare, cc.NoSquare
			occ1 := p.Occupied() &^ pc.sq.Bitboard()
			pl.vias = [2]cc.Square{cc.NoSquare, cc.NoSquare}
			switch hops {
			case 1:
				pl.vias[0] = midPick(pc.stop[0]&^chk&cc.PieceAttacks(pc.pt, w, pl.to, occ1), occ1)
			case 2:
				// Through empty squares rather than captures, when it can.
				v2s := pc.stop[1] &^ chk & cc.PieceAttacks(pc.pt, w, pl.to, occ1)
				for _, v2s := range [2]cc.Bitboard{v2s &^ occ1, v2s & occ1} {
					for v2s != 0 && pl.vias[1] == cc.NoSquare {
						v2 := v2s.PopFirst()
						if v1 := pc.stop[0] &^ chk & cc.PieceAttacks(pc.pt, w, v2, occ1); v1 != 0 {
							pl.vias = [2]cc.Square{midPick(v1, occ1), v2}
						}
					}
				}
			}
			if hops > 0 && pl.vias[hops-1] == cc.NoSquare {
				continue // no route that does not check before
			}
			pl.setRoute0()
			if !m.add(p, pl, mk, pc) || pl.bound > m.floor || m.tries >= midTries {
				continue
			}
			// A plan among the first of the level: evaluated and played at once.
			if q := &m.plans[m.n-1]; m.evaluate(p, q) && q.plies <= m.floor {
				if n := m.try(p, q); n > 0 {
					return n
				}
			}
		}
	}
	return -1
}

// add adds pl to m.plans, collected, with an estimate of its plies made statically on
// the position as it stands: the checker's moves; the king's steps, the pieces of l on
// the checker's route or its line of check and those that could take the checker or
// interpose, each a task of l; the flight squares w does not attack, each a hole to fill
// or, all together, a supporter's move, whichever is cheaper. It drops the plan when
// these tasks are too many, or when the flight squares l cannot fill (a piece of w on
// them, no piece of l able to step there) could be covered by no supporter; the supporter
// found is kept for evaluate. These counts are exactly those of needs (TestMidPlanCounts
// keeps them so), made once here for the position as it stands. The estimate
// only orders the plans (the lowest is evaluated first and evaluation stops at a plan no
// estimate left can beat): it may err either way.
func (m *midPlanner) add(p *cc.Position, pl *midPlan, mk *midKing, pc *midPiece) bool {
	if m.n == len(m.plans) {
		return false
	}
	w, l, k := m.w, m.l, pl.king
	them := p.ColorPieces(l) &^ m.kfrom.Bitboard()
	fb, tb := pl.from.Bitboard(), pl.to.Bitboard()
	occ := p.Occupied() &^ m.kfrom.Bitboard() &^ fb // l's king off the board
	between := cc.Between(pl.to, k)
	if (pl.route(0)|between)&p.ColorPieces(w)&^fb != 0 {
		return false // a piece of w in the way: needs would refuse it
	}
	tasks := int32(mk.steps + ((pl.route(0)&^pl.stops(0) | between) & them).Count())
	if tasks > midMaxTasks {
		return false // these tasks are certain: evaluate would drop it
	}
	// What needs would find, counted here on the position as it stands: the pieces of l
	// that could take the checker or interpose, each a task, and the flight squares.
	occ2 := occ | tb | k.Bitboard()
	them2 := them &^ tb
	pawns := p.TypePieces(cc.Pawn) & them2
	// The flight squares w does not attack once the checker stands on its square: those
	// its other pieces attack (restAttacks) unless the checker's arrival blocks the line.
	occNK := occ | tb // l's king off the board
	flight := cc.KingAttacks(k) &^ them2 &^ cc.PieceAttacks(pl.pt, w, pl.to, occNK)
	for f := flight & m.restAttacks(p, pc); f != 0; {
		sq := f.PopFirst()
		if cc.Line(pl.to, sq) == 0 || p.AttackersTo(sq, w, occNK)&^fb != 0 {
			flight &^= sq.Bitboard()
		}
	}
	// Those with a piece of w on them, or no piece of l able to fill them, w must cover.
	// The fillers are looked at for all the flight squares at once: the knights and the
	// pawns, then the sliders while a square is still unfilled.
	var unc cc.Bitboard
	if flight != 0 {
		unc = flight & (p.ColorPieces(w)&^fb | tb)
		empty := flight &^ unc
		fill := cc.KnightSpread(p.TypePieces(cc.Knight)&them2) | midPushed(pawns, occ2, l)
		if left := empty &^ fill; left != 0 {
			fill |= midSliderAttacks(p.TypePieces(cc.Bishop)|p.TypePieces(cc.Queen), p.TypePieces(cc.Rook)|p.TypePieces(cc.Queen), them2, occ2)
		}
		unc |= empty &^ fill
		for u := unc; u != 0; {
			if !m.coverable(p, u.PopFirst()) {
				return false // support would find no supporter for it
			}
		}
	}
	if unc != 0 {
		// The supporter evaluate would choose (every square of unc, then the most holes).
		if m.king = k; !m.support(p, pl, unc, flight&^unc) {
			return false
		}
	}
	rest := between&them | p.AttackersTo(pl.to, l, occ2)&^p.TypePieces(cc.King)
	for b := between; b != 0; {
		sq := b.PopFirst()
		rest |= p.AttackersTo(sq, l, occ2)&^p.TypePieces(cc.King)&^p.TypePieces(cc.Pawn) | cc.PawnPushers(pawns, occ2, sq, l)
	}
	rest &^= tb
	if mk.steps > 0 {
		rest |= m.kfrom.Bitboard() // the king's steps
	}
	if mk.steps > 1 {
		rest |= mk.mid.Bitboard()
	}
	blockers := pl.route(0)&^pl.stops(0)&them | rest
	if blockers.Count() > midMaxTasks {
		return false
	}
	pl.holes, pl.blockers, pl.uncovered, pl.startRest = flight&^unc, blockers, unc, rest
	tasks = int32(blockers.Count())
	moves := int32(1 + pl.nv)
	pl.bound = m.plies(p, moves, tasks)
	if flight != 0 {
		pl.bound = min(m.plies(p, moves+1, tasks), m.plies(p, moves, tasks+int32(flight.Count())))
	}
	pl.bound += midPawnPenalty * int32((blockers & p.TypePieces(cc.Pawn)).Count())
	pl.state = midCollected
	pl.setRoute()
	m.plans[m.n] = *pl
	m.n++
	return true
}

// coverable reports whether some mover might cover u after one move, in any plan: false
// only when support, for any plan whose must holds u, finds no supporter (the checker's
// square, every square the checker or a slider of w may leave, taken as empty; the squares
// support bans and the checker's arrival ignored). Known once per decision and square.
func (m *midPlanner) coverable(p *cc.Position, u cc.Square) bool {
	if !m.coverSeen.Has(u) {
		m.coverSeen |= u.Bitboard()
		occ := p.Occupied() &^ m.checkers
		r, b := cc.RookAttacks(u, occ), cc.BishopAttacks(u, occ)
		// (One test of all the types at once: a branch on each is mispredicted.)
		cover := m.movSteps[cc.Pawn]&cc.PawnAttacks(m.w^1, u) | m.movSteps[cc.Knight]&cc.KnightAttacks(u) |
			m.movSteps[cc.Bishop]&b | m.movSteps[cc.Rook]&r | m.movSteps[cc.Queen]&(r|b) | m.movSteps[cc.King]&cc.KingAttacks(u)
		m.coverOK |= u.Bitboard() & midIfAny(cover)
	}
	return m.coverOK.Has(u)
}

// restAttacks returns at least the squares w attacks once the piece pc has left its
// square, l's king off the board (the piece's arrival, which may block a line, aside).
func (m *midPlanner) restAttacks(p *cc.Position, pc *midPiece) cc.Bitboard {
	if !pc.hasR {
		pc.hasR = true
		ours := p.ColorPieces(m.w) &^ pc.sq.Bitboard()
		occ := p.Occupied() &^ m.kfrom.Bitboard() &^ pc.sq.Bitboard()
		att := cc.PawnSpread(m.w, p.TypePieces(cc.Pawn)&ours) | cc.KnightSpread(p.TypePieces(cc.Knight)&ours) |
			cc.KingAttacks((p.TypePieces(cc.King) & ours).First())
		for b := (p.TypePieces(cc.Bishop) | p.TypePieces(cc.Queen)) & ours; b != 0; {
			att |= cc.BishopAttacks(b.PopFirst(), occ)
		}
		for b := (p.TypePieces(cc.Rook) | p.TypePieces(cc.Queen)) & ours; b != 0; {
			att |= cc.RookAttacks(b.PopFirst(), occ)
		}
		pc.rest = att
	}
	return pc.rest
}

// plies returns the plies to the mate of a plan with the given moves of w and tasks of
// l from p: w's moves but the last and l's tasks alternate.
func (m *midPlanner) plies(p *cc.Position, moves, tasks int32) int32 {
	if p.Turn() == m.w {
		return 2*max(moves-1, tasks) + 1
	}
	return 2*max(moves-1, tasks-1) + 2
}

// evaluate completes pl (a supporter if needed: add has chosen the one that covers what l
// cannot fill) from the counts add made, and estimates its plies, or drops it when it
// cannot work or asks l for too much. It reports whether pl stays.
func (m *midPlanner) evaluate(p *cc.Position, pl *midPlan) bool {
	pl.state = midDropped
	m.king, m.kmid = pl.king, pl.kmid
	holes, blockers, uncovered := pl.holes, pl.blockers, pl.uncovered
	var ok bool
	if uncovered != 0 || holes.Count()+blockers.Count() > midMaxTasks {
		// A supporter covers what l cannot fill, and as many holes as it can.
		if pl.sfrom == cc.NoSquare && !m.support(p, pl, uncovered, holes) {
			return false
		}
		holes, blockers, uncovered, ok = m.needs(p, pl, 0, pl.sfrom)
		if !ok || uncovered != 0 {
			return false
		}
		pl.startRest = m.rest
	}
	tasks := int32(holes.Count() + blockers.Count()) // the king's step is a blocker
	if tasks > midMaxTasks {
		return false
	}
	moves := int32(1 + pl.nv)
	if pl.sfrom != cc.NoSquare {
		moves++
	}
	pl.plies = m.plies(p, moves, tasks) + midPawnPenalty*int32((pl.blockers&p.TypePieces(cc.Pawn)).Count())
	pl.startHoles, pl.startBlockers, pl.startUncovered = holes, blockers, uncovered
	pl.state = midEvaluated
	return true
}

// support looks for a piece of w (not the checker) that covers, after one move, every
// square of must and as many of want as it can (one at least when must is empty), and
// records the best in pl. It reports whether it found one.
func (m *midPlanner) support(p *cc.Position, pl *midPlan, must, want cc.Bitboard) bool {
	if must|want == 0 {
		return false
	}
	w, k := m.w, m.king
	occ := p.Occupied()&^pl.from.Bitboard() | pl.to.Bitboard()
	// By piece type, the squares from which a piece attacks a square of must (of want,
	// when must is empty): where a supporter may go.
	var near [cc.King + 1]cc.Bitboard
	targets := must.First().Bitboard()
	if must == 0 {
		targets = want
	}
	for t := targets; t != 0; {
		u := t.PopFirst()
		r, b := cc.RookAttacks(u, occ), cc.BishopAttacks(u, occ)
		near[cc.Pawn] |= cc.PawnAttacks(w^1, u)
		near[cc.Knight] |= cc.KnightAttacks(u)
		near[cc.Bishop] |= b
		near[cc.Rook] |= r
		near[cc.Queen] |= r | b
		near[cc.King] |= cc.KingAttacks(u)
	}
	banned := pl.to.Bitboard() | cc.Between(pl.to, k) | cc.KingAttacks(k) | k.Bitboard() | pl.route(0) | pl.from.Bitboard()
	// The movers that may step where they would cover, in the order of their squares: a
	// pawn or a knight only if one of its own steps does, a piece of another type if one of
	// its type's steps does.
	// (Without a branch on each type, which the processor mispredicts.)
	ms, mo := &m.movSteps, &m.movOf
	cands := pushUp(ms[cc.Pawn]&near[cc.Pawn]&^banned, w^1)&mo[cc.Pawn] | cc.KnightSpread(ms[cc.Knight]&near[cc.Knight]&^banned)&mo[cc.Knight] |
		mo[cc.Bishop]&midIfAny(ms[cc.Bishop]&near[cc.Bishop]&^banned) | mo[cc.Rook]&midIfAny(ms[cc.Rook]&near[cc.Rook]&^banned) |
		mo[cc.Queen]&midIfAny(ms[cc.Queen]&near[cc.Queen]&^banned) | mo[cc.King]&midIfAny(ms[cc.King]&near[cc.King]&^banned)
	best := 0
	for c := cands &^ pl.from.Bitboard(); c != 0; {
		mv := &m.movers[m.movAt[c.PopFirst()]]
		for steps := mv.steps & near[mv.pt] &^ banned; steps != 0; steps &= steps - 1 {
			sto := steps.First()
			occ2 := occ&^mv.sq.Bitboard() | sto.Bitboard()
			att := cc.PieceAttacks(mv.pt, w, sto, occ2)
			if att&must != must || att.Has(k) {
				continue
			}
			if n := 1 + (att & want).Count(); n > best && (must != 0 || n > 1) {
				best = n
				pl.spt, pl.sfrom, pl.sto = mv.pt, mv.sq, sto
			}
		}
	}
	return best > 0
}

// midIfAny returns every square when b is not empty, else none: a mask made without a
// branch.
func midIfAny(b cc.Bitboard) cc.Bitboard { return -((b | -b) >> 63) }

// midPick returns a square of b, an empty one (not in occ) if it can.
func midPick(b, occ cc.Bitboard) cc.Square {
	if e := b &^ occ; e != 0 {
		return e.First()
	}
	return b.First()
}

// needs returns what is left to do in q before the checker (at stage st of its route)
// mates from pl.to, the supporter (if any) standing on pl.sto (it is on scur now): the
// holes, flight squares of l's king w would not cover, each to be filled by a piece of l;
// the blockers, pieces of l that could capture the checker or interpose (or stand in the
// way of the check), each to be moved away; the uncovered squares, flight squares w must
// cover itself (no piece of l can fill them, or a piece of w stands there). It reports
// false when the plan cannot work from q: the king or the plan's pieces are gone, or a
// piece of w stands in the way of the check.
func (m *midPlanner) needs(q *cc.Position, pl *midPlan, st int, scur cc.Square) (holes, blockers, uncovered cc.Bitboard, ok bool) {
	var b midBoard
	b.set(q)
	return m.needsOn(&b, pl, st, scur, -1)
}

// needsOn is needs on the bitboards b of the position. With limit 0 or more it may stop
// early, once l is sure to have more than limit tasks or a square w must cover: its
// counts are then partial, more than limit or with uncovered squares (tasksOn's callers
// look no further).
func (m *midPlanner) needsOn(b *midBoard, pl *midPlan, st int, scur cc.Square, limit int) (holes, blockers, uncovered cc.Bitboard, ok bool) {
	w, l, k := m.w, m.l, m.king
	cur := pl.at(st)
	if !b.has(w, pl.pt, cur) {
		return 0, 0, 0, false
	}
	// The king's steps to k: from where it stands (kfrom, or kmid on the way), each a task.
	kat := (b.typ[cc.King] & b.col[l]).First()
	if kat != k && (b.typ[0].Has(k) || kat != m.kfrom && kat != m.kmid) {
		return 0, 0, 0, false
	}
	// The paths of the plan's pieces must be clear: a piece of l on them is a blocker.
	path := pl.route(st)
	if scur != cc.NoSquare && scur != pl.sto {
		path |= cc.Between(scur, pl.sto)
		if pl.spt == cc.Pawn {
			path |= pl.sto.Bitboard()
		}
	}
	if path&b.col[w] != 0 {
		return 0, 0, 0, false
	}
	onPath := path & b.col[l] &^ pl.stops(st) // the checker takes a piece on a stop
	// The other blockers (rest) do not depend on where the plan's pieces stand on their
	// paths: they are counted on h, the position with the plan's pieces arrived.
	var rest cc.Bitboard
	h := *b
	if kat != k {
		h.shift(l, cc.King, kat, k)
		rest |= kat.Bitboard()
		if kat == m.kfrom && m.kmid != cc.NoSquare {
			rest |= m.kmid.Bitboard()
		}
	}
	h.shift(w, pl.pt, cur, pl.to)
	if scur != cc.NoSquare {
		if !b.has(w, pl.spt, scur) || !h.has(w, pl.spt, scur) {
			return 0, 0, 0, false
		}
		h.shift(w, pl.spt, scur, pl.sto)
	}
	between := cc.Between(pl.to, k)
	if between&h.col[w] != 0 {
		return 0, 0, 0, false
	}
	rest |= between & h.col[l]
	occ := h.typ[0]
	rest |= h.attackersTo(pl.to, l, occ) &^ k.Bitboard()
	for bb := between; bb != 0; {
		sq := bb.PopFirst()
		rest |= h.attackersTo(sq, l, occ)&^h.typ[cc.King]&^h.typ[cc.Pawn] | h.pushers(sq, l)
	}
	if limit >= 0 && (onPath|rest).Count() > limit {
		return 0, onPath | rest, 0, true
	}
	occNoKing := occ &^ k.Bitboard()
	if flight := cc.KingAttacks(k) &^ h.col[l]; flight != 0 {
		flight &^= h.attacksNear(w, occNoKing, flight)
		if empty := flight &^ h.col[w]; empty != 0 {
			holes = empty & h.fillable(l, empty)
		}
		uncovered = flight &^ holes
		if limit >= 0 && (uncovered != 0 || (holes|onPath|rest).Count() > limit) {
			return holes, onPath | rest, uncovered, true
		}
	}
	m.rest = rest
	return holes, onPath | rest, uncovered, true
}

// waitSeen reports whether w's waiting move mv in q (as waitW makes it: no capture, off
// the plan's zone, by a piece that covers none of the king's squares before or after it)
// might change what needs counts apart from the paths: whether its squares
// lie on a line from the king's squares, the checker's square or the squares between, seen
// through the squares empty once the plan's pieces and l's king have left theirs (fewer
// than in the position needs counts on, so every line needs may look along). Else the
// pieces of w that cover the king's squares, the squares l may fill and the pieces of l
// that guard the checker's square or its line all stay as they were.
func (m *midPlanner) waitSeen(q *cc.Position, pl *midPlan, st int, scur cc.Square, mv cc.Move) bool {
	seen := cc.KingAttacks(m.king) | pl.to.Bitboard() | cc.Between(pl.to, m.king)
	left := pl.at(st).Bitboard() | q.KingSquare(m.l).Bitboard()
	if scur != cc.NoSquare {
		left |= scur.Bitboard()
	}
	occ := q.Occupied() &^ left
	lines := midSlides(seen, occ, true) | midSlides(seen, occ, false)
	return lines&(mv.From().Bitboard()|mv.To().Bitboard()) != 0
}

// pathBlockers returns the pieces of l in q on the paths the plan's pieces still have to
// cross (the checker at stage st, the supporter on scur), the checker's stops aside, and
// reports false when a piece of w stands there: the part of needs that changes when a
// plan's piece moves along its path.
func (m *midPlanner) pathBlockers(q *cc.Position, pl *midPlan, st int, scur cc.Square) (cc.Bitboard, bool) {
	path := pl.route(st)
	if scur != cc.NoSquare && scur != pl.sto {
		path |= cc.Between(scur, pl.sto)
		if pl.spt == cc.Pawn {
			path |= pl.sto.Bitboard()
		}
	}
	return path & q.ColorPieces(m.l) &^ pl.stops(st), path&q.ColorPieces(m.w) == 0
}

// playZone returns the squares of plan pl (m.king and m.kfrom its king's) that waiting
// moves keep away from: around the king where it stands and where it is mated, the
// checker's route and square, the supporter's, the king's square between.
func (m *midPlanner) playZone(pl *midPlan) cc.Bitboard {
	zone := cc.KingAttacks(m.king) | cc.KingAttacks(m.kfrom) | m.kfrom.Bitboard() | pl.to.Bitboard() | cc.Between(pl.to, m.king) |
		pl.route(0) | pl.from.Bitboard()
	if pl.sfrom != cc.NoSquare {
		zone |= pl.sfrom.Bitboard() | pl.sto.Bitboard() | cc.Between(pl.sfrom, pl.sto)
	}
	if pl.kmid != cc.NoSquare {
		zone |= cc.KingSpread(pl.kmid.Bitboard())
	}
	return zone
}

// play plays plan pl from p, filling m.line. It returns the number of moves of a line
// ending with w mating, or -1. Each side's move is chosen from the plan and tested alone
// (IsLegal), never picked from a list of every legal move.
func (m *midPlanner) play(p *cc.Position, pl *midPlan) int {
	q := *p
	st, scur := 0, pl.sfrom
	// Counted by evaluate: carried to l's first move when w moves first.
	m.sides, m.carry, m.carryHoles, m.carryRest = 0, p.Turn() == m.w, pl.startHoles, pl.startRest
	zone := m.playZone(pl)
	for n := 0; n < midMaxPlies; n++ {
		var mv cc.Move
		if q.Turn() == m.w {
			// All ready, the plan's check is tried first; else (or when it fails) a mate
			// the plan did not foresee.
			ready := false
			if (scur == cc.NoSquare || scur == pl.sto) && st >= pl.nv {
				left := m.left // what l's move left it to do, counted when it was chosen
				if n == 0 {
					// Counted by evaluate.
					left = (pl.startHoles | pl.startBlockers | pl.startUncovered).Count()
				}
				if left == 0 {
					if r := m.mateNow(&q, cc.NewMove(pl.at(st), pl.to), n); r > 0 {
						return r
					}
					ready = true
				}
			}
			// A mate the plan did not foresee, once l has at most midQuickLeft tasks left (the
			// position as it stands was looked at once, before the plans).
			if n > 0 && (ready || m.left <= midQuickLeft) {
				if mate := m.quickMate(&q); mate != cc.NullMove {
					m.line[n] = mate
					return n + 1
				}
			}
			switch {
			case ready:
				return -1
			case scur != cc.NoSquare && scur != pl.sto:
				mv, scur = cc.NewMove(scur, pl.sto), pl.sto
			case st < pl.nv:
				mv = cc.NewMove(pl.at(st), pl.at(st+1))
				st++
			default:
				mv = m.waitW(&q, pl.at(st), scur, zone)
				m.carry = m.carry && mv != cc.NullMove && !m.waitSeen(&q, pl, st, scur, mv)
			}
			if mv == cc.NullMove || !q.IsLegal(mv) {
				return -1
			}
			if q.Occupied().Has(mv.To()) {
				m.carry = false // a capture: counted again
			}
		} else {
			holes, blockers, uncovered, ok := pl.startHoles, pl.startBlockers, pl.startUncovered, true
			switch {
			case n == 0: // counted by evaluate
			case m.carry:
				// Since l's last move, w has moved a plan's piece along its path without
				// taking: the position with the plan's pieces arrived is the same, and only
				// the blockers on the paths are counted again.
				var onPath cc.Bitboard
				onPath, ok = m.pathBlockers(&q, pl, st, scur)
				holes, blockers, uncovered = m.carryHoles, onPath|m.carryRest, 0
			default:
				holes, blockers, uncovered, ok = m.needs(&q, pl, st, scur)
			}
			if !ok || uncovered != 0 {
				return -1
			}
			if holes|blockers == 0 {
				mv = m.waitL(&q, pl, st, scur, zone)
			} else {
				mv = m.task(&q, pl, st, scur, holes, blockers)
			}
			if mv == cc.NullMove {
				return -1
			}
		}
		m.line[n] = mv
		q = q.Play(mv)
		m.nodes++
		if q.Turn() == m.l && q.InCheck() && checkmated(&q) {
			return n + 1 // a move of the plan mates before its end
		}
	}
	return -1
}

// mateNow plays the plan's check mv (w to move in q, all ready): it returns the line's
// length when mv mates, else -1.
func (m *midPlanner) mateNow(q *cc.Position, mv cc.Move, n int) int {
	if q.IsLegal(mv) {
		child := q.Play(mv)
		m.nodes++
		if child.InCheck() && checkmated(&child) {
			m.line[n] = mv
			return n + 1
		}
	}
	return -1
}

// quickMate returns a move of w (to move in q) that mates at once, or NullMove: a mate
// no plan foresaw, looked for cheaply. Only where l's king has at most midQuickFree free
// squares (empty or taken, not attacked by w) are the checks tried: a piece of w onto a
// checking square from which it also attacks every free square (through the king), or a
// piece leaving the king's lines with a slider of w behind (a discovered check);
// promotions and the other special moves aside.
func (m *midPlanner) quickMate(q *cc.Position) cc.Move {
	w, l := m.w, m.l
	k := q.KingSquare(l)
	occ := q.Occupied()
	var b midBoard
	b.set(q)
	zone := cc.KingAttacks(k) &^ q.ColorPieces(l)
	free := zone &^ b.attacksNear(w, occ&^k.Bitboard(), zone)
	if free.Count() > midQuickFree {
		return cc.NullMove
	}
	r, bb := cc.RookAttacks(k, occ), cc.BishopAttacks(k, occ)
	checks := [cc.King + 1]cc.Bitboard{cc.Pawn: cc.PawnAttacks(l, k), cc.Knight: cc.KnightAttacks(k), cc.Bishop: bb, cc.Rook: r, cc.Queen: r | bb}
	for fs := free; fs != 0; {
		// The checker must attack the free squares too.
		f := fs.PopFirst()
		rf, bf := cc.RookAttacks(f, occ&^k.Bitboard()), cc.BishopAttacks(f, occ&^k.Bitboard())
		checks[cc.Pawn] &= cc.PawnAttacks(l, f)
		checks[cc.Knight] &= cc.KnightAttacks(f)
		checks[cc.Bishop] &= bf
		checks[cc.Rook] &= rf
		checks[cc.Queen] &= rf | bf
	}
	// A discovered check needs a slider of w behind the piece that leaves the line.
	ours := q.ColorPieces(w)
	disc := (r | bb) & ours
	behind := cc.RookAttacks(k, occ&^disc)&(q.TypePieces(cc.Rook)|q.TypePieces(cc.Queen)) | cc.BishopAttacks(k, occ&^disc)&(q.TypePieces(cc.Bishop)|q.TypePieces(cc.Queen))
	if behind&ours&^disc == 0 {
		disc = 0
	}
	// The pieces of a type that may check there, and those that may discover a check.
	pieces := disc
	for pt := cc.Pawn; pt < cc.King; pt++ {
		if checks[pt] != 0 {
			pieces |= q.TypePieces(pt) & ours
		}
	}
	for pieces != 0 {
		from := pieces.PopFirst()
		pt := q.PieceAt(from).Type()
		steps := pieceSteps(q, w, from)
		if !disc.Has(from) {
			steps &= checks[pt]
		}
		for steps != 0 {
			to := steps.PopFirst()
			mv := cc.NewMove(from, to)
			if !givesCheck(q, mv, k) || !disc.Has(from) && m.checkerTaken(q, from, to, k) || !q.IsLegal(mv) {
				continue
			}
			child := q.Play(mv)
			m.nodes++
			if checkmated(&child) {
				return mv
			}
		}
	}
	return cc.NullMove
}

// checkerTaken reports whether l (its king on k) may take the piece of w that has just
// moved from from to to in q and checks alone (no discovered check): the king, where
// no other piece of w guards to, or a piece not pinned to the king. Then the check does
// not mate, and quickMate need not play it.
func (m *midPlanner) checkerTaken(q *cc.Position, from, to, k cc.Square) bool {
	w, l := m.w, m.l
	occ := q.Occupied()&^from.Bitboard() | to.Bitboard()
	if cc.KingAttacks(k).Has(to) && q.AttackersTo(to, w, occ&^k.Bitboard())&^from.Bitboard() == 0 {
		return true
	}
	takers := q.AttackersTo(to, l, occ) &^ q.TypePieces(cc.King) &^ to.Bitboard()
	if takers == 0 {
		return false
	}
	// w's sliders once the checker is taken, that could pin a taker.
	ours := q.ColorPieces(w) &^ from.Bitboard()
	diag := (q.TypePieces(cc.Bishop) | q.TypePieces(cc.Queen)) & ours
	orth := (q.TypePieces(cc.Rook) | q.TypePieces(cc.Queen)) & ours
	for ; takers != 0; takers &= takers - 1 {
		occ2 := occ &^ takers.First().Bitboard()
		if cc.BishopAttacks(k, occ2)&diag == 0 && cc.RookAttacks(k, occ2)&orth == 0 {
			return true
		}
	}
	return false
}

// midQuickLeft is the most tasks l may have left for quickMate to look for a mate the
// plan did not foresee, during a plan: the unforeseen mates come near the plan's end,
// and looking earlier costs more than it finds.
const midQuickLeft = 1

// midQuickFree is the most free squares of the loser's king for which quickMate looks
// for a mate.
const midQuickFree = 3

// mateIn1 returns a move of the list ml of w (to move in q) that mates at once. Only the
// moves that may check are tried (givesCheck then decides): a piece onto a square from
// which it attacks the king, a piece leaving the king's lines (a discovered check), and
// the moves that are not plain (promotions, castling, en passant).
func (m *midPlanner) mateIn1(q *cc.Position, ml *cc.MoveList) (cc.Move, bool) {
	k := q.KingSquare(m.l)
	occ := q.Occupied()
	r, b := cc.RookAttacks(k, occ), cc.BishopAttacks(k, occ)
	checks := [cc.King + 1]cc.Bitboard{cc.Pawn: cc.PawnAttacks(m.l, k), cc.Knight: cc.KnightAttacks(k), cc.Bishop: b, cc.Rook: r, cc.Queen: r | b}
	disc := (r | b) & q.ColorPieces(m.w)
	for _, mv := range ml.Moves[:ml.N] {
		if from := mv.From(); mv.Kind() == cc.NormalMove && !disc.Has(from) && !checks[q.PieceAt(from).Type()].Has(mv.To()) {
			continue
		}
		if !givesCheck(q, mv, k) {
			continue
		}
		child := q.Play(mv)
		m.nodes++
		if checkmated(&child) {
			return mv, true
		}
	}
	return cc.NullMove, false
}

// tasksOn counts the moves l must still make (holes and blockers) on the bitboards b of
// a position, reporting false when the plan cannot work from there. A count above limit
// (0 or more) may be partial: only whether it is above limit is known.
func (m *midPlanner) tasksOn(b *midBoard, pl *midPlan, st int, scur cc.Square, limit int) (int, bool) {
	holes, blockers, uncovered, ok := m.needsOn(b, pl, st, scur, limit)
	return holes.Count() + blockers.Count(), ok && uncovered == 0
}

// pawnSteps returns the squares the pawn of colour c on sq may move to in q, promotions
// aside: its pushes and its captures.
func pawnSteps(q *cc.Position, c cc.Color, sq cc.Square) cc.Bitboard {
	occ := q.Occupied()
	one := pushUp(sq.Bitboard(), c) &^ occ
	steps := one | cc.PawnAttacks(c, sq)&q.ColorPieces(c^1)
	if one&pawnRank3[c] != 0 {
		steps |= pushUp(one, c) &^ occ
	}
	return steps &^ pawnLastRank[c]
}

// pieceSteps returns the squares the piece of colour c on sq may move to in q, its
// king's safety aside (promotions aside for a pawn).
func pieceSteps(q *cc.Position, c cc.Color, sq cc.Square) cc.Bitboard {
	pt := q.PieceAt(sq).Type()
	if pt == cc.Pawn {
		return pawnSteps(q, c, sq)
	}
	return cc.PieceAttacks(pt, c, sq, q.Occupied()) &^ q.ColorPieces(c)
}

// midGroups is the number of groups of moves in the order of the legal move list: the
// king's, the knights', the diagonal moves of bishops and queens, the straight moves of
// rooks and queens, the pawns'. Where the plan leaves a choice, moves are tried in that
// order.
const midGroups = 5

// midGroup returns the pieces of group g among pieces.
func midGroup(q *cc.Position, g int, pieces cc.Bitboard) cc.Bitboard {
	switch g {
	case 0:
		return pieces & q.TypePieces(cc.King)
	case 1:
		return pieces & q.TypePieces(cc.Knight)
	case 2:
		return pieces & (q.TypePieces(cc.Bishop) | q.TypePieces(cc.Queen))
	case 3:
		return pieces & (q.TypePieces(cc.Rook) | q.TypePieces(cc.Queen))
	}
	return pieces & q.TypePieces(cc.Pawn)
}

// groupSteps returns the squares the piece of colour c on sq may move to in q with the
// moves of group g, its king's safety aside (promotions aside for a pawn).
func groupSteps(q *cc.Position, c cc.Color, g int, sq cc.Square) cc.Bitboard {
	occ := q.Occupied()
	var steps cc.Bitboard
	switch g {
	case 0:
		steps = cc.KingAttacks(sq)
	case 1:
		steps = cc.KnightAttacks(sq)
	case 2:
		steps = cc.BishopAttacks(sq, occ)
	case 3:
		steps = cc.RookAttacks(sq, occ)
	default:
		return pawnSteps(q, c, sq)
	}
	return steps &^ q.ColorPieces(c)
}

// task returns the first move of l in q that leaves it fewer tasks, or NullMove: the
// king's step, a piece onto a hole, a blocker away (not onto the checker's squares, nor
// where it would still guard its square or the line), tried in that order. With no such
// move it returns, midSideSteps times at most in a plan, a move that leaves as many
// tasks. Only those moves are made, each tested for legality alone, as they are found:
// the moves after the first that leaves fewer tasks are never looked for.
func (m *midPlanner) task(q *cc.Position, pl *midPlan, st int, scur cc.Square, holes, blockers cc.Bitboard) cc.Move {
	l := m.l
	e := midTaskScan{q: q, pl: pl, st: st, scur: scur, now: holes.Count() + blockers.Count(), side: cc.NullMove}
	e.qb.set(q)
	e.kat, e.wk = q.KingSquare(l), q.KingSquare(m.w)
	if cc.KingAttacks(e.kat).Has(m.king) {
		if m.judge(&e, e.kat, m.king) {
			return e.best
		}
	} else if e.kat == m.kfrom && m.kmid != cc.NoSquare {
		if m.judge(&e, e.kat, m.kmid) {
			return e.best
		}
	}
	// The pieces that may fill a hole or must move away, piece type by piece type (as the
	// legal move list orders them): which hole is filled first may matter.
	occ := q.Occupied()
	ours := q.ColorPieces(l) &^ q.TypePieces(cc.King)
	movers := blockers & ours
	for h := holes &^ q.ColorPieces(l); h != 0; {
		sq := h.PopFirst()
		if occ.Has(sq) {
			movers |= q.AttackersTo(sq, l, occ) & ours
		} else {
			movers |= q.AttackersTo(sq, l, occ)&ours&^q.TypePieces(cc.Pawn) | cc.PawnPushers(q.TypePieces(cc.Pawn)&ours, occ, sq, l)
		}
	}
	between := cc.Between(pl.to, m.king)
	critical := pl.route(st) | between
	occTo := occ | pl.to.Bitboard()
	for g := 1; g < midGroups; g++ {
		for b := midGroup(q, g, movers); b != 0; {
			from := b.PopFirst()
			steps := groupSteps(q, l, g, from)
			for t := steps & holes; t != 0; {
				if m.judge(&e, from, t.PopFirst()) {
					return e.best
				}
			}
			if !blockers.Has(from) {
				continue
			}
			pt := q.PieceAt(from).Type()
			for t := steps &^ holes &^ critical; t != 0; {
				to := t.PopFirst()
				if pt != cc.Pawn && to != pl.to && cc.PieceAttacks(pt, l, to, occTo&^from.Bitboard())&(between|pl.to.Bitboard()) != 0 {
					continue // a blocker still
				}
				if m.judge(&e, from, to) {
					return e.best
				}
			}
		}
	}
	if e.side != cc.NullMove && m.sides < midSideSteps {
		m.sides++
		m.left, m.carry, m.carryHoles, m.carryRest = e.now, true, e.sideHoles, e.sideRest
		return e.side
	}
	return cc.NullMove
}

// midTaskScan is task's state while it judges the loser's candidate moves.
type midTaskScan struct {
	q                   *cc.Position
	pl                  *midPlan
	st                  int
	scur                cc.Square
	qb                  midBoard    // q's bitboards
	kat, wk             cc.Square   // l's king, w's king
	now                 int         // the tasks l has in q
	best                cc.Move     // the move found that leaves fewer tasks
	side                cc.Move     // the first move found that leaves as many (or NullMove)
	sideHoles, sideRest cc.Bitboard // what side leaves (see carry)
}

// judge makes l's move from-to (a plain move) on the bitboards of e.q and counts what it
// leaves: it reports whether the move is legal and leaves fewer tasks (then e.best, and
// m's counts, hold it), and records the first that leaves as many in e.side.
func (m *midPlanner) judge(e *midTaskScan, from, to cc.Square) bool {
	l := m.l
	// The move made on the bitboards alone (a plain move: task finds no other).
	child, legal := e.qb.playPlain(l, e.q.PieceAt(from).Type(), e.kat, from, to)
	if !legal {
		return false
	}
	m.nodes++
	if child.attacked(e.wk, l, child.typ[0]) {
		return false // l may not check: w would have to answer
	}
	limit := e.now // a move that leaves more is of no use
	if e.side != cc.NullMove {
		limit = e.now - 1
	}
	h, b, u, ok := m.needsOn(&child, e.pl, e.st, e.scur, limit)
	n := h.Count() + b.Count()
	if ok = ok && u == 0; ok && n < e.now {
		// Below the limit: the count is complete.
		m.left, m.carry, m.carryHoles, m.carryRest = n, true, h, m.rest
		e.best = cc.NewMove(from, to)
		return true
	} else if ok && n == e.now && e.side == cc.NullMove {
		e.side, e.sideHoles, e.sideRest = cc.NewMove(from, to), h, m.rest
	}
	return false
}

// waitGuard returns the squares a waiting move of w may not cover, l's king standing on
// k: around it and on it, around the square where it is to be mated, the square between.
func (m *midPlanner) waitGuard(k cc.Square) cc.Bitboard {
	guard := cc.KingAttacks(k) | k.Bitboard() | cc.KingAttacks(m.king)
	if m.kmid != cc.NoSquare {
		guard |= m.kmid.Bitboard()
	}
	return guard
}

// waitW returns a waiting move of w in q: no capture, no check, far from the squares of
// the plan (zone), by a piece that covers none of the king's squares, or NullMove. Of the
// moves farthest from the king (the distances of the piece's square and its target added),
// the first in the order of the legal move list: each piece's targets are looked at by
// their distance to the king, farthest first, and only while they could beat the best.
func (m *midPlanner) waitW(q *cc.Position, cur, scur cc.Square, zone cc.Bitboard) cc.Move {
	w := m.w
	k := q.KingSquare(m.l)
	occ := q.Occupied()
	guard := m.waitGuard(k)
	best, bestD := cc.NullMove, -1
	pieces := q.ColorPieces(w) &^ zone &^ cur.Bitboard()
	if scur != cc.NoSquare {
		// NoSquare's bitboard is a1's (Bitboard masks the square): taken off unguarded,
		// it kept a piece on a1 from waiting.
		pieces &^= scur.Bitboard()
	}
	for g := 0; g < midGroups; g++ {
		for b := midGroup(q, g, pieces); b != 0; {
			from := b.PopFirst()
			df := distance(from, k)
			if df+7 <= bestD {
				continue
			}
			pt := q.PieceAt(from).Type()
			if cc.PieceAttacks(pt, w, from, occ)&guard != 0 {
				continue
			}
			targets := groupSteps(q, w, g, from) &^ occ &^ zone
		rings:
			for r := 7; r >= 0 && df+r > bestD; r-- {
				for t := targets & midRings[k][r]; t != 0; {
					to := t.PopFirst()
					occ2 := occ&^from.Bitboard() | to.Bitboard()
					if cc.PieceAttacks(pt, w, to, occ2)&guard != 0 {
						continue
					}
					mv := cc.NewMove(from, to)
					if givesCheck(q, mv, k) || !q.IsLegal(mv) {
						continue
					}
					best, bestD = mv, df+r
					break rings
				}
			}
		}
	}
	return best
}

// midRings holds, by square and distance (in king steps), the squares at that distance.
var midRings = func() (rings [64][8]cc.Bitboard) {
	for a := cc.Square(0); a < 64; a++ {
		for b := cc.Square(0); b < 64; b++ {
			rings[a][distance(a, b)] |= b.Bitboard()
		}
	}
	return rings
}()

// waitL returns a waiting move of l in q after which l still has nothing to do, or
// NullMove.
func (m *midPlanner) waitL(q *cc.Position, pl *midPlan, st int, scur cc.Square, zone cc.Bitboard) cc.Move {
	l := m.l
	occ := q.Occupied()
	tries := 0
	var qb midBoard
	qb.set(q)
	wk, kat := q.KingSquare(m.w), q.KingSquare(l)
	pieces := q.ColorPieces(l) &^ zone
	for g := 1; g < midGroups; g++ {
		for b := midGroup(q, g, pieces); b != 0; {
			from := b.PopFirst()
			for t := groupSteps(q, l, g, from) &^ occ &^ zone; t != 0; {
				mv := cc.NewMove(from, t.PopFirst())
				child, legal := qb.playPlain(l, q.PieceAt(from).Type(), kat, from, mv.To())
				if !legal {
					continue
				}
				if tries++; tries > 4 {
					return cc.NullMove
				}
				m.nodes++
				if child.attacked(wk, l, child.typ[0]) {
					continue // l may not check: w would have to answer
				}
				if n, ok := m.tasksOn(&child, pl, st, scur, 0); ok && n == 0 {
					m.left, m.carry, m.carryHoles, m.carryRest = 0, true, 0, 0
					return mv
				}
			}
		}
	}
	return cc.NullMove
}
