package rating

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// scoreSpellings are the accepted ways of writing a score.
var scoreSpellings = map[string]float64{
	"0": 0, "0.0": 0,
	"1": 1, "1.0": 1,
	"0.5": 0.5, ".5": 0.5, "1/2": 0.5, "½": 0.5,
}

// ParseScore reads a score: 1 or 1.0 (win), 0 or 0.0 (loss), 0.5, .5, 1/2 or ½ (draw).
func ParseScore(s string) (float64, error) {
	v, ok := scoreSpellings[s]
	if !ok {
		return 0, fmt.Errorf("score %q: %w", s, ErrScore)
	}
	return v, nil
}

// formatScore writes a score as "1", "0.5" or "0".
func formatScore(s float64) string {
	return strconv.FormatFloat(s, 'f', -1, 64)
}

// ParseGame reads a FIDE game written OPPONENT:SCORE, for example "1800:1",
// "2015:0.5" or "1750:0". The opponent's rating is a whole number in
// [MinRating, MaxRating]; the score is read by [ParseScore].
func ParseGame(s string) (Game, error) {
	rating, score, ok := strings.Cut(s, ":")
	if !ok {
		return Game{}, fmt.Errorf("parse game %q: want RATING:SCORE: %w", s, ErrSyntax)
	}
	r, err := strconv.Atoi(rating)
	if err != nil {
		return Game{}, fmt.Errorf("parse game %q: opponent rating %q: %w", s, rating, ErrSyntax)
	}
	if err := checkRating(r); err != nil {
		return Game{}, fmt.Errorf("parse game %q: opponent: %w", s, err)
	}
	v, err := ParseScore(score)
	if err != nil {
		return Game{}, fmt.Errorf("parse game %q: %w", s, err)
	}
	return Game{Opponent: r, Score: v}, nil
}

// String writes the game as ParseGame reads it: "1800:1".
func (g Game) String() string {
	return strconv.Itoa(g.Opponent) + ":" + formatScore(g.Score)
}

// ParseGlicko2Game reads a Glicko-2 game written RATING:RD:SCORE, for
// example "1400:30:1": the opponent's rating in [MinRating, MaxRating], their
// positive rating deviation (decimals allowed) and the score ([ParseScore]).
func ParseGlicko2Game(s string) (Glicko2Game, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return Glicko2Game{}, fmt.Errorf("parse game %q: want RATING:RD:SCORE: %w", s, ErrSyntax)
	}
	r, err := parseDecimal(parts[0])
	if err != nil {
		return Glicko2Game{}, fmt.Errorf("parse game %q: opponent rating %q: %w", s, parts[0], err)
	}
	rd, err := parseDecimal(parts[1])
	if err != nil {
		return Glicko2Game{}, fmt.Errorf("parse game %q: opponent RD %q: %w", s, parts[1], err)
	}
	v, err := ParseScore(parts[2])
	if err != nil {
		return Glicko2Game{}, fmt.Errorf("parse game %q: %w", s, err)
	}
	g := Glicko2Game{Rating: r, RD: rd, Score: v}
	if err := g.Validate(); err != nil {
		return Glicko2Game{}, fmt.Errorf("parse game %q: %w", s, err)
	}
	return g, nil
}

// String writes the game as ParseGlicko2Game reads it: "1400:30:1".
func (g Glicko2Game) String() string {
	return formatDecimal(g.Rating) + ":" + formatDecimal(g.RD) + ":" + formatScore(g.Score)
}

// parseDecimal reads a plain decimal number such as "1400", "30" or "151.5":
// digits with at most one point and an optional leading minus sign; no
// exponents, hexadecimal, underscores, infinities or NaN.
func parseDecimal(s string) (float64, error) {
	digits := strings.TrimPrefix(s, "-")
	seenDigit, seenPoint := false, false
	for _, c := range digits {
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
		case c == '.' && !seenPoint:
			seenPoint = true
		default:
			return 0, ErrSyntax
		}
	}
	if !seenDigit {
		return 0, ErrSyntax
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, ErrSyntax
	}
	return v, nil
}

// formatDecimal writes v in the shortest plain decimal form that reads back
// as v.
func formatDecimal(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}
