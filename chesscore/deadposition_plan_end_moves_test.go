// deadposition_plan_end_moves_test.go: the endgame planner's move questions agree with
// the move generator on the real positions and the positions one move after them.

package chesscore

import "testing"

// endTestPositions returns the real positions and, for every step-th of them, the
// positions after each of its legal moves: many checks, pins and near-mates among them.
func endTestPositions(t *testing.T) []Position {
	t.Helper()
	real := loadRealGames(t)
	step := 4
	if raceEnabled || testing.Short() {
		step = 20
	}
	out := append([]Position(nil), real...)
	var ml MoveList
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
	var ml MoveList
	for _, q := range endTestPositions(t) {
		us := q.turn
		found := 0
		for b := q.byColor[us]; b != 0; {
			from := b.PopFirst()
			pt := q.board[from].Type()
			for tg := endTargets(&q, pt, us, from, q.byType[0]); tg != 0; {
				to := tg.PopFirst()
				m := NewMove(from, to)
				if pt == Pawn && pawnLastRank[us].Has(to) {
					m = NewPromotion(from, to, Queen)
				}
				legal := endLegal(&q, from, to)
				if legal != q.IsLegal(m) {
					t.Fatalf("%s: endLegal(%v) = %v, IsLegal says %v", q.FEN(), m, legal, !legal)
				}
				if legal {
					found++
					if m.Kind() == PromotionMove {
						found += 3
					}
				}
			}
		}
		q.LegalMoves(&ml)
		want := 0
		for _, m := range ml.Moves[:ml.N] {
			if k := m.Kind(); k == NormalMove || k == PromotionMove {
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
	var ml MoveList
	mates := 0
	for _, q := range endTestPositions(t) {
		w := q.turn
		k := q.KingSquare(w ^ 1)
		free := kingAttacks[k] &^ q.byColor[w^1] &^ q.attacksBy(w, q.byType[0]&^k.Bitboard())
		m, ok := endMateIn1(&q, free)
		want := false
		q.LegalMoves(&ml)
		for _, x := range ml.Moves[:ml.N] {
			if kind := x.Kind(); kind != NormalMove && kind != PromotionMove {
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
			if !replaysToMate(&q, w, []Move{m}) {
				t.Fatalf("%s: endMateIn1 returned %v, which does not mate", q.FEN(), m)
			}
		}
	}
	if mates == 0 {
		t.Fatal("no position with a mate in one: the test checks nothing")
	}
	t.Logf("%d mates in one found", mates)
}
