// plan_mid_board_test.go: the middlegame planner's bitboard-only position
// against the position's own attack questions.

package dead

import (
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// On every real-game position, around each king: attacksNear is exactly the squares the
// colour attacks, fillable exactly the empty squares a piece or pawn of the colour (its
// king aside) could step onto, and attackersTo and attacked agree with the position's.
func TestMidBoardAgrees(t *testing.T) {
	checked := 0
	for _, p := range loadRealGames(t) {
		var b midBoard
		b.set(&p)
		occ := p.Occupied()
		for c := cc.White; c <= cc.Black; c++ {
			for _, k := range []cc.Square{p.KingSquare(cc.White), p.KingSquare(cc.Black)} {
				zone := cc.KingSpread(k.Bitboard())
				near := b.attacksNear(c, occ, zone)
				fill := b.fillable(c, zone)
				for z := zone; z != 0; {
					sq := z.PopFirst()
					checked++
					if got, want := near.Has(sq), (p.AttackersTo(sq, c, occ) != 0); got != want {
						t.Fatalf("%s: %s attacks %v: attacksNear %v, attacked %v", p.FEN(), c, sq, got, want)
					}
					if got, want := b.attackersTo(sq, c, occ), p.AttackersTo(sq, c, occ); got != want {
						t.Fatalf("%s: %s's attackers of %v: %x, want %x", p.FEN(), c, sq, uint64(got), uint64(want))
					}
					if got := b.attacked(sq, c, occ); got != (p.AttackersTo(sq, c, occ) != 0) {
						t.Fatalf("%s: %s attacks %v: %v", p.FEN(), c, sq, got)
					}
					if occ.Has(sq) {
						continue
					}
					fillers := p.AttackersTo(sq, c, occ)&^p.TypePieces(cc.King)&^p.TypePieces(cc.Pawn) | cc.PawnPushers(p.TypePieces(cc.Pawn)&p.ColorPieces(c), occ, sq, c)
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
	var ml cc.MoveList
	for _, p := range loadRealGames(t)[:500] {
		p.LegalMoves(&ml)
		for _, mv := range ml.Moves[:ml.N] {
			if mv.Kind() != cc.NormalMove {
				continue
			}
			var b midBoard
			b.set(&p)
			b.shift(p.Turn(), p.PieceAt(mv.From()).Type(), mv.From(), mv.To())
			child := p.Play(mv)
			if b != boardOf(&child) {
				t.Fatalf("%s: %v shifted differs from played", p.FEN(), mv)
			}
		}
	}
}

// playPlain decides legality as IsLegal does, and makes the move as Play does, for every
// move the planner may ask about (each piece's steps by groupSteps, the pieces of the side
// to move on every real-game position, and of the other side with the turn passed).
func TestMidBoardPlayPlain(t *testing.T) {
	checked, illegal := 0, 0
	for _, p := range loadRealGames(t) {
		for pass := 0; pass < 2; pass++ {
			if pass == 1 {
				if p.InCheck() {
					break
				}
				p = p.PlayNull()
				if p.InCheck() {
					break // the side not to move was in check: no legal position
				}
			}
			c := p.Turn()
			var b midBoard
			b.set(&p)
			k := p.KingSquare(c)
			for g := 0; g < midGroups; g++ {
				for pieces := midGroup(&p, g, p.ColorPieces(c)); pieces != 0; {
					from := pieces.PopFirst()
					for steps := groupSteps(&p, c, g, from); steps != 0; {
						to := steps.PopFirst()
						mv := cc.NewMove(from, to)
						child, legal := b.playPlain(c, p.PieceAt(from).Type(), k, from, to)
						checked++
						if want := p.IsLegal(mv); legal != want {
							t.Fatalf("%s: %v legal %v, IsLegal %v", p.FEN(), mv, legal, want)
						}
						if !legal {
							illegal++
							continue
						}
						if played := p.Play(mv); child != boardOf(&played) {
							t.Fatalf("%s: %v made differs from played", p.FEN(), mv)
						}
					}
				}
			}
		}
	}
	if checked < 100000 || illegal < 1000 {
		t.Errorf("only %d moves checked, %d illegal", checked, illegal)
	}
}

// midSlides is the union of the bishop's or rook's attacks from each square of a set, for
// the sets of squares around every piece of every real game position (each piece's own
// attacks, and the squares two steps from it), with the position's occupancy.
func TestMidSlides(t *testing.T) {
	checked := 0
	for _, p := range loadRealGames(t)[:2000] {
		occ := p.Occupied()
		for pieces := occ; pieces != 0; {
			sq := pieces.PopFirst()
			for _, from := range []cc.Bitboard{sq.Bitboard(), cc.QueenAttacks(sq, occ), cc.KingSpread(cc.KingSpread(sq.Bitboard()))} {
				for _, diag := range []bool{false, true} {
					var want cc.Bitboard
					for f := from; f != 0; {
						if s := f.PopFirst(); diag {
							want |= cc.BishopAttacks(s, occ)
						} else {
							want |= cc.RookAttacks(s, occ)
						}
					}
					if got := midSlides(from, occ, diag); got != want {
						t.Fatalf("%s: slides from %x (diagonal %v): %x, want %x", p.FEN(), uint64(from), diag, uint64(got), uint64(want))
					}
					checked++
				}
			}
		}
	}
	if checked < 10000 {
		t.Errorf("only %d sets checked", checked)
	}
}

// midSliderAttacks is the union of the sliders' own attacks, and midIfAny all or nothing,
// on every real-game position, both colours.
func TestMidSliderAttacksAndIfAny(t *testing.T) {
	for _, p := range loadRealGames(t) {
		occ := p.Occupied()
		diag, orth := p.TypePieces(cc.Bishop)|p.TypePieces(cc.Queen), p.TypePieces(cc.Rook)|p.TypePieces(cc.Queen)
		for c := cc.White; c <= cc.Black; c++ {
			var want cc.Bitboard
			for b := diag & p.ColorPieces(c); b != 0; {
				want |= cc.BishopAttacks(b.PopFirst(), occ)
			}
			for b := orth & p.ColorPieces(c); b != 0; {
				want |= cc.RookAttacks(b.PopFirst(), occ)
			}
			if got := midSliderAttacks(diag, orth, p.ColorPieces(c), occ); got != want {
				t.Fatalf("%s, %s: midSliderAttacks %x, want %x", p.FEN(), c, uint64(got), uint64(want))
			}
		}
	}
	for _, tc := range []struct {
		b, want cc.Bitboard
	}{{0, 0}, {1, ^cc.Bitboard(0)}, {1 << 63, ^cc.Bitboard(0)}, {0x00f0000000000100, ^cc.Bitboard(0)}} {
		if got := midIfAny(tc.b); got != tc.want {
			t.Errorf("midIfAny(%x) = %x, want %x", uint64(tc.b), uint64(got), uint64(tc.want))
		}
	}
}

// boardOf returns the midBoard of q.
func boardOf(q *cc.Position) midBoard {
	var b midBoard
	b.set(q)
	return b
}
