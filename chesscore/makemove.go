// makemove.go: applying a move (copy-make) with incremental Zobrist hashing.

package chesscore

import "math/bits"

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
	us := p.turn & 1 // masked here and below: no bounds checks
	pc := p.board[from] & 15
	h := p.hash ^ zobristBlack ^ zobristCastling[p.castling&15]
	if p.ep != NoSquare {
		h ^= zobristEPFile[p.ep.File()]
		p.ep = NoSquare
	}
	p.halfmove++
	if m.Kind() == NormalMove {
		// The common move, done by hand: the mover's bit flips on its two squares in
		// three bitboards, and a capture clears the victim's bit in two.
		fb, tb := from.Bitboard(), to.Bitboard()
		ft := fb | tb
		if cap := p.board[to] & 15; cap != NoPiece {
			p.byType[cap&7] &^= tb
			p.byColor[cap>>3&1] &^= tb
			h ^= zobristPiece[cap][to]
			p.halfmove = 0
			p.byType[0] &^= fb
		} else {
			p.byType[0] ^= ft
		}
		p.byType[pc&7] ^= ft
		p.byColor[pc>>3&1] ^= ft // pc's colour, as put and remove keep it
		p.board[from] = NoPiece
		p.board[to] = pc
		p.hash = h ^ zobristPiece[pc][from] ^ zobristPiece[pc][to]
		if pc.Type() == Pawn {
			p.halfmove = 0
			if int(to)-int(from) == 2*pawnUp[us] {
				p.setEPIfLegal(Square(int(from)+pawnUp[us]), to)
			}
		}
	} else {
		p.hash = h
		p.doSpecialMove(m, from, to, us, pc)
	}
	if ends := p.castleEnds & (backNibble[from] | backNibble[to]); ends != 0 {
		p.loseCastling(foldNibbles(ends))
	}
	p.hash ^= zobristCastling[p.castling&15]
	if us == Black {
		p.fullmove++
	}
	p.turn = us ^ 1
	if p.ep != NoSquare {
		p.hash ^= zobristEPFile[p.ep.File()]
	}
}

// doSpecialMove places the pieces of a promotion, an en passant capture or a castling
// (doMove's rarer cases; the hash is kept by put and remove).
func (p *Position) doSpecialMove(m Move, from, to Square, us Color, pc Piece) {
	switch m.Kind() {
	case PromotionMove:
		if cap := p.board[to] & 15; cap != NoPiece {
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
		i := castleRight(us, to)
		rook, rsq := MakePiece(us, Rook), p.castleRook[i]
		p.remove(pc, from)
		p.remove(rook, rsq)
		p.put(pc, to)
		p.put(rook, castleRookTo[i])
	}
}

// castleRight returns the index of the castling right (the bit of CastlingRights) that
// brings us's king to kingTo: king side to the g-file, queen side to the c-file.
func castleRight(us Color, kingTo Square) int { return 2*int(us&1) + (kingTo.File()>>2 ^ 1) }

// loseCastling takes away the rights lost. Their rook squares are reset to NoSquare, so
// positions with the same rights are equal values.
func (p *Position) loseCastling(lost CastlingRights) {
	p.castling &^= lost
	p.castleEnds &^= uint64(lost) * 0x1111111111111111 // the lost bits out of every nibble
	for l := uint8(lost); l != 0; l &= l - 1 {
		p.castleRook[bits.TrailingZeros8(l)&3] = NoSquare
	}
}

// backNibble[sq] masks sq's nibble in castleEnds: bits 4·file on the first rank,
// 4·(8+file) on the eighth, none elsewhere. A move whose squares' nibbles are all zero,
// as most are, ends no right: one AND tells.
var backNibble = func() (t [64]uint64) {
	for sq := range t {
		if rank := sq / 8; rank == 0 || rank == 7 {
			t[sq] = 15 << (4 * (sq%8 + rank/7*8))
		}
	}
	return t
}()

// foldNibbles ORs the sixteen nibbles of ends into the rights they hold.
func foldNibbles(ends uint64) CastlingRights {
	ends |= ends >> 32
	ends |= ends >> 16
	ends |= ends >> 8
	return CastlingRights(ends|ends>>4) & 15
}

// CastlingAfter returns the castling rights left after a move from from to to: a king
// move ends both of its side's, a rook leaving or taken on its castling square that one.
func (p *Position) CastlingAfter(from, to Square) CastlingRights {
	return p.castling &^ foldNibbles(p.castleEnds&(backNibble[from&63]|backNibble[to&63]))
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
