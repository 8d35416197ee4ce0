// rating.go: `gambit rating`, the FIDE and Glicko-2 calculators (package chesscore/rating).

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gambitchess/gambit/chesscore/rating"
)

// ratingList collects the values of a repeatable string flag.
type ratingList []string

// String lists the values given so far.
func (l *ratingList) String() string { return strings.Join(*l, " ") }

// Set adds a value.
func (l *ratingList) Set(s string) error { *l = append(*l, s); return nil }

// ratingIsSet reports whether the flag name was given on the command line.
func ratingIsSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// ratingCheckInt reports an error naming the flag if v is outside [lo, hi].
func ratingCheckInt(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("--%s %d: want a value from %d to %d", name, v, lo, hi)
	}
	return nil
}

// ratingFIDEGames parses the --game values of the FIDE calculators.
func ratingFIDEGames(values []string) ([]rating.Game, error) {
	games := make([]rating.Game, 0, len(values))
	for _, v := range values {
		g, err := rating.ParseGame(v)
		if err != nil {
			return nil, fmt.Errorf("--game: %w", err)
		}
		games = append(games, g)
	}
	return games, nil
}

// ratingFIDE implements `gambit rating fide`.
func ratingFIDE(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rating fide", stderr)
	r := fs.Int("rating", 0, "the player's rating at the start of the period (required)")
	played := fs.Int("games-played", 0, "rated games completed before this period (under 30: K = 40)")
	peak := fs.Int("peak", 0, "highest published rating ever (2400 or more: K = 10 for good); default --rating")
	junior := fs.Bool("junior", false, "player is at most in the year of their 18th birthday (K = 40 while under 2300)")
	k := fs.Int("k", 0, "force this K instead of the rules of Article 8.3.3 (no 700 cap)")
	var gameValues ratingList
	fs.Var(&gameValues, "game", "a game as OPPONENT:SCORE, e.g. 1800:1 (repeatable)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !ratingIsSet(fs, "rating") {
		return errors.New("--rating is required")
	}
	if err := ratingCheckInt("rating", *r, rating.MinRating, rating.MaxRating); err != nil {
		return err
	}
	if *played < 0 {
		return fmt.Errorf("--games-played %d: want 0 or more", *played)
	}
	if ratingIsSet(fs, "peak") {
		if err := ratingCheckInt("peak", *peak, *r, rating.MaxRating); err != nil {
			return fmt.Errorf("%w (the peak is at least --rating)", err)
		}
	}
	if ratingIsSet(fs, "k") {
		if err := ratingCheckInt("k", *k, 1, rating.KCapProduct); err != nil {
			return err
		}
	}
	games, err := ratingFIDEGames(gameValues)
	if err != nil {
		return err
	}
	p := rating.FIDEPlayer{Rating: *r, GamesPlayed: *played, Peak: *peak, Junior: *junior, K: *k}
	res, err := rating.FIDEChange(p, games)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "{\"k\": %d, \"change\": %s, \"rounded_change\": %d, \"new_rating\": %d}\n",
		res.K, ratingNumber(res.Change, 2), res.RoundedChange, res.NewRating)
	return err
}

// ratingFIDEInitial implements `gambit rating fide-initial`.
func ratingFIDEInitial(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rating fide-initial", stderr)
	var gameValues ratingList
	fs.Var(&gameValues, "game", "a game against a rated opponent as OPPONENT:SCORE, e.g. 1800:0.5 (repeatable)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	games, err := ratingFIDEGames(gameValues)
	if err != nil {
		return err
	}
	rated, ru, err := rating.FIDEInitial(games)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "{\"rated\": %t, \"rating\": %d}\n", rated, ru)
	return err
}

// ratingGlicko2 implements `gambit rating glicko2`.
func ratingGlicko2(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rating glicko2", stderr)
	r := fs.Float64("rating", rating.Glicko2DefaultRating, "the player's rating")
	rd := fs.Float64("rd", rating.Glicko2DefaultRD, "the player's rating deviation")
	vol := fs.Float64("volatility", rating.Glicko2DefaultVolatility, "the player's volatility σ")
	tau := fs.Float64("tau", 0.5, "the system constant τ (0.3 to 1.2 is usual)")
	var gameValues ratingList
	fs.Var(&gameValues, "game", "a game as OPPONENT:RD:SCORE, e.g. 1400:30:1 (repeatable)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	p := rating.Glicko2Player{Rating: *r, RD: *rd, Volatility: *vol}
	if err := p.Validate(); err != nil {
		switch {
		case errors.Is(err, rating.ErrRating):
			return fmt.Errorf("--rating: %w", err)
		case errors.Is(err, rating.ErrRD):
			return fmt.Errorf("--rd: %w", err)
		default:
			return fmt.Errorf("--volatility: %w", err)
		}
	}
	if !(*tau > 0 && *tau <= rating.MaxTau) {
		return fmt.Errorf("--tau %v: want a value above 0 and at most %v", *tau, rating.MaxTau)
	}
	games := make([]rating.Glicko2Game, 0, len(gameValues))
	for _, v := range gameValues {
		g, err := rating.ParseGlicko2Game(v)
		if err != nil {
			return fmt.Errorf("--game: %w", err)
		}
		games = append(games, g)
	}
	res, err := rating.Glicko2Update(p, games, *tau)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "{\"rating\": %s, \"rd\": %s, \"volatility\": %s}\n",
		ratingNumber(res.Rating, 4), ratingNumber(res.RD, 4), ratingNumber(res.Volatility, 6))
	return err
}

// ratingNumber writes x as a JSON number rounded to at most places decimals,
// without trailing zeros: 15.2, -4.8, 1464.0507, 0.
func ratingNumber(x float64, places int) string {
	scale := math.Pow(10, float64(places))
	s := strconv.FormatFloat(math.Round(x*scale)/scale, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}
