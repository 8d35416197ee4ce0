package rating

import (
	"fmt"
	"math"
)

// Constants of Glickman's "Example of the Glicko-2 system".
const (
	// Glicko2Scale converts between the Glicko and Glicko-2 scales:
	// μ = (r − 1500) / 173.7178 and φ = RD / 173.7178.
	Glicko2Scale = 173.7178
	// Glicko2Base is the rating that μ = 0 stands for.
	Glicko2Base = 1500
	// Glicko2Epsilon is the convergence tolerance of the volatility iteration.
	Glicko2Epsilon = 0.000001
	// glicko2MaxIterations bounds every loop of the volatility iteration.
	glicko2MaxIterations = 1000
)

// Bounds accepted by Glicko2Update besides [MinRating] and [MaxRating]. They
// are far beyond what the system produces and keep the arithmetic finite.
const (
	MaxRD         = 5000.0
	MinVolatility = 1e-9
	MaxVolatility = 10.0
	MaxTau        = 10.0
)

// Defaults the paper suggests for an unrated player.
const (
	Glicko2DefaultRating     = 1500.0
	Glicko2DefaultRD         = 350.0
	Glicko2DefaultVolatility = 0.06
)

// Glicko2Player is a player's Glicko-2 state, on the Glicko scale.
type Glicko2Player struct {
	Rating     float64
	RD         float64 // rating deviation
	Volatility float64 // σ
}

// Glicko2Game is one game of a rating period against an opponent whose
// rating and rating deviation are those at the start of the period.
type Glicko2Game struct {
	Rating float64 // opponent's rating
	RD     float64 // opponent's rating deviation
	Score  float64 // player's result: 1, 0.5 or 0
}

// checkFloatRating reports whether r is an acceptable Glicko-2 rating.
func checkFloatRating(r float64) error {
	if math.IsNaN(r) || r < MinRating || r > MaxRating {
		return fmt.Errorf("rating %v not in [%d, %d]: %w", r, MinRating, MaxRating, ErrRating)
	}
	return nil
}

// checkRD reports whether rd is an acceptable rating deviation.
func checkRD(rd float64) error {
	if !(rd > 0 && rd <= MaxRD) {
		return fmt.Errorf("RD %v not in (0, %v]: %w", rd, MaxRD, ErrRD)
	}
	return nil
}

// Validate reports whether the player's fields are acceptable.
func (p Glicko2Player) Validate() error {
	if err := checkFloatRating(p.Rating); err != nil {
		return err
	}
	if err := checkRD(p.RD); err != nil {
		return err
	}
	if !(p.Volatility >= MinVolatility && p.Volatility <= MaxVolatility) {
		return fmt.Errorf("volatility %v not in [%v, %v]: %w", p.Volatility, MinVolatility, MaxVolatility, ErrVolatility)
	}
	return nil
}

// Validate reports whether the game's fields are acceptable.
func (g Glicko2Game) Validate() error {
	if err := checkFloatRating(g.Rating); err != nil {
		return fmt.Errorf("opponent: %w", err)
	}
	if err := checkRD(g.RD); err != nil {
		return fmt.Errorf("opponent: %w", err)
	}
	if _, err := halfPoints(g.Score); err != nil {
		return err
	}
	return nil
}

// glicko2G is g(φ) = 1 / √(1 + 3φ²/π²).
func glicko2G(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// glicko2E is E(μ, μj, φj) = 1 / (1 + exp(−g(φj)(μ − μj))).
func glicko2E(mu, muJ, phiJ float64) float64 {
	return 1 / (1 + math.Exp(-glicko2G(phiJ)*(mu-muJ)))
}

// Glicko2Expected returns the expected score of a player rated rating
// against an opponent with the given rating and rating deviation: E of step 3
// of the paper.
func Glicko2Expected(rating, opponentRating, opponentRD float64) float64 {
	return glicko2E((rating-Glicko2Base)/Glicko2Scale, (opponentRating-Glicko2Base)/Glicko2Scale, opponentRD/Glicko2Scale)
}

// Glicko2Update rates one period of games with Glicko-2 and returns the
// player's new state. tau is the system constant τ that limits how fast the
// volatility changes (the paper suggests 0.3 to 1.2).
//
// With no games the rating and volatility stay the same and the deviation
// grows: φ' = √(φ² + σ²).
func Glicko2Update(p Glicko2Player, games []Glicko2Game, tau float64) (Glicko2Player, error) {
	if err := p.Validate(); err != nil {
		return Glicko2Player{}, fmt.Errorf("player: %w", err)
	}
	if !(tau > 0 && tau <= MaxTau) {
		return Glicko2Player{}, fmt.Errorf("tau %v not in (0, %v]: %w", tau, MaxTau, ErrTau)
	}
	for i, g := range games {
		if err := g.Validate(); err != nil {
			return Glicko2Player{}, fmt.Errorf("game %d: %w", i+1, err)
		}
	}
	return glicko2Period(p, games, tau, false)
}

// glicko2Period is the arithmetic of [Glicko2Update] for a valid player, valid games and
// a valid tau. The volatility iteration of step 5 is the only step that can fail; with
// keepSigma its failure keeps the volatility as it was (σ' = σ) instead of failing, so
// that the rest of the update still happens.
func glicko2Period(p Glicko2Player, games []Glicko2Game, tau float64, keepSigma bool) (Glicko2Player, error) {
	// Step 2: convert to the Glicko-2 scale.
	mu := (p.Rating - Glicko2Base) / Glicko2Scale
	phi := p.RD / Glicko2Scale
	sigma := p.Volatility

	if len(games) == 0 {
		phiStar := math.Sqrt(phi*phi + sigma*sigma)
		return Glicko2Player{Rating: p.Rating, RD: phiStar * Glicko2Scale, Volatility: sigma}, nil
	}

	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var invV, sum float64
	for _, g := range games {
		muJ := (g.Rating - Glicko2Base) / Glicko2Scale
		phiJ := g.RD / Glicko2Scale
		gj := glicko2G(phiJ)
		e := glicko2E(mu, muJ, phiJ)
		invV += gj * gj * e * (1 - e)
		sum += gj * (g.Score - e)
	}
	v := 1 / invV
	delta := v * sum

	// Step 5: the new volatility.
	sigmaNew, err := glicko2Volatility(delta, phi, v, sigma, tau)
	if err != nil {
		if !keepSigma {
			return Glicko2Player{}, err
		}
		sigmaNew = sigma
	}

	// Steps 6 to 8: the new deviation and rating, back on the Glicko scale.
	phiStar := math.Sqrt(phi*phi + sigmaNew*sigmaNew)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Glicko2Player{
		Rating:     Glicko2Scale*muNew + Glicko2Base,
		RD:         Glicko2Scale * phiNew,
		Volatility: sigmaNew,
	}, nil
}

// glicko2Volatility is step 5 of the paper: it solves f(x) = 0 with the
// Illinois variant of regula falsi and returns σ' = e^(A/2).
func glicko2Volatility(delta, phi, v, sigma, tau float64) (float64, error) {
	a := math.Log(sigma * sigma)
	phi2, delta2, tau2 := phi*phi, delta*delta, tau*tau
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta2-phi2-v-ex)/(2*d*d) - (x-a)/tau2
	}

	A := a
	var B float64
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
			if k > glicko2MaxIterations {
				return 0, fmt.Errorf("bracketing σ (τ %v): %w", tau, ErrNoConvergence)
			}
		}
		B = a - k*tau
	}

	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > Glicko2Epsilon; i++ {
		if i == glicko2MaxIterations {
			return 0, fmt.Errorf("solving for σ (τ %v): %w", tau, ErrNoConvergence)
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2), nil
}
