// search_test.go: the best-first search's parts against plain references.

package dead

import (
	"math/rand/v2"
	"slices"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// TestOpenListOrder checks that the bucket queue pops like a heap on (lowest score,
// newest first), pushes and pops interleaved, scores at and beyond its range included.
func TestOpenListOrder(t *testing.T) {
	type waiting struct{ h, seq int32 }
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name   string
		scores func() int32
		popOne int // one pop after every popOne pushes
	}{
		{"narrow", func() int32 { return int32(rng.IntN(5)) }, 3},
		{"wide", func() int32 { return int32(rng.IntN(1549)) - 1336 }, 2},
		{"beyond the range", func() int32 { return int32(rng.IntN(8000)) - 4000 }, 4},
		{"all equal", func() int32 { return 7 }, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o openList
			o.reset()
			var ref []waiting
			bucket := func(h int32) int32 { return int32(min(max(int(h)+openOffset, 0), openBuckets-1)) }
			pop := func() {
				i := 0
				for j, w := range ref {
					if bh, bi := bucket(w.h), bucket(ref[i].h); bh < bi || bh == bi && w.seq > ref[i].seq {
						i = j
					}
				}
				want := ref[i]
				ref = slices.Delete(ref, i, i+1)
				if got := o.pop(); got.parent != want.seq {
					t.Fatalf("popped %d, want %d (score %d)", got.parent, want.seq, want.h)
				}
			}
			for seq := int32(0); seq < 3000; seq++ {
				h := tc.scores()
				o.push(h, openItem{parent: seq})
				ref = append(ref, waiting{h, seq})
				if int(seq)%tc.popOne == 0 {
					pop()
				}
			}
			for len(ref) > 0 {
				pop()
			}
			if o.n != 0 {
				t.Fatalf("%d items left", o.n)
			}
		})
	}
}

// TestLineTables checks the empty-board line tables and the distance table.
func TestLineTables(t *testing.T) {
	for sq := range cc.Square(64) {
		if emptyBishop[sq] != cc.BishopAttacks(sq, 0) || emptyRook[sq] != cc.RookAttacks(sq, 0) {
			t.Errorf("%v: empty-board lines differ from the attack tables", sq)
		}
		for to := range cc.Square(64) {
			if want := max(abs(sq.File()-to.File()), abs(sq.Rank()-to.Rank())); int(squareDistance[sq][to]) != want {
				t.Errorf("squareDistance[%v][%v] = %d, want %d", sq, to, squareDistance[sq][to], want)
			}
		}
	}
}

// scoreReference is score written plainly: every piece looked up on the board, every
// flight square tested by attacked.
func scoreReference(p *cc.Position, w cc.Color) int32 {
	l := w ^ 1
	lk, wk := p.KingSquare(l), p.KingSquare(w)
	occ := p.Occupied()
	h := int32(0)
	for b := p.ColorPieces(w) &^ p.TypePieces(cc.King); b != 0; {
		sq := b.PopFirst()
		switch pt := p.PieceAt(sq).Type(); pt {
		case cc.Pawn:
			toGo := 7 - sq.Rank()
			if w == cc.Black {
				toGo = sq.Rank()
			}
			h += int32(3*toGo) - 40
		default:
			h += int32(max(abs(sq.File()-lk.File()), abs(sq.Rank()-lk.Rank()))) - pieceWorth[pt]
		}
	}
	h += int32(2 * max(abs(wk.File()-lk.File()), abs(wk.Rank()-lk.Rank())))
	flights := int32(0)
	for b := cc.KingAttacks(lk) &^ p.ColorPieces(l); b != 0; {
		if p.AttackersTo(b.PopFirst(), w, occ&^lk.Bitboard()) == 0 {
			flights++
		}
	}
	h += 3*flights + int32(3*edgeDistance(lk))
	minorsOnly := p.ColorPieces(w)&(p.TypePieces(cc.Pawn)|p.TypePieces(cc.Rook)|p.TypePieces(cc.Queen)) == 0
	for b := p.ColorPieces(l) &^ p.TypePieces(cc.King) &^ p.TypePieces(cc.Pawn); b != 0; {
		sq := b.PopFirst()
		if minorsOnly {
			h += int32(max(abs(sq.File()-lk.File()), abs(sq.Rank()-lk.Rank()))) + 4
		} else {
			h += 6
		}
	}
	h += int32(2 * p.Pieces(l, cc.Pawn).Count())
	if minorsOnly {
		h += int32(4 * p.Pieces(l, cc.Pawn).Count())
	}
	if p.Turn() == l && p.AttackersTo(lk, w, occ) != 0 {
		h -= 3
	}
	return h
}

// TestSearchScoreMatchesReference compares score with scoreReference on the real-game
// positions and their children, for both colours, and checks the range openList relies on.
func TestSearchScoreMatchesReference(t *testing.T) {
	var s mateSearch
	checked := 0
	eachRealPositionAndChild(t, 7, func(q *cc.Position) {
		for w := cc.White; w <= cc.Black; w++ {
			s.w, s.l = w, w^1
			got := s.score(q, q.Turn() == s.l && q.InCheck())
			if want := scoreReference(q, w); got != want {
				t.Fatalf("%s for %v: score %d, reference %d", q.FEN(), w, got, want)
			}
			if got < -1336 || got > 212 {
				t.Fatalf("%s for %v: score %d out of [-1336, 212]", q.FEN(), w, got)
			}
			checked++
		}
	})
	if checked < 10000 {
		t.Fatalf("only %d positions scored", checked)
	}
}

// TestCheckmated checks checkmated on hand-picked mates and escapes (HasLegalMove, which
// it asks, is compared with the full move generation by TestHasLegalMoveMatchesLegalMoves).
func TestCheckmated(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		mate bool
	}{
		{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", true}, // fool's mate
		{"6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", true},                              // smothered mate
		{"7k/8/8/8/8/8/8/K6R b - - 0 1", false},                                 // a king step
		{"6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", false},                        // not in check: no move is forced
		{"3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", true},                         // back rank
		{"3R2k1/5ppp/8/8/8/8/4rPPP/6K1 b - - 0 1", false},                       // the rook interposes
	} {
		p := sanFEN(t, tc.fen)
		if got := p.InCheck() && checkmated(&p); got != tc.mate {
			t.Errorf("%s: checkmated %v, want %v", tc.fen, got, tc.mate)
		}
	}
}

// eachRealPositionAndChild calls fn with every step-th real-game position and each
// position one legal move after it.
func eachRealPositionAndChild(t *testing.T, step int, fn func(q *cc.Position)) {
	t.Helper()
	real := loadRealGames(t)
	var ml cc.MoveList
	for i := 0; i < len(real); i += step {
		p := &real[i]
		fn(p)
		p.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			q := p.Play(m)
			fn(&q)
		}
	}
}

// BenchmarkMateSearch times the search alone on the real-game decisions that reach it
// (no static or structure proof), both colours: the mean per search and
// the cost of a generated position.
func BenchmarkMateSearch(b *testing.B) {
	type job struct {
		p cc.Position
		c cc.Color
	}
	var jobs []job
	d := new(decider)
	for _, p := range loadRealGames(b) {
		for c := cc.White; c <= cc.Black; c++ {
			d.reset(&p)
			if _, ok := d.static(c); ok {
				continue
			}
			if d.provenByStructure(c) {
				continue
			}
			jobs = append(jobs, job{p, c})
		}
	}
	if len(jobs) == 0 {
		b.Fatal("no real position reaches the search")
	}
	var s mateSearch
	nodes := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := &jobs[i%len(jobs)]
		if s.run(&j.p, j.c, DefaultMateNodes, false) == cc.Unknown {
			b.Fatalf("%s: unknown for %s", j.p.FEN(), j.c)
		}
		nodes += s.nodes
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "mean-µs")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
}
