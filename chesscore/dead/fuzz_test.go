// fuzz_test.go: random legal games played through a Game with a Decider, every position
// decided for both colours: no panic, and every verdict sound (a Yes's line replays to a
// mate, the search alone never contradicts a verdict, a dead position has no short mate).

package dead

import (
	"math/rand/v2"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// randomGameMaxPlies bounds a random game: the games that matter reach an endgame long
// before, by the bias to captures and promotions.
const randomGameMaxPlies = 300

// randomGameBiasTries is how many more random moves a ply draws, looking for a capture or
// a promotion, before it plays the first one drawn: the bias brings a game into an
// endgame within a few dozen moves.
const randomGameBiasTries = 3

// randomGameNodes is the search's budget in the random games, for the game's Decider and
// for the checks: a small one keeps a game fast.
const randomGameNodes = 3000

// randomGameAloneYes is the search's budget, alone, where the decision said Yes: enough to
// exhaust the small endgames, where a wrong Yes would show.
const randomGameAloneYes = 400

// randomGameBrutePlies is the depth to which brute force looks for a mate that would
// contradict a No.
const randomGameBrutePlies = 2

// playRandomGame plays the random legal game that seed drives from the start position
// through a Game with Decider{Nodes: randomGameNodes}, checking every position it reaches
// with checkGamePosition; it returns the plies played.
func playRandomGame(t *testing.T, seed uint64) int {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	g := cc.NewGame(cc.StartPosition(), Decider{Nodes: randomGameNodes})
	var ml cc.MoveList
	var s mateSearch
	for ply := 0; ply < randomGameMaxPlies && !g.Over(); ply++ {
		p := g.Position()
		p.LegalMoves(&ml)
		m := ml.Moves[r.IntN(ml.N)] // a game not over has a legal move
		for range randomGameBiasTries {
			if c := ml.Moves[r.IntN(ml.N)]; p.PieceAt(c.To()) != cc.NoPiece || c.Promotion() != cc.NoPieceType {
				m = c
				break
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("seed %d: %s: Play(%s): %v", seed, p.FEN(), m, err)
		}
		checkGamePosition(t, &s, g)
		if t.Failed() {
			t.Fatalf("seed %d: stopped after %s in %s", seed, m, p.FEN())
		}
	}
	return g.Ply()
}

// checkGamePosition checks what the game knows of its position (every Yes line replays
// to a mate; a dead position has no short mate), then decides the position afresh for
// both colours and checks each decision against the search alone.
func checkGamePosition(t *testing.T, s *mateSearch, g *cc.Game) {
	t.Helper()
	p := g.Position()
	k := g.MateKnowledge()
	for c := cc.White; c <= cc.Black; c++ {
		if k.Verdict[c] == cc.Yes {
			checkHelpmate(t, &p, c, k.Line[c])
		}
	}
	if g.Outcome().Termination == cc.DeadPosition {
		for c := cc.White; c <= cc.Black; c++ {
			if bruteHelpmate(&p, c, randomGameBrutePlies) {
				t.Errorf("%s: dead position, but %s mates within %d plies", p.FEN(), c, randomGameBrutePlies)
			}
		}
	}
	if g.Over() {
		return
	}
	for c := cc.White; c <= cc.Black; c++ {
		checkSoundDecision(t, s, &p, c)
	}
}

// checkSoundDecision decides p for c (every step, as Decide does) and checks the
// decision's evidence, then runs the search alone (s, reused from call to call) on p: a
// Yes it proves and a No the decision proves, or the other way round, are a
// contradiction.
func checkSoundDecision(t *testing.T, s *mateSearch, p *cc.Position, c cc.Color) {
	t.Helper()
	d := DecideWithin(p, c, randomGameNodes)
	checkDecision(t, p, c, d)
	// Only the search's opposite answer would contradict: No is proven only by seeing
	// every reachable position, which a small budget does only in the smallest endgames.
	budget := 0
	switch d.Verdict {
	case cc.Yes:
		budget = randomGameAloneYes
	case cc.No:
		budget = randomGameNodes
	default:
		return
	}
	alone := s.run(p, c, budget, false)
	if alone == cc.Yes {
		checkHelpmate(t, p, c, s.mate)
	}
	if d.Verdict != cc.Unknown && alone != cc.Unknown && d.Verdict != alone {
		t.Errorf("%s: %s can mate = %s (%s), the search alone says %s", p.FEN(), c, d.Verdict, d.Proof, alone)
	}
	if d.Verdict == cc.No && bruteHelpmate(p, c, randomGameBrutePlies) {
		t.Errorf("%s: %s can mate = no (%s), but a mate within %d plies exists", p.FEN(), c, d.Proof, randomGameBrutePlies)
	}
}

// randomGamesFull and randomGamesShort are the numbers of seeded games
// TestDecisionRandomGames plays: the fewer under -short and -race (which slows the
// decision tenfold). The seeds that reproduce the crashes the fuzzer found are in
// testdata/fuzz/FuzzDecisionRandomGames, which go test plays too.
const (
	randomGamesFull  = 40
	randomGamesShort = 4
)

// Random games through a Game with a Decider: no panic, every decision sound.
func TestDecisionRandomGames(t *testing.T) {
	n := randomGamesFull
	if testing.Short() || raceEnabled {
		n = randomGamesShort
	}
	plies := 0
	for i := range n {
		plies += playRandomGame(t, uint64(1000+i))
	}
	t.Logf("%d games, %d plies", n, plies)
}

// FuzzDecisionRandomGames plays the random legal game a seed drives through a Game with
// a Decider (the move after every move decided, as a real game is), and decides every
// position for both colours: no panic, every Yes line replays to a mate, the search
// alone contradicts no verdict.
func FuzzDecisionRandomGames(f *testing.F) {
	f.Add(uint64(0)) // the other seeds are in testdata/fuzz/FuzzDecisionRandomGames
	f.Fuzz(func(t *testing.T, seed uint64) {
		playRandomGame(t, seed)
	})
}

// The positions where the crashes came, each with the move that reached it: the
// decision after the move, through a Game as after every move of a real game, and
// afresh for both colours, with the search alone as the check.
func TestDecisionCrashPositions(t *testing.T) {
	tests := []struct {
		fen, move string
		why       string
	}{
		// Black's king takes the h-pawn White could promote, then steps on.
		{"5rk1/1b1B1p2/8/6rP/6P1/2B2N2/3N3K/8 w - - 0 31", "Bf6", "king took the promoting pawn"},
		// White's knight takes Black's g-pawn on g2, the pawn Black could promote.
		{"7B/2kp4/1p1N4/7P/4b1p1/Q7/3PPP2/4NK1R b - - 2 41", "Bxh1", "knight took the promoting pawn"},
		// Found by the harness the crash was reported with.
		{"5k2/7r/1pp5/p7/P1B1P3/4n3/4K3/8 w - - 0 54", "Ke1", "harness"},
	}
	for _, tc := range tests {
		g := gameFrom(t, tc.fen)
		playAll(t, g, tc.move)
		var s mateSearch
		checkGamePosition(t, &s, g)
		if t.Failed() {
			t.Fatalf("%s %s (%s): unsound", tc.fen, tc.move, tc.why)
		}
	}
}
