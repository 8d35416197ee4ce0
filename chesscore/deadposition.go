// deadposition.go: can a side still checkmate by any series of legal moves (FIDE 5.2.2,
// 6.9)? Static proofs answer "no" for the known cases; a best-first helpmate search over
// the positions reachable from here answers "yes" with a witness, or "no" when it has
// seen every reachable position.

package chesscore

import (
	"math/bits"
	"slices"
	"sync"
)

// Verdict is the answer of CanCheckmate.
type Verdict uint8

// The three verdicts. Unknown is the zero value: nothing proven either way.
const (
	Unknown Verdict = iota
	Yes
	No
)

// String returns "unknown", "yes" or "no".
func (v Verdict) String() string {
	switch v {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "unknown"
}

// MarshalText implements encoding.TextMarshaler.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// DefaultMateNodes is the node budget of CanCheckmate: the number of distinct positions the
// helpmate search may generate before it answers Unknown.
const DefaultMateNodes = 20000

// quickDeadNodes is the budget of the search Game runs after a move into a pawn blockade
// the static proofs do not settle (see quickDead).
const quickDeadNodes = 5000

// CanCheckmate reports whether colour c can checkmate the opponent's king by some series
// of legal moves from p, the opponent co-operating (a helpmate), within DefaultMateNodes.
//
// Yes comes with a witness: the search found a line ending in checkmate by c. No is a
// proof: either a static one (material that can never mate, or pawns frozen for ever with
// no square where c could ever close every flight of the enemy king) or a search that saw
// every position reachable from p. Unknown means the budget ran out first. The verdict
// never says No where a mate exists.
//
// The fifty- and seventy-five-move rules and repetitions are ignored, as FIDE 5.2.2 does.
func CanCheckmate(p *Position, c Color) Verdict {
	return CanCheckmateWithin(p, c, DefaultMateNodes)
}

// CanCheckmateWithin is CanCheckmate with a node budget of its own (at least 1).
func CanCheckmateWithin(p *Position, c Color, nodes int) Verdict {
	v, _ := Helpmate(p, c, nodes)
	return v
}

// Helpmate is CanCheckmateWithin that also returns, with Yes, the witness: legal moves
// from p (both sides' moves, alternately) that end with c checkmating. It is nil when the
// position is already a mate by c.
func Helpmate(p *Position, c Color, nodes int) (Verdict, []Move) {
	if v, done := staticVerdict(p, c); done {
		return v, nil
	}
	s := searchers.Get().(*mateSearch)
	defer searchers.Put(s)
	v := s.run(p, c, max(nodes, 1))
	if v != Yes {
		return v, nil
	}
	return v, slices.Clone(s.mate)
}

// IsDeadPosition reports whether p is a dead position (FIDE 5.2.2): neither side can
// checkmate by any series of legal moves. It is true only when both colours are proven
// unable; a position it cannot settle within DefaultMateNodes counts as alive.
func IsDeadPosition(p *Position) bool { return deadWithin(p, DefaultMateNodes) }

// deadWithin is IsDeadPosition with a node budget. One search looks for a mate by either
// side, since both explore the same positions.
func deadWithin(p *Position, budget int) bool {
	vw, doneW := staticVerdict(p, White)
	vb, doneB := staticVerdict(p, Black)
	switch {
	case doneW && doneB:
		return vw == No && vb == No
	case doneW:
		return vw == No && CanCheckmateWithin(p, Black, budget) == No
	case doneB:
		return vb == No && CanCheckmateWithin(p, White, budget) == No
	}
	s := searchers.Get().(*mateSearch)
	defer searchers.Put(s)
	s.either = true
	defer func() { s.either = false }()
	return s.run(p, White, budget) == No
}

// staticVerdict settles what needs no search: a finished position, material that cannot
// mate, a frozen pawn blockade that rules a mate out.
func staticVerdict(p *Position, c Color) (Verdict, bool) {
	if !p.HasLegalMove() {
		if p.InCheck() && p.turn != c {
			return Yes, true // c has already mated
		}
		return No, true // the game is over: mate against c, or stalemate
	}
	if cannotMateByMaterial(p, c) || blockadeCannotMate(p, c) {
		return No, true
	}
	return Unknown, false
}

// quickDead is the dead-position test run after every move of a Game (replies is the
// number of legal moves of the side to move): the static proofs; with little material
// and few replies, the same proofs one move ahead (a forced capture of the last piece
// that could mate); and a search in a pawn blockade the proofs do not settle (no queens,
// rooks or knights, every pawn stuck behind another). It costs nanoseconds in ordinary
// positions.
func quickDead(p *Position, replies int) bool {
	if staticDead(p) {
		return true
	}
	if replies <= 4 && (p.byType[0]&^p.byType[King]).Count() <= 4 && everyReplyDead(p) {
		return true
	}
	if p.byType[Queen]|p.byType[Rook]|p.byType[Knight] != 0 || p.byType[Pawn] == 0 {
		return false
	}
	wp, bp := p.Pieces(White, Pawn), p.Pieces(Black, Pawn)
	pawns := wp | bp
	if wp<<8&^pawns != 0 || bp>>8&^pawns != 0 {
		return false // some pawn can advance
	}
	return deadWithin(p, quickDeadNodes)
}

// staticDead reports a position the static proofs show dead for both sides.
func staticDead(p *Position) bool {
	return (cannotMateByMaterial(p, White) || blockadeCannotMate(p, White)) &&
		(cannotMateByMaterial(p, Black) || blockadeCannotMate(p, Black))
}

// everyReplyDead reports that every legal move from p (which must have one) leads to a
// stalemate or to a position the static proofs show dead: then p is dead too, as in a
// forced capture of the last piece that could mate.
func everyReplyDead(p *Position) bool {
	var ml MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Moves[:ml.N] {
		child := p.Play(m)
		if !child.HasLegalMove() {
			if child.InCheck() {
				return false // a mate
			}
			continue // stalemate
		}
		if !staticDead(&child) {
			return false
		}
	}
	return ml.N > 0
}

// Square colours.
const (
	darkSquares  Bitboard = 0xAA55AA55AA55AA55
	lightSquares          = ^darkSquares
)

// cannotMateByMaterial reports whether colour c's material can never checkmate, whatever
// the opponent does to help. The rules, each proven for every position with that material
// (and closed under further play, since no pawn can promote):
//
//   - a lone king gives no check;
//   - king and one knight against king and queens only: the knight's check leaves one of
//     the two squares beside the king towards the knight unguarded by the white king, and
//     a queen there (or the king's escape there) always answers it;
//   - king and bishops all on one colour, with no pawns or knights on the board and every
//     bishop of either side on that colour: the two squares beside the mated king towards
//     the checking bishop are of the other colour, only the mating king can guard them,
//     and it cannot guard both; a rook or queen there interposes or captures.
func cannotMateByMaterial(p *Position, c Color) bool {
	us, them := p.byColor[c], p.byColor[c^1]
	if us&(p.byType[Pawn]|p.byType[Rook]|p.byType[Queen]) != 0 {
		return false
	}
	if us&p.byType[Knight] != 0 {
		return (us&^p.byType[King]).Count() == 1 && them&^p.byType[King]&^p.byType[Queen] == 0
	}
	if us&p.byType[Bishop] != 0 {
		b := p.byType[Bishop]
		return (b&darkSquares == 0 || b&lightSquares == 0) && p.byType[Pawn]|p.byType[Knight] == 0
	}
	return true
}

// pawnAttacksOf returns every square the pawns b of colour c attack.
func pawnAttacksOf(b Bitboard, c Color) Bitboard {
	if c == White {
		return b.north().east() | b.north().west()
	}
	return b.south().east() | b.south().west()
}

// blockadeCannotMate reports a position of kings, pawns and bishops where the pawns are
// frozen for ever (see blockade) and c still cannot mate: wherever the enemy king can go,
// one of its neighbours can never be guarded by c nor filled by the enemy's own pieces.
func blockadeCannotMate(p *Position, c Color) bool {
	var b blockade
	if !b.frozen(p) {
		return false
	}
	l := c ^ 1
	if b.bishopColors[c] == 0 {
		return true // no piece of c can ever give check: pawns never move, kings never check
	}
	// Squares c may guard or the enemy may fill, over-estimated: c's pawn attacks, every
	// square next to c's king's region, every square of a colour c has a bishop on; the
	// enemy's pawns, and every square of a colour the enemy has a bishop on.
	covered := b.pawnAttacks[c] | kingSpread(b.kingRegion[c]) | b.bishopColors[c] |
		p.Pieces(l, Pawn) | b.bishopColors[l]
	for r := b.kingRegion[l] & b.bishopColors[c]; r != 0; {
		s := r.PopFirst()
		if kingAttacks[s]&^covered == 0 {
			return false // every flight square could be closed: a mate on s is not ruled out
		}
	}
	return true
}

// blockade is the analysis of a position whose pawns may never move again.
type blockade struct {
	pawnAttacks  [2]Bitboard // squares each side's pawns attack
	kingRegion   [2]Bitboard // squares each king can ever reach
	bishopColors [2]Bitboard // the square colours (light, dark or both) of each side's bishops
}

// frozen fills b and reports whether p holds only kings, pawns and bishops, with pawns
// that can never move again: every pawn stands behind a pawn; no pawn can capture now; no
// bishop can ever take a pawn or stand where a pawn could take it; and no king can ever
// reach an enemy pawn (its walk avoids squares the enemy pawns attack, and its own pawns).
func (b *blockade) frozen(p *Position) bool {
	if p.byType[0]&^(p.byType[King]|p.byType[Pawn]|p.byType[Bishop]) != 0 || p.byType[Pawn] == 0 || p.ep != NoSquare {
		return false
	}
	wp, bp := p.Pieces(White, Pawn), p.Pieces(Black, Pawn)
	pawns := wp | bp
	if wp<<8&^pawns != 0 || bp>>8&^pawns != 0 {
		return false
	}
	b.pawnAttacks = [2]Bitboard{pawnAttacksOf(wp, White), pawnAttacksOf(bp, Black)}
	for c := White; c <= Black; c++ {
		enemy := p.byColor[c^1]
		if b.pawnAttacks[c]&enemy&^p.byType[King] != 0 {
			return false // a pawn can take something now
		}
		own, enemyPawns := p.Pieces(c, Pawn), p.Pieces(c^1, Pawn)
		b.kingRegion[c] = kingRegion(p.KingSquare(c), ^own&^b.pawnAttacks[c^1])
		if b.kingRegion[c]&enemyPawns != 0 {
			return false
		}
		b.bishopColors[c] = 0
		for bs := p.Pieces(c, Bishop); bs != 0; {
			sq := bs.PopFirst()
			region := bishopRegion(sq, ^pawns)
			if bishopSpread(region)&enemyPawns != 0 || region&b.pawnAttacks[c^1] != 0 {
				return false
			}
			if lightSquares.Has(sq) {
				b.bishopColors[c] |= lightSquares
			} else {
				b.bishopColors[c] |= darkSquares
			}
		}
	}
	return true
}

// bishopRegion returns the squares a bishop on sq reaches by diagonal steps through
// allowed squares (sq itself included).
func bishopRegion(sq Square, allowed Bitboard) Bitboard {
	region := sq.Bitboard()
	for {
		next := region | (bishopSpread(region) & allowed)
		if next == region {
			return region
		}
		region = next
	}
}

// bishopSpread returns the squares one diagonal step from any square of b.
func bishopSpread(b Bitboard) Bitboard {
	n, s := b.north(), b.south()
	return n.east() | n.west() | s.east() | s.west()
}

// kingRegion returns the squares a king on sq reaches by steps through allowed squares
// (sq itself included).
func kingRegion(sq Square, allowed Bitboard) Bitboard {
	region := sq.Bitboard()
	for {
		next := region | (kingSpread(region) & allowed)
		if next == region {
			return region
		}
		region = next
	}
}

// kingSpread returns the squares one king step from any square of b.
func kingSpread(b Bitboard) Bitboard {
	row := b | b.east() | b.west()
	return row | row.north() | row.south()
}

// mateSearch is a best-first search for a helpmate by colour w: it always expands the
// position that looks closest to mating l, remembers every position it has generated,
// and so either finds a mate, sees every reachable position (No), or runs out of budget.
//
// Expanded positions are kept whole in arena; a position waiting in the open list is only
// its parent's index and the move, played again when it is expanded.
type mateSearch struct {
	w, l   Color
	either bool // a mate by either side will do (the dead-position test)
	arena  []Position
	from   []openItem // from[i]: the parent and move that led to arena[i]
	open   openList
	seen   set128
	mate   []Move // after Yes: the moves from the root to the mate
}

var searchers = sync.Pool{New: func() any { return new(mateSearch) }}

func (s *mateSearch) run(root *Position, w Color, budget int) Verdict {
	s.w, s.l = w, w^1
	s.arena = append(s.arena[:0], *root)
	s.from = append(s.from[:0], openItem{parent: -1})
	s.mate = s.mate[:0]
	s.open.items = s.open.items[:0]
	s.seen.reset()
	s.seen.add(positionKey(root))
	nodes := 0
	seq := int32(0)
	var ml MoveList
	for idx := int32(0); ; {
		pos := s.arena[idx]
		pos.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			child := pos.Play(m)
			if !s.seen.add(positionKey(&child)) {
				continue
			}
			nodes++
			if nodes > budget {
				return Unknown
			}
			if (s.either || child.turn == s.l) && child.InCheck() && !child.HasLegalMove() {
				s.mate = append(s.mate, m)
				for i := idx; i > 0; i = s.from[i].parent {
					s.mate = append(s.mate, s.from[i].move)
				}
				slices.Reverse(s.mate)
				return Yes
			}
			if s.cannotMate(&child, w) && (!s.either || s.cannotMate(&child, s.l)) {
				continue // proven: nothing below can be a mate (by w)
			}
			seq++
			s.open.push(openItem{h: s.score(&child), seq: seq, parent: idx, move: m})
		}
		if len(s.open.items) == 0 {
			return No // every reachable position seen, none a mate by w
		}
		it := s.open.pop()
		s.arena = append(s.arena, s.arena[it.parent].Play(it.move))
		s.from = append(s.from, it)
		idx = int32(len(s.arena) - 1)
	}
}

// cannotMate is the static proof that c cannot mate from p, cheap enough for every node.
func (s *mateSearch) cannotMate(p *Position, c Color) bool {
	return cannotMateByMaterial(p, c) ||
		(p.byType[Queen]|p.byType[Rook]|p.byType[Knight] == 0 && blockadeCannotMate(p, c))
}

// score estimates how far p is from a mate by w (lower is closer): w keeps and promotes
// its material, l's king goes to the edge with few flight squares, w's pieces gather
// around it, and l's spare pieces disappear.
func (s *mateSearch) score(p *Position) int32 {
	w, l := s.w, s.l
	lk, wk := p.KingSquare(l), p.KingSquare(w)
	occ := p.byType[0]
	h := int32(0)
	for b := p.byColor[w] &^ p.byType[King]; b != 0; {
		sq := b.PopFirst()
		switch pt := p.board[sq].Type(); pt {
		case Pawn:
			toGo := 7 - sq.Rank()
			if w == Black {
				toGo = sq.Rank()
			}
			h += int32(3*toGo) - 40
		default:
			h += int32(distance(sq, lk)) - pieceWorth[pt]
		}
	}
	h += int32(2 * distance(wk, lk))
	flights := int32(0)
	occNoKing := occ &^ lk.Bitboard()
	for b := kingAttacks[lk] &^ p.byColor[l]; b != 0; {
		if !p.attacked(b.PopFirst(), w, occNoKing) {
			flights++
		}
	}
	h += 4*flights + int32(3*edgeDistance(lk))
	for b := p.byColor[l] &^ p.byType[King] &^ p.byType[Pawn]; b != 0; {
		b.PopFirst()
		h += 6
	}
	h += int32(2 * p.Pieces(l, Pawn).Count())
	if p.turn == l && p.attacked(lk, w, occ) {
		h -= 3
	}
	return h
}

var pieceWorth = [7]int32{Knight: 30, Bishop: 30, Rook: 50, Queen: 90}

// distance is the king-step (Chebyshev) distance between two squares.
func distance(a, b Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

// edgeDistance is how many king steps sq is from the nearest edge (0 to 3).
func edgeDistance(sq Square) int {
	f, r := sq.File(), sq.Rank()
	return min(f, 7-f, r, 7-r)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// openItem is a generated position waiting in the open list, by its score.
type openItem struct {
	h, seq, parent int32
	move           Move
}

// openList is a binary min-heap on the score; among equal scores the newest comes first,
// which makes the search dive (depth first) along a promising line.
type openList struct{ items []openItem }

func (a openItem) before(b openItem) bool {
	return a.h < b.h || (a.h == b.h && a.seq > b.seq)
}

func (o *openList) push(it openItem) {
	o.items = append(o.items, it)
	i := len(o.items) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !o.items[i].before(o.items[parent]) {
			break
		}
		o.items[i], o.items[parent] = o.items[parent], o.items[i]
		i = parent
	}
}

func (o *openList) pop() openItem {
	items := o.items
	top := items[0]
	n := len(items) - 1
	items[0] = items[n]
	items = items[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && items[r].before(items[l]) {
			l = r
		}
		if !items[l].before(items[i]) {
			break
		}
		items[i], items[l] = items[l], items[i]
		i = l
	}
	o.items = items
	return top
}

// positionKey is a 128-bit identity of a position for the search's memory: the Zobrist
// hash and an independent mix of the bitboards and state, so that two different positions
// sharing a key is, in practice, impossible.
func positionKey(p *Position) [2]uint64 {
	k := uint64(p.turn) | uint64(p.castling)<<1 | uint64(p.ep)<<5
	for i, b := range p.byType[1:] {
		k = bits.RotateLeft64(k^uint64(b), 23) * (0x9E3779B97F4A7C15 + 2*uint64(i))
	}
	k = bits.RotateLeft64(k^uint64(p.byColor[White]), 29) * 0xBF58476D1CE4E5B9
	k ^= k >> 31
	return [2]uint64{p.hash, k}
}

// set128 is an open-addressing hash set of 128-bit keys (a zero key stands for empty, so
// keys are stored with their low bit set).
type set128 struct {
	slots [][2]uint64
	n     int
}

func (s *set128) reset() {
	if len(s.slots) == 0 {
		s.slots = make([][2]uint64, 1<<12)
	}
	clear(s.slots)
	s.n = 0
}

// add inserts k and reports whether it was new.
func (s *set128) add(k [2]uint64) bool {
	k[1] |= 1
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := k[0] & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return false
		case [2]uint64{}:
			s.slots[i] = k
			s.n++
			return true
		}
	}
}

func (s *set128) grow() {
	old := s.slots
	s.slots = make([][2]uint64, 2*len(old))
	mask := uint64(len(s.slots) - 1)
	for _, k := range old {
		if k == [2]uint64{} {
			continue
		}
		i := k[0] & mask
		for s.slots[i] != [2]uint64{} {
			i = (i + 1) & mask
		}
		s.slots[i] = k
	}
}
