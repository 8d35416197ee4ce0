package engine

import (
	"math"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

func TestWinProbability(t *testing.T) {
	cases := []struct {
		s    Score
		want float64
	}{
		{0, 0.5}, {400, 10.0 / 11}, {-400, 1.0 / 11}, {MateScore - 5, 1}, {-MateScore + 4, 0},
	}
	for _, c := range cases {
		if got := WinProbability(c.s); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("WinProbability(%d) = %v, want %v", c.s, got, c.want)
		}
	}
}

func TestAnalyse(t *testing.T) {
	e := New(Options{HashMB: 4})
	lines, err := e.Analyse(cc.StartPosition(), nil, Limits{Depth: 4}, 3)
	if err != nil || len(lines) != 3 {
		t.Fatalf("%d lines, %v", len(lines), err)
	}
	lines, err = e.Analyse(mustFEN(t, "7k/8/8/8/8/8/6q1/7K w - - 0 1"), nil, Limits{Depth: 4}, 5)
	if err != nil || len(lines) != 1 || lines[0].Move.UCI() != "h1g2" {
		t.Errorf("one legal move: %+v, %v", lines, err)
	}
	lines, _ = e.Analyse(mustFEN(t, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), nil, Limits{Depth: 4}, 2)
	if len(lines) != 0 {
		t.Errorf("checkmated: %d lines", len(lines))
	}
}

func TestAnnotate(t *testing.T) {
	// 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#: Black's third move is a blunder.
	g := cc.NewGame(cc.StartPosition(), nil)
	for _, s := range []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"} {
		if _, err := g.PlaySAN(s); err != nil {
			t.Fatal(err)
		}
	}
	e := New(Options{HashMB: 4})
	notes, err := e.Annotate(g, Limits{Depth: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 7 {
		t.Fatalf("%d notes for 7 moves", len(notes))
	}
	nf6 := notes[5]
	if nf6.SAN != "Nf6" || nf6.Judgement != Blunder || nf6.Color != cc.Black {
		t.Errorf("Nf6: %+v, want a blunder by Black", nf6)
	}
	if nf6.BestSAN == "Nf6" || nf6.BestSAN == "" {
		t.Errorf("Nf6: best alternative %q", nf6.BestSAN)
	}
	if !nf6.After.IsMate() || nf6.After.MateIn() <= 0 {
		t.Errorf("after Nf6 White mates: After = %s", nf6.After)
	}
	mate := notes[6]
	if mate.Judgement != Best || mate.Best.UCI() != "h5f7" {
		t.Errorf("Qxf7#: %+v", mate)
	}
	if notes[0].Judgement.Flawed() {
		t.Errorf("1. e4 judged %s", notes[0].Judgement)
	}
}

func TestScoreText(t *testing.T) {
	cases := []struct {
		s        Score
		uci, str string
	}{
		{35, "cp 35", "+0.35"}, {-120, "cp -120", "-1.20"}, {0, "cp 0", "+0.00"}, {-5, "cp -5", "-0.05"},
		{MateScore - 1, "mate 1", "#1"}, {MateScore - 5, "mate 3", "#3"}, {-MateScore + 4, "mate -2", "#-2"},
	}
	for _, c := range cases {
		if c.s.UCI() != c.uci || c.s.String() != c.str {
			t.Errorf("%d: %q %q, want %q %q", c.s, c.s.UCI(), c.s.String(), c.uci, c.str)
		}
	}
}
