package commands

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
)

// gameCommand is what the commands about one game share (/resign, /abort, /takeback,
// /board, /fen, /pgn): a definition whose only option is the game number, autocompleted
// with the user's games, and a handler that finds the game (the one named, the one of
// this thread, or the user's only live game) before it acts on it.
type gameCommand struct {
	d           *Deps
	name        string
	description string
	// mine: the command is about the user's own games (false: any game, for watchers
	// too), which changes how a game is found when none is named.
	mine bool
	// on acts on the game found.
	on func(ctx context.Context, r *Request, g *games.Game) (*Response, error)
}

// Definition implements Command.
func (c *gameCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             c.name,
		Description:      c.description,
		Contexts:         contexts(everywhere),
		IntegrationTypes: installs(bothInstalls),
		Options:          []*discordgo.ApplicationCommandOption{gameOption()},
	}
}

// Autocomplete implements Autocompleter: the user's games.
func (c *gameCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	return c.d.gameChoices(ctx, r)
}

// gameOptions are the options of the commands about one game.
type gameOptions struct {
	Game int64 `option:"game"`
}

// Handle implements Command.
func (c *gameCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o gameOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	g, err := c.d.findGame(ctx, r, o.Game, c.mine)
	if err != nil {
		return nil, err
	}
	return c.on(ctx, r, g)
}
