package dead

import (
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/internal/fixture"
)

// python-chess's insufficient-material cases (facts: position, and whether each colour's
// material can never mate).
func TestCannotMateByMaterial(t *testing.T) {
	tests := []struct {
		fen          string
		white, black bool
	}{
		{cc.StartFEN, false, false},
		{"k1K1B1B1/8/8/8/8/8/8/8 w - - 7 32", true, true},
		{"kbK1B1B1/8/8/8/8/8/8/8 w - - 7 32", false, false},
		{"8/5k2/8/8/8/8/3K4/8 w - - 0 1", true, true},
		{"8/3k4/8/8/2N5/8/3K4/8 b - - 0 1", true, true},
		{"8/4rk2/8/8/8/8/3K4/8 w - - 0 1", true, false},
		{"8/4qk2/8/8/8/8/3K4/8 w - - 0 1", true, false},
		{"8/4bk2/8/8/8/8/3KB3/8 w - - 0 1", false, false},
		{"8/8/3Q4/2bK4/B7/8/1k6/8 w - - 1 68", false, false},
		{"8/5k2/8/8/8/4B3/3K1B2/8 w - - 0 1", true, true},
		{"5K2/8/8/1B6/8/k7/6b1/8 w - - 0 39", true, true},
		{"8/8/8/4k3/5b2/3K4/8/2B5 w - - 0 33", true, true},
		{"3b4/8/8/6b1/8/8/R7/K1k5 w - - 0 1", false, true},
		// A knight against queens only cannot mate; against anything else it may.
		{"8/8/8/4k3/8/8/q7/4K1N1 b - - 0 1", true, false},
		{"8/8/8/4k3/8/8/p7/4K1N1 b - - 0 1", false, false},
		{"8/8/8/4k3/8/8/b7/4K1N1 b - - 0 1", false, false},
		{"8/8/8/4kn2/8/8/8/4K1N1 b - - 0 1", false, false},
		{"8/8/8/4k3/8/8/8/3NK1N1 b - - 0 1", false, true},
	}
	for _, tc := range tests {
		p := sanFEN(t, tc.fen)
		if got := cc.CannotMateByMaterial(&p, cc.White); got != tc.white {
			t.Errorf("%s: white cannot mate = %v, want %v", tc.fen, got, tc.white)
		}
		if got := cc.CannotMateByMaterial(&p, cc.Black); got != tc.black {
			t.Errorf("%s: black cannot mate = %v, want %v", tc.fen, got, tc.black)
		}
		for c, cannot := range map[cc.Color]bool{cc.White: tc.white, cc.Black: tc.black} {
			v := CanCheckmate(&p, c)
			if cannot && v != cc.No {
				t.Errorf("%s: CanCheckmate(%s) = %s, want no", tc.fen, c, v)
			}
			if !cannot && v == cc.No {
				t.Errorf("%s: CanCheckmate(%s) = no, but the material allows a mate", tc.fen, c)
			}
		}
	}
}

func TestCanCheckmateVerdicts(t *testing.T) {
	tests := []struct {
		name         string
		fen          string
		white, black cc.Verdict
	}{
		{"start", cc.StartFEN, cc.Yes, cc.Yes},
		{"K+P vs K", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", cc.Yes, cc.No},
		{"K+P vs K, rook pawn", "7k/8/8/8/8/8/P7/K7 b - - 0 1", cc.Yes, cc.No},
		{"K+Q vs K", "8/8/8/4k3/8/8/8/4K2Q w - - 0 1", cc.Yes, cc.No},
		{"K+R vs K", "8/8/8/4k3/8/8/8/4K2R b - - 0 1", cc.Yes, cc.No},
		{"K+B+N vs K", "8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1", cc.Yes, cc.No},
		{"K+N+N vs K (a helpmate)", "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", cc.Yes, cc.No},
		{"K+B+B vs K, both colours", "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", cc.Yes, cc.No},
		{"K+B+B vs K, one colour", "8/8/8/4k3/8/8/8/2B1K1B1 w - - 0 1", cc.No, cc.No},
		{"K+N vs K+N", "8/8/8/4k3/8/8/8/4KN1n w - - 0 1", cc.Yes, cc.Yes},
		{"K+N vs K+P", "8/8/8/4k3/8/8/4p3/4KN2 w - - 0 1", cc.Yes, cc.Yes},
		{"K+B vs K+P, the pawn promotes", "8/8/8/4k3/8/8/4p3/4KB2 w - - 0 1", cc.Yes, cc.Yes},
		{"K+B vs K+B, one colour", "8/8/8/4kb2/8/8/8/4KB2 w - - 0 1", cc.No, cc.No},
		{"K vs K", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", cc.No, cc.No},
		{"blocked chain", "8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1", cc.No, cc.No},
		{"blocked chain, kings either side", "8/2k5/8/p1p1p1p1/P1P1P1P1/2K5/8/8 w - - 0 1", cc.No, cc.No},
		{"blocked, both kings can take", "8/8/8/1k6/1p6/1P6/8/1K6 w - - 0 1", cc.Yes, cc.Yes},
		{"chain with a hole", "8/8/1k6/p1p1p3/P1P1P1P1/8/4K3/8 w - - 0 1", cc.Yes, cc.Yes},
		{"blocked, but the king walks in", "8/8/1k6/p1p5/P1P5/8/4K3/8 w - - 0 1", cc.Yes, cc.Yes},
		{"blocked, an en passant capture", "8/8/1k6/8/pP6/P7/4K3/8 b - b3 0 1", cc.Yes, cc.Yes},
		{"bishop blockade (search)", "8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/5B2 w - - 0 1", cc.No, cc.No},
		{"checkmated", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", cc.No, cc.Yes},
		{"stalemate", "7K/7P/7k/8/6q1/8/8/8 w - - 0 1", cc.No, cc.No},
		{"K+Q vs K+R", "8/8/2r5/8/4k3/8/2Q2K2/8 b - - 0 1", cc.Yes, cc.Yes},
		{"K+R+P vs K+R", "4k3/8/2rP4/8/8/8/3K4/7R b - - 0 1", cc.Yes, cc.Yes},
		{"middlegame", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8", cc.Yes, cc.Yes},
	}
	for _, tc := range tests {
		p := sanFEN(t, tc.fen)
		for c, want := range map[cc.Color]cc.Verdict{cc.White: tc.white, cc.Black: tc.black} {
			v, line := Helpmate(&p, c, DefaultMateNodes)
			if v != want {
				t.Errorf("%s (%s): CanCheckmate(%s) = %s, want %s", tc.name, tc.fen, c, v, want)
			}
			if v == cc.Yes && line != nil {
				checkHelpmate(t, &p, c, line)
			}
		}
	}
}

// checkHelpmate replays a witness line and checks that it ends with c mating.
func checkHelpmate(t *testing.T, p *cc.Position, c cc.Color, line []cc.Move) {
	t.Helper()
	q := *p
	for i, m := range line {
		if !q.IsLegal(m) {
			t.Fatalf("%s: witness move %d (%s) is illegal in %s", p.FEN(), i, m, q.FEN())
		}
		q = q.Play(m)
	}
	if q.Turn() != c^1 || !q.InCheck() || q.HasLegalMove() {
		t.Fatalf("%s: witness %v does not end with %s mating (%s)", p.FEN(), line, c, q.FEN())
	}
}

// bruteHelpmate looks for a mate by c within depth plies, trying every line.
func bruteHelpmate(p *cc.Position, c cc.Color, depth int) bool {
	var ml cc.MoveList
	p.LegalMoves(&ml)
	if ml.N == 0 {
		return p.InCheck() && p.Turn() != c
	}
	if depth == 0 {
		return false
	}
	for _, m := range ml.Slice() {
		if child := p.Play(m); bruteHelpmate(&child, c, depth-1) {
			return true
		}
	}
	return false
}

// testRNG is a small deterministic generator (xorshift64).
type testRNG = fixture.RNG

// randomPosition places the two kings and the pieces (FEN letters, upper case for White)
// on random squares and returns the position if it is legal.
func randomPosition(r *testRNG, pieces string, turn cc.Color) (cc.Position, bool) {
	var board [64]byte
	return placeRandomly(r, &board, pieces, turn)
}

// placeRandomly adds the two kings and the pieces to board on random empty squares (no
// pawn on the first or last rank) and returns the position if it is legal.
func placeRandomly(r *testRNG, board *[64]byte, pieces string, turn cc.Color) (cc.Position, bool) {
	fen, ok := fixture.PlaceRandomly(r, board, pieces, turn == cc.Black)
	if !ok {
		return cc.Position{}, false
	}
	p, err := cc.ParseFEN(fen)
	return p, err == nil
}

// The classic helpmates, of the middlegame and of the endgame: Decide finds each, with a
// line that replays to a mate.
func TestDecideFindsMates(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		c    cc.Color
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", cc.White},
		{"back rank, the loser waits", "6k1/1p3ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", cc.White},
		{"fool's mate", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", cc.Black},
		{"scholar's mate", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", cc.White},
		{"smothered", "6rk/6pp/8/6N1/8/8/6PP/6K1 w - - 0 1", cc.White},
		{"a defender moves away", "6k1/5ppp/1n6/8/8/8/5PPP/R5K1 w - - 0 1", cc.White},
		{"a flight square filled", "r6k/6pp/8/6N1/8/8/6PP/6K1 b - - 0 1", cc.White},
		{"the queen on the pawn shield, supported", "r4rk1/ppp2ppp/8/8/8/3B4/PPP2PPP/3Q1RK1 w - - 0 1", cc.White},
		{"a promotion mates at once", "k7/2P5/1K6/8/8/8/8/8 w - - 0 1", cc.White},
		{"the king walks two steps", "8/8/3p1kpp/3b4/4r3/8/2K5/5q2 w - - 0 62", cc.Black},
		{"the king steps into the net", "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 6 6", cc.Black},
		{"the loser moves a piece twice (real game)", "r2q1rk1/1bpp1ppp/p7/1p5n/2P1P1n1/1B4B1/PPQ2PPP/RN2K2R w KQ - 1 11", cc.White},
		{"rook against the lone king", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", cc.White},
		{"queen against the lone king, loser to move", "8/5q1K/8/8/6k1/8/8/8 w - - 14 99", cc.Black},
		{"queen against the lone king, the king must not stalemate", "8/8/8/3k4/8/8/1Q6/6K1 b - - 0 1", cc.White},
		{"pawn promotes first", "8/8/8/4k3/8/3K4/4P3/8 b - - 4 42", cc.White},
		{"rook against rook", "8/R4K2/2k5/8/8/8/8/4r3 w - - 80 112", cc.White},
		{"queen against rook", "2K1q3/8/1R6/5k2/8/8/8/8 w - - 24 102", cc.Black},
		{"rook and pawns against pawns", "8/5ppk/2R5/8/1P5p/8/5PPP/6K1 w - - 0 36", cc.White},
		{"black rook, white to move", "8/8/8/8/2k5/8/3K4/r7 w - - 0 50", cc.Black},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := sanFEN(t, tc.fen)
			d := Decide(&p, tc.c)
			if d.Verdict != cc.Yes {
				t.Fatalf("%s: %s can mate = %s (%s, %d nodes), want yes", tc.fen, tc.c, d.Verdict, d.Proof, d.Nodes)
			}
			checkDecision(t, &p, tc.c, d)
		})
	}
}

// Soundness on random positions: a "no" is never contradicted by a helpmate that brute
// force finds, and a "yes" always comes with a witness that replays to a mate.
func TestCanCheckmateSoundOnRandomPositions(t *testing.T) {
	rng := testRNG(0x9E3779B97F4A7C15)
	materials := []string{"", "N", "B", "P", "p", "Nn", "Bb", "Bn", "Np", "Bp", "NN", "BB", "Pp", "Qn", "Rb", "Bq", "Nr", "Pb", "PP", "BNp"}
	n := 0
	for _, mat := range materials {
		for i := 0; i < 12; i++ {
			p, ok := randomPosition(&rng, mat, cc.Color(i&1))
			if !ok {
				continue
			}
			n++
			for c := cc.White; c <= cc.Black; c++ {
				v, line := Helpmate(&p, c, 4000)
				switch v {
				case cc.No:
					if bruteHelpmate(&p, c, 3) {
						t.Errorf("%s: CanCheckmate(%s) = no, but a mate in 3 plies exists", p.FEN(), c)
					}
				case cc.Yes:
					if line != nil {
						checkHelpmate(t, &p, c, line)
					}
				}
			}
		}
	}
	if n < 150 {
		t.Fatalf("only %d random positions were legal", n)
	}
}

// Sound on the positions a real game passes through: never "no" where brute force finds a
// mate, along a few random games.
func TestCanCheckmateSoundAlongRandomGames(t *testing.T) {
	rng := testRNG(12345)
	for game := 0; game < 6; game++ {
		p := cc.StartPosition()
		for ply := 0; ply < 200; ply++ {
			var ml cc.MoveList
			p.LegalMoves(&ml)
			if ml.N == 0 {
				break
			}
			if ply%10 == 9 {
				for c := cc.White; c <= cc.Black; c++ {
					v, line := Helpmate(&p, c, 3000)
					if v == cc.No && bruteHelpmate(&p, c, 2) {
						t.Errorf("%s: no for %s, but a mate in 2 plies exists", p.FEN(), c)
					}
					if v == cc.Yes && line != nil {
						checkHelpmate(t, &p, c, line)
					}
				}
			}
			p = p.Play(ml.Moves[int(rng.Next()%uint64(ml.N))])
		}
	}
}

// The endgames the issue calls ordinary get a definite answer.
func TestCanCheckmateOrdinaryEndgamesDecided(t *testing.T) {
	rng := testRNG(42)
	for _, mat := range []string{"", "N", "n", "B", "b", "P", "p", "Q", "r", "BN", "NN"} {
		for i := 0; i < 20; i++ {
			p, ok := randomPosition(&rng, mat, cc.Color(i&1))
			if !ok {
				continue
			}
			for c := cc.White; c <= cc.Black; c++ {
				if v := CanCheckmate(&p, c); v == cc.Unknown {
					t.Errorf("K%s: %s: CanCheckmate(%s) = unknown", mat, p.FEN(), c)
				}
			}
		}
	}
	for _, fen := range blockedChains {
		p := sanFEN(t, fen)
		for c := cc.White; c <= cc.Black; c++ {
			if v := CanCheckmate(&p, c); v != cc.No {
				t.Errorf("%s: CanCheckmate(%s) = %s, want no", fen, c, v)
			}
		}
	}
}

var blockedChains = []string{
	"8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1",
	"8/2k5/8/p1p1p1p1/P1P1P1P1/2K5/8/8 b - - 0 1",
	"4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4K3 w - - 0 1",
	"8/8/3k4/1p2p2p/pP1pP1pP/P2P2P1/4K3/8 w - - 0 1",
	"8/3k4/8/p1p2p2/PpPp1Pp1/1P1P2P1/5K2/8 w - - 0 1",
}
