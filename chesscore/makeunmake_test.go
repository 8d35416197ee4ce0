package chesscore

import "testing"

// This file holds the make/unmake alternative to copy-make, kept only to measure the
// choice (BenchmarkCopyMakeVsMakeUnmake) and to prove it agrees (TestMakeUnmakeAgrees).

// undoInfo is what unmake needs beyond the move.
type undoInfo struct {
	captured Piece
	castling CastlingRights
	rooks    [4]Square
	ends     uint64
	ep       Square
	halfmove uint16
	hash     uint64
}

// makeMove applies m in place and records how to take it back.
func (p *Position) makeMove(m Move, u *undoInfo) {
	u.captured = p.CapturedPiece(m)
	u.castling, u.rooks, u.ends, u.ep, u.halfmove, u.hash = p.castling, p.castleRook, p.castleEnds, p.ep, p.halfmove, p.hash
	p.doMove(m)
}

// unmakeMove restores the position before m.
func (p *Position) unmakeMove(m Move, u *undoInfo) {
	p.turn ^= 1
	us := p.turn
	if us == Black {
		p.fullmove--
	}
	from, to := m.From(), m.To()
	switch m.Kind() {
	case NormalMove:
		pc := p.board[to]
		p.remove(pc, to)
		p.put(pc, from)
		if u.captured != NoPiece {
			p.put(u.captured, to)
		}
	case PromotionMove:
		p.remove(p.board[to], to)
		p.put(MakePiece(us, Pawn), from)
		if u.captured != NoPiece {
			p.put(u.captured, to)
		}
	case EnPassantMove:
		pc := p.board[to]
		p.remove(pc, to)
		p.put(pc, from)
		p.put(MakePiece(us^1, Pawn), Square(int(to)-pawnUp[us]))
	case CastlingMove:
		i := castleRight(us, to)
		k, r := MakePiece(us, King), MakePiece(us, Rook)
		p.remove(k, to)
		p.remove(r, castleRookTo[i])
		p.put(k, from)
		p.put(r, u.rooks[i])
	}
	p.castling, p.castleRook, p.castleEnds, p.ep, p.halfmove, p.hash = u.castling, u.rooks, u.ends, u.ep, u.halfmove, u.hash
}

func perftMakeUnmake(p *Position, depth int) uint64 {
	if depth == 1 {
		return uint64(p.CountLegalMoves())
	}
	var ml MoveList
	p.LegalMoves(&ml)
	var n uint64
	var u undoInfo
	for _, m := range ml.Moves[:ml.N] {
		p.makeMove(m, &u)
		n += perftMakeUnmake(p, depth-1)
		p.unmakeMove(m, &u)
	}
	return n
}

func TestMakeUnmakeAgrees(t *testing.T) {
	for _, c := range loadPerftSuite(t) {
		pos, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		before := pos
		if want, ok := c.counts[3]; ok {
			if got := perftMakeUnmake(&pos, 3); got != want {
				t.Errorf("%s: make/unmake perft 3 = %d, want %d", c.src, got, want)
			}
		}
		if pos != before {
			t.Errorf("%s: make/unmake did not restore the position", c.src)
		}
	}
}

// BenchmarkCopyMakeVsMakeUnmake runs perft 5 from Kiwipete both ways in one run, so the
// ratio of their nodes/s is measured side by side.
func BenchmarkCopyMakeVsMakeUnmake(b *testing.B) {
	pos, _ := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for _, c := range []struct {
		name string
		f    func(*Position, int) uint64
	}{{"copymake", Perft}, {"makeunmake", perftMakeUnmake}} {
		b.Run(c.name, func(b *testing.B) {
			var nodes uint64
			for i := 0; i < b.N; i++ {
				nodes += c.f(&pos, 5)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
