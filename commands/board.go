package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

// /board [game]: the board from your own side, only for you, under the name of the
// opening, with fresh controls when it is your move.

func init() {
	register(registration{
		name:    "board",
		build:   func(d *Deps) Command { return NewBoard(d) },
		topic:   helpTopic{group: groupPlay, order: 80, example: "/board"},
		options: []optionUse{{nil, gameOptions{}}},
	})
}

var _ Command = (*BoardCommand)(nil)
var _ Autocompleter = (*BoardCommand)(nil)
var _ Componenter = (*BoardCommand)(nil)
var _ PrivateAnswerer = (*BoardCommand)(nil)

// BoardCommand is /board and the "My board" button.
type BoardCommand struct{ gameCommand }

// NewBoard returns /board.
func NewBoard(d *Deps) *BoardCommand {
	warmOpenings()
	c := &BoardCommand{}
	c.gameCommand = gameCommand{d: d, name: "board", mine: false, on: c.on,
		description: "Show the board of your game from your side (only you see it)"}
	return c
}

// on acts on the game found.
func (c *BoardCommand) on(ctx context.Context, r *Request, g *games.Game) (*Response, error) {
	return c.d.privateBoard(ctx, g, r.User.ID)
}

// AnswersPrivately implements PrivateAnswerer: the board is shown to the user only.
func (c *BoardCommand) AnswersPrivately(*Request) bool { return true }

// privateBoard is the board of g as userID sees it: from their side, with the move
// controls when it is their move.
func (d *Deps) privateBoard(ctx context.Context, g *games.Game, userID string) (*Response, error) {
	gs := d.settings(ctx, g.GuildID)
	col, isPlayer := g.ColorOf(userID)
	flip := isPlayer && col == chesscore.Black
	png, err := d.boardPNG(g, BoardOptions{Theme: gs.BoardTheme, Flip: flip, Bars: true, Now: d.now()})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(Headline(&g.Game))
	if line := openingLine(g); line != "" {
		b.WriteString("\n" + line)
	}
	switch {
	case !g.Live():
		fmt.Fprintf(&b, "\n**%s**", resultText(g.Outcome))
	case isPlayer && col == g.Turn():
		fmt.Fprintf(&b, "\nYour move (%s).", colorName(col))
	default:
		fmt.Fprintf(&b, "\n%s to move.", colorName(g.Turn()))
	}
	if l := clockLine(&g.Game, d.now()); l != "" && g.Live() {
		b.WriteString(" " + l)
	}
	b.WriteString(d.vacationLines(ctx, &g.Game))
	resp := &Response{Content: b.String(), Ephemeral: true, Files: []File{{Name: "board.png", ContentType: "image/png", Data: png}}}
	if isPlayer && g.Live() && col == g.Turn() {
		resp.Components = gameControls(g)
	}
	return resp, nil
}

// Components implements Componenter.
func (c *BoardCommand) Components() map[string]Handler {
	return map[string]Handler{
		"game/" + actionBoard: func(ctx context.Context, r *Request) (*Response, error) {
			g, err := c.d.visibleGame(ctx, r, r.ID.ID)
			if err != nil {
				return nil, err
			}
			return c.d.privateBoard(ctx, g, r.User.ID)
		},
		"game/" + actionWeb:      c.d.playOnWeb,
		"game/" + actionActivity: c.d.playInDiscord,
	}
}
