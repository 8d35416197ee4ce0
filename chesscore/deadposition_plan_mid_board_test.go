// deadposition_plan_mid_board_test.go: the middlegame planner's bitboard-only position
// against the position's own attack questions.

package chesscore

import "testing"

// On every real-game position, around each king: attacksNear is exactly the squares the
// colour attacks, fillable exactly the empty squares a piece or pawn of the colour (its
// king aside) could step onto, and attackersTo and attacked agree with the position's.
func TestMidBoardAgrees(t *testing.T) {
	checked := 0
	for _, p := range loadRealGames(t) {
		var b midBoard
		b.set(&p)
		occ := p.byType[0]
		for c := White; c <= Black; c++ {
			for _, k := range []Square{p.KingSquare(White), p.KingSquare(Black)} {
				zone := kingSpread(k.Bitboard())
				near := b.attacksNear(c, occ, zone)
				fill := b.fillable(c, zone)
				for z := zone; z != 0; {
					sq := z.PopFirst()
					checked++
					if got, want := near.Has(sq), p.attacked(sq, c, occ); got != want {
						t.Fatalf("%s: %s attacks %v: attacksNear %v, attacked %v", p.FEN(), c, sq, got, want)
					}
					if got, want := b.attackersTo(sq, c, occ), p.AttackersTo(sq, c, occ); got != want {
						t.Fatalf("%s: %s's attackers of %v: %x, want %x", p.FEN(), c, sq, uint64(got), uint64(want))
					}
					if got := b.attacked(sq, c, occ); got != p.attacked(sq, c, occ) {
						t.Fatalf("%s: %s attacks %v: %v", p.FEN(), c, sq, got)
					}
					if occ.Has(sq) {
						continue
					}
					fillers := p.AttackersTo(sq, c, occ)&^p.byType[King]&^p.byType[Pawn] | midPushers(p.byType[Pawn]&p.byColor[c], occ, sq, c)
					if got, want := fill.Has(sq), fillers != 0; got != want {
						t.Fatalf("%s: %s fills %v: fillable %v, fillers %x", p.FEN(), c, sq, got, uint64(fillers))
					}
				}
			}
		}
	}
	if checked < 10000 {
		t.Errorf("only %d squares checked", checked)
	}
}

// shift makes a move on the bitboards as Play does for a plain move.
func TestMidBoardShift(t *testing.T) {
	var ml MoveList
	for _, p := range loadRealGames(t)[:500] {
		p.LegalMoves(&ml)
		for _, mv := range ml.Moves[:ml.N] {
			if mv.Kind() != NormalMove {
				continue
			}
			var b midBoard
			b.set(&p)
			b.shift(p.turn, p.board[mv.From()].Type(), mv.From(), mv.To())
			child := p.Play(mv)
			if b.col != child.byColor || b.typ != child.byType {
				t.Fatalf("%s: %v shifted differs from played", p.FEN(), mv)
			}
		}
	}
}
