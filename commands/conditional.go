package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
)

// /conditional add|list|remove|clear [line] [game]: conditional moves in a
// correspondence game. While the opponent is to move, a player queues replies to the
// opponent's possible moves; the service plays a foreseen reply at once. Every answer
// is private: a plan is seen by its author only.

func init() {
	register(registration{
		name:    "conditional",
		build:   func(d *Deps) Command { return NewConditional(d) },
		topic:   helpTopic{group: groupPlay, order: 45, example: `/conditional add line:"e5 Nf3 Nc6 Bb5"`},
		options: []optionUse{{[]string{"*"}, conditionalOptions{}}},
	})
}

var _ Command = (*ConditionalCommand)(nil)
var _ Autocompleter = (*ConditionalCommand)(nil)
var _ PrivateAnswerer = (*ConditionalCommand)(nil)

// ConditionalCommand is /conditional.
type ConditionalCommand struct{ d *Deps }

// NewConditional returns /conditional.
func NewConditional(d *Deps) *ConditionalCommand { return &ConditionalCommand{d} }

type conditionalOptions struct {
	Line string `option:"line"`
	Game int64  `option:"game"`
}

// AnswersPrivately implements PrivateAnswerer: a plan is its author's alone.
func (c *ConditionalCommand) AnswersPrivately(*Request) bool { return true }

// Definition implements Command.
func (c *ConditionalCommand) Definition() *discordgo.ApplicationCommand {
	line := func(desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "line",
			Description: desc, Required: true, MaxLength: games.MaxPlanLineLen}
	}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc,
			Options: append(opts, gameOption())}
	}
	return &discordgo.ApplicationCommand{
		Name:             "conditional",
		Description:      "Plan replies to your opponent's possible moves in a correspondence game",
		Contexts:         contexts(serversAndBotDM),
		IntegrationTypes: installs(guildInstall),
		Options: []*discordgo.ApplicationCommandOption{
			sub("add", "Add a line: your opponent's move, then your reply, alternating",
				line("e.g. e5 Nf3 Nc6 Bb5: their move, your reply, their move, your reply")),
			sub("list", "Show your conditional moves in the game (only you see them)"),
			sub("remove", "Remove the lines that start with these moves",
				line("The start of the lines to remove, e.g. e5 (their move) or e5 Nf3")),
			sub("clear", "Remove all your conditional moves in the game"),
		},
	}
}

// Autocomplete implements Autocompleter: the user's games for the game option.
func (c *ConditionalCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	if r.Focused != nil && r.Focused.Name == "game" {
		return c.d.gameChoices(ctx, r)
	}
	return nil, nil
}

// Handle implements Command.
func (c *ConditionalCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o conditionalOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	g, err := c.d.findGame(ctx, r, o.Game, true)
	if err != nil {
		return nil, err
	}
	if _, ok := g.ColorOf(r.User.ID); !ok {
		return nil, gameError(games.ErrNotAPlayer)
	}
	act := games.Action{RequestID: r.Interaction.ID, GameID: g.ID, UserID: r.User.ID}
	switch r.Sub {
	case "add":
		if _, err := c.d.Games.AddPlanLine(ctx, games.PlanRequest{Action: act, Line: o.Line}); err != nil {
			return nil, planError(err)
		}
		return c.list(ctx, r, g.ID, "Added.")
	case "list":
		return c.list(ctx, r, g.ID, "")
	case "remove":
		if _, err := c.d.Games.RemovePlanLines(ctx, games.PlanRequest{Action: act, Line: o.Line}); err != nil {
			return nil, planError(err)
		}
		return c.list(ctx, r, g.ID, "Removed.")
	case "clear":
		if _, err := c.d.Games.ClearPlan(ctx, act); err != nil {
			return nil, planError(err)
		}
		return Private("Your conditional moves in game %d are cleared.", g.ID), nil
	}
	return nil, fmt.Errorf("/conditional: unknown subcommand %q", r.Sub)
}

// list answers with the user's plan in game id, after a note.
func (c *ConditionalCommand) list(ctx context.Context, r *Request, id uint64, note string) (*Response, error) {
	v, err := c.d.Games.Plan(ctx, id, r.User.ID)
	if err != nil {
		return nil, gameError(err)
	}
	var b strings.Builder
	if note != "" {
		b.WriteString(note + " ")
	}
	if len(v.Lines) == 0 {
		fmt.Fprintf(&b, "You have no conditional moves in game %d. Add a line with /conditional add, e.g. line:\"e5 Nf3\" (their move, then your reply).", id)
		return Private("%s", b.String()), nil
	}
	fmt.Fprintf(&b, "Your conditional moves in game %d (only you see them; each foreseen reply is played at once):", id)
	for i, l := range v.Lines {
		fmt.Fprintf(&b, "\n%d. %s", i+1, PlanLineText(l))
	}
	return Private("%s", b.String()), nil
}

// PlanLineText writes a line of a plan with its authors: "if e5 then Nf3, if Nc6 then
// Bb5".
func PlanLineText(sans []string) string {
	var parts []string
	for i := 0; i+1 < len(sans); i += 2 {
		parts = append(parts, fmt.Sprintf("if **%s** then **%s**", sans[i], sans[i+1]))
	}
	return strings.Join(parts, ", ")
}

// planError explains a refused change of a plan, privately: the text may quote the
// line, which no log may keep.
func planError(err error) error {
	e := planRefusal(err)
	var ue *UserError
	if errors.As(e, &ue) {
		ue.Private = true
	}
	return e
}

// planRefusal is the player's sentence for a refused change of a plan.
func planRefusal(err error) error {
	switch {
	case errors.Is(err, games.ErrPlansOff), errors.Is(err, games.ErrNoPlan):
		return Explain(err, sentence(err.Error()))
	case errors.Is(err, games.ErrNotYourTurn):
		return Explain(err, "It is your move: play it first, then plan your replies to your opponent's next move.")
	}
	return gameError(err)
}
