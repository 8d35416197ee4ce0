package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
)

// /draw offer|accept|decline|claim [move] [game]: draw offers (FIDE 9.1) and claims
// (9.2, 9.3), and the draw buttons. An offer goes with one's move (9.1.2.1): made on
// one's own turn it waits for the next move; made while the opponent thinks it stands
// only right after one's move.

func init() {
	register(registration{
		name:    "draw",
		build:   func(d *Deps) Command { return NewDraw(d) },
		topic:   helpTopic{group: groupPlay, order: 40, example: "/draw offer"},
		options: []optionUse{{[]string{"*"}, drawOptions{}}},
	})
}

var _ Command = (*DrawCommand)(nil)
var _ Autocompleter = (*DrawCommand)(nil)
var _ Componenter = (*DrawCommand)(nil)

// DrawCommand is /draw and the draw buttons.
type DrawCommand struct{ d *Deps }

// NewDraw returns /draw.
func NewDraw(d *Deps) *DrawCommand { return &DrawCommand{d} }

type drawOptions struct {
	Move string `option:"move"`
	Game int64  `option:"game"`
}

// Definition implements Command.
func (c *DrawCommand) Definition() *discordgo.ApplicationCommand {
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc,
			Options: append(opts, gameOption())}
	}
	return &discordgo.ApplicationCommand{
		Name:             "draw",
		Description:      "Offer, accept, decline or claim a draw",
		Contexts:         contexts(everywhere),
		IntegrationTypes: installs(bothInstalls),
		Options: []*discordgo.ApplicationCommandOption{
			sub("offer", "Offer a draw: on your turn it goes with your next move; else right after your move"),
			sub("accept", "Accept your opponent's draw offer"),
			sub("decline", "Decline your opponent's draw offer"),
			sub("claim", "Claim a draw by threefold repetition or the fifty-move rule",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "move",
					Description: "The move you intend to play, if that move makes the claim correct", Autocomplete: true, MaxLength: 20}),
		},
	}
}

// Autocomplete implements Autocompleter.
func (c *DrawCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	if r.Focused == nil {
		return nil, nil
	}
	if r.Focused.Name == "game" {
		return c.d.gameChoices(ctx, r)
	}
	var o drawOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, nil
	}
	g, err := c.d.findGame(ctx, r, o.Game, true)
	if err != nil || !g.Live() {
		return nil, nil
	}
	return MoveChoices(&g.Position, o.Move), nil
}

// Handle implements Command.
func (c *DrawCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o drawOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	g, err := c.d.findGame(ctx, r, o.Game, true)
	if err != nil {
		return nil, err
	}
	switch r.Sub {
	case "offer":
		return c.offer(ctx, r, g, g.Ply())
	case "accept":
		return c.accept(ctx, r, g, g.Ply())
	case "decline":
		return c.decline(ctx, r, g, g.Ply())
	case "claim":
		return c.claim(ctx, r, g, g.Ply(), strings.TrimSpace(o.Move))
	}
	return nil, fmt.Errorf("/draw: unknown subcommand %q", r.Sub)
}

func (c *DrawCommand) offer(ctx context.Context, r *Request, g *games.Game, ply int) (*Response, error) {
	col, player := g.ColorOf(r.User.ID)
	if player && col == g.Turn() && g.Live() {
		// On one's own turn the offer waits for the move: nothing is posted now, so
		// nothing is reserved (the move's board shows it).
		return c.d.act(ctx, r, gameRequest{
			game: g, ply: ply, done: "Your draw offer goes with your next move",
			call: offerWithMove(c.d.Games.OfferDraw),
			answer: func(context.Context, *games.Result) (*Response, error) {
				return Private("½ Your draw offer goes with your next move: your opponent sees it with that move (FIDE 9.1.2.1)."), nil
			},
		})
	}
	return c.d.act(ctx, r, gameRequest{
		game: g, ply: ply, posts: []string{EventDraw}, done: "You offered a draw",
		call: offerWithMove(c.d.Games.OfferDraw),
		answer: func(_ context.Context, res *games.Result) (*Response, error) {
			col, _ := res.Game.ColorOf(r.User.ID)
			return c.d.DrawOfferMessage(ctx, res.Game, col), nil
		},
	})
}

// offerWithMove explains the refusal of an offer made while the opponent thinks, past
// the moment of one's move.
func offerWithMove(call func(context.Context, games.Action) (*games.Result, error)) func(context.Context, games.Action) (*games.Result, error) {
	return func(ctx context.Context, a games.Action) (*games.Result, error) {
		res, err := call(ctx, a)
		if errors.Is(err, games.ErrOfferWithMove) {
			// The cause is kept as text: the game errors' table would otherwise explain
			// it again with its own words (meant for a /move without its offer).
			return nil, Explain(errors.New(err.Error()), "Your opponent is thinking: a draw is offered with your own move (FIDE 9.1.2.1), not in the middle of their turn. "+
				"Use /draw offer on your turn (the offer goes with your next move) or /move … offer_draw:true.")
		}
		return res, err
	}
}

func (c *DrawCommand) accept(ctx context.Context, r *Request, g *games.Game, ply int) (*Response, error) {
	return c.d.act(ctx, r, gameRequest{
		game: g, ply: ply, posts: []string{EventOver}, done: "You accepted the draw",
		call: c.d.Games.AcceptDraw, answer: c.d.overAnswer("The draw offer was accepted."),
	})
}

func (c *DrawCommand) decline(ctx context.Context, r *Request, g *games.Game, ply int) (*Response, error) {
	return c.d.act(ctx, r, gameRequest{
		game: g, ply: ply, posts: []string{EventDeclined}, done: "You declined the draw",
		call: c.d.Games.DeclineDraw,
		answer: func(_ context.Context, res *games.Result) (*Response, error) {
			return &Response{Content: fmt.Sprintf("%s\n**%s** declined the draw offer. Play on!", Headline(&res.Game.Game), playerName(storagePlayer(r.User)))}, nil
		},
	})
}

func (c *DrawCommand) claim(ctx context.Context, r *Request, g *games.Game, ply int, move string) (*Response, error) {
	delta := 0
	if move != "" {
		delta = 1
	}
	return c.d.act(ctx, r, gameRequest{
		game: g, ply: ply, delta: delta, posts: []string{EventOver}, done: "You claimed a draw",
		call: func(ctx context.Context, a games.Action) (*games.Result, error) {
			return c.d.Games.ClaimDraw(ctx, games.ClaimRequest{Action: a, Move: move})
		},
		answer: c.d.overAnswer(""),
	})
}

// Components implements Componenter.
func (c *DrawCommand) Components() map[string]Handler {
	button := func(f func(ctx context.Context, r *Request, g *games.Game, ply int) (*Response, error)) Handler {
		return func(ctx context.Context, r *Request) (*Response, error) {
			g, err := c.d.componentGame(ctx, r)
			if err != nil {
				return nil, err
			}
			return f(ctx, r, g, r.ID.Ply)
		}
	}
	return map[string]Handler{
		"game/" + actionDrawOffer:   button(c.offer),
		"game/" + actionDrawAccept:  button(c.accept),
		"game/" + actionDrawDecline: button(c.decline),
		"game/" + actionDrawClaim: button(func(ctx context.Context, r *Request, g *games.Game, ply int) (*Response, error) {
			return c.claim(ctx, r, g, ply, "")
		}),
	}
}
