package commands

import (
	"context"
	"fmt"

	"github.com/gambitchess/gambit/service/games"
)

// /abort [game]: call a game off before both sides have moved.

func init() {
	register(registration{
		name:    "abort",
		build:   func(d *Deps) Command { return NewAbort(d) },
		topic:   helpTopic{group: groupPlay, order: 60, example: "/abort game:12"},
		options: []optionUse{{nil, gameOptions{}}},
	})
}

var _ Command = (*AbortCommand)(nil)
var _ Autocompleter = (*AbortCommand)(nil)
var _ Componenter = (*AbortCommand)(nil)

// AbortCommand is /abort and the Abort button.
type AbortCommand struct{ gameCommand }

// NewAbort returns /abort.
func NewAbort(d *Deps) *AbortCommand {
	c := &AbortCommand{}
	c.gameCommand = gameCommand{d: d, name: "abort", mine: true, on: c.on,
		description: "Call off your game without a result (only before both sides have moved)"}
	return c
}

// on acts on the game found.
func (c *AbortCommand) on(ctx context.Context, r *Request, g *games.Game) (*Response, error) {
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
