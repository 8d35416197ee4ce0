package engine

import (
	"math"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

func TestJudge(t *testing.T) {
	mate := MateScore - 3 // White mates in two
	for _, c := range []struct {
		name          string
		color         cc.Color
		before, after Score // White's view
		engineMove    bool
		want          Judgement
		drop          float64 // expected drop, to 1e-3
	}{
		{"the engine's move loses nothing", cc.White, 50, -300, true, Best, 0},
		{"as good as the best", cc.White, 30, 32, false, Best, 0},
		{"a centipawn or two", cc.White, 30, 27, false, Best, 0.0043},
		{"excellent", cc.White, 30, 20, false, Excellent, 0.0143},
		{"good", cc.White, 30, 5, false, Good, 0.0359},
		{"inaccuracy", cc.White, 30, -20, false, Inaccuracy, 0.0718},
		{"mistake", cc.White, 30, -100, false, Mistake, 0.1831},
		{"blunder", cc.White, 30, -300, false, Blunder, 0.3921},
		// Black's view is the negation of White's.
		{"Black's mistake", cc.Black, -30, 100, false, Mistake, 0.1831},
		{"Black improves on the engine's line", cc.Black, 0, -50, false, Best, 0},
		// A decided game: a pawn less from +8 is next to nothing.
		{"from +8 to +7", cc.White, 800, 700, false, Excellent, 0.0076},
		// A win let go: from +4 to equal, for either side.
		{"missed win", cc.White, 400, 20, false, MissedWin, 0.3803},
		{"Black's missed win", cc.Black, -mate, 0, false, MissedWin, 0.5},
		// From a win to a loss is a blunder, not a missed win.
		{"won to lost", cc.White, 400, -300, false, Blunder, 0.7581},
		// Still winning after the slip: a mistake, not a missed win.
		{"still winning", cc.White, 700, 300, false, Mistake, 0.1336},
		{"into a mate against", cc.White, 0, -mate, false, Blunder, 0.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			drop, j := Judge(c.color, c.before, c.after, c.engineMove)
			if j != c.want || math.Abs(drop-c.drop) > 1e-3 {
				t.Errorf("Judge(%s, %d, %d) = %.4f %s, want %.4f %s", c.color, c.before, c.after, drop, j, c.drop, c.want)
			}
		})
	}
}

func TestMoveAccuracy(t *testing.T) {
	for _, c := range []struct{ drop, want float64 }{
		{0, 100}, {-0.1, 100}, {0.12, 50}, {0.24, 25}, {0.05, 74.915}, {0.10, 56.123}, {0.20, 31.498}, {1, 0.310},
	} {
		if got := MoveAccuracy(c.drop); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("MoveAccuracy(%v) = %.4f, want %.4f", c.drop, got, c.want)
		}
	}
}

func TestAccuracyPerSide(t *testing.T) {
	notes := []PlyNote{
		{Color: cc.White, Drop: 0}, {Color: cc.Black, Drop: 0.02},
		{Color: cc.White, Drop: 0.24}, {Color: cc.Black, Drop: 0},
		{Color: cc.White, Drop: 0}, {Color: cc.Black, Drop: 0.04},
	}
	for _, c := range []struct {
		color cc.Color
		want  float64
	}{
		{cc.White, 100 * math.Exp2(-0.08/0.12)}, // mean drop 0.08: 63.0
		{cc.Black, 100 * math.Exp2(-0.02/0.12)}, // mean drop 0.02: 89.1
	} {
		got, ok := Accuracy(notes, c.color)
		if !ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Accuracy(%s) = %.3f (%v), want %.3f", c.color, got, ok, c.want)
		}
		// The geometric mean of the moves' accuracies.
		prod, n := 1.0, 0
		for _, note := range notes {
			if note.Color == c.color {
				prod *= note.Accuracy()
				n++
			}
		}
		if gm := math.Pow(prod, 1/float64(n)); math.Abs(gm-got) > 1e-9 {
			t.Errorf("%s: geometric mean %.6f, Accuracy %.6f", c.color, gm, got)
		}
	}
	if _, ok := Accuracy(notes[:1], cc.Black); ok {
		t.Error("Black's accuracy without a move")
	}
}

func TestJudgementNames(t *testing.T) {
	want := []struct {
		name, symbol string
		nag          uint8
		flawed       bool
	}{
		{"best", "", 0, false}, {"excellent", "", 0, false}, {"good", "", 0, false},
		{"inaccuracy", "?!", 6, true}, {"mistake", "?", 2, true}, {"missed win", "?", 2, true}, {"blunder", "??", 4, true},
	}
	if len(Judgements) != len(want) {
		t.Fatalf("%d judgements, %d names", len(Judgements), len(want))
	}
	for i, j := range Judgements {
		w := want[i]
		if j.String() != w.name || j.Symbol() != w.symbol || j.NAG() != w.nag || j.Flawed() != w.flawed {
			t.Errorf("judgement %d: %q %q %d %v, want %+v", j, j.String(), j.Symbol(), j.NAG(), j.Flawed(), w)
		}
	}
}
