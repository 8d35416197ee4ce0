package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/gambitchess/gambit/service/games"
)

// /fen [game]: the position on the board in FEN.

func init() {
	register(registration{
		name:    "fen",
		build:   func(d *Deps) Command { return NewFEN(d) },
		topic:   helpTopic{group: groupPlay, order: 110, example: "/fen"},
		options: []optionUse{{nil, gameOptions{}}},
	})
}

var _ Command = (*FENCommand)(nil)
var _ Autocompleter = (*FENCommand)(nil)

// FENCommand is /fen.
type FENCommand struct{ gameCommand }

// NewFEN returns /fen.
func NewFEN(d *Deps) *FENCommand {
	c := &FENCommand{}
	c.gameCommand = gameCommand{d: d, name: "fen", mine: false, on: c.on,
		description: "Get the position of a game in FEN"}
	return c
}

// on acts on the game found.
func (c *FENCommand) on(ctx context.Context, r *Request, g *games.Game) (*Response, error) {
	fen := g.Position.FEN()
	link := "https://lichess.org/analysis/" + strings.ReplaceAll(fen, " ", "_")
	return &Response{Content: fmt.Sprintf("Game %d, after %d half-moves:\n`%s`\n[Analyse on lichess](<%s>)", g.ID, g.Ply(), fen, link)}, nil
}
