package render

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// evalSample is a made-up game of 41 plies: a balanced opening, an inaccuracy and a
// mistake by Black, a blunder by White, a win Black lets go for a while, and a mate at
// the end.
func evalSample() []EvalPoint {
	pts := []EvalPoint{{Pawns: 0.2}}
	for i := 1; i <= 41; i++ {
		v := 0.25 + 0.3*math.Sin(float64(i)/3)
		switch {
		case i >= 36:
			v = -30 // far beyond the clip
		case i >= 31:
			v = -0.3
		case i >= 24:
			v = -2.5 - float64(i-24)*0.1
		case i >= 14:
			v = 1.4
		case i >= 9:
			v = 0.7
		}
		p := EvalPoint{Pawns: v}
		switch i {
		case 9:
			p.Mark = MarkInaccuracy
		case 14:
			p.Mark = MarkMistake
		case 24:
			p.Mark = MarkBlunder
		case 31:
			p.Mark = MarkMissedWin
		case 41:
			p = EvalPoint{Pawns: -1, Mate: true}
		}
		pts = append(pts, p)
	}
	return pts
}

func TestEvalGraphGolden(t *testing.T) {
	for _, c := range []struct {
		name   string
		points []EvalPoint
		opt    EvalGraphOptions
	}{
		{"evalgraph_game", evalSample(), EvalGraphOptions{Title: "Game 12 · ana vs Gambit engine (level 3)"}},
		{"evalgraph_short_black_first", []EvalPoint{{Pawns: 0}, {Pawns: -0.4}, {Pawns: 3, Mark: MarkBlunder}, {Pawns: 9, Mate: true}},
			EvalGraphOptions{Width: 400, Height: 200, Title: "Game 3", FirstMove: 20, BlackFirst: true, Clip: 4}},
		{"evalgraph_empty", nil, EvalGraphOptions{Title: "Game 4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := EvalGraph(&buf, c.points, c.opt); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name, decodePNG(t, buf.Bytes()))
		})
	}
}

func TestEvalGraphErrors(t *testing.T) {
	for _, c := range []struct {
		points []EvalPoint
		opt    EvalGraphOptions
		want   string
	}{
		{nil, EvalGraphOptions{Width: 100, Height: 100}, "size 100×100"},
		{nil, EvalGraphOptions{Clip: 0.1}, "clip 0.1"},
		{[]EvalPoint{{Pawns: math.NaN()}}, EvalGraphOptions{}, "point 0"},
		{[]EvalPoint{{}, {Pawns: math.Inf(1)}}, EvalGraphOptions{}, "point 1"},
	} {
		var buf bytes.Buffer
		err := EvalGraph(&buf, c.points, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("EvalGraph(%+v): error %v, want one containing %q", c.opt, err, c.want)
		}
	}
}

// White's advantage is drawn up: the plot's top rows are light where White is winning
// and dark where Black is.
func TestEvalGraphOrientation(t *testing.T) {
	pts := []EvalPoint{{Pawns: 5}, {Pawns: 5}, {Pawns: 5}, {Pawns: -5}, {Pawns: -5}, {Pawns: -5}}
	var buf bytes.Buffer
	if err := EvalGraph(&buf, pts, EvalGraphOptions{}); err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, buf.Bytes())
	// Just above the zero line, in the first and the last fifth of the plot.
	yMid := (44 + 270) / 2
	light := func(x int) bool {
		r, g, b, _ := img.At(x, yMid-20).RGBA()
		return (r+g+b)/3 > 0x8000
	}
	if !light(120) {
		t.Error("White's advantage is not light above the zero line")
	}
	if light(700) {
		t.Error("Black's advantage is light above the zero line")
	}
}
