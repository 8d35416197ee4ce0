package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/storage"
)

// /play bot [level] [time] [color]: a game against the engine, in a thread like any
// game. The engine's moves are posted like a person's; the game is unrated.

func init() {
	register(registration{
		name:    "play",
		build:   func(d *Deps) Command { return NewPlay(d) },
		topic:   helpTopic{group: groupPlay, order: 20, example: "/play bot level:3 time:10+0"},
		options: []optionUse{{[]string{"bot"}, playOptions{}}},
	})
}

var _ Command = (*PlayCommand)(nil)
var _ Autocompleter = (*PlayCommand)(nil)

// PlayCommand is /play.
type PlayCommand struct{ d *Deps }

// NewPlay returns /play.
func NewPlay(d *Deps) *PlayCommand { return &PlayCommand{d} }

// defaultBotLevel is the level of /play bot without a level: a casual club player.
const defaultBotLevel = 3

type playOptions struct {
	Level    *int   `option:"level"`
	Time     string `option:"time"`
	Color    string `option:"color"`
	Variant  string `option:"variant"`
	Position *int   `option:"position"`
}

// maxLevel is the strongest level offered.
func (c *PlayCommand) maxLevel() int {
	if c.d.Engine == nil {
		return engine.MaxLevel
	}
	return c.d.Engine.MaxLevel()
}

// Definition implements Command.
func (c *PlayCommand) Definition() *discordgo.ApplicationCommand {
	levels := fmt.Sprintf("The engine's strength, 1 (beginner) to %d (full strength); default %d", engine.MaxLevel, defaultBotLevel)
	if c.maxLevel() > engine.MaxLevel {
		levels = fmt.Sprintf("The engine's strength, 1 (beginner) to %d (the external engine); default %d", c.maxLevel(), defaultBotLevel)
	}
	return &discordgo.ApplicationCommand{
		Name:             "play",
		Description:      "Play a game against the engine",
		Contexts:         contexts(serversOnly),
		IntegrationTypes: installs(guildInstall),
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: "bot", Description: "Play against Gambit's engine (unrated)",
			Options: append([]*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "level", Description: levels, Choices: c.levelChoices()},
				{Type: discordgo.ApplicationCommandOptionString, Name: "time", Description: "Time control: 5+3 (minutes + seconds a move), 10+0, 1d (days a move), - for none", Autocomplete: true, MaxLength: 40},
				{Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "The colour you play", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "random", Value: "random"}, {Name: "white", Value: "white"}, {Name: "black", Value: "black"},
				}},
			}, variantOptionDefs()...),
		}},
	}
}

// levelChoices lists the levels with their estimated strength ("4 · about 1300"), from
// the calibration against Stockfish (engine.Level.Rating).
func (c *PlayCommand) levelChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for n := engine.MinLevel; n <= c.maxLevel(); n++ {
		name := fmt.Sprintf("%d · the external engine, full strength", n)
		if l, err := engine.LevelByNumber(n); err == nil {
			name = fmt.Sprintf("%d · about %d Elo", n, l.Rating)
			if l.Full() {
				name = fmt.Sprintf("%d · full strength, about %d Elo", n, l.Rating)
			}
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: n})
	}
	return out
}

// Autocomplete implements Autocompleter: the time controls, as /challenge offers them.
func (c *PlayCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	return NewChallenge(c.d).Autocomplete(ctx, r)
}

// Handle implements Command.
func (c *PlayCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if c.d.Engine == nil {
		return nil, Errorf("Games against the engine are not available on this bot.")
	}
	if r.Sub != "bot" {
		return nil, fmt.Errorf("/play: unknown subcommand %q", r.Sub)
	}
	if c.d.draining() {
		return nil, Errorf("Gambit is restarting: new games are paused for a minute. Games in progress go on.")
	}
	if r.GuildID == "" {
		return nil, Errorf("Games against the engine are played in a server channel, where the board can be posted.")
	}
	var o playOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	level := defaultBotLevel
	if o.Level != nil {
		level = *o.Level
	}
	if maxL := c.maxLevel(); level < engine.MinLevel || level > maxL {
		return nil, Errorf("There is no level %d: choose a level from %d (beginner) to %d (%s).", level, engine.MinLevel, maxL, levelWord(maxL))
	}
	variant, position, err := variantOf(o.Variant, o.Position)
	if err != nil {
		return nil, err
	}
	control := strings.TrimSpace(o.Time)
	if control == "" {
		control = c.d.settings(ctx, r.GuildID).DefaultControl.String()
	} else if tc, err := clock.Parse(control); err != nil || tc.Kind() == clock.KindUnknown {
		return nil, Explain(err, fmt.Sprintf("I do not know the time control %q. Give minutes + seconds a move such as 5+3 or 10+0, days a move such as 1d, or - for no clock.", EscapeMarkdown(control)))
	}
	res, err := c.d.Engine.Start(ctx, engineplay.StartRequest{
		RequestID: r.Interaction.ID, GuildID: r.GuildID, ChannelID: r.ChannelID,
		Human: storagePlayer(r.User), Level: level, Control: control, Color: storage.ColorChoice(o.Color),
		Variant: variant, Position: position,
	})
	if err != nil {
		if errors.Is(err, engineplay.ErrBadLevel) {
			return nil, Explain(err, fmt.Sprintf("There is no level %d here.", level))
		}
		if errors.Is(err, engineplay.ErrNotReady) {
			return nil, Explain(err, "The engine is still starting. Try again in a few seconds.")
		}
		var many *engineplay.TooManyGamesError
		if errors.As(err, &many) {
			return nil, Explain(err, fmt.Sprintf("You already have %d game%s against the engine: finish or resign one first (list with /games).", many.Max, plural(many.Max)))
		}
		return nil, gameError(err)
	}
	g := res.Game
	if res.Replayed || g == nil {
		return Private("That game has already started."), nil
	}
	col, _ := g.ColorOf(r.User.ID)
	tc := g.Control.String()
	if tc == "-" {
		tc = "no clock"
	}
	return &Response{Content: fmt.Sprintf("♟ **%s** plays the engine at level %d, with %s · %s · unrated (games against the engine never count for the ladder). The board follows in the game's thread.",
		playerName(storagePlayer(r.User)), level, colorName(col), tc)}, nil
}

// levelWord describes the strongest level.
func levelWord(maxLevel int) string {
	if maxLevel > engine.MaxLevel {
		return "the external engine"
	}
	return "full strength"
}
