package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gambitchess/gambit/service/games"
)

// /takeback [game]: ask to take back your last move; used while the opponent's
// request waits, it grants it. The request message carries Accept and Decline. A
// completed move is final (FIDE 4.7): casual games allow takebacks, rated games only
// where the server allows them (/settings takebacks), tournament games never.

func init() {
	register(registration{
		name:    "takeback",
		build:   func(d *Deps) Command { return NewTakeback(d) },
		topic:   helpTopic{group: groupPlay, order: 70, example: "/takeback"},
		options: []optionUse{{nil, gameOptions{}}},
	})
}

var _ Command = (*TakebackCommand)(nil)
var _ Autocompleter = (*TakebackCommand)(nil)
var _ Componenter = (*TakebackCommand)(nil)

// TakebackCommand is /takeback and its buttons.
type TakebackCommand struct{ gameCommand }

// NewTakeback returns /takeback.
func NewTakeback(d *Deps) *TakebackCommand {
	c := &TakebackCommand{}
	c.gameCommand = gameCommand{d: d, name: "takeback", mine: true, on: c.on,
		description: "Ask to take back your last move (or grant your opponent's request)"}
	return c
}

// on acts on the game found.
func (c *TakebackCommand) on(ctx context.Context, r *Request, g *games.Game) (*Response, error) {
	if col, ok := g.ColorOf(r.User.ID); ok && g.Takeback.Pending && g.Takeback.By != col {
		return c.accept(ctx, r, g, g.Ply())
	}
	return c.d.act(ctx, r, gameRequest{
		game: g, ply: g.Ply(), posts: []string{EventTakeback}, done: "You asked for a takeback",
		call: finalMoves(c.d.Games.RequestTakeback),
		answer: func(_ context.Context, res *games.Result) (*Response, error) {
			col, _ := res.Game.ColorOf(r.User.ID)
			return c.d.TakebackMessage(ctx, res.Game, col), nil
		},
	})
}

// accept grants the opponent's request: the answer is the board after the takeback.
func (c *TakebackCommand) accept(ctx context.Context, r *Request, g *games.Game, ply int) (*Response, error) {
	by := g.Takeback.By
	n := 1
	if g.Turn() == by {
		n = 2
	}
	return c.d.act(ctx, r, gameRequest{
		game: g, ply: ply, delta: -n, posts: []string{EventTurn, EventTakeback}, done: "You granted the takeback",
		call: finalMoves(c.d.Games.AcceptTakeback),
		answer: func(ctx context.Context, res *games.Result) (*Response, error) {
			msg, err := c.d.TurnMessage(ctx, res.Game)
			if err != nil {
				return nil, err
			}
			msg.Content = fmt.Sprintf("↶ Takeback granted.\n%s", msg.Content)
			return msg, nil
		},
	})
}

// finalMoves explains the refusal of a takeback in a game whose moves are final.
func finalMoves(call func(context.Context, games.Action) (*games.Result, error)) func(context.Context, games.Action) (*games.Result, error) {
	return func(ctx context.Context, a games.Action) (*games.Result, error) {
		res, err := call(ctx, a)
		if errors.Is(err, games.ErrNoTakebacks) {
			why := strings.TrimPrefix(err.Error(), games.ErrNoTakebacks.Error()+": ")
			return nil, Explain(err, sentence("No takebacks here: "+why))
		}
		return res, err
	}
}

// Components implements Componenter.
func (c *TakebackCommand) Components() map[string]Handler {
	return map[string]Handler{
		"game/" + actionTakebackAccept: func(ctx context.Context, r *Request) (*Response, error) {
			g, err := c.d.componentGame(ctx, r)
			if err != nil {
				return nil, err
			}
			return c.accept(ctx, r, g, r.ID.Ply)
		},
		"game/" + actionTakebackDecline: func(ctx context.Context, r *Request) (*Response, error) {
			g, err := c.d.componentGame(ctx, r)
			if err != nil {
				return nil, err
			}
			return c.d.act(ctx, r, gameRequest{
				game: g, ply: r.ID.Ply, posts: []string{EventDeclined}, done: "You declined the takeback",
				call: c.d.Games.DeclineTakeback,
				answer: func(_ context.Context, res *games.Result) (*Response, error) {
					return &Response{Content: fmt.Sprintf("%s\n**%s** declined the takeback. Play on!", Headline(&res.Game.Game), playerName(storagePlayer(r.User)))}, nil
				},
			})
		},
	}
}
