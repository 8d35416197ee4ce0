package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// /games [where]: your games (where it is your move first), or the games of this
// channel (only those the asker may see: a channel's games are its server's, but the
// list is checked like every lookup).

func init() {
	register(registration{
		name:    "games",
		build:   func(d *Deps) Command { return NewGames(d) },
		topic:   helpTopic{group: groupPlay, order: 90, example: "/games where:this channel"},
		options: []optionUse{{nil, gamesOptions{}}},
	})
}

var _ Command = (*GamesCommand)(nil)

// GamesCommand is /games.
type GamesCommand struct{ d *Deps }

// NewGames returns /games.
func NewGames(d *Deps) *GamesCommand { return &GamesCommand{d} }

// Definition implements Command.
func (c *GamesCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             "games",
		Description:      "List your games, or the games of this channel",
		Contexts:         contexts(everywhere),
		IntegrationTypes: installs(bothInstalls),
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "where", Description: "Whose games", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "mine", Value: "mine"}, {Name: "this channel", Value: "channel"},
			}},
		},
	}
}

// maxListed bounds the games one answer lists.
const maxListed = 15

// gamesOptions are the options of /games.
type gamesOptions struct {
	Where string `option:"where"`
}

// Handle implements Command. A player's own list puts first the games where it is
// their move, the least time left first, each with its time left and the last move;
// then the games waiting for the opponent, then the finished ones. In a server it
// holds that server's games; in a direct message every game of the player, each
// named by its place (a link only the player's own client resolves).
func (c *GamesCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o gamesOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	var list []*storage.Game
	var err error
	title := "Your games"
	mine := o.Where != "channel"
	if !mine {
		title = "Games of this channel"
		channel := r.ChannelID
		// In a game's thread, "this channel" is the channel the thread belongs to.
		if parent := c.d.threadParent(ctx, r); parent != "" {
			channel = parent
		}
		list, err = c.d.Games.GamesInChannel(ctx, channel, storage.Query{Limit: maxListed})
	} else {
		list, err = c.d.Games.GamesByUser(ctx, r.User.ID, storage.Query{Limit: maxScanned})
	}
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	list = slices.DeleteFunc(list, func(g *storage.Game) bool {
		// In a server, one's own list holds that server's games only.
		return !CanSee(g, r) || (mine && r.GuildID != "" && g.GuildID != r.GuildID)
	})
	if len(list) == 0 {
		if !mine {
			return Private("No games have been played in this channel yet. Start one with /challenge."), nil
		}
		return Private("You have no games yet. Start one with /challenge."), nil
	}
	now := c.d.now()
	rows := make([]gameRow, 0, len(list))
	for _, g := range list {
		row := gameRow{rec: g}
		if g.Live() {
			if v, err := c.d.Games.Game(ctx, g.ID); err == nil {
				row.view = v
				col, player := v.ColorOf(r.User.ID)
				row.yourMove = mine && player && col == v.Turn()
				row.deadline = v.Deadline()
				row.vacations = c.d.vacationLines(ctx, &v.Game)
			}
		}
		rows = append(rows, row)
	}
	if mine {
		slices.SortStableFunc(rows, func(a, b gameRow) int { return a.compare(b) })
	}
	if len(rows) > maxListed {
		rows = rows[:maxListed]
	}
	var b strings.Builder
	b.WriteString("**" + title + "**")
	for _, row := range rows {
		b.WriteString("\n" + row.line(now))
	}
	return &Response{Content: b.String(), Ephemeral: true}, nil
}

// maxScanned bounds the games of a player read to build their list (their games of
// other servers are left out of it in a server).
const maxScanned = 100

// gameRow is one game of a /games answer.
type gameRow struct {
	rec      *storage.Game
	view     *games.Game // live games only
	yourMove bool
	deadline time.Time // zero: no clock runs
	// vacations are the lines of its players on vacation (vacationLines).
	vacations string
}

// rank orders the groups: your move, the opponent's, finished.
func (g gameRow) rank() int {
	switch {
	case g.yourMove:
		return 0
	case g.rec.Live():
		return 1
	}
	return 2
}

// compare orders rows by group, then (your move) by deadline, untimed games last;
// the store's order (newest first) stays within the rest.
func (g gameRow) compare(o gameRow) int {
	if d := g.rank() - o.rank(); d != 0 {
		return d
	}
	if g.rank() != 0 {
		return 0
	}
	switch {
	case g.deadline.IsZero() && o.deadline.IsZero():
		return 0
	case g.deadline.IsZero():
		return 1
	case o.deadline.IsZero():
		return -1
	}
	return g.deadline.Compare(o.deadline)
}

// line writes the row: "• **12** · ana vs bo · 3d casual · your move, 1d 4h left, last
// 14… Nf6 · <#thread>".
func (g gameRow) line(now time.Time) string {
	rec := g.rec
	var b strings.Builder
	if g.yourMove {
		b.WriteString("▶ ")
	} else {
		b.WriteString("• ")
	}
	fmt.Fprintf(&b, "**%d** · %s vs %s · %s · ", rec.ID, playerName(rec.White), playerName(rec.Black), controlLabel(rec))
	switch {
	case !rec.Live():
		b.WriteString(resultText(rec.Outcome))
	case g.view == nil:
		fmt.Fprintf(&b, "move %d", rec.Ply()/2+1)
	default:
		v := g.view
		if g.yourMove {
			b.WriteString("your move")
		} else {
			fmt.Fprintf(&b, "move %d, %s to move", rec.Ply()/2+1, colorName(v.Turn()))
		}
		if !g.deadline.IsZero() {
			fmt.Fprintf(&b, ", %s left", timeLeft(g.deadline.Sub(now)))
		}
		if l := lastMoveLine(v); l != "" {
			b.WriteString(" · last: " + strings.TrimSuffix(l, "."))
		}
	}
	if p := Place(rec); p != "" {
		fmt.Fprintf(&b, " · <#%s>", p)
	}
	for l := range strings.SplitSeq(strings.TrimPrefix(g.vacations, "\n"), "\n") {
		if l != "" {
			b.WriteString("\n  " + l)
		}
	}
	return b.String()
}

// timeLeft writes a time left coarsely: "2d 4h", "5h 12m", "3m 20s".
func timeLeft(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	days, hours := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
	mins, secs := int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh %dm", hours, mins)
	}
	return fmt.Sprintf("%dm %ds", mins, secs)
}
