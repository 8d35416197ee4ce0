// engine_support.go: the one fast path the search in chesscore/engine needs from the
// rules core: passing the move (a null move) for null-move pruning.

package chesscore

// PlayNull returns the position with the side to move passing: the turn goes to the
// opponent, any en passant right lapses, the half-move clock advances and the hash
// follows. A null move is not a legal chess move; the search uses it to ask "what if I
// could pass?" and never plays it in a game. Do not call it when the side to move is in
// check: the position it returns would leave a king capturable.
func (p *Position) PlayNull() Position {
	child := *p
	if child.ep != NoSquare {
		child.hash ^= zobristEPFile[child.ep.File()]
		child.ep = NoSquare
	}
	child.hash ^= zobristBlack
	child.halfmove++
	if child.turn == Black {
		child.fullmove++
	}
	child.turn ^= 1
	return child
}
