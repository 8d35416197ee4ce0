// Tests of the match score: Elo estimate, sweep bounds, the printed report.
package match

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
)

func TestEloStats(t *testing.T) {
	cases := []struct {
		w, d, l      int
		elo, margin  float64
		losAbove50   bool
		eloTolerance float64
	}{
		{50, 0, 50, 0, 0, false, 0.01},
		{55, 0, 45, 34.86, 69, true, 0.1},
		{40, 40, 20, 70.44, 0, true, 0.1},
		{0, 0, 10, -1200, 0, false, 1},
	}
	for _, c := range cases {
		elo, margin, los := EloStats(c.w, c.d, c.l)
		if math.Abs(elo-c.elo) > c.eloTolerance {
			t.Errorf("%d/%d/%d: elo %.2f, want %.2f", c.w, c.d, c.l, elo, c.elo)
		}
		if c.margin > 0 && math.Abs(margin-c.margin) > 3 {
			t.Errorf("%d/%d/%d: margin %.1f, want about %.0f", c.w, c.d, c.l, margin, c.margin)
		}
		if c.losAbove50 && los <= 50 {
			t.Errorf("%d/%d/%d: LOS %.1f", c.w, c.d, c.l, los)
		}
	}
	// A clean sweep has a one-sided bound: 16/16 is at least +250 with 95% confidence.
	for _, c := range []struct {
		w, d, l int
		lo, hi  float64
	}{{16, 0, 0, 250, 400}, {0, 0, 30, -500, -350}, {15, 1, 0, 0, 0}, {0, 0, 0, 0, 0}} {
		b := EloBound(c.w, c.d, c.l)
		if (c.lo == 0 && b != 0) || (c.lo != 0 && (b < c.lo || b > c.hi)) {
			t.Errorf("%d/%d/%d: bound %.0f, want %v to %v", c.w, c.d, c.l, b, c.lo, c.hi)
		}
	}
	// Draws shrink the error bar.
	_, m1, _ := EloStats(30, 0, 30)
	_, m2, _ := EloStats(15, 30, 15)
	if m2 >= m1 {
		t.Errorf("margin with draws %.1f, without %.1f", m2, m1)
	}
}

// TestReportSmallMatches: the Elo line of short matches has the winner's sign, and a
// sweep's bound is worded in the sweep's direction even when, under five games, the
// bound itself lies on the loser's side of zero (a 2-0 win once read "below -216
// (95%: every game lost)").
func TestReportSmallMatches(t *testing.T) {
	cases := []struct {
		score   string
		w, d, l int
		want    string
	}{
		{"1-0", 1, 0, 0, "above -512 (95%: every game won; too few games to tell which engine is stronger)"},
		{"0-1", 0, 0, 1, "below +512 (95%: every game lost; too few games to tell which engine is stronger)"},
		{"2-0", 2, 0, 0, "above -216 (95%: every game won; too few games to tell which engine is stronger)"},
		{"0-2", 0, 0, 2, "below +216 (95%: every game lost; too few games to tell which engine is stronger)"},
		{"1.5-0.5", 1, 1, 0, "+190.8 +/- "},
		{"0.5-1.5", 0, 1, 1, "-190.8 +/- "},
		{"1-1 (two draws)", 0, 2, 0, "+0.0 +/- 0.0 (95%)"},
		{"2-2", 2, 0, 2, "+0.0 +/- "},
		{"2-2 (with draws)", 1, 2, 1, "+0.0 +/- "},
		{"3-1", 3, 0, 1, "+190.8 +/- "},
		{"1-3", 1, 0, 3, "-190.8 +/- "},
		{"3.5-0.5", 3, 1, 0, "+338.0 +/- "},
		{"4-0", 4, 0, 0, "above -19 (95%: every game won; too few games to tell which engine is stronger)"},
		{"0-4", 0, 0, 4, "below +19 (95%: every game lost; too few games to tell which engine is stronger)"},
		{"2.5-2.5", 2, 1, 2, "+0.0 +/- "},
		{"5-0", 5, 0, 0, "above +34 (95%: every game won)"},
		{"0-5", 0, 0, 5, "below -34 (95%: every game lost)"},
		{"16-0", 16, 0, 0, "above +275 (95%: every game won)"},
	}
	for _, c := range cases {
		r := Result{Engine1: "a", Engine2: "b", Games: c.w + c.d + c.l, Wins: c.w, Draws: c.d, Losses: c.l,
			Score: float64(c.w) + float64(c.d)/2, Terminations: map[string]int{}}
		r.finish(nil)
		var out bytes.Buffer
		if err := r.Report(&out); err != nil {
			t.Fatal(err)
		}
		line := ""
		for _, l := range strings.Split(out.String(), "\n") {
			if rest, ok := strings.CutPrefix(l, "Elo difference: "); ok {
				line = rest
			}
		}
		if !strings.HasPrefix(line, c.want) {
			t.Errorf("%s: Elo difference %q, want it to start %q", c.score, line, c.want)
		}
		// Whatever the wording, a winning score never reads as a loss, nor the reverse.
		won, lost := c.w > c.l, c.l > c.w
		if won && (strings.HasPrefix(line, "-") || strings.Contains(line, "below")) ||
			lost && (strings.HasPrefix(line, "+") || strings.Contains(line, "above")) {
			t.Errorf("%s: Elo difference %q has the loser's sign", c.score, line)
		}
	}
}

// TestResultAdd: games are counted from engine 1's side whichever colour it had.
func TestResultAdd(t *testing.T) {
	r := Result{Terminations: map[string]int{}}
	won := func(c chesscore.Color) *chesscore.Game {
		g := chesscore.NewGame(chesscore.StartPosition(), dead.Decider{})
		if err := g.Resign(c.Other()); err != nil {
			t.Fatal(err)
		}
		return g
	}
	r.add(won(chesscore.White), 0) // engine 1 White, wins
	r.add(won(chesscore.White), 1) // engine 1 Black, loses
	r.add(won(chesscore.Black), 1) // engine 1 Black, wins
	r.finish(nil)
	if r.Wins != 2 || r.Losses != 1 || r.Draws != 0 || r.Score != 2 || r.WhiteWins != 2 || r.BlackWins != 1 {
		t.Errorf("result %+v", r)
	}
	if r.Terminations[chesscore.Resignation.String()] != 3 || math.Abs(r.Percent-200.0/3) > 1e-9 {
		t.Errorf("terminations %v, percent %.2f", r.Terminations, r.Percent)
	}
}
