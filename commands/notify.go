package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/digest"
	"github.com/gambitchess/gambit/storage"
)

// /notify: a player's own notification preferences: turns, reminders, challenges, and
// the daily digest by direct message (at an hour in UTC; the answer shows it in the
// player's own time zone too, as a Discord timestamp).

func init() {
	register(registration{
		name:    "notify",
		build:   func(d *Deps) Command { return NewNotify(d) },
		topic:   helpTopic{group: groupSettings, order: 30, example: "/notify dm_on_turn:true"},
		options: []optionUse{{nil, notifyOptions{}}},
	})
}

var _ Command = (*NotifyCommand)(nil)
var _ PrivateAnswerer = (*NotifyCommand)(nil)

// NotifyCommand is /notify.
type NotifyCommand struct{ d *Deps }

// NewNotify returns /notify.
func NewNotify(d *Deps) *NotifyCommand { return &NotifyCommand{d} }

// AnswersPrivately implements PrivateAnswerer: a member's own preferences.
func (c *NotifyCommand) AnswersPrivately(*Request) bool { return true }

type notifyOptions struct {
	Ping      *bool  `option:"ping_on_turn"`
	DM        *bool  `option:"dm_on_turn"`
	Reminders *bool  `option:"reminders"`
	Before    string `option:"reminder_before"`
	Challenge *bool  `option:"ping_on_challenge"`
	Digest    *bool  `option:"digest"`
	Hour      *int   `option:"digest_hour"`
}

// Definition implements Command.
func (c *NotifyCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             "notify",
		Description:      "How Gambit tells you it is your turn or that you are challenged (no options: show your choices)",
		Contexts:         contexts(everywhere),
		IntegrationTypes: installs(bothInstalls),
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "ping_on_turn", Description: "Mention me when it is my turn"},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "dm_on_turn", Description: "DM me when it is my turn in a correspondence game, and results Gambit cannot post"},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "reminders", Description: "Remind me before a correspondence deadline"},
			{Type: discordgo.ApplicationCommandOptionString, Name: "reminder_before", Description: "How long before the deadline, e.g. 6h or 30m (empty: a quarter of the time)", MaxLength: 20},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "ping_on_challenge", Description: "Mention me when someone challenges me (the challenge is posted either way)"},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "digest", Description: "Send me one direct message a day listing the games where it is my move"},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "digest_hour", Description: "The digest's hour, 0 to 23, in UTC (the answer shows it in your time)",
				MinValue: ptr(0.0), MaxValue: 23},
		},
	}
}

// Handle implements Command.
func (c *NotifyCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o notifyOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	p, err := c.d.settingsOwner().FreshPrefs(ctx, r.User.ID) // as stored: the change starts from them
	if err != nil {
		return nil, fmt.Errorf("read preferences of %s: %w", r.User.ID, err)
	}
	changed := false
	if o.Ping != nil {
		p.PingOnTurn, changed = *o.Ping, true
	}
	if o.DM != nil {
		p.DMOnTurn, changed = *o.DM, true
	}
	if o.Reminders != nil {
		p.Reminders, changed = *o.Reminders, true
	}
	if o.Challenge != nil {
		p.PingOnChallenge, changed = *o.Challenge, true
	}
	if o.Hour != nil {
		if *o.Hour < 0 || *o.Hour > 23 {
			return nil, Errorf("digest_hour %d: give an hour from 0 to 23, in UTC.", *o.Hour)
		}
		p.DigestHour, changed = *o.Hour, true
	}
	reopened := false
	if o.Digest != nil {
		p.Digest, changed = *o.Digest, true
		if p.Digest && p.DigestRefused {
			// Turned back on: this answer says what the pending note would have.
			p.DigestRefused, reopened = false, true
		}
	}
	if s := strings.TrimSpace(o.Before); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < time.Minute || d > 30*24*time.Hour {
			return nil, Errorf("reminder_before %q: give a duration from 1m to 720h, such as 6h or 30m.", EscapeMarkdown(s))
		}
		p.ReminderBefore, changed = d, true
	}
	if changed {
		if err := c.d.Games.SetUserPrefs(ctx, r.User.ID, p); err != nil {
			return nil, fmt.Errorf("save preferences of %s: %w", r.User.ID, err)
		}
	}
	text := describePrefs(p, changed, c.d.Now())
	if reopened {
		text += "\nYour last digest was refused by Discord (your DMs were closed to Gambit): if they still are, the digest turns itself off again."
	}
	return &Response{Content: text, Ephemeral: true}, nil
}

func describePrefs(p storage.UserPrefs, changed bool, now time.Time) string {
	var b strings.Builder
	if changed {
		b.WriteString("Saved. ")
	}
	b.WriteString("**How Gambit tells you it is your turn, or that you are challenged**")
	fmt.Fprintf(&b, "\n• Mention you on your turn: %s (where the server allows it)", yesNo(p.PingOnTurn))
	fmt.Fprintf(&b, "\n• Direct message on your turn in correspondence games: %s", yesNo(p.DMOnTurn))
	before := "a quarter of the time per move"
	if p.ReminderBefore > 0 {
		before = p.ReminderBefore.String()
	}
	fmt.Fprintf(&b, "\n• Reminders before a correspondence deadline: %s (%s before)", yesNo(p.Reminders), before)
	fmt.Fprintf(&b, "\n• Mention you when someone challenges you: %s (a few times in a row at most; the challenge is posted either way)", yesNo(p.PingOnChallenge))
	next := digest.NextAt(p.DigestHour, now)
	fmt.Fprintf(&b, "\n• Daily digest by direct message of the games where it is your move: %s (at %02d:00 UTC, <t:%d:t> your time", yesNo(p.Digest), p.DigestHour, next.Unix())
	if p.Digest {
		fmt.Fprintf(&b, "; the next <t:%d:R>", next.Unix())
	}
	b.WriteString(")")
	return b.String()
}
