package commands

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// /vacation start [days], end, status, auto: a player's vacation in the server: while
// on it, the clocks of their correspondence games there wait on their turns.

func init() {
	register(registration{
		name:    "vacation",
		build:   func(d *Deps) Command { return NewVacation(d) },
		topic:   helpTopic{group: groupPlay, order: 125, example: "/vacation start days:5"},
		options: []optionUse{{[]string{"*"}, vacationOptions{}}},
	})
}

var _ Command = (*VacationCommand)(nil)
var _ PrivateAnswerer = (*VacationCommand)(nil)

// VacationCommand is /vacation.
type VacationCommand struct{ d *Deps }

// NewVacation returns /vacation.
func NewVacation(d *Deps) *VacationCommand { return &VacationCommand{d} }

// AnswersPrivately implements PrivateAnswerer: a member's own vacation.
func (c *VacationCommand) AnswersPrivately(*Request) bool { return true }

type vacationOptions struct {
	Days    *int  `option:"days"`
	Enabled *bool `option:"enabled"`
}

// Definition implements Command.
func (c *VacationCommand) Definition() *discordgo.ApplicationCommand {
	minDays := float64(1)
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	return &discordgo.ApplicationCommand{
		Name:             "vacation",
		Description:      "Your vacation in this server: your correspondence clocks wait while you are away",
		Contexts:         contexts(serversOnly),
		IntegrationTypes: installs(guildInstall),
		Options: []*discordgo.ApplicationCommandOption{
			sub("start", "Go on vacation: your correspondence clocks stop on your turns",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "days",
					Description: "How many days (empty: every day you have left this year)", MinValue: &minDays, MaxValue: storage.MaxVacationDays}),
			sub("end", "Come back from vacation: your clocks run again (the days begun count)"),
			sub("status", "Your vacation days: used, left, and the vacation you are on"),
			sub("auto", "Auto vacation: a correspondence deadline you miss starts a vacation instead of losing",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "enabled", Description: "On or off", Required: true}),
		},
	}
}

// Handle implements Command.
func (c *VacationCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if r.GuildID == "" {
		return nil, Errorf("Vacations belong to a server: use /vacation in one.")
	}
	var o vacationOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	var st games.VacationStatus
	var err error
	head := ""
	switch r.Sub {
	case "start":
		req := games.VacationRequest{GuildID: r.GuildID, UserID: r.User.ID}
		if o.Days != nil {
			if *o.Days < 1 || *o.Days > storage.MaxVacationDays {
				return nil, Errorf("days: give 1 to %d, or leave it empty for every day you have left.", storage.MaxVacationDays)
			}
			req.Days = *o.Days
		}
		st, err = c.d.Games.StartVacation(ctx, req)
		head = fmt.Sprintf("🏖 You are on vacation until %s. Your clock is paused in %d correspondence game%s where it is your move; your opponents see it on the boards.",
			discordTime(st.Until), st.Paused, plural(st.Paused))
	case "end":
		st, err = c.d.Games.EndVacation(ctx, r.GuildID, r.User.ID)
		head = "Welcome back: your correspondence clocks run again."
	case "status":
		st, err = c.d.Games.Vacation(ctx, r.GuildID, r.User.ID)
	case "auto":
		if o.Enabled == nil {
			return nil, Errorf("Say whether auto vacation is on or off (enabled).")
		}
		st, err = c.d.Games.SetAutoVacation(ctx, r.GuildID, r.User.ID, *o.Enabled)
		head = "Saved."
	default:
		return nil, fmt.Errorf("/vacation: unknown subcommand %q", r.Sub)
	}
	if err != nil {
		return nil, vacationError(err)
	}
	text := describeVacation(st)
	if head != "" {
		text = head + "\n" + text
	}
	return &Response{Content: text, Ephemeral: true}, nil
}

// vacationError explains the service's refusals; other errors go to the log.
func vacationError(err error) error {
	for _, e := range []error{games.ErrOnVacation, games.ErrNotOnVacation, games.ErrNoVacationDays, games.ErrVacationDays, games.ErrBadRequest} {
		if errors.Is(err, e) {
			return Explain(err, sentence(err.Error()))
		}
	}
	return err
}

func discordTime(t time.Time) string { return fmt.Sprintf("<t:%d:f> (<t:%d:R>)", t.Unix(), t.Unix()) }

// describeVacation is a player's vacation days in the server.
func describeVacation(st games.VacationStatus) string {
	var b strings.Builder
	b.WriteString("**Your vacation in this server**")
	if st.On {
		how := ""
		if st.Automatic {
			how = " (started automatically at a deadline)"
		}
		fmt.Fprintf(&b, "\n• On vacation since %s until %s%s: /vacation end to come back earlier", discordTime(st.Start), discordTime(st.Until), how)
	} else {
		b.WriteString("\n• Not on vacation")
	}
	fmt.Fprintf(&b, "\n• Days this year: %d of %d used, %d left (a day begun counts)", st.Used, st.Allowance, st.Left)
	if st.AutoOptIn {
		b.WriteString("\n• Auto vacation: on (a correspondence deadline you miss starts a vacation while you have days left)")
	} else {
		b.WriteString("\n• Auto vacation: off (/vacation auto enabled:true turns it on)")
	}
	b.WriteString("\n• Only correspondence games wait (rated ones too; in a tournament, where its organiser allows it)")
	return b.String()
}

// vacationLines are the lines a board shows for its players on vacation.
func (d *Deps) vacationLines(ctx context.Context, g *storage.Game) string {
	if d.Games == nil || !g.Live() {
		return ""
	}
	vs, err := d.Games.VacationsOf(ctx, g)
	if err != nil {
		slog.Warn("vacations of a game's players", "game", g.ID, "err", err)
		return ""
	}
	var b strings.Builder
	for _, c := range []chesscore.Color{chesscore.White, chesscore.Black} {
		if !vs[c].IsZero() {
			fmt.Fprintf(&b, "\n🏖 %s is on vacation until <t:%d:f>: their clock waits on their turns.", playerName(g.Player(c)), vs[c].Unix())
		}
	}
	return b.String()
}

// challengeVacationNote says, under a correspondence challenge to a player on vacation,
// that they are away: a game accepted waits for them on their turns.
func (d *Deps) challengeVacationNote(ctx context.Context, ch *storage.Challenge) string {
	if ch.Open() || ch.Control.Kind() != clock.KindCorrespondence {
		return ""
	}
	st, err := d.Games.Vacation(ctx, ch.GuildID, ch.To.ID)
	if err != nil || !st.On {
		return ""
	}
	return fmt.Sprintf("\n🏖 %s is on vacation until <t:%d:f>: in a game accepted now, their clock waits on their turns.", playerName(ch.To), st.Until.Unix())
}

// VacationStartedMessage announces an auto vacation in the game's thread.
func VacationStartedMessage(ev games.VacationStarted) *Response {
	return &Response{Content: fmt.Sprintf("🏖 %s's time ran out in game %d, and their auto vacation started instead: their clock waits until <t:%d:f> or until they come back (/vacation end).",
		playerName(ev.Player), ev.Game.ID, ev.Until.Unix())}
}
