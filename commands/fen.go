package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// /fen [game]: the position on the board in FEN.

var _ Command = (*FENCommand)(nil)
var _ Autocompleter = (*FENCommand)(nil)

// FENCommand is /fen.
type FENCommand struct{ d *Deps }

// NewFEN returns /fen.
func NewFEN(d *Deps) *FENCommand { return &FENCommand{d} }

// Definition implements Command.
func (c *FENCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:        "fen",
		Description: "Get the position of a game in FEN",
		Contexts:    &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM},
		Options:     []*discordgo.ApplicationCommandOption{gameOption()},
	}
}

// Autocomplete implements Autocompleter.
func (c *FENCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	return c.d.gameChoices(ctx, r)
}

// Handle implements Command.
func (c *FENCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o struct {
		Game int64 `option:"game"`
	}
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	g, err := c.d.findGame(ctx, r, o.Game, false)
	if err != nil {
		return nil, err
	}
	fen := g.Position.FEN()
	link := "https://lichess.org/analysis/" + strings.ReplaceAll(fen, " ", "_")
	return &Response{Content: fmt.Sprintf("Game %d, after %d half-moves:\n`%s`\n[Analyse on lichess](<%s>)", g.ID, g.Ply(), fen, link)}, nil
}
