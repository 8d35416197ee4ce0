package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// /games [where]: your games, or the games of this channel (only those the asker may
// see: a channel's games are its server's, but the list is checked like every lookup).

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
		Name:        "games",
		Description: "List your games, or the games of this channel",
		Contexts:    &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM},
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

// Handle implements Command.
func (c *GamesCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o gamesOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	var list []*storage.Game
	var err error
	title := "Your games"
	if o.Where == "channel" {
		title = "Games of this channel"
		channel := r.ChannelID
		// In a game's thread, "this channel" is the channel the thread belongs to.
		if parent := c.d.threadParent(ctx, r); parent != "" {
			channel = parent
		}
		list, err = c.d.Games.GamesInChannel(ctx, channel, storage.Query{Limit: maxListed})
	} else {
		list, err = c.d.Games.GamesByUser(ctx, r.User.ID, storage.Query{Limit: maxListed})
	}
	if err != nil {
		return nil, fmt.Errorf("list games: %w", err)
	}
	list = slices.DeleteFunc(list, func(g *storage.Game) bool { return !CanSee(g, r) })
	if len(list) == 0 {
		if o.Where == "channel" {
			return Private("No games have been played in this channel yet. Start one with /challenge."), nil
		}
		return Private("You have no games yet. Start one with /challenge."), nil
	}
	var b strings.Builder
	b.WriteString("**" + title + "**")
	for _, g := range list {
		fmt.Fprintf(&b, "\n• **%d** · %s vs %s · %s · ", g.ID, playerName(g.White), playerName(g.Black), controlLabel(g))
		if g.Live() {
			turn := colorName(chesscore.White)
			if g.Ply()%2 == 1 {
				turn = colorName(chesscore.Black)
			}
			if g.StartFEN != "" {
				turn = "in progress"
			} else {
				turn += " to move"
			}
			fmt.Fprintf(&b, "move %d, %s", g.Ply()/2+1, turn)
		} else {
			b.WriteString(resultText(g.Outcome))
		}
		if p := Place(g); p != "" {
			fmt.Fprintf(&b, " · <#%s>", p)
		}
	}
	return &Response{Content: b.String(), Ephemeral: true}, nil
}
