package rating

import (
	"errors"
	"math"
	"testing"
)

// paperPlayer and paperGames are the worked example of Glickman's "Example of
// the Glicko-2 system".
var (
	paperPlayer = Glicko2Player{Rating: 1500, RD: 200, Volatility: 0.06}
	paperGames  = []Glicko2Game{
		{Rating: 1400, RD: 30, Score: 1},
		{Rating: 1550, RD: 100, Score: 0},
		{Rating: 1700, RD: 300, Score: 0},
	}
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// The paper rounds its intermediate values (μ' = −0.2069 gives 1464.06);
// without that rounding the rating is 1464.0507 and σ' is 0.0599960, which
// the paper truncates to 0.05999. The tolerances allow for the paper's
// rounding only.
func TestGlicko2PaperExample(t *testing.T) {
	got, err := Glicko2Update(paperPlayer, paperGames, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if !near(got.Rating, 1464.06, 0.01) || !near(got.Rating, 1464.0507, 0.0001) {
		t.Errorf("rating = %v, want 1464.06 (1464.0507 unrounded)", got.Rating)
	}
	if !near(got.RD, 151.52, 0.005) {
		t.Errorf("RD = %v, want 151.52", got.RD)
	}
	if !near(got.Volatility, 0.05999, 0.00001) || !near(got.Volatility, 0.059996, 0.0000005) {
		t.Errorf("volatility = %v, want 0.05999 (0.059996 unrounded)", got.Volatility)
	}
}

// The intermediate quantities the paper prints.
func TestGlicko2PaperIntermediates(t *testing.T) {
	for i, want := range []float64{0.9955, 0.9531, 0.7242} {
		if got := glicko2G(paperGames[i].RD / Glicko2Scale); !near(got, want, 0.00005) {
			t.Errorf("g(φ%d) = %v, want %v", i+1, got, want)
		}
	}
	for i, want := range []float64{0.639, 0.432, 0.303} {
		g := paperGames[i]
		if got := Glicko2Expected(1500, g.Rating, g.RD); !near(got, want, 0.0005) {
			t.Errorf("E%d = %v, want %v", i+1, got, want)
		}
	}
	// v = 1.7785, Δ = −0.4834 and σ' = 0.05999 (step 5).
	v, delta := 1.7785, -0.4834
	sigma, err := glicko2Volatility(delta, 200/Glicko2Scale, v, 0.06, 0.5)
	if err != nil || !near(sigma, 0.059996, 0.0000005) {
		t.Errorf("σ' = %v, %v; want 0.05999", sigma, err)
	}
}

func TestGlicko2NoGames(t *testing.T) {
	got, err := Glicko2Update(paperPlayer, nil, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	// φ' = √(φ² + σ²): RD' = √(200² + (0.06 × 173.7178)²) = 200.2714.
	want := math.Sqrt(200*200 + math.Pow(0.06*Glicko2Scale, 2))
	if got.Rating != 1500 || got.Volatility != 0.06 || !near(got.RD, want, 1e-9) || !near(got.RD, 200.2714, 0.0001) {
		t.Errorf("no games: %+v, want rating 1500, RD %v, volatility 0.06", got, want)
	}
}

func TestGlicko2Direction(t *testing.T) {
	opp := Glicko2Game{Rating: 1500, RD: 50}
	for _, tt := range []struct {
		score float64
		sign  float64
	}{{1, 1}, {0.5, 0}, {0, -1}} {
		opp.Score = tt.score
		got, err := Glicko2Update(Glicko2Player{Rating: 1500, RD: 100, Volatility: 0.06}, []Glicko2Game{opp}, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		diff := got.Rating - 1500
		if (tt.sign > 0 && diff <= 0) || (tt.sign < 0 && diff >= 0) || (tt.sign == 0 && !near(diff, 0, 1e-9)) {
			t.Errorf("score %v against an equal: rating change %v", tt.score, diff)
		}
		if got.RD >= 100 {
			t.Errorf("score %v: RD %v did not shrink after a game", tt.score, got.RD)
		}
	}
}

// Large surprises take the other branch of the bracketing (Δ² > φ² + v).
func TestGlicko2LargeSurprise(t *testing.T) {
	p := Glicko2Player{Rating: 1200, RD: 50, Volatility: 0.06}
	var gs []Glicko2Game
	for range 20 {
		gs = append(gs, Glicko2Game{Rating: 2200, RD: 40, Score: 1})
	}
	got, err := Glicko2Update(p, gs, 1.2)
	if err != nil {
		t.Fatal(err)
	}
	if got.Volatility <= p.Volatility || got.Rating <= 1500 {
		t.Errorf("20 wins 1000 points up: %+v, want volatility and rating up", got)
	}
}

func TestGlicko2Errors(t *testing.T) {
	good := Glicko2Player{Rating: 1500, RD: 200, Volatility: 0.06}
	tests := []struct {
		name  string
		p     Glicko2Player
		games []Glicko2Game
		tau   float64
		want  error
	}{
		{"RD zero", Glicko2Player{1500, 0, 0.06}, nil, 0.5, ErrRD},
		{"RD negative", Glicko2Player{1500, -1, 0.06}, nil, 0.5, ErrRD},
		{"RD NaN", Glicko2Player{1500, math.NaN(), 0.06}, nil, 0.5, ErrRD},
		{"RD infinite", Glicko2Player{1500, math.Inf(1), 0.06}, nil, 0.5, ErrRD},
		{"RD too large", Glicko2Player{1500, MaxRD * 1.01, 0.06}, nil, 0.5, ErrRD},
		{"volatility zero", Glicko2Player{1500, 200, 0}, nil, 0.5, ErrVolatility},
		{"volatility too small", Glicko2Player{1500, 200, MinVolatility / 2}, nil, 0.5, ErrVolatility},
		{"volatility too large", Glicko2Player{1500, 200, MaxVolatility * 2}, nil, 0.5, ErrVolatility},
		{"rating NaN", Glicko2Player{math.NaN(), 200, 0.06}, nil, 0.5, ErrRating},
		{"rating too high", Glicko2Player{5000, 200, 0.06}, nil, 0.5, ErrRating},
		{"tau zero", good, nil, 0, ErrTau},
		{"tau NaN", good, nil, math.NaN(), ErrTau},
		{"tau too large", good, nil, MaxTau + 1, ErrTau},
		{"score 0.7", good, []Glicko2Game{{1500, 100, 0.7}}, 0.5, ErrScore},
		{"opponent RD zero", good, []Glicko2Game{{1500, 0, 1}}, 0.5, ErrRD},
		{"opponent rating negative", good, []Glicko2Game{{-3, 100, 1}}, 0.5, ErrRating},
	}
	for _, tt := range tests {
		if _, err := Glicko2Update(tt.p, tt.games, tt.tau); !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
		}
	}
}

// glicko2Volatility solves f(x) = 0 of step 5; f decreases through its one
// root, so the answer must lie between a positive and a negative value of f.
// The grid includes cases that need the bracketing loop (k > 1) and cases
// with Δ² > φ² + v.
func TestGlicko2VolatilityRoot(t *testing.T) {
	for _, sigma := range []float64{0.06, 0.3, 1, 2} {
		for _, phi := range []float64{0.01, 0.05, 0.2, 1, 2} {
			for _, v := range []float64{0.001, 0.01, 0.1, 1.7785} {
				for _, delta := range []float64{0, -0.4834, 1, 3} {
					for _, tau := range []float64{0.3, 0.5, 1.2, 3} {
						got, err := glicko2Volatility(delta, phi, v, sigma, tau)
						if err != nil {
							t.Errorf("σ %v φ %v v %v Δ %v τ %v: %v", sigma, phi, v, delta, tau, err)
							continue
						}
						a := math.Log(sigma * sigma)
						f := func(x float64) float64 {
							ex := math.Exp(x)
							d := phi*phi + v + ex
							return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
						}
						x := 2 * math.Log(got)
						if f(x-1e-5) <= 0 || f(x+1e-5) >= 0 {
							t.Errorf("σ %v φ %v v %v Δ %v τ %v: σ' = %v is not the root (f = %v, %v)",
								sigma, phi, v, delta, tau, got, f(x-1e-5), f(x+1e-5))
						}
					}
				}
			}
		}
	}
}

// At every combination of extreme accepted inputs the result stays finite,
// with a positive RD and volatility.
func TestGlicko2FiniteAtBounds(t *testing.T) {
	vals := func(xs ...float64) []float64 { return xs }
	for _, r := range vals(MinRating, 1500, MaxRating) {
		for _, rd := range vals(1e-300, 1e-5, 30, 350, MaxRD) {
			for _, vol := range vals(MinVolatility, 1e-3, 0.06, 1, MaxVolatility) {
				for _, tau := range vals(1e-300, 1e-6, 0.5, 3, MaxTau) {
					for _, ord := range vals(1e-300, 30, MaxRD) {
						for _, or := range vals(MinRating, MaxRating) {
							for _, s := range vals(0, 0.5, 1) {
								gs := []Glicko2Game{{or, ord, s}, {or, ord, s}}
								got, err := Glicko2Update(Glicko2Player{r, rd, vol}, gs, tau)
								if err != nil || !finite(got) {
									t.Errorf("r %g RD %g σ %g τ %g, two games %v against %g/%g: %+v, %v",
										r, rd, vol, tau, s, or, ord, got, err)
								}
							}
						}
					}
				}
			}
		}
	}
}

// finite reports whether p has a finite rating and a positive finite RD and volatility.
func finite(p Glicko2Player) bool {
	ok := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	return ok(p.Rating) && ok(p.RD) && ok(p.Volatility) && p.RD > 0 && p.Volatility > 0
}
