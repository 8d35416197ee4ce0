package chesscore

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestReplayGame(t *testing.T) {
	start := StartPosition()
	bareBishop := sanFEN(t, "8/8/4k3/8/8/3BK3/4p3/8 w - - 0 1")
	tests := []struct {
		name    string
		start   Position
		moves   []string
		outcome Outcome
		err     error // errors.Is target; nil: no error
		errPly  string
		settle  bool // call SettleDeadPosition after the replay
	}{
		{name: "live", start: start, moves: []string{"e2e4", "e7e5", "g1f3"}},
		{name: "checkmate", start: start, moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}, outcome: Outcome{BlackWins, Checkmate}},
		{name: "illegal", start: start, moves: []string{"e2e4", "e7e5", "e4e5"}, err: ErrIllegalMove, errPly: "move 3"},
		{name: "after mate", start: start, moves: []string{"f2f3", "e7e5", "g2g4", "d8h4", "a2a3"}, err: ErrGameOver, errPly: "move 5"},
		// Kxe2 leaves king and bishop against king, a dead position: Play ends the game
		// there, a replay goes on; SettleDeadPosition then finds the final position dead.
		{name: "past a dead position", start: bareBishop, moves: []string{"e3e2", "e6d6", "e2e3"}, settle: true, outcome: Outcome{Draw, DeadPosition}},
		{name: "live, settled", start: start, moves: []string{"e2e4", "e7e5"}, settle: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var moves []Move
			p := tc.start
			for _, s := range tc.moves {
				m, err := p.ParseUCI(s)
				if err != nil { // an illegal move still has squares: keep them
					m = NewMove(squareOf(t, s[:2]), squareOf(t, s[2:4]))
				} else {
					p = p.Play(m)
				}
				moves = append(moves, m)
			}
			g, err := ReplayGame(tc.start, moves, nil)
			if tc.err != nil {
				if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.errPly) {
					t.Fatalf("error %v, want %v at %s", err, tc.err, tc.errPly)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.settle {
				if ended := g.SettleDeadPosition(); ended != (tc.outcome.Termination == DeadPosition) {
					t.Fatalf("SettleDeadPosition: %v", ended)
				}
			}
			if g.Outcome() != tc.outcome {
				t.Fatalf("outcome %v, want %v", g.Outcome(), tc.outcome)
			}
			if g.Ply() != len(moves) {
				t.Fatalf("ply %d, want %d", g.Ply(), len(moves))
			}
		})
	}
}

// Along real games, a replay (its final position settled) agrees with playing the moves
// one by one: same position, same notation, same outcome.
func TestReplayGameAgreesWithPlay(t *testing.T) {
	for i, rg := range loadRealGameMoves(t) {
		for _, n := range []int{0, 1, len(rg.moves) / 2, len(rg.moves)} {
			played := NewGame(rg.start, nil)
			for _, m := range rg.moves[:n] {
				if err := played.Play(m); err != nil {
					t.Fatalf("game %d: play %s: %v", i, m.UCI(), err)
				}
			}
			replayed, err := ReplayGame(rg.start, rg.moves[:n], nil)
			if err != nil {
				t.Fatalf("game %d ply %d: %v", i, n, err)
			}
			replayed.SettleDeadPosition()
			pp, rp := played.Position(), replayed.Position()
			if pp.FEN() != rp.FEN() || played.Outcome() != replayed.Outcome() || !slices.Equal(played.SAN(), replayed.SAN()) {
				t.Fatalf("game %d ply %d: replay %s %v, play %s %v", i, n, rp.FEN(), replayed.Outcome(), pp.FEN(), played.Outcome())
			}
		}
	}
}

// squareOf reads a square's name.
func squareOf(t *testing.T, s string) Square {
	t.Helper()
	sq, ok := ParseSquare(s)
	if !ok {
		t.Fatalf("square %q", s)
	}
	return sq
}

// BenchmarkReplayGame rebuilds the real games (testdata/realgames.uci) from their moves,
// as the game service does for a record it has not cached, and reports the cost per move.
func BenchmarkReplayGame(b *testing.B) {
	games := loadRealGameMoves(b)
	moves := 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		rg := games[i%len(games)]
		if _, err := ReplayGame(rg.start, rg.moves, nil); err != nil {
			b.Fatal(err)
		}
		moves += len(rg.moves)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
}
