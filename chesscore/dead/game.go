// game.go: the decision carried along a game (Decider, a chesscore.MateDecider), so
// that the test after every move, a flag fall and a resignation reuse what the previous
// position proved.

package dead

import (
	"slices"

	cc "github.com/gambitchess/gambit/chesscore"
)

// Decider is the exact decision as a chesscore.MateDecider: give it to a game
// (chesscore.NewGame, ReplayGame, the PGN reader) and the game's dead-position test,
// flag falls and resignations are decided by the method of the package comment, with
// what was known before a move carried over it.
//
// What is known carries over a move m from P to P' because:
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
type Decider struct {
	// Nodes is the search's budget for one question (DefaultMateNodes when 0).
	Nodes int
}

var _ cc.MateDecider = Decider{}

// maxCarriedLine bounds a helpmate line carried from move to move: a longer one is
// dropped and the decision made afresh.
const maxCarriedLine = cc.MaxKnownLine

// tempoTries bounds the moves tried as the tempo of a round trip or of a carried line.
const tempoTries = 6

func (d Decider) budget() int {
	if d.Nodes <= 0 {
		return DefaultMateNodes
	}
	return d.Nodes
}

// Carry moves what k knows from prev to cur = prev after m.
func (Decider) Carry(k *cc.MateKnowledge, prev, cur *cc.Position, m cc.Move) {
	if !k.Known() {
		return
	}
	roundTrip, rt := roundTripTempo(prev, cur, m)
	for c := cc.White; c <= cc.Black; c++ {
		switch k.Verdict[c] {
		case cc.No, cc.Unknown:
			continue
		case cc.Yes:
			l := k.Line[c]
			switch {
			case len(l) > 0 && l[0] == m:
				k.Line[c] = l[1:]
				continue
			case roundTrip && len(l)+3 <= maxCarriedLine:
				k.Line[c] = append([]cc.Move{rt, cc.NewMove(m.To(), m.From()), cc.NewMove(rt.To(), rt.From())}, l...)
				continue
			}
			if nl, ok := tempoLine(cur, c, l); ok {
				k.Line[c] = nl
				continue
			}
		}
		k.Verdict[c], k.Line[c] = cc.Unknown, nil // no line carried over: decided afresh when needed
	}
}

// reversible reports whether m, played from p, can be taken back by its reverse move: a
// move of a piece (no pawn) without capture, castling or a loss of castling rights.
func reversible(p *cc.Position, m cc.Move) bool {
	if m.Kind() != cc.NormalMove || p.PieceAt(m.To()) != cc.NoPiece || p.PieceAt(m.From()).Type() == cc.Pawn {
		return false
	}
	return p.CastlingAfter(m.From(), m.To()) == p.Castling()
}

// roundTripTempo looks for a way back from cur to prev (= cur before m): a tempo move y
// of the side to move in cur, m taken back, y taken back. It returns y.
func roundTripTempo(prev, cur *cc.Position, m cc.Move) (bool, cc.Move) {
	if prev.EnPassant() != cc.NoSquare || !reversible(prev, m) {
		return false, cc.NullMove
	}
	back := cc.NewMove(m.To(), m.From())
	key := positionKey(prev)
	var ml cc.MoveList
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
		yb := cc.NewMove(y.To(), y.From())
		if !b.IsLegal(yb) {
			continue
		}
		if c := b.Play(yb); positionKey(&c) == key {
			return true, y
		}
	}
	return false, cc.NullMove
}

// tempoLine tries y, l from p for a few tempo moves y of the side to move: it returns the
// first such line that is legal throughout and ends with c mating.
func tempoLine(p *cc.Position, c cc.Color, l []cc.Move) ([]cc.Move, bool) {
	if len(l)+1 > maxCarriedLine || len(l) == 0 {
		return nil, false
	}
	used := cc.Bitboard(0)
	for _, m := range l {
		used |= m.From().Bitboard() | m.To().Bitboard()
	}
	var ml cc.MoveList
	p.LegalMoves(&ml)
	tries := 0
	for _, y := range ml.Moves[:ml.N] {
		if used.Has(y.From()) || used.Has(y.To()) || p.PieceAt(y.To()) != cc.NoPiece || y.Kind() != cc.NormalMove {
			continue
		}
		if tries++; tries > tempoTries {
			break
		}
		q := p.Play(y)
		if cc.ReplaysToMate(&q, c, l) {
			return append([]cc.Move{y}, l...), true
		}
	}
	return nil, false
}

// CanMate returns c's verdict for p (the position k is for), deciding it when it is not
// known yet.
func (d Decider) CanMate(k *cc.MateKnowledge, p *cc.Position, c cc.Color) cc.Verdict {
	c &= 1
	if k.Verdict[c] == cc.Unknown {
		dc := deciders.Get().(*decider)
		dc.reset(p)
		dec := dc.decide(c, d.budget())
		k.Verdict[c] = dec.Verdict
		if dec.Verdict == cc.Yes {
			k.Line[c] = slices.Clone(dec.Line)
		}
		deciders.Put(dc)
	}
	return k.Verdict[c]
}

// Dead reports whether p (the position k is for) is dead, deciding what it must. A colour
// known to mate ends the question at once.
func (d Decider) Dead(k *cc.MateKnowledge, p *cc.Position) bool {
	if k.Verdict[cc.White] == cc.Yes || k.Verdict[cc.Black] == cc.Yes {
		return false
	}
	if k.Verdict[cc.White] == cc.No && k.Verdict[cc.Black] == cc.No {
		return true
	}
	dc := deciders.Get().(*decider)
	defer deciders.Put(dc)
	dc.reset(p)
	// The cheap steps for both colours before any search.
	for c := cc.White; c <= cc.Black; c++ {
		if k.Verdict[c] != cc.Unknown {
			continue
		}
		if dec, ok := dc.static(c); ok {
			k.Verdict[c] = dec.Verdict
		}
	}
	for c := cc.White; c <= cc.Black; c++ {
		if k.Verdict[c] == cc.Unknown && dc.provenByStructure(c) {
			k.Verdict[c] = cc.No
		}
	}
	if k.Verdict[cc.White] != cc.Unknown && k.Verdict[cc.Black] != cc.Unknown {
		return k.Verdict[cc.White] == cc.No && k.Verdict[cc.Black] == cc.No
	}
	// One search for a mate by either side when both are open, else for the one open.
	// The side that has just moved leads: should the side to move lose on time or
	// resign, 6.9 and 5.1.2 ask whether it can still mate, and a mate it finds is then
	// kept with the game's record.
	order := [2]cc.Color{p.Turn() ^ 1, p.Turn()}
	c, either := order[0], k.Verdict[cc.White] == cc.Unknown && k.Verdict[cc.Black] == cc.Unknown
	if k.Verdict[c] != cc.Unknown {
		c = order[1]
	}
	if pawnsLocked(p) && dc.lockedMate(k, p, order, max(d.budget()/lockedMateShare, 1)) {
		return false
	}
	switch dc.search.run(p, c, d.budget(), either) {
	case cc.Yes:
		line := dc.search.mate
		mater := p.Turn() ^ cc.Color(len(line)&1) ^ 1 // the side that made the last move
		k.Verdict[mater], k.Line[mater] = cc.Yes, slices.Clone(line)
		return false
	case cc.No:
		k.Verdict[c] = cc.No
		if either {
			k.Verdict[c^1] = cc.No
		}
		return true
	}
	// The search ran out: a long walk to a mating picture, the pawns standing still.
	dc.lockedMate(k, p, order, d.budget())
	return false // alive, or Unknown: the game goes on
}

// lockedMate runs LongMate within budget for each colour of order still open in k, and
// records the first line found: it reports whether one was.
func (d *decider) lockedMate(k *cc.MateKnowledge, p *cc.Position, order [2]cc.Color, budget int) bool {
	for _, c := range order {
		if k.Verdict[c] != cc.Unknown {
			continue
		}
		if line, ok := LongMate(p, c, budget); ok {
			k.Verdict[c], k.Line[c] = cc.Yes, line
			return true
		}
	}
	return false
}
