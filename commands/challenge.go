package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// /challenge [opponent] [time] [color] [rated] [variant] [position]: a challenge to one user, or open to
// anyone, answered with the buttons under it.

func init() {
	register(registration{
		name:    "challenge",
		build:   func(d *Deps) Command { return NewChallenge(d) },
		topic:   helpTopic{group: groupPlay, order: 10, example: "/challenge opponent:@friend time:5+3 color:white variant:chess960"},
		options: []optionUse{{nil, challengeOptions{}}},
	})
}

var _ Command = (*ChallengeCommand)(nil)
var _ Autocompleter = (*ChallengeCommand)(nil)
var _ Componenter = (*ChallengeCommand)(nil)

// ChallengeCommand is /challenge and the Accept, Decline and Cancel buttons.
type ChallengeCommand struct{ d *Deps }

// NewChallenge returns /challenge.
func NewChallenge(d *Deps) *ChallengeCommand { return &ChallengeCommand{d} }

type challengeOptions struct {
	Opponent *discordgo.User `option:"opponent"`
	Time     string          `option:"time"`
	Color    string          `option:"color"`
	Rated    bool            `option:"rated"`
	Variant  string          `option:"variant"`
	Position *int            `option:"position"`
}

// Definition implements Command.
func (c *ChallengeCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:        "challenge",
		Description: "Challenge someone to a game of chess (or anyone, if you name no one)",
		// Not in the bot's DM: nobody else is there to accept.
		Contexts:         contexts([]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextPrivateChannel}),
		IntegrationTypes: installs(bothInstalls),
		Options: append([]*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who to play; leave empty for an open challenge anyone may accept"},
			{Type: discordgo.ApplicationCommandOptionString, Name: "time", Description: "Time control: 5+3 (minutes + seconds a move), 10+0, 3d (days a move), - for none", Autocomplete: true, MaxLength: 40},
			{Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "The colour you play", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "random", Value: "random"}, {Name: "white", Value: "white"}, {Name: "black", Value: "black"},
			}},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Whether the game counts for the server's ladder"},
		}, variantOptionDefs()...),
	}
}

// popularControls are offered while the time option is typed.
var popularControls = []struct{ name, value string }{
	{"1+0 bullet", "1+0"}, {"2+1 bullet", "2+1"}, {"3+0 blitz", "3+0"}, {"3+2 blitz", "3+2"}, {"5+0 blitz", "5+0"},
	{"5+3 blitz", "5+3"}, {"10+0 rapid", "10+0"}, {"10+5 rapid", "10+5"}, {"15+10 rapid", "15+10"}, {"30+0 classical", "30+0"},
	{"1 day per move", "1d"}, {"3 days per move", "3d"}, {"no clock", "-"},
}

// Autocomplete implements Autocompleter: popular controls matching what is typed,
// and what is typed itself.
func (c *ChallengeCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	typed := ""
	if r.Focused != nil {
		typed, _ = r.Focused.Value.(string)
	}
	typed = strings.TrimSpace(typed)
	var out []*discordgo.ApplicationCommandOptionChoice
	if typed != "" {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: typed, Value: typed})
	}
	for _, pc := range popularControls {
		if pc.value != typed && (typed == "" || strings.HasPrefix(pc.value, typed) || strings.Contains(pc.name, typed)) {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: pc.name, Value: pc.value})
		}
	}
	return out, nil
}

// Handle implements Command.
func (c *ChallengeCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if c.d.draining() {
		return nil, Errorf("Gambit is restarting: new challenges are paused for a minute. Games in progress go on.")
	}
	if r.GuildID == "" && !r.Guest {
		return nil, Errorf("Challenges are made in a server channel or a group DM, where the game can be played.")
	}
	var o challengeOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	if r.Guest && o.Rated {
		return nil, Errorf("Rated games count for a server's ladder, and Gambit is only installed on someone's account here: play a casual game (rated:false), or challenge in a server that added Gambit.")
	}
	variant, position, err := variantOf(o.Variant, o.Position)
	if err != nil {
		return nil, err
	}
	req := games.ChallengeRequest{
		RequestID: r.Interaction.ID, GuildID: r.GuildID, ChannelID: r.ChannelID,
		From: storagePlayer(r.User), Control: strings.TrimSpace(o.Time), Color: storage.ColorChoice(o.Color),
		Rated: o.Rated, ExpiresIn: c.d.ChallengeExpiry, Variant: variant, Position: position, Guest: r.Guest,
	}
	if r.Interaction.Member != nil && !r.Guest {
		req.Roles = r.Interaction.Member.Roles
	}
	if o.Opponent != nil {
		if o.Opponent.Bot {
			return nil, Errorf("%s is a bot and cannot play. Challenge a person, or leave opponent empty for an open challenge.", EscapeMarkdown(o.Opponent.Username))
		}
		req.To = storagePlayer(o.Opponent)
	}
	res, err := c.d.Games.CreateChallenge(ctx, req)
	if err != nil {
		return nil, challengeLimitError(err)
	}
	resp := challengeMessage(res.Challenge)
	resp.Content += c.d.challengeVacationNote(ctx, res.Challenge)
	return resp, nil
}

// challengeLimitError says which cap refused a challenge, and what to do; other errors
// go to gameError.
func challengeLimitError(err error) error {
	var pending *games.PendingLimitError
	if errors.As(err, &pending) {
		return Explain(err, fmt.Sprintf("You already have %d challenges waiting: cancel one or wait for an answer.", pending.Limit))
	}
	var opponent *games.OpponentLimitError
	if errors.As(err, &opponent) {
		return Explain(err, fmt.Sprintf("You challenged %s %s in the last %s: try again <t:%d:R>.",
			Mention(opponent.Opponent.ID), howManyTimes(opponent.Count), spanWords(opponent.Window), opponent.RetryAt.Unix()))
	}
	return gameError(err)
}

// howManyTimes says how many times: "once", "twice", "3 times".
func howManyTimes(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// spanWords names a span for "in the last ...": "minute", "10 minutes", "hour",
// "2 hours", "90 seconds".
func spanWords(d time.Duration) string {
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "hour"}, {time.Minute, "minute"}, {time.Second, "second"}} {
		if d >= u.unit && d%u.unit == 0 {
			if n := int64(d / u.unit); n != 1 {
				return fmt.Sprintf("%d %ss", n, u.name)
			}
			return u.name
		}
	}
	return d.String()
}

// challengeMessage is the challenge with its buttons.
func challengeMessage(ch *storage.Challenge) *Response {
	id := func(action string) string { return NewCustomID("challenge", ch.ID, 0, action).String() }
	color := ""
	switch ch.Color {
	case storage.ChooseWhite:
		color = fmt.Sprintf(" (%s plays White)", playerName(ch.From))
	case storage.ChooseBlack:
		color = fmt.Sprintf(" (%s plays Black)", playerName(ch.From))
	default:
		color = " (colours drawn at random)"
	}
	kind := "casual"
	if ch.Rated {
		kind = "rated"
	}
	if v := variantTitle(ch.Variant, ch.StartFEN); v != "" {
		kind += " " + v // "casual Chess960 #446"
	}
	tc := ch.Control.String()
	if tc == "-" {
		tc = "untimed"
	}
	expires := fmt.Sprintf("Expires <t:%d:R>.", ch.ExpiresAt.Unix())
	resp := &Response{}
	if ch.Open() {
		resp.Content = fmt.Sprintf("♟ **%s** offers an open %s %s game%s: anyone may accept. %s",
			playerName(ch.From), tc, kind, color, expires)
		resp.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Accept", Style: discordgo.SuccessButton, CustomID: id("accept")},
			discordgo.Button{Label: "Cancel", Style: discordgo.SecondaryButton, CustomID: id("cancel")},
		}}}
		return resp
	}
	resp.Content = fmt.Sprintf("♟ %s, **%s** challenges you to a %s %s game%s. %s",
		Mention(ch.To.ID), playerName(ch.From), tc, kind, color, expires)
	if !ch.Quiet { // a quiet challenge names its addressee without pinging them
		resp.Mentions = []string{ch.To.ID}
	}
	resp.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Accept", Style: discordgo.SuccessButton, CustomID: id("accept")},
		discordgo.Button{Label: "Decline", Style: discordgo.DangerButton, CustomID: id("decline")},
		discordgo.Button{Label: "Cancel", Style: discordgo.SecondaryButton, CustomID: id("cancel")},
	}}}
	return resp
}

// Components implements Componenter. Each button answers only in the server its
// challenge was made in (inChallengeGuild).
func (c *ChallengeCommand) Components() map[string]Handler {
	return map[string]Handler{
		"challenge/accept":  c.d.inChallengeGuild(c.accept),
		"challenge/decline": c.d.inChallengeGuild(c.decline),
		"challenge/cancel":  c.d.inChallengeGuild(c.cancel),
	}
}

func (c *ChallengeCommand) action(r *Request) games.ChallengeAction {
	return games.ChallengeAction{RequestID: r.Interaction.ID, ChallengeID: r.ID.ID, User: storagePlayer(r.User)}
}

func (c *ChallengeCommand) accept(ctx context.Context, r *Request) (*Response, error) {
	if c.d.draining() {
		return nil, Errorf("Gambit is restarting: new games start again in a minute. Try Accept again then.")
	}
	release := c.d.Ledger.Reserve(ChallengePost(r.ID.ID, EventStarted))
	res, err := c.d.Games.AcceptChallenge(ctx, c.action(r))
	if err != nil {
		release()
		if errors.Is(err, games.ErrCannotAcceptOwn) {
			return nil, Explain(err, "You cannot accept your own challenge. Cancel it if you changed your mind.")
		}
		return nil, gameError(err)
	}
	g := res.Game
	if g == nil {
		release()
		return Private("That challenge was already accepted."), nil
	}
	resp := &Response{
		Kind:    UpdateMessage,
		Content: fmt.Sprintf("✅ Challenge accepted: %s. The board follows.", Headline(&g.Game)),
	}
	if res.Replayed {
		return resp, nil
	}
	if g.Guest {
		// The bot cannot post here: the challenge becomes the game's first board.
		board, err := c.d.TurnMessage(ctx, g)
		if err != nil {
			return nil, err
		}
		board.Kind = UpdateMessage
		board.Content = resp.Content + "\n" + board.Content
		return board, nil
	}
	var messageID string
	if r.Message != nil {
		messageID = r.Message.ID
	}
	resp.Then = func(ctx context.Context) error {
		_, err := c.d.StartOnDiscord(ctx, g, messageID)
		return err
	}
	return resp, nil
}

func (c *ChallengeCommand) decline(ctx context.Context, r *Request) (*Response, error) {
	release := c.d.Ledger.Reserve(ChallengePost(r.ID.ID, EventDeclined))
	res, err := c.d.Games.DeclineChallenge(ctx, c.action(r))
	if err != nil {
		release()
		return nil, gameError(err)
	}
	return &Response{Kind: UpdateMessage, Content: fmt.Sprintf("✖ **%s** declined the challenge from **%s**.",
		playerName(storagePlayer(r.User)), playerName(res.Challenge.From))}, nil
}

func (c *ChallengeCommand) cancel(ctx context.Context, r *Request) (*Response, error) {
	res, err := c.d.Games.CancelChallenge(ctx, c.action(r))
	if err != nil {
		if errors.Is(err, games.ErrNotYourChallenge) {
			return nil, Explain(err, "Only the challenger can cancel a challenge.")
		}
		return nil, gameError(err)
	}
	return &Response{Kind: UpdateMessage, Content: fmt.Sprintf("↩ **%s** withdrew the challenge.", playerName(res.Challenge.From))}, nil
}
