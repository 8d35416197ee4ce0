// plan_end_moves_test.go: the endgame planner's move questions agree with
// the move generator on the real positions and the positions one move after them.

package dead

import (
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// endTestPositions returns the real positions and, for every step-th of them, the
// positions after each of its legal moves: many checks, pins and near-mates among them.
func endTestPositions(t *testing.T) []cc.Position {
	t.Helper()
	real := loadRealGames(t)
	step := 4
	if raceEnabled || testing.Short() {
		step = 20
	}
	out := append([]cc.Position(nil), real...)
	var ml cc.MoveList
	for i := 0; i < len(real); i += step {
		real[i].LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			out = append(out, real[i].Play(m))
		}
	}
	return out
}

// endLegal decides every move endTargets gives exactly as IsLegal does, and endTargets
// with its promotions gives every legal move but castling and en passant.
func TestEndLegalAgreesWithIsLegal(t *testing.T) {
	var ml cc.MoveList
	for _, q := range endTestPositions(t) {
		us := q.Turn()
		found := 0
		for b := q.ColorPieces(us); b != 0; {
			from := b.PopFirst()
			pt := q.PieceAt(from).Type()
			for tg := endTargets(&q, pt, us, from, q.Occupied()); tg != 0; {
				to := tg.PopFirst()
				m := cc.NewMove(from, to)
				if pt == cc.Pawn && pawnLastRank[us].Has(to) {
					m = cc.NewPromotion(from, to, cc.Queen)
				}
				legal := endLegal(&q, from, to)
				if legal != q.IsLegal(m) {
					t.Fatalf("%s: endLegal(%v) = %v, IsLegal says %v", q.FEN(), m, legal, !legal)
				}
				if legal {
					found++
					if m.Kind() == cc.PromotionMove {
						found += 3
					}
				}
			}
		}
		q.LegalMoves(&ml)
		want := 0
		for _, m := range ml.Moves[:ml.N] {
			if k := m.Kind(); k == cc.NormalMove || k == cc.PromotionMove {
				want++
			}
		}
		if found != want {
			t.Fatalf("%s: endTargets gives %d legal moves, the generator %d (castling and en passant aside)", q.FEN(), found, want)
		}
	}
}

// endMateIn1 returns only moves that mate, and finds a mate whenever a normal move or a
// promotion mates.
func TestEndMateIn1AgreesWithTheGenerator(t *testing.T) {
	var ml cc.MoveList
	mates := 0
	for _, q := range endTestPositions(t) {
		w := q.Turn()
		k := q.KingSquare(w ^ 1)
		free := cc.KingAttacks(k) &^ q.ColorPieces(w^1) &^ attacksBy(&q, w, q.Occupied()&^k.Bitboard())
		m, ok := endMateIn1(&q, free)
		want := false
		q.LegalMoves(&ml)
		for _, x := range ml.Moves[:ml.N] {
			if kind := x.Kind(); kind != cc.NormalMove && kind != cc.PromotionMove {
				continue
			}
			if c := q.Play(x); c.InCheck() && !c.HasLegalMove() {
				want = true
				break
			}
		}
		if ok != want {
			t.Fatalf("%s: endMateIn1 found a mate: %v, the generator: %v", q.FEN(), ok, want)
		}
		if ok {
			mates++
			if !cc.ReplaysToMate(&q, w, []cc.Move{m}) {
				t.Fatalf("%s: endMateIn1 returned %v, which does not mate", q.FEN(), m)
			}
		}
	}
	if mates == 0 {
		t.Fatal("no position with a mate in one: the test checks nothing")
	}
	t.Logf("%d mates in one found", mates)
}
