// longmate.go: long helpmates built towards a chosen mating picture. Where the pawns
// stand still (a locked chain, a king walled in by its own pawns) and the mate needs the
// kings and pieces to travel far, a blind search drowns in the product of every piece's
// wanderings; LongMate first constructs mating pictures from the squares each piece can
// reach, then walks the pieces to one of them.

package dead

import (
	"container/heap"
	"slices"

	cc "github.com/gambitchess/gambit/chesscore"
)

// LongMate looks for a helpmate by winner from p in which no pawn moves and nothing is
// captured: legal moves from p, both sides alternately, the last one checkmating the
// opponent of winner. It returns the line and true, or nil and false when none was found
// within budget generated positions. It proves nothing when it fails. The line is built
// by the rules (every move taken from the legal moves of the position it is played in,
// the last position tested for mate) and meant to be replayed by the caller all the same.
//
// Method: the mating pictures are assembled from the squares the pieces can reach with
// the pawns as walls (the loser's king on a square of its region, a check, every flight
// square attacked or filled by one of the loser's pieces), nearest first, each verified
// to be a mate; then a best-first search walks the pieces towards each picture in turn,
// the score being the number of moves every piece still needs to reach its square.
func LongMate(p *cc.Position, winner cc.Color, budget int) ([]cc.Move, bool) {
	if p.Turn() == winner.Other() && p.InCheck() && !p.HasLegalMove() {
		return nil, true // already mated
	}
	b := wallBoard(p)
	targets := b.mateTargets(p, winner, longMateTargets)
	left := budget
	for i := range targets {
		share := left / max(1, min(len(targets)-i, 2))
		line, used, ok := walkToTarget(p, winner, &b, &targets[i], share)
		if ok {
			return line, true
		}
		left -= used
		if left <= 0 {
			break
		}
	}
	return nil, false
}

// longMateTargets is the number of verified mating pictures LongMate walks towards at
// most, nearest first.
const longMateTargets = 8

// longMateVerifyCap bounds the pictures built as positions and tested for mate in one
// call, longMateLeafCap the pictures looked at for one square of the loser's king.
const (
	longMateVerifyCap = 4000
	longMateLeafCap   = 20000
)

// mateTarget is a mating picture: where each king and piece stands, and how many moves
// that takes from the position (the sum of every piece's distance).
type mateTarget struct {
	king   [2]cc.Square
	square []cc.Square // by index of the board's pieces
	cost   int
}

// targetOption is one square for one piece in a mating picture.
type targetOption struct {
	sq     cc.Square
	closes cc.Bitboard
	checks bool
	dist   int
}

// mateTargets assembles up to n mating pictures for w, each verified to be a mate with
// the loser to move, the cheapest first.
func (b *lockedBoard) mateTargets(p *cc.Position, w cc.Color, n int) []mateTarget {
	l := w.Other()
	lk, wk := p.KingSquare(l), p.KingSquare(w)
	lDist := lockedKingDistances(lk, b.kingRegion[l])
	wDist := lockedKingDistances(wk, b.kingRegion[w])
	pieceDist := make([][64]uint8, len(b.pieces))
	for i, pc := range b.pieces {
		pieceDist[i] = lockedPieceDistances(pc.kind, pc.square, b.walls)
	}
	squares := b.kingSafe[l].Squares()
	slices.SortStableFunc(squares, func(a, c cc.Square) int { return int(lDist[a]) - int(lDist[c]) })
	var found []mateTarget
	var conceivable lockedOptions
	tested := 0
	for _, k := range squares {
		if !b.mateConceivableAt(w, k, &conceivable) {
			continue // no choice of squares mates there, let alone one on the board
		}
		flights := cc.KingAttacks(k) &^ b.pawns[l] &^ b.pawnAtt[w]
		var kingOpts []targetOption
		for z := b.kingSafe[w] &^ cc.KingAttacks(k) &^ k.Bitboard(); z != 0; {
			sq := z.PopFirst()
			kingOpts = addTargetOption(kingOpts, targetOption{sq: sq, closes: cc.KingAttacks(sq) & flights, dist: int(wDist[sq])})
		}
		byPiece := make([][]targetOption, len(b.pieces))
		anyCheck := false
		for i, pc := range b.pieces {
			for s := pc.reach &^ k.Bitboard(); s != 0; {
				sq := s.PopFirst()
				op := targetOption{sq: sq, dist: int(pieceDist[i][sq])}
				if pc.color == l {
					op.closes = sq.Bitboard() & flights
				} else {
					att := lockedAttacks(pc.kind, sq, b.walls)
					op.closes, op.checks = att&flights, att.Has(k)
					anyCheck = anyCheck || op.checks
				}
				byPiece[i] = addTargetOption(byPiece[i], op)
			}
			slices.SortStableFunc(byPiece[i], func(a, c targetOption) int { return a.dist - c.dist })
		}
		if !anyCheck || len(kingOpts) == 0 {
			continue
		}
		slices.SortStableFunc(kingOpts, func(a, c targetOption) int { return a.dist - c.dist })
		a := targetAssembler{b: b, p: p, w: w, k: k, flights: flights, kingOpts: kingOpts, byPiece: byPiece,
			chosen: make([]cc.Square, len(b.pieces)), budget: longMateVerifyCap - tested, want: n - len(found)}
		a.cost = int(lDist[k])
		a.run()
		tested += a.tested
		found = append(found, a.found...)
		if len(found) >= n || tested >= longMateVerifyCap {
			break
		}
	}
	slices.SortStableFunc(found, func(x, y mateTarget) int { return x.cost - y.cost })
	return found
}

// addTargetOption adds op to opts unless sameEffectKept options doing the same (same
// squares closed, same check) are as near: a few squares are kept for each effect, the
// nearest, since the nearest may be taken or attacked in the picture.
func addTargetOption(opts []targetOption, op targetOption) []targetOption {
	same, farthest := 0, -1
	for i, q := range opts {
		if q.closes == op.closes && q.checks == op.checks {
			same++
			if farthest < 0 || q.dist > opts[farthest].dist {
				farthest = i
			}
		}
	}
	switch {
	case same < sameEffectKept:
		return append(opts, op)
	case op.dist < opts[farthest].dist:
		opts[farthest] = op
	}
	return opts
}

// sameEffectKept is the number of squares with the same effect kept for a piece.
const sameEffectKept = 3

// targetAssembler chooses one square for each piece (and the winning king) so that the
// loser's king on k is checked and every flight square closed, and keeps the choices that
// are mates on the board.
type targetAssembler struct {
	b        *lockedBoard
	p        *cc.Position
	w        cc.Color
	k        cc.Square
	flights  cc.Bitboard
	kingOpts []targetOption
	byPiece  [][]targetOption
	chosen   []cc.Square
	z        cc.Square
	cost     int
	budget   int // pictures it may still test
	want     int // pictures it may still keep
	tested   int // pictures built as positions
	leaves   int // pictures looked at
	found    []mateTarget
}

func (a *targetAssembler) run() {
	for _, z := range a.kingOpts {
		if a.tested >= a.budget || a.leaves >= longMateLeafCap || len(a.found) >= a.want {
			return
		}
		a.z = z.sq
		a.choose(0, a.flights&^z.closes, false, a.k.Bitboard()|z.sq.Bitboard(), a.cost+z.dist)
	}
}

// choose places piece i onwards; need is what is still to be closed, used the squares
// taken.
func (a *targetAssembler) choose(i int, need cc.Bitboard, checked bool, used cc.Bitboard, cost int) {
	if a.tested >= a.budget || a.leaves >= longMateLeafCap || len(a.found) >= a.want {
		return
	}
	if i == len(a.byPiece) {
		if need == 0 && checked {
			a.verify(cost)
		}
		return
	}
	var can cc.Bitboard
	canCheck := checked
	for _, opts := range a.byPiece[i:] {
		for _, op := range opts {
			can |= op.closes
			canCheck = canCheck || op.checks
		}
	}
	if need&^can != 0 || !canCheck {
		return
	}
	for _, op := range a.byPiece[i] {
		if used.Has(op.sq) {
			continue
		}
		a.chosen[i] = op.sq
		a.choose(i+1, need&^op.closes, checked || op.checks, used|op.sq.Bitboard(), cost+op.dist)
	}
}

// verify builds the chosen picture and keeps it if it is a mate by w, the loser to move.
// The attacks with every piece in place are looked at first (a check, the flight squares
// closed, the winning king not attacked): most pictures fail there, before a position is
// built.
func (a *targetAssembler) verify(cost int) {
	a.leaves++
	l := a.w.Other()
	occ := a.b.walls | a.k.Bitboard() | a.z.Bitboard()
	for _, sq := range a.chosen {
		occ |= sq.Bitboard()
	}
	closed, checked := cc.KingAttacks(a.z)|a.b.pawnAtt[a.w], false
	var filled cc.Bitboard
	for i, pc := range a.b.pieces {
		sq := a.chosen[i]
		if pc.color == l {
			filled |= sq.Bitboard()
			if lockedAttacks(pc.kind, sq, occ).Has(a.z) {
				return // the winning king would be in check
			}
			continue
		}
		att := lockedAttacks(pc.kind, sq, occ&^a.k.Bitboard())
		closed |= att
		checked = checked || att.Has(a.k)
	}
	if !checked || cc.KingAttacks(a.k)&^a.b.pawns[l]&^filled&^closed != 0 {
		return
	}
	a.tested++
	var board [64]cc.Piece
	for sq := range cc.Square(64) {
		if a.b.walls.Has(sq) {
			board[sq] = a.p.PieceAt(sq)
		}
	}
	board[a.k] = cc.MakePiece(l, cc.King)
	board[a.z] = cc.MakePiece(a.w, cc.King)
	for i, pc := range a.b.pieces {
		board[a.chosen[i]] = cc.MakePiece(pc.color, pc.kind)
	}
	q, err := cc.ParseFEN(lockedPlacementFEN(&board) + [2]string{" w - - 0 1", " b - - 0 1"}[l])
	if err != nil || !q.InCheck() || q.HasLegalMove() {
		return
	}
	t := mateTarget{square: slices.Clone(a.chosen), cost: cost}
	t.king[l], t.king[a.w] = a.k, a.z
	a.found = append(a.found, t)
}

// lockedPlacementFEN returns the placement field of a FEN for board.
func lockedPlacementFEN(board *[64]cc.Piece) string {
	out := make([]byte, 0, 72)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := range 8 {
			pc := board[cc.MakeSquare(file, rank)]
			if pc == cc.NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				out = append(out, byte('0'+empty))
				empty = 0
			}
			out = append(out, pc.FENLetter())
		}
		if empty > 0 {
			out = append(out, byte('0'+empty))
		}
		if rank > 0 {
			out = append(out, '/')
		}
	}
	return string(out)
}

// unreachable is the distance of a square a piece can never reach.
const unreachable = 255

// lockedKingDistances returns the king steps from sq to every square of region (through
// region), unreachable elsewhere.
func lockedKingDistances(sq cc.Square, region cc.Bitboard) [64]uint8 {
	var d [64]uint8
	for i := range d {
		d[i] = unreachable
	}
	d[sq] = 0
	seen, frontier := sq.Bitboard(), sq.Bitboard()
	for n := uint8(1); frontier != 0; n++ {
		next := lockedKingSpread(frontier) & region &^ seen
		for s := next; s != 0; {
			d[s.PopFirst()] = n
		}
		seen |= next
		frontier = next
	}
	return d
}

// lockedPieceDistances returns the moves a piece of kind t needs from sq to every square
// (the walls blocking its lines, nothing else), unreachable where it never gets.
func lockedPieceDistances(t cc.PieceType, sq cc.Square, walls cc.Bitboard) [64]uint8 {
	var d [64]uint8
	for i := range d {
		d[i] = unreachable
	}
	d[sq] = 0
	seen, frontier := sq.Bitboard(), sq.Bitboard()
	for n := uint8(1); frontier != 0; n++ {
		var next cc.Bitboard
		for s := frontier; s != 0; {
			next |= lockedAttacks(t, s.PopFirst(), walls)
		}
		next &^= walls | seen
		for s := next; s != 0; {
			d[s.PopFirst()] = n
		}
		seen |= next
		frontier = next
	}
	return d
}

// walkToTarget runs the best-first search from p towards target t within budget
// generated positions: it returns a mating line if it finds one (any mate by w, not
// only t's), and the positions it generated.
func walkToTarget(p *cc.Position, w cc.Color, b *lockedBoard, t *mateTarget, budget int) ([]cc.Move, int, bool) {
	g := newTargetGauge(b, t)
	type node struct {
		pos    cc.Position
		parent int32
		depth  int32
		move   cc.Move
	}
	nodes := []node{{pos: *p, parent: -1}}
	seen := map[uint64]struct{}{p.Hash(): {}}
	var open walkQueue
	generated := 0
	var ml cc.MoveList
	for idx := int32(0); ; {
		pos := &nodes[idx].pos
		pos.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			if pos.PieceAt(m.From()).Type() == cc.Pawn || pos.IsCapture(m) {
				continue // the walls stand, every piece stays on the board
			}
			child := pos.Play(m)
			h := child.Hash()
			if _, ok := seen[h]; ok {
				continue
			}
			seen[h] = struct{}{}
			generated++
			if child.Turn() != w && child.InCheck() && !child.HasLegalMove() {
				line := []cc.Move{m}
				for i := idx; i > 0; i = nodes[i].parent {
					line = append(line, nodes[i].move)
				}
				slices.Reverse(line)
				return line, generated, true
			}
			if generated >= budget {
				return nil, generated, false
			}
			dist := g.distance(&child)
			if dist >= unreachable {
				continue
			}
			// Weighted towards the distance: a long walk matters more than a short line.
			heap.Push(&open, walkItem{score: 3*dist + int(nodes[idx].depth), seq: generated, parent: idx, move: m})
		}
		if open.Len() == 0 {
			return nil, generated, false
		}
		it := heap.Pop(&open).(walkItem)
		nodes = append(nodes, node{pos: nodes[it.parent].pos.Play(it.move), parent: it.parent, depth: nodes[it.parent].depth + 1, move: it.move})
		idx = int32(len(nodes) - 1)
	}
}

// targetGauge measures how far a position is from a mating picture: the king steps and
// piece moves still needed, each group of like pieces (colour and kind) matched to its
// squares the cheapest way.
type targetGauge struct {
	king   [2][64]uint8
	groups []targetGroup
}

// targetGroup is the squares of the picture for the pieces of one colour and kind, with
// the distance to each from every square.
type targetGroup struct {
	color cc.Color
	kind  cc.PieceType
	dist  [][64]uint8 // by square of the picture
}

func newTargetGauge(b *lockedBoard, t *mateTarget) *targetGauge {
	g := &targetGauge{}
	for c := cc.White; c <= cc.Black; c++ {
		g.king[c] = lockedKingDistances(t.king[c], b.kingRegion[c])
	}
	for i, pc := range b.pieces {
		j := slices.IndexFunc(g.groups, func(gr targetGroup) bool { return gr.color == pc.color && gr.kind == pc.kind })
		if j < 0 {
			g.groups = append(g.groups, targetGroup{color: pc.color, kind: pc.kind})
			j = len(g.groups) - 1
		}
		g.groups[j].dist = append(g.groups[j].dist, lockedPieceDistances(pc.kind, t.square[i], b.walls))
	}
	return g
}

// distance returns the moves still needed from q to the picture, unreachable or more
// when some piece can never get to any square left for it.
func (g *targetGauge) distance(q *cc.Position) int {
	d := 0
	for c := cc.White; c <= cc.Black; c++ {
		d += int(g.king[c][q.KingSquare(c)])
	}
	var at [16]cc.Square
	for _, gr := range g.groups {
		n := 0
		for s := q.Pieces(gr.color, gr.kind); s != 0 && n < len(at); n++ {
			at[n] = s.PopFirst()
		}
		if n != len(gr.dist) {
			return unreachable
		}
		d += cheapestMatch(gr.dist, at[:n], 0)
	}
	return d
}

// cheapestMatch returns the least total distance matching the pieces on at to the squares
// of dist (as many), trying every assignment for small groups.
func cheapestMatch(dist [][64]uint8, at []cc.Square, used uint32) int {
	if len(at) == 0 {
		return 0
	}
	best := 1 << 20
	for j := range dist {
		if used&(1<<j) != 0 {
			continue
		}
		d := int(dist[j][at[0]])
		if d >= unreachable {
			continue
		}
		best = min(best, d+cheapestMatch(dist, at[1:], used|1<<j))
	}
	return best
}

// walkItem is a position waiting in the walk's queue: its parent and the move from there.
type walkItem struct {
	score, seq int
	parent     int32
	move       cc.Move
}

// walkQueue is a priority queue of walkItems: the lowest score first, the newest among
// equals (the search dives along a promising line).
type walkQueue []walkItem

func (q walkQueue) Len() int { return len(q) }
func (q walkQueue) Less(i, j int) bool {
	if q[i].score != q[j].score {
		return q[i].score < q[j].score
	}
	return q[i].seq > q[j].seq
}
func (q walkQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *walkQueue) Push(x any)   { *q = append(*q, x.(walkItem)) }
func (q *walkQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
