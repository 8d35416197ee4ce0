package commands

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
)

// /pgn [game]: the game's record as a PGN file, with a lichess analysis link.

var _ Command = (*PGNCommand)(nil)
var _ Autocompleter = (*PGNCommand)(nil)

// PGNCommand is /pgn.
type PGNCommand struct{ gameCommand }

// NewPGN returns /pgn.
func NewPGN(d *Deps) *PGNCommand {
	c := &PGNCommand{}
	c.gameCommand = gameCommand{d: d, name: "pgn", mine: false, on: c.on,
		description: "Get a game's record (PGN file) and a lichess analysis link"}
	return c
}

// on acts on the game found.
func (c *PGNCommand) on(ctx context.Context, r *Request, g *games.Game) (*Response, error) {
	link := LichessURL(g)
	return &Response{
		Content: fmt.Sprintf("%s\n[Analyse on lichess](<%s>)", Headline(&g.Game), link),
		Files:   []File{{Name: fmt.Sprintf("gambit-game-%d.pgn", g.ID), ContentType: "application/x-chess-pgn", Data: []byte(g.PGN())}},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Analyse on lichess", Style: discordgo.LinkButton, URL: link},
		}}},
	}, nil
}
