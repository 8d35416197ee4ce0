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

// ratingUsage is the help of `gambit rating`.
const ratingUsage = `usage: gambit rating <calculator> [flags]

calculators:
  fide          FIDE rating change of a rated player for one period
                  --rating N --games-played N [--peak N] [--junior] [--k N] --game OPP:SCORE ...
  fide-initial  FIDE first rating of an unrated player
                  --game OPP:SCORE ...
  glicko2       Glicko-2 update for one period
                  --rating R --rd RD --volatility S --tau T --game OPP:RD:SCORE ...

A score is 1, 0.5 (or 1/2) or 0. Each calculator prints one JSON object.
Run 'gambit rating <calculator> -h' for its flags.
`

// runRating implements `gambit rating fide|fide-initial|glicko2 ...`; args
// are the words after "rating".
func runRating(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, ratingUsage)
		return errors.New("missing calculator: want fide, fide-initial or glicko2")
	}
	switch args[0] {
	case "fide":
		return ratingFIDE(args[1:], stdout, stderr)
	case "fide-initial":
		return ratingFIDEInitial(args[1:], stdout, stderr)
	case "glicko2":
		return ratingGlicko2(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stderr, ratingUsage)
		return flag.ErrHelp
	}
	return fmt.Errorf("unknown calculator %q: want fide, fide-initial or glicko2", args[0])
}

// ratingList collects the values of a repeatable string flag.
type ratingList []string

func (l *ratingList) String() string     { return strings.Join(*l, " ") }
func (l *ratingList) Set(s string) error { *l = append(*l, s); return nil }

// ratingFlags returns a flag set for one calculator. Parse errors are
// returned, not printed; -h prints the flags to stderr.
func ratingFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("gambit rating "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// ratingParse parses args, prints the flags for -h and rejects positional arguments.
func ratingParse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "usage of %s:\n", fs.Name())
			fs.SetOutput(stderr)
			fs.PrintDefaults()
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", strings.Join(fs.Args(), " "))
	}
	return nil
}

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
	fs := ratingFlags("fide")
	r := fs.Int("rating", 0, "the player's rating at the start of the period (required)")
	played := fs.Int("games-played", 0, "rated games completed before this period (under 30: K = 40)")
	peak := fs.Int("peak", 0, "highest published rating ever (2400 or more: K = 10 for good); default --rating")
	junior := fs.Bool("junior", false, "player is at most in the year of their 18th birthday (K = 40 while under 2300)")
	k := fs.Int("k", 0, "force this K instead of the rules of Article 8.3.3 (no 700 cap)")
	var gameValues ratingList
	fs.Var(&gameValues, "game", "a game as OPPONENT:SCORE, e.g. 1800:1 (repeatable)")
	if err := ratingParse(fs, args, stderr); err != nil {
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
	fs := ratingFlags("fide-initial")
	var gameValues ratingList
	fs.Var(&gameValues, "game", "a game against a rated opponent as OPPONENT:SCORE, e.g. 1800:0.5 (repeatable)")
	if err := ratingParse(fs, args, stderr); err != nil {
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
	fs := ratingFlags("glicko2")
	r := fs.Float64("rating", rating.Glicko2DefaultRating, "the player's rating")
	rd := fs.Float64("rd", rating.Glicko2DefaultRD, "the player's rating deviation")
	vol := fs.Float64("volatility", rating.Glicko2DefaultVolatility, "the player's volatility σ")
	tau := fs.Float64("tau", 0.5, "the system constant τ (0.3 to 1.2 is usual)")
	var gameValues ratingList
	fs.Var(&gameValues, "game", "a game as OPPONENT:RD:SCORE, e.g. 1400:30:1 (repeatable)")
	if err := ratingParse(fs, args, stderr); err != nil {
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
