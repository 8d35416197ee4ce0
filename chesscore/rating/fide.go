package rating

import (
	"fmt"
	"math"
)

// Thresholds of the FIDE Rating Regulations.
const (
	// RatingFloor is the lowest published rating (Articles 7.1.4 and 7.2.1):
	// a player who drops below it is shown as unrated on the next list.
	RatingFloor = 1400
	// MaxGapCapped is the largest rating difference counted for a player
	// rated below [NoCapRating] (the 400-point rule, Article 8.3.1).
	MaxGapCapped = 400
	// NoCapRating is the rating from which the real difference is used in
	// all cases (Article 8.3.1 as amended from 1 October 2025).
	NoCapRating = 2650
	// KCapProduct is the largest K × n allowed for the n games of a rating
	// period (Article 8.3.3).
	KCapProduct = 700
	// NewPlayerGames is the number of games after which a new player's K
	// drops from 40 (Article 8.3.3).
	NewPlayerGames = 30
)

// Game is one rated game from the player's point of view.
type Game struct {
	// Opponent is the opponent's rating.
	Opponent int
	// Score is the player's result: 1 for a win, 0.5 for a draw, 0 for a loss.
	Score float64
}

// FIDEPlayer is what the K rules of Article 8.3.3 need to know about a rated player.
type FIDEPlayer struct {
	// Rating is the player's rating at the start of the period.
	Rating int
	// GamesPlayed is the number of rated games the player completed before
	// this period; under 30 the player is new to the list (K = 40).
	GamesPlayed int
	// Peak is the highest rating the player has ever had published; zero
	// means "never above Rating". Once it reaches 2400, K is 10 for ever.
	Peak int
	// Junior marks a player until the end of the year of their 18th
	// birthday: K = 40 as long as the rating has remained under 2300.
	Junior bool
	// K, when not zero, forces the development coefficient: the rules of
	// Article 8.3.3, including the K × n ≤ 700 cap, are then not applied.
	K int
}

// FIDEResult is the outcome of one rating period.
type FIDEResult struct {
	// K is the development coefficient used, after the K × n ≤ 700 cap.
	K int
	// Score is the player's total score in the period.
	Score float64
	// Expected is the sum of the scoring probabilities PD of the games.
	Expected float64
	// Change is the unrounded rating change, K × Σ(score − PD); it is
	// always a whole number of hundredths.
	Change float64
	// RoundedChange is Change rounded to the nearest whole number, 0.5 away
	// from zero (Article 8.3.4).
	RoundedChange int
	// NewRating is Rating + RoundedChange. A value below [RatingFloor]
	// means FIDE would list the player as unrated.
	NewRating int
}

// checkRating reports whether r is an acceptable rating.
func checkRating(r int) error {
	if r < MinRating || r > MaxRating {
		return fmt.Errorf("rating %d not in [%d, %d]: %w", r, MinRating, MaxRating, ErrRating)
	}
	return nil
}

// halfPoints returns a score of 0, 0.5 or 1 as 0, 1 or 2 half points.
func halfPoints(score float64) (int, error) {
	switch score {
	case 0:
		return 0, nil
	case 0.5:
		return 1, nil
	case 1:
		return 2, nil
	}
	return 0, fmt.Errorf("score %v: %w", score, ErrScore)
}

// Validate reports whether the player's fields are acceptable.
func (p FIDEPlayer) Validate() error {
	if err := checkRating(p.Rating); err != nil {
		return err
	}
	if p.GamesPlayed < 0 {
		return fmt.Errorf("games played %d: %w", p.GamesPlayed, ErrGamesPlayed)
	}
	if p.Peak != 0 {
		if err := checkRating(p.Peak); err != nil {
			return fmt.Errorf("peak: %w", err)
		}
		if p.Peak < p.Rating {
			return fmt.Errorf("peak %d, rating %d: %w", p.Peak, p.Rating, ErrPeak)
		}
	}
	if p.K < 0 {
		return fmt.Errorf("forced K factor %d: %w", p.K, ErrK)
	}
	return nil
}

// FIDEK returns the development coefficient of Article 8.3.3 for the player,
// before the K × n ≤ 700 cap ([CapK]); a forced p.K is returned as is.
//
// The article lists its four cases without an order; they are applied as
// FIDE's published lists do: a peak of 2400 or more gives 10; otherwise a
// junior whose rating has stayed under 2300 gets 40; otherwise a player with
// fewer than 30 games gets 40; otherwise 20.
func FIDEK(p FIDEPlayer) int {
	if p.K != 0 {
		return p.K
	}
	peak := max(p.Peak, p.Rating)
	switch {
	case peak >= 2400:
		return 10
	case p.Junior && peak < 2300:
		return 40
	case p.GamesPlayed < NewPlayerGames:
		return 40
	default:
		return 20
	}
}

// CapK applies the last rule of Article 8.3.3: if k × n exceeds 700 for the
// n games of a rating period, K becomes the largest whole number such that
// K × n does not exceed 700.
func CapK(k, n int) int {
	if n > 0 && k*n > KCapProduct {
		return KCapProduct / n
	}
	return k
}

// FIDECappedDifference returns the rating difference D = player − opponent
// counted for the player under the 400-point rule of Article 8.3.1 (from 1
// October 2025): a difference of more than 400 points counts as 400 for a
// player rated below 2650; for a player rated 2650 and above the real
// difference is used.
func FIDECappedDifference(player, opponent int) int {
	d := player - opponent
	if player >= NoCapRating {
		return d
	}
	return max(-MaxGapCapped, min(MaxGapCapped, d))
}

// FIDEExpected returns the player's expected score PD against the opponent:
// table 8.1.2 applied to the difference of [FIDECappedDifference].
func FIDEExpected(player, opponent int) float64 {
	return FIDEProbability(FIDECappedDifference(player, opponent))
}

// LogisticExpected returns 1 / (1 + 10^(−d/400)), the logistic expected
// score of a player rated d points above the opponent. FIDE does not use it
// (its table 8.1.2 comes from the normal distribution); within the 400-point
// limit the two differ by less than 0.015.
func LogisticExpected(d float64) float64 {
	return 1 / (1 + math.Pow(10, -d/400))
}

// FIDEChange rates one period of games for a rated player (Article 8.3):
// ΔR = score − PD for each game, the change is K × ΣΔR with K from [FIDEK]
// capped by [CapK] (unless forced), and it is rounded to the nearest whole
// number with 0.5 away from zero. No games give a change of zero.
func FIDEChange(p FIDEPlayer, games []Game) (FIDEResult, error) {
	if err := p.Validate(); err != nil {
		return FIDEResult{}, fmt.Errorf("player: %w", err)
	}
	for i, g := range games {
		if err := checkRating(g.Opponent); err != nil {
			return FIDEResult{}, fmt.Errorf("game %d: opponent: %w", i+1, err)
		}
		if _, err := halfPoints(g.Score); err != nil {
			return FIDEResult{}, fmt.Errorf("game %d: %w", i+1, err)
		}
	}
	return fidePeriod(p, games), nil
}

// fidePeriod is the arithmetic of [FIDEChange] for a valid player and valid games.
func fidePeriod(p FIDEPlayer, games []Game) FIDEResult {
	k := FIDEK(p)
	if p.K == 0 {
		k = CapK(k, len(games))
	}
	var scoreHalves, expected int // half points; hundredths
	for _, g := range games {
		h, _ := halfPoints(g.Score) // valid: checked by the caller
		scoreHalves += h
		expected += probabilityHundredths(FIDECappedDifference(p.Rating, g.Opponent))
	}
	change := k * (scoreHalves*50 - expected) // hundredths
	rounded := roundHundredths(change)
	return FIDEResult{
		K:             k,
		Score:         float64(scoreHalves) / 2,
		Expected:      float64(expected) / 100,
		Change:        float64(change) / 100,
		RoundedChange: rounded,
		NewRating:     p.Rating + rounded,
	}
}

// roundHundredths rounds c/100 to the nearest integer, halves away from zero.
func roundHundredths(c int) int {
	if c < 0 {
		return -((-c + 50) / 100)
	}
	return (c + 50) / 100
}
