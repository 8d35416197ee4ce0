package commands

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
)

// /resign [game]: resignation, after a confirmation only the resigning player sees.
// Before both sides have moved (outside a tournament) resigning calls the game off
// instead: no result, never rated (games.Unplayed).

func init() {
	register(registration{
		name:    "resign",
		build:   func(d *Deps) Command { return NewResign(d) },
		topic:   helpTopic{group: groupPlay, order: 50, example: "/resign"},
		options: []optionUse{{nil, gameOptions{}}},
	})
}

var _ Command = (*ResignCommand)(nil)
var _ Autocompleter = (*ResignCommand)(nil)
var _ Componenter = (*ResignCommand)(nil)

// ResignCommand is /resign and its buttons.
type ResignCommand struct{ gameCommand }

// NewResign returns /resign.
func NewResign(d *Deps) *ResignCommand {
	c := &ResignCommand{}
	c.gameCommand = gameCommand{d: d, name: "resign", mine: true, on: c.on,
		description: "Resign your game (you will be asked to confirm)"}
	return c
}

// on acts on the game: it asks for confirmation.
func (c *ResignCommand) on(ctx context.Context, r *Request, g *games.Game) (*Response, error) {
	return c.confirm(g, r.User.ID)
}

func (c *ResignCommand) confirm(g *games.Game, userID string) (*Response, error) {
	if !g.Live() {
		return nil, gameError(games.ErrGameOver)
	}
	opp := g.White
	if g.White.ID == userID {
		opp = g.Black
	}
	text := fmt.Sprintf("Resign game %d against %s? This cannot be undone.", g.ID, playerName(opp))
	if games.Unplayed(&g.Game) {
		text = fmt.Sprintf("Abort game %d against %s? Until both sides have moved, resigning calls the game off: no result, no rating change. This cannot be undone.", g.ID, playerName(opp))
	}
	return &Response{
		Content:   text,
		Ephemeral: true,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Yes, resign", Style: discordgo.DangerButton, CustomID: NewCustomID("game", g.ID, g.Ply(), actionResignConfirm).String()},
		}}},
	}, nil
}

// Components implements Componenter.
func (c *ResignCommand) Components() map[string]Handler {
	return map[string]Handler{
		"game/" + actionResign: func(ctx context.Context, r *Request) (*Response, error) {
			g, err := c.d.componentGame(ctx, r)
			if err != nil {
				return nil, err
			}
			return c.confirm(g, r.User.ID)
		},
		"game/" + actionResignConfirm: func(ctx context.Context, r *Request) (*Response, error) {
			g, err := c.d.componentGame(ctx, r)
			if err != nil {
				return nil, err
			}
			if g.Ply() != r.ID.Ply && g.Live() {
				return nil, Errorf("The game has moved on since you asked. If you still want to resign, use /resign again.")
			}
			col, _ := g.ColorOf(r.User.ID)
			return c.d.act(ctx, r, gameRequest{
				game: g, ply: r.ID.Ply, posts: []string{EventOver}, done: "You resigned",
				call: c.d.Games.Resign,
				answer: func(ctx context.Context, res *games.Result) (*Response, error) {
					note := fmt.Sprintf("%s resigned.", colorName(col))
					if res.Effect == games.EffectAborted {
						note = fmt.Sprintf("%s resigned before both sides had moved: the game is aborted, with no result and no rating change.", colorName(col))
					}
					return c.d.GameOverMessage(ctx, res.Game, note)
				},
			})
		},
	}
}
