// deadposition_game.go: the dead-position decision carried along a game, so that the test
// after every move, a flag fall and a resignation reuse what the previous position proved.

package chesscore

import "slices"

// maxCarriedLine bounds a helpmate line carried from move to move: a longer one is
// dropped and the decision made afresh.
const maxCarriedLine = MaxKnownLine

// MaxKnownLine is the longest helpmate line (in plies) a Game carries from move to move
// and MateKnowledge hands out; a longer one is dropped and decided afresh when needed.
const MaxKnownLine = 96

// tempoTries bounds the moves tried as the tempo of a round trip or of a carried line.
const tempoTries = 6

// mateMemory is what a Game knows of the current position's decision: for each colour
// Yes with a line, No, or Unknown (not decided yet). It carries over a move m from P to
// P' because:
//
//   - No stays No: every position reachable from P' is reachable from P.
//   - Yes with a line starting with m goes on with the rest of the line.
//   - If P can be reached again from P' (a round trip: a tempo move y, m taken back, y
//     taken back), P and P' reach the same positions: a line L becomes y, m back, y
//     back, L.
//   - Otherwise a line L may still work after a tempo move y: y, L is tried move by move.
//
// Anything else is forgotten and decided afresh when needed. Every line kept is legal
// from the position it belongs to: each is either a proven line's tail, a round trip to
// the position it was proven for followed by it, or replayed in full before it is kept.
type mateMemory struct {
	valid bool
	v     [2]Verdict
	line  [2][]Move
}

// carry moves the memory from prev to cur = prev after m.
func (mm *mateMemory) carry(prev, cur *Position, m Move) {
	if !mm.valid {
		return
	}
	roundTrip, rt := roundTripTempo(prev, cur, m)
	for c := White; c <= Black; c++ {
		switch mm.v[c] {
		case No:
			continue
		case Yes:
			l := mm.line[c]
			switch {
			case len(l) > 0 && l[0] == m:
				mm.line[c] = l[1:]
				continue
			case roundTrip && len(l)+3 <= maxCarriedLine:
				mm.line[c] = append([]Move{rt, NewMove(m.To(), m.From()), NewMove(rt.To(), rt.From())}, l...)
				continue
			}
			if nl, ok := tempoLine(cur, c, l); ok {
				mm.line[c] = nl
				continue
			}
		case Unknown:
			continue
		}
		mm.v[c], mm.line[c] = Unknown, nil // no line carried over: decided afresh when needed
	}
}

// reversible reports whether m, played from p, can be taken back by its reverse move: a
// move of a piece (no pawn) without capture, castling or a loss of castling rights.
func reversible(p *Position, m Move) bool {
	if m.Kind() != NormalMove || p.board[m.To()] != NoPiece || p.board[m.From()].Type() == Pawn {
		return false
	}
	return castlingKeep[m.From()]&castlingKeep[m.To()]&p.castling == p.castling
}

// roundTripTempo looks for a way back from cur to prev (= cur before m): a tempo move y
// of the side to move in cur, m taken back, y taken back. It returns y.
func roundTripTempo(prev, cur *Position, m Move) (bool, Move) {
	if prev.ep != NoSquare || !reversible(prev, m) {
		return false, NullMove
	}
	back := NewMove(m.To(), m.From())
	key := positionKey(prev)
	var ml MoveList
	cur.LegalMoves(&ml)
	tries := 0
	for _, y := range ml.Moves[:ml.N] {
		if y.From() == m.To() || y.To() == m.From() || !reversible(cur, y) {
			continue
		}
		if tries++; tries > tempoTries {
			break
		}
		a := cur.Play(y)
		if !a.IsLegal(back) {
			continue
		}
		b := a.Play(back)
		yb := NewMove(y.To(), y.From())
		if !b.IsLegal(yb) {
			continue
		}
		if c := b.Play(yb); positionKey(&c) == key {
			return true, y
		}
	}
	return false, NullMove
}

// tempoLine tries y, l from p for a few tempo moves y of the side to move: it returns the
// first such line that is legal throughout and ends with c mating.
func tempoLine(p *Position, c Color, l []Move) ([]Move, bool) {
	if len(l)+1 > maxCarriedLine || len(l) == 0 {
		return nil, false
	}
	used := Bitboard(0)
	for _, m := range l {
		used |= m.From().Bitboard() | m.To().Bitboard()
	}
	var ml MoveList
	p.LegalMoves(&ml)
	tries := 0
	for _, y := range ml.Moves[:ml.N] {
		if used.Has(y.From()) || used.Has(y.To()) || p.board[y.To()] != NoPiece || y.Kind() != NormalMove {
			continue
		}
		if tries++; tries > tempoTries {
			break
		}
		q := p.Play(y)
		if replaysToMate(&q, c, l) {
			return append([]Move{y}, l...), true
		}
	}
	return nil, false
}

// replaysToMate reports whether the moves l are legal one after the other from p and end
// with c mating.
func replaysToMate(p *Position, c Color, l []Move) bool {
	q := *p
	for _, m := range l {
		if !q.IsLegal(m) {
			return false
		}
		q.doMove(m)
	}
	return q.turn == c^1 && q.InCheck() && !q.HasLegalMove()
}

// replaysToPosition reports whether the moves l are legal one after the other from p and
// lead to want exactly. A planner that hands the position its moves reach on to another
// planner, whose line from there that planner has replayed to a mate (replaysToMate),
// verifies its own part this way: every move of the joined line is then tested once.
func replaysToPosition(p *Position, l []Move, want *Position) bool {
	q := *p
	for _, m := range l {
		if !q.IsLegal(m) {
			return false
		}
		q.doMove(m)
	}
	return q == *want
}

// verdict returns c's verdict for p (the position the memory is for), deciding it when
// it is not known yet.
func (mm *mateMemory) verdict(p *Position, c Color) Verdict {
	if !mm.valid {
		*mm = mateMemory{valid: true}
	}
	if mm.v[c] == Unknown {
		d := deciders.Get().(*decider)
		d.reset(p)
		dec := d.decide(c, DefaultMateNodes)
		mm.v[c] = dec.Verdict
		if dec.Verdict == Yes {
			mm.line[c] = append([]Move(nil), dec.Line...)
		}
		deciders.Put(d)
	}
	return mm.v[c]
}

// planMover tries the cheap steps and the planners (no search) for the side that has
// just moved in p, when the position is known alive through the other side only: should
// the side to move lose on time or resign, that is the question, and the answer then
// goes with the game's record (MateKnowledge) instead of being searched for at the flag.
func (mm *mateMemory) planMover(p *Position) {
	mover := p.turn ^ 1
	if mm.v[mover] != Unknown {
		return
	}
	d := deciders.Get().(*decider)
	defer deciders.Put(d)
	d.reset(p)
	dec, ok := d.static(mover)
	if !ok {
		dec, ok = d.plan(mover)
	}
	if ok {
		mm.v[mover] = dec.Verdict
		if dec.Verdict == Yes {
			mm.line[mover] = append([]Move(nil), dec.Line...)
		}
	}
}

// dead reports whether p (the position the memory is for) is dead, deciding what it must.
// A colour known to mate ends the question at once.
func (mm *mateMemory) dead(p *Position) bool {
	if !mm.valid {
		*mm = mateMemory{valid: true}
	}
	if mm.v[White] == Yes || mm.v[Black] == Yes {
		mm.planMover(p)
		return false
	}
	if mm.v[White] == No && mm.v[Black] == No {
		return true
	}
	d := deciders.Get().(*decider)
	defer deciders.Put(d)
	d.reset(p)
	// The cheap steps for both colours before any search: in a live position one colour
	// usually mates quickly.
	for c := White; c <= Black; c++ {
		if mm.v[c] != Unknown {
			continue
		}
		if dec, ok := d.static(c); ok {
			mm.v[c] = dec.Verdict
		}
	}
	walled := mayBeWalled(p)
	for c := White; c <= Black; c++ {
		if mm.v[c] == Unknown && walled && d.provenByStructure(c) {
			mm.v[c] = No
		}
	}
	// The side that has just moved first: should the side to move lose on time or resign,
	// 6.9 and 5.1.2 ask whether it can still mate, and the answer is then at hand (and
	// kept with the game's record, MateKnowledge).
	order := [2]Color{p.turn ^ 1, p.turn}
	for _, c := range order {
		if mm.v[c] != Unknown {
			continue
		}
		if dec, ok := d.plan(c); ok {
			mm.v[c], mm.line[c] = Yes, append([]Move(nil), dec.Line...)
			return false
		}
	}
	for c := White; c <= Black; c++ {
		if mm.v[c] == Unknown && !walled && d.provenByStructure(c) {
			mm.v[c] = No
		}
	}
	if mm.v[White] != Unknown && mm.v[Black] != Unknown {
		return mm.v[White] == No && mm.v[Black] == No
	}
	// One search for a mate by either side when both are open (the side that has just
	// moved leading), else for the one open.
	c, either := order[0], mm.v[White] == Unknown && mm.v[Black] == Unknown
	if mm.v[c] != Unknown {
		c = order[1]
	}
	switch d.search.run(p, c, DefaultMateNodes, either) {
	case Yes:
		line := d.search.mate
		mater := p.turn ^ Color(len(line)&1) ^ 1 // the side that made the last move
		mm.v[mater], mm.line[mater] = Yes, shortenLine(p, mater, line)
		return false
	case No:
		mm.v[c] = No
		if either {
			mm.v[c^1] = No
		}
		return true
	}
	return false // Unknown: the game goes on
}

// MateKnowledge is what a Game knows of who can still mate in its current position, in a
// form a game record can keep: the decision made after a move (the dead-position test)
// is then at hand when the game is rebuilt from its record, and a flag fall or a
// resignation there costs no search.
type MateKnowledge struct {
	// Ply is the number of moves of the game the knowledge is for: it applies only to
	// the position after exactly that many moves.
	Ply int
	// Verdict is, for each colour, Yes, No, or Unknown (not decided).
	Verdict [2]Verdict
	// Line is, for each colour with Yes, its helpmate from the position: legal moves of
	// both sides ending with that colour mating.
	Line [2][]Move
}

// Known reports whether k holds a verdict for either colour.
func (k MateKnowledge) Known() bool { return k.Verdict != [2]Verdict{} }

// MateKnowledge returns what the game knows of who can still mate in its current
// position (nothing for a game that is over). The lines are copies.
func (g *Game) MateKnowledge() MateKnowledge {
	k := MateKnowledge{Ply: len(g.moves)}
	if g.outcome.Over() || !g.mates.valid {
		return k
	}
	for c := White; c <= Black; c++ {
		switch g.mates.v[c] {
		case Yes:
			if len(g.mates.line[c]) == 0 || len(g.mates.line[c]) > MaxKnownLine {
				continue // too long to keep (or a mate on the board, which ends the game)
			}
			k.Verdict[c], k.Line[c] = Yes, slices.Clone(g.mates.line[c])
		case No:
			k.Verdict[c] = No
		}
	}
	return k
}

// AddMateKnowledge takes what k knows about the current position, as kept by
// MateKnowledge after the same moves: nothing when k is for another ply or the game is
// over. A Yes is taken only with a line that replays, move by move, to a mate by its
// colour (else that colour stays undecided); a No is taken as it is, as the rest of the
// record the game was rebuilt from. It reports whether it took anything.
func (g *Game) AddMateKnowledge(k MateKnowledge) bool {
	if k.Ply != len(g.moves) || g.outcome.Over() || !k.Known() {
		return false
	}
	if !g.mates.valid {
		g.mates = mateMemory{valid: true}
	}
	took := false
	for c := White; c <= Black; c++ {
		if g.mates.v[c] != Unknown {
			continue
		}
		switch k.Verdict[c] {
		case Yes:
			if len(k.Line[c]) == 0 || len(k.Line[c]) > maxCarriedLine || !replaysToMate(&g.pos, c, k.Line[c]) {
				continue
			}
			g.mates.v[c], g.mates.line[c] = Yes, slices.Clone(k.Line[c])
		case No:
			g.mates.v[c] = No
		default:
			continue
		}
		took = true
	}
	return took
}
