package commands

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore/rating"
)

// /elo rating [opponent result] [results] [games_played] [peak] [junior] [k]: the FIDE
// rating calculator (FIDE Rating Regulations, Article 8.3): K, the expected score of
// each game, the change before and after rounding, and the new rating.

func init() {
	register(registration{
		name:    "elo",
		build:   func(d *Deps) Command { return NewElo(d) },
		topic:   helpTopic{group: groupLadder, order: 30, example: "/elo rating:1650 opponent:1800 result:win"},
		options: []optionUse{{nil, eloOptions{}}},
	})
}

var _ Command = (*EloCommand)(nil)

// EloCommand is /elo.
type EloCommand struct{ d *Deps }

// NewElo returns /elo.
func NewElo(d *Deps) *EloCommand { return &EloCommand{d} }

// maxEloGames bounds the games of one calculation (the K × n ≤ 700 cap makes more
// meaningless for K = 10 beyond 70 anyway).
const maxEloGames = 50

type eloOptions struct {
	Rating      int    `option:"rating"`
	Opponent    *int   `option:"opponent"`
	Result      string `option:"result"`
	Results     string `option:"results"`
	GamesPlayed *int   `option:"games_played"`
	Peak        int    `option:"peak"`
	Junior      bool   `option:"junior"`
	K           int    `option:"k"`
}

// Definition implements Command.
func (c *EloCommand) Definition() *discordgo.ApplicationCommand {
	zero, maxR, one, hundred := 0.0, float64(rating.MaxRating), 1.0, 100.0
	return &discordgo.ApplicationCommand{
		Name:             "elo",
		Description:      "FIDE rating calculator: K, expected scores and your rating change",
		Contexts:         contexts(serversAndBotDM),
		IntegrationTypes: installs(guildInstall),
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "rating", Description: "Your rating", Required: true, MinValue: &zero, MaxValue: maxR},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "opponent", Description: "Your opponent's rating (one game)", MinValue: &zero, MaxValue: maxR},
			{Type: discordgo.ApplicationCommandOptionString, Name: "result", Description: "Your result against that opponent", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "win", Value: "1"}, {Name: "draw", Value: "0.5"}, {Name: "loss", Value: "0"},
			}},
			{Type: discordgo.ApplicationCommandOptionString, Name: "results", Description: "Several games as rating:score, e.g. 1800:1 1750:0.5 2010:0", MaxLength: 1000},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "games_played", Description: "Rated games you had completed before (default 30 or more)", MinValue: &zero, MaxValue: 100000},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "peak", Description: "The highest rating you ever had (K is 10 once it reached 2400)", MinValue: &zero, MaxValue: maxR},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "junior", Description: "Under 18 this year (K 40 while under 2300)"},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "k", Description: "Force K instead of FIDE's rules", MinValue: &one, MaxValue: hundred},
		},
	}
}

// ParseEloResults reads games written RATING:SCORE, separated by spaces or commas:
// "1800:1 1750:0.5, 2010:½". It returns at most maxEloGames games.
func ParseEloResults(s string) ([]rating.Game, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\t' || r == '\n' })
	if len(fields) > maxEloGames {
		return nil, fmt.Errorf("%d games: at most %d", len(fields), maxEloGames)
	}
	out := make([]rating.Game, 0, len(fields))
	for _, f := range fields {
		g, err := rating.ParseGame(f)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// Handle implements Command.
func (c *EloCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o eloOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	text, err := eloAnswer(o)
	if err != nil {
		return nil, err
	}
	return &Response{Content: text, Ephemeral: true}, nil
}

// eloAnswer computes and explains one rating period.
func eloAnswer(o eloOptions) (string, error) {
	var games []rating.Game
	if o.Opponent != nil || o.Result != "" {
		if o.Opponent == nil || o.Result == "" {
			return "", Errorf("Give both the opponent's rating and your result, or several games in `results` (1800:1 1750:0.5).")
		}
		score, err := rating.ParseScore(o.Result)
		if err != nil {
			return "", Explain(err, "A result is win (1), draw (0.5) or loss (0).")
		}
		games = append(games, rating.Game{Opponent: *o.Opponent, Score: score})
	}
	more, err := ParseEloResults(o.Results)
	if err != nil {
		return "", Explain(err, "Write `results` as rating:score pairs, e.g. `1800:1 1750:0.5 2010:0` (score 1, 0.5 or 0; at most 50 games): "+err.Error()+".")
	}
	games = append(games, more...)
	if len(games) == 0 {
		return "", Errorf("Give the opponent's rating and your result, or several games in `results` (1800:1 1750:0.5).")
	}
	if len(games) > maxEloGames {
		return "", Errorf("At most %d games at once.", maxEloGames)
	}
	p := rating.FIDEPlayer{Rating: o.Rating, GamesPlayed: rating.NewPlayerGames, Peak: o.Peak, Junior: o.Junior, K: o.K}
	if o.GamesPlayed != nil {
		p.GamesPlayed = *o.GamesPlayed
	}
	res, err := rating.FIDEChange(p, games)
	switch {
	case errors.Is(err, rating.ErrPeak):
		return "", Explain(err, "Your peak cannot be below your rating.")
	case errors.Is(err, rating.ErrRating):
		return "", Explain(err, fmt.Sprintf("Ratings are between %d and %d.", rating.MinRating, rating.MaxRating))
	case err != nil:
		return "", Explain(err, sentence(err.Error()))
	}

	var b strings.Builder
	b.WriteString("**FIDE rating calculator** (Rating Regulations, Article 8.3; expected scores from table 8.1.2)")
	fmt.Fprintf(&b, "\nRating **%d** · K **%d** (%s)", o.Rating, res.K, kReason(p, len(games), res.K))
	var notes []string
	for _, g := range games {
		d := o.Rating - g.Opponent
		pd := rating.FIDEExpected(o.Rating, g.Opponent)
		fmt.Fprintf(&b, "\n• vs %d (%s): %s · expected %.2f · %s", g.Opponent, signedDiff(d), resultWord(g.Score), pd,
			signedDecimal(float64(res.K)*(g.Score-pd)))
		if abs(d) > rating.MaxGapCapped {
			if o.Rating < rating.NoCapRating {
				notes = append(notes, fmt.Sprintf("400-point rule (Article 8.3.1): the difference of %d points against %d counts as %d.",
					abs(d), g.Opponent, rating.MaxGapCapped))
			} else {
				notes = append(notes, fmt.Sprintf("Rated %d or more: the full difference of %d points against %d counts (Article 8.3.1).",
					rating.NoCapRating, abs(d), g.Opponent))
			}
		}
	}
	fmt.Fprintf(&b, "\nChange: %d × (%s − %.2f) = **%s**, rounded **%s** → new rating **%d**",
		res.K, strconv.FormatFloat(res.Score, 'f', -1, 64), res.Expected, signedDecimal(res.Change), signed(res.RoundedChange), res.NewRating)
	for _, n := range notes {
		b.WriteString("\n_" + n + "_")
	}
	if res.NewRating < rating.RatingFloor {
		fmt.Fprintf(&b, "\n_Below %d FIDE lists a player as unrated._", rating.RatingFloor)
	}
	return b.String(), nil
}

// kReason says which rule of Article 8.3.3 gave K.
func kReason(p rating.FIDEPlayer, n, k int) string {
	if p.K != 0 {
		return "given"
	}
	base := rating.FIDEK(p)
	var why string
	peak := max(p.Peak, p.Rating)
	switch {
	case peak >= 2400:
		why = "has reached 2400: 10 for ever"
	case p.Junior && peak < 2300:
		why = "junior below 2300"
	case p.GamesPlayed < rating.NewPlayerGames:
		why = fmt.Sprintf("fewer than %d games", rating.NewPlayerGames)
	default:
		why = fmt.Sprintf("below 2400 with %d games or more", rating.NewPlayerGames)
	}
	if k != base {
		why += fmt.Sprintf("; %d lowered to %d so that K × %d games stays within %d", base, k, n, rating.KCapProduct)
	}
	return why
}

func resultWord(s float64) string {
	switch s {
	case 1:
		return "win"
	case 0:
		return "loss"
	}
	return "draw"
}

// signedDecimal writes a change to the hundredth with its sign: "+15.2", "−3.04", "±0".
func signedDecimal(x float64) string {
	x = math.Round(x*100) / 100
	s := strconv.FormatFloat(math.Abs(x), 'f', -1, 64)
	switch {
	case x > 0:
		return "+" + s
	case x < 0:
		return "−" + s
	}
	return "±0"
}

// signedDiff writes a rating difference: "+120", "−200", "±0".
func signedDiff(d int) string { return signed(d) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
