package engine

import (
	"math/rand/v2"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// TestGenNoisyMatchesLegalMoves walks random games and checks, at every position not in
// check, that the legal noisy moves are exactly the legal captures and queen promotions
// (under-promotions, capturing or not, are left to the main search).
func TestGenNoisyMatchesLegalMoves(t *testing.T) {
	starts := append([]string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"8/P1k5/8/8/8/8/1p4K1/8 w - - 0 1",
	}, benchFENs...)
	rng := rand.New(rand.NewPCG(42, 1))
	checked := 0
	for _, fen := range starts {
		for game := 0; game < 20; game++ {
			p := mustFEN(t, fen)
			for ply := 0; ply < 80; ply++ {
				var legal cc.MoveList
				p.LegalMoves(&legal)
				if legal.N == 0 {
					break
				}
				if !p.InCheck() {
					want := map[cc.Move]bool{}
					for _, m := range legal.Slice() {
						promo := m.Promotion()
						if promo == cc.Queen || p.IsCapture(m) && promo == cc.NoPieceType {
							want[m] = true
						}
					}
					var noisy cc.MoveList
					genNoisy(&p, &noisy)
					got := map[cc.Move]bool{}
					for _, m := range noisy.Slice() {
						child := p.Play(m)
						if legalAfter(&child, p.Turn()) {
							got[m] = true
						}
					}
					for m := range want {
						if !got[m] {
							t.Fatalf("%s: genNoisy misses %s", p.FEN(), m)
						}
					}
					for m := range got {
						if !want[m] {
							t.Fatalf("%s: genNoisy adds %s", p.FEN(), m)
						}
					}
					checked++
				}
				p = p.Play(legal.Moves[rng.IntN(legal.N)])
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d positions checked", checked)
	}
}
