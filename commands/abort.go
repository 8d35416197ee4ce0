package commands

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// /abort [game]: call a game off before both sides have moved.

var _ Command = (*AbortCommand)(nil)
var _ Autocompleter = (*AbortCommand)(nil)
var _ Componenter = (*AbortCommand)(nil)

// AbortCommand is /abort and the Abort button.
type AbortCommand struct{ d *Deps }

// NewAbort returns /abort.
func NewAbort(d *Deps) *AbortCommand { return &AbortCommand{d} }

// Definition implements Command.
func (c *AbortCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:        "abort",
		Description: "Call off your game without a result (only before both sides have moved)",
		Contexts:    &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM},
		Options:     []*discordgo.ApplicationCommandOption{gameOption()},
	}
}

// Autocomplete implements Autocompleter.
func (c *AbortCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	return c.d.gameChoices(ctx, r)
}

// Handle implements Command.
func (c *AbortCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o struct {
		Game int64 `option:"game"`
	}
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	g, err := c.d.findGame(ctx, r, o.Game, true)
	if err != nil {
		return nil, err
	}
	return c.abort(ctx, r, g.ID, g.Ply())
}

func (c *AbortCommand) abort(ctx context.Context, r *Request, id uint64, ply int) (*Response, error) {
	g, err := c.d.load(ctx, id)
	if err != nil {
		return nil, gameError(err)
	}
	who := playerName(storagePlayer(r.User))
	return c.d.act(ctx, r, gameRequest{
		game: g, ply: ply, posts: []string{EventOver}, done: "You aborted the game",
		call: c.d.Games.Abort, answer: c.d.overAnswer(fmt.Sprintf("%s aborted the game.", who)),
	})
}

// Components implements Componenter.
func (c *AbortCommand) Components() map[string]Handler {
	return map[string]Handler{
		"game/" + actionAbort: func(ctx context.Context, r *Request) (*Response, error) {
			return c.abort(ctx, r, r.ID.ID, r.ID.Ply)
		},
	}
}
