// makemove.go: applying a move (copy-make) with incremental Zobrist hashing.

package chesscore

// Play returns the position after the legal move m; the receiver is unchanged. Playing an
// illegal move gives an unspecified position: check with IsLegal or take m from LegalMoves.
func (p *Position) Play(m Move) Position {
	child := *p
	child.doMove(m)
	return child
}

// doMove applies the legal move m in place.
func (p *Position) doMove(m Move) {
	from, to := m.From(), m.To()
	us := p.turn
	pc := p.board[from]
	h := p.hash ^ zobristBlack ^ zobristCastling[p.castling]
	if p.ep != NoSquare {
		h ^= zobristEPFile[p.ep.File()]
		p.ep = NoSquare
	}
	p.hash = h
	p.halfmove++
	switch m.Kind() {
	case NormalMove:
		if cap := p.board[to]; cap != NoPiece {
			p.remove(cap, to)
			p.halfmove = 0
		}
		p.remove(pc, from)
		p.put(pc, to)
		if pc.Type() == Pawn {
			p.halfmove = 0
			if int(to)-int(from) == 2*pawnUp[us] {
				p.setEPIfLegal(Square(int(from)+pawnUp[us]), to)
			}
		}
	case PromotionMove:
		if cap := p.board[to]; cap != NoPiece {
			p.remove(cap, to)
		}
		p.halfmove = 0
		p.remove(pc, from)
		p.put(MakePiece(us, m.Promotion()), to)
	case EnPassantMove:
		p.remove(MakePiece(us^1, Pawn), Square(int(to)-pawnUp[us]))
		p.remove(pc, from)
		p.put(pc, to)
		p.halfmove = 0
	case CastlingMove:
		c := &castles[castleIndex(to)]
		p.remove(pc, from)
		p.put(pc, to)
		rook := MakePiece(us, Rook)
		p.remove(rook, c.rookFrom)
		p.put(rook, c.rookTo)
	}
	p.castling &= castlingKeep[from] & castlingKeep[to]
	p.hash ^= zobristCastling[p.castling]
	if us == Black {
		p.fullmove++
	}
	p.turn = us ^ 1
	if p.ep != NoSquare {
		p.hash ^= zobristEPFile[p.ep.File()]
	}
}

// castleIndex maps a king destination (g1, c1, g8, c8) to its entry in castles.
func castleIndex(kingTo Square) int {
	switch kingTo {
	case G1:
		return 0
	case C1:
		return 1
	case G8:
		return 2
	}
	return 3
}

// setEPIfLegal records ep as the en passant square after a double push to pawnSq, but only
// when the opponent has a legal en passant capture (FIDE 9.2.3: only then does it matter).
// It runs before the side to move flips, so "the opponent" is p.turn^1.
func (p *Position) setEPIfLegal(ep, pawnSq Square) {
	us := p.turn
	capturers := pawnAttacks[us][ep] & p.byType[Pawn] & p.byColor[us^1]
	if capturers == 0 {
		return
	}
	p.turn = us ^ 1 // look from the capturer's side
	ksq := p.KingSquare(p.turn)
	for capturers != 0 {
		if p.epLegal(capturers.PopFirst(), ep, ksq) {
			p.ep = ep
			break
		}
	}
	p.turn = us
}
