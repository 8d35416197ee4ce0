package match

import (
	"math"
	"strings"
	"testing"
)

// TestPentanomialLLR checks the LLR against values computed independently (a Newton
// solve of the same maximum-likelihood problem, outside Go). For pentanomials with
// many pairs in every category the figures also lie near the normal approximation
// N·(s1−s0)·(2m−s0−s1)/(2v), which can be worked out on paper: −0.0345 for the first
// row (m = ½, v = 0.075), 0.797 for the second.
func TestPentanomialLLR(t *testing.T) {
	cases := []struct {
		p          Pentanomial
		elo0, elo1 float64
		want       float64
	}{
		{Pentanomial{10, 20, 40, 20, 10}, 0, 5, -0.0345068510},
		{Pentanomial{5, 20, 50, 30, 15}, 0, 5, 0.7620866295},
		{Pentanomial{15, 30, 50, 20, 5}, 0, 5, -0.8460626426},
		{Pentanomial{3, 40, 100, 60, 10}, -5, 5, 2.7742751522},
		{Pentanomial{0, 0, 10, 30, 60}, 0, 10, 2.8368002499},
		// A sweep of three pairs: about 3·ln(s1/s0) = 0.0429, small and finite.
		{Pentanomial{0, 0, 0, 0, 3}, 0, 5, 0.0428911491},
		{Pentanomial{1, 0, 0, 0, 0}, 0, 5, -0.0145237796},
		{Pentanomial{2, 1, 0, 0, 0}, -10, 0, -0.0851244913},
		{Pentanomial{}, 0, 5, 0},
	}
	for _, c := range cases {
		got := c.p.LLR(c.elo0, c.elo1)
		if math.Abs(got-c.want) > 1e-6 {
			t.Errorf("%v LLR(%g, %g) = %.10f, want %.10f", c.p, c.elo0, c.elo1, got, c.want)
		}
	}
}

// TestPentanomialLLRSymmetry: swapping the engines (reversing the pentanomial) and
// negating the hypotheses swaps H0 and H1, so the LLR changes sign.
func TestPentanomialLLRSymmetry(t *testing.T) {
	p := Pentanomial{7, 31, 60, 25, 4}
	r := Pentanomial{p[4], p[3], p[2], p[1], p[0]}
	a, b := p.LLR(0, 10), r.LLR(-10, 0)
	if math.Abs(a+b) > 1e-9 {
		t.Errorf("LLR %v = %.9f, reversed with negated hypotheses %.9f: want opposite", p, a, b)
	}
}

func TestPentanomialAdd(t *testing.T) {
	var p Pentanomial
	for _, pts := range []float64{0, 0.5, 1, 1.5, 2, 1, 2} {
		p.add(pts)
	}
	if want := (Pentanomial{1, 1, 2, 1, 2}); p != want || p.Pairs() != 7 {
		t.Errorf("pentanomial %v (%d pairs), want %v", p, p.Pairs(), want)
	}
}

func TestSPRTBoundsAndVerdict(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	lo, hi := test.Bounds()
	if math.Abs(lo+2.944438979) > 1e-8 || math.Abs(hi-2.944438979) > 1e-8 {
		t.Errorf("bounds %.9f %.9f, want ∓ln(19) = ∓2.944438979", lo, hi)
	}
	lo, hi = SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1}.Bounds()
	if math.Abs(lo-math.Log(0.1/0.95)) > 1e-12 || math.Abs(hi-math.Log(0.9/0.05)) > 1e-12 {
		t.Errorf("bounds %.9f %.9f, want ln(0.1/0.95) = -2.2513 and ln(0.9/0.05) = 2.8904", lo, hi)
	}
	cases := []struct {
		p    Pentanomial
		want Verdict
	}{
		{Pentanomial{10, 20, 40, 20, 10}, Continue},
		{Pentanomial{0, 0, 10, 30, 60}, Continue}, // LLR 2.84 for 0/10, under 2.94
		{Pentanomial{0, 10, 60, 150, 80}, AcceptH1},
		{Pentanomial{80, 150, 60, 10, 0}, AcceptH0},
	}
	for _, c := range cases {
		llr, v := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}.Judge(c.p)
		if v != c.want {
			t.Errorf("%v: LLR %.3f, verdict %v, want %v", c.p, llr, v, c.want)
		}
	}
}

func TestSPRTValidate(t *testing.T) {
	cases := []struct {
		test SPRT
		ok   bool
	}{
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}, true},
		{SPRT{Elo0: -3, Elo1: 1, Alpha: 0.1, Beta: 0.2}, true},
		{SPRT{Elo0: 5, Elo1: 5, Alpha: 0.05, Beta: 0.05}, false},
		{SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}, false},
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05}, false},
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.5}, false},
		{SPRT{Elo0: math.NaN(), Elo1: 5, Alpha: 0.05, Beta: 0.05}, false},
	}
	for _, c := range cases {
		if err := c.test.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: Validate() = %v, want ok %v", c.test, err, c.ok)
		}
	}
}

func TestSPRTReport(t *testing.T) {
	test := &SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	r := Result{Engine1: "a", Engine2: "b", Terminations: map[string]int{}, Pentanomial: Pentanomial{5, 20, 50, 30, 15}}
	r.finish(test)
	var b strings.Builder
	if err := r.Report(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"pairs 120 (pentanomial 0-½-1-1½-2: 5 20 50 30 15)",
		"SPRT elo0 0 elo1 5 alpha 0.05 beta 0.05: LLR 0.76 (bounds -2.94, 2.94): no verdict yet",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report %q lacks %q", b.String(), want)
		}
	}
}
