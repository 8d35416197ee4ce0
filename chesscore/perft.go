// perft.go: counting the leaves of the legal move tree, the standard test of a move generator.

package chesscore

// Perft returns the number of leaf nodes of the legal move tree of the given depth, counting
// the last ply in bulk (legal moves counted, not made).
func Perft(p *Position, depth int) uint64 {
	switch {
	case depth <= 0:
		return 1
	case depth == 1:
		return uint64(p.CountLegalMoves())
	}
	var ml MoveList
	p.LegalMoves(&ml)
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		child := *p
		child.doMove(m)
		n += Perft(&child, depth-1)
	}
	return n
}

// PerftNoBulk is Perft making every move down to depth 0: slower, and a check that making
// and counting agree.
func PerftNoBulk(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var ml MoveList
	p.LegalMoves(&ml)
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		child := *p
		child.doMove(m)
		n += PerftNoBulk(&child, depth-1)
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
