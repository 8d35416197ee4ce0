package commands

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// /pgn [game]: the game's record as a PGN file, with a lichess analysis link.

var _ Command = (*PGNCommand)(nil)
var _ Autocompleter = (*PGNCommand)(nil)

// PGNCommand is /pgn.
type PGNCommand struct{ d *Deps }

// NewPGN returns /pgn.
func NewPGN(d *Deps) *PGNCommand { return &PGNCommand{d} }

// Definition implements Command.
func (c *PGNCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:        "pgn",
		Description: "Get a game's record (PGN file) and a lichess analysis link",
		Contexts:    &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM},
		Options:     []*discordgo.ApplicationCommandOption{gameOption()},
	}
}

// Autocomplete implements Autocompleter.
func (c *PGNCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	return c.d.gameChoices(ctx, r)
}

// Handle implements Command.
func (c *PGNCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
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
	link := LichessURL(g)
	return &Response{
		Content: fmt.Sprintf("%s\n[Analyse on lichess](<%s>)", Headline(&g.Game), link),
		Files:   []File{{Name: fmt.Sprintf("gambit-game-%d.pgn", g.ID), ContentType: "application/x-chess-pgn", Data: []byte(g.PGN())}},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Analyse on lichess", Style: discordgo.LinkButton, URL: link},
		}}},
	}, nil
}
