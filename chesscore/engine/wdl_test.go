package engine

import "testing"

func TestScoreWDL(t *testing.T) {
	cases := []struct {
		s               Score
		win, draw, loss int
	}{
		{0, 151, 698, 151},
		{300, 849, 145, 6},
		{-300, 6, 145, 849},
		{150, 500, 469, 31},
		{MateScore - 3, 1000, 0, 0},
		{-MateScore + 4, 0, 0, 1000},
	}
	for _, c := range cases {
		w, d, l := c.s.WDL()
		if w != c.win || d != c.draw || l != c.loss {
			t.Errorf("%s: wdl %d %d %d, want %d %d %d", c.s, w, d, l, c.win, c.draw, c.loss)
		}
	}
	// A better score never lowers the win chance nor raises the loss chance, and the
	// three always add up to 1000.
	pw, _, pl := Score(-2000).WDL()
	for s := Score(-2000); s <= 2000; s += 7 {
		w, d, l := s.WDL()
		if w+d+l != 1000 || d < 0 || w < pw || l > pl {
			t.Fatalf("%s: wdl %d %d %d after %d %d", s, w, d, l, pw, pl)
		}
		pw, pl = w, l
	}
}
