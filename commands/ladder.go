package commands

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/ladder"
)

// /ladder [category]: a server ladder's leaderboard as a card, with the top ten as text.
// Also here: the rating line of a game-over message. The ladder's part of /settings
// (ratings, seed_rating) is in settings_ladder.go.

func init() {
	register(registration{
		name:    "ladder",
		build:   func(d *Deps) Command { return NewLadder(d) },
		topic:   helpTopic{group: groupLadder, order: 10, example: "/ladder category:blitz"},
		options: []optionUse{{nil, ladderOptions{}}},
	})
}

var _ Command = (*LadderCommand)(nil)

// LadderCommand is /ladder.
type LadderCommand struct{ d *Deps }

// NewLadder returns /ladder.
func NewLadder(d *Deps) *LadderCommand { return &LadderCommand{d} }

// Rows of the leaderboard card and of its text fallback.
const (
	ladderCardRows = 20
	ladderTextRows = 10
)

// categoryOption is the category option of /ladder, /rating and /settings seed_rating.
func categoryOption(required bool, desc string) *discordgo.ApplicationCommandOption {
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, c := range ladder.Categories() {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: categoryName(c), Value: c.String()})
	}
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "category",
		Description: desc, Required: required, Choices: choices}
}

// categoryName is how users read a category: FIDE's "standard" is "classical" here.
func categoryName(c clock.Category) string {
	if c == clock.Standard {
		return "classical"
	}
	return c.String()
}

// categoryTitle is the category name with a capital.
func categoryTitle(c clock.Category) string {
	return capitalize(categoryName(c))
}

// systemName names a rating system for users.
func systemName(s ladder.System) string {
	if s == ladder.Glicko2 {
		return "Glicko-2"
	}
	return "FIDE Elo"
}

// Definition implements Command.
func (c *LadderCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             "ladder",
		Description:      "This server's rating ladder for a time category",
		Contexts:         contexts(serversOnly),
		IntegrationTypes: installs(bothInstalls),
		Options:          []*discordgo.ApplicationCommandOption{categoryOption(false, "Which ladder (default: the busiest)")},
	}
}

// ladderService returns the ladder service, or a user error when the bot runs without.
func (d *Deps) ladderService() (*ladder.Service, error) {
	if d.Ladder == nil {
		return nil, Errorf("Ladders are not available on this bot.")
	}
	return d.Ladder, nil
}

// parseCategory reads a category option; "" gives def.
func parseCategory(s string, def clock.Category) (clock.Category, error) {
	if s == "" {
		return def, nil
	}
	cat, err := clock.ParseCategory(s)
	if err != nil {
		return clock.NoCategory, Explain(err, "Pick a category: bullet, blitz, rapid, classical, correspondence or chess960.")
	}
	return cat, nil
}

// ladderOptions are the options of /ladder.
type ladderOptions struct {
	Category string `option:"category"`
}

// Handle implements Command.
func (c *LadderCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if r.GuildID == "" {
		return nil, Errorf("Ladders belong to a server: use /ladder in one.")
	}
	lad, err := c.d.ladderService()
	if err != nil {
		return nil, err
	}
	var o ladderOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	def, ok, err := lad.Busiest(ctx, r.GuildID)
	if err != nil {
		return nil, err
	}
	if !ok {
		def = c.d.settings(ctx, r.GuildID).DefaultControl.Category()
		if def == clock.NoCategory {
			def = clock.Blitz
		}
	}
	cat, err := parseCategory(o.Category, def)
	if err != nil {
		return nil, err
	}
	rows, set, total, err := lad.Leaderboard(ctx, r.GuildID, cat, ladderCardRows)
	if err != nil {
		return nil, err
	}
	resp, err := leaderboardMessage(cat, rows, set, total)
	if wp := c.d.webPages(ctx, r.GuildID); wp != nil && err == nil {
		resp = withWebLink(resp, "Ladder on the web", wp.LadderURL(r.GuildID, cat.String()))
	}
	return resp, err
}

// leaderboardMessage is the card and its text fallback.
func leaderboardMessage(cat clock.Category, rows []ladder.Standing, set ladder.Settings, total int) (*Response, error) {
	title := categoryTitle(cat) + " ladder"
	sub := fmt.Sprintf("%s · start %d · %d player%s", systemName(set.System), set.StartRating, total, plural(total))
	cardRows := make([]render.LeaderboardRow, len(rows))
	for i, s := range rows {
		cardRows[i] = render.LeaderboardRow{Rank: s.Rank, Name: s.Name, Rating: int(math.Round(s.Rating)),
			Provisional: s.Provisional(set), Wins: s.Wins, Draws: s.Draws, Losses: s.Losses}
	}
	var png bytes.Buffer
	if err := render.LeaderboardCard(&png, cardRows, render.LeaderboardOptions{Title: title, Subtitle: sub}); err != nil {
		return nil, fmt.Errorf("draw the %s leaderboard: %w", cat, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** · %s", title, sub)
	if len(rows) == 0 {
		fmt.Fprintf(&b, "\nNo rated %s games yet. Play one with `/challenge rated:True`.", categoryName(cat))
	}
	provisional := false
	for i, s := range rows {
		if i == ladderTextRows {
			break
		}
		fmt.Fprintf(&b, "\n%d. **%s** %s (%d–%d–%d)", s.Rank, EscapeMarkdown(s.Name), s.Display(set), s.Wins, s.Draws, s.Losses)
		provisional = provisional || s.Provisional(set)
	}
	if total > ladderTextRows && len(rows) > ladderTextRows {
		fmt.Fprintf(&b, "\n… and %d more on the card.", min(len(rows), total)-ladderTextRows)
	}
	if provisional {
		b.WriteString("\n" + provisionalNote(set))
	}
	return &Response{Content: b.String(), Files: []File{{Name: "ladder.png", ContentType: "image/png", Data: png.Bytes()}}}, nil
}

// provisionalNote explains the question mark.
func provisionalNote(set ladder.Settings) string {
	if set.System == ladder.Glicko2 {
		return fmt.Sprintf("_A rating with ? is provisional: its deviation is still above %d._", ladder.ProvisionalRD)
	}
	return fmt.Sprintf("_A rating with ? is provisional: fewer than %d rated games._", ladder.ProvisionalGames)
}

// ratingChangeLine says what a finished game did to its players' ratings ("" for a game
// that did not count).
func (d *Deps) ratingChangeLine(ctx context.Context, g *games.Game) string {
	if d.Ladder == nil || !g.Rated {
		return ""
	}
	res, ok, err := d.Ladder.GameResult(ctx, g.ID)
	if err != nil || !ok {
		return ""
	}
	side := func(name string, before, after float64) string {
		delta := int(math.Round(after)) - int(math.Round(before))
		return fmt.Sprintf("%s %d → %d (%s)", name, int(math.Round(before)), int(math.Round(after)), signed(delta))
	}
	return fmt.Sprintf("%s rating: %s · %s", categoryTitle(res.Category),
		side(playerName(g.White), res.WhiteBefore, res.WhiteAfter), side(playerName(g.Black), res.BlackBefore, res.BlackAfter))
}

// signed writes a whole change with its sign: "+15", "−3", "±0".
func signed(n int) string {
	switch {
	case n > 0:
		return fmt.Sprintf("+%d", n)
	case n < 0:
		return fmt.Sprintf("−%d", -n)
	}
	return "±0"
}

// ServerThing implements ServerThing: /ladder belongs to a server that added Gambit.
func (c *LadderCommand) ServerThing() {}
