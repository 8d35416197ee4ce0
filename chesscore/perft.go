// perft.go: counting the leaves of the legal move tree, the standard test of a move generator.

package chesscore

// Perft returns the number of leaf nodes of the legal move tree of the given depth, counting
// the last ply in bulk (legal moves counted, not made). It allocates nothing for depths up
// to 15.
func Perft(p *Position, depth int) uint64 {
	return perftWalk(p, depth, true)
}

// PerftNoBulk is Perft making every move down to depth 0: slower, and a check that making
// and counting agree.
func PerftNoBulk(p *Position, depth int) uint64 {
	return perftWalk(p, depth, false)
}

// perftStackDepth is the deepest walk whose positions live on the caller's stack.
const perftStackDepth = 16

func perftWalk(p *Position, depth int, bulk bool) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth >= perftStackDepth {
		st := make([]Position, depth+1)
		st[0] = *p
		return perftRec(st, 0, depth, bulk)
	}
	// The positions of the walk live in one array: a child is a copy of its parent made
	// in place, and nothing escapes to the heap (a local in a recursive function would).
	var arr [perftStackDepth]Position
	arr[0] = *p
	return perftRec(arr[:], 0, depth, bulk)
}

func perftRec(st []Position, ply, depth int, bulk bool) uint64 {
	p := &st[ply]
	switch {
	case depth == 0:
		return 1
	case bulk && depth == 1:
		return uint64(p.CountLegalMoves())
	}
	var ml MoveList
	p.LegalMoves(&ml)
	child := &st[ply+1]
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		*child = *p
		child.doMove(m)
		n += perftRec(st, ply+1, depth-1, bulk)
	}
	return n
}

// DivideEntry is one root move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns, for each legal root move in generation order, the perft count of depth-1
// below it. Its sum is Perft(p, depth).
func Divide(p *Position, depth int) []DivideEntry {
	var ml MoveList
	p.LegalMoves(&ml)
	out := make([]DivideEntry, 0, ml.N)
	for _, m := range ml.Moves[:ml.N] {
		child := p.Play(m)
		out = append(out, DivideEntry{m, Perft(&child, depth-1)})
	}
	return out
}
