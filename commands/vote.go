package commands

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/votechess"
	"github.com/gambitchess/gambit/storage"
)

// /vote start | join | move: vote chess, the server's team against the engine, each
// move chosen by the votes of the members who joined. The vote post (the tally, a
// select menu of moves, the Join button) goes to the game's thread through the outbox,
// from the vote service's events (VoteEvent); the boards are the game's own.

func init() {
	register(registration{
		name:    "vote",
		build:   func(d *Deps) Command { return NewVote(d) },
		topic:   helpTopic{group: groupPlay, order: 25, example: "/vote start level:3 color:white window:1h"},
		options: []optionUse{{[]string{"*"}, voteOptions{}}},
	})
}

var _ Command = (*VoteCommand)(nil)
var _ Componenter = (*VoteCommand)(nil)

// VoteCommand is /vote.
type VoteCommand struct{ d *Deps }

// NewVote returns /vote.
func NewVote(d *Deps) *VoteCommand { return &VoteCommand{d} }

type voteOptions struct {
	Level  *int   `option:"level"`
	Color  string `option:"color"`
	Window string `option:"window"`
	Game   int64  `option:"game"`
	Move   string `option:"move"`
}

// Component actions of a vote post.
const (
	actionVoteJoin = "join"
	actionVotePick = "pick"
)

// defaultVoteWindow is the window of /vote start without one.
const defaultVoteWindow = time.Hour

// Definition implements Command.
func (c *VoteCommand) Definition() *discordgo.ApplicationCommand {
	fl := func(v float64) *float64 { return &v }
	game := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "game",
		Description: "The vote game's number (default: the one played here)", MinValue: fl(1)}
	play := NewPlay(c.d) // the same levels as /play bot
	levels := fmt.Sprintf("The engine's strength, 1 (beginner) to %d (%s); default %d", play.maxLevel(), levelWord(play.maxLevel()), defaultBotLevel)
	return &discordgo.ApplicationCommand{
		Name:             "vote",
		Description:      "Vote chess: the server's team plays the engine, each move chosen by vote",
		Contexts:         contexts(serversOnly),
		IntegrationTypes: installs(guildInstall),
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "start", Description: "Start a vote game against the engine in this channel; you join the team",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionInteger, Name: "level", Description: levels, Choices: play.levelChoices()},
					{Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "The team's colour", Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "random", Value: "random"}, {Name: "white", Value: "white"}, {Name: "black", Value: "black"},
					}},
					{Type: discordgo.ApplicationCommandOptionString, Name: "window", Description: "How long each vote stays open: 10m, 2h, 1d (default 1h)", MaxLength: 20},
				}},
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "join", Description: "Join the team of a vote game", Options: []*discordgo.ApplicationCommandOption{game}},
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "move", Description: "Vote for a move by its notation (any legal move, also one not in the menu)",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "The move: e4, Nf3, O-O, e7e8q", Required: true, MaxLength: 16},
					game,
				}},
		},
	}
}

// Components implements Componenter: the Join button and the move menu of a vote post.
func (c *VoteCommand) Components() map[string]Handler {
	return map[string]Handler{
		"vote/" + actionVoteJoin: func(ctx context.Context, r *Request) (*Response, error) {
			if err := c.ready(r); err != nil {
				return nil, err
			}
			return c.join(ctx, r, r.ID.ID)
		},
		"vote/" + actionVotePick: func(ctx context.Context, r *Request) (*Response, error) {
			if err := c.ready(r); err != nil {
				return nil, err
			}
			if len(r.Values) != 1 {
				return nil, Errorf("Pick one move from the menu.")
			}
			v, err := c.d.Votes.Ballot(ctx, votechess.BallotRequest{GameID: r.ID.ID, GuildID: r.GuildID, UserID: r.User.ID, Ply: r.ID.Ply, Move: r.Values[0]})
			if err != nil {
				return nil, voteError(err, r.Values[0])
			}
			// The post shows the new tally; the voter alone sees their pick in the menu.
			resp := c.d.VoteMessage(v)
			resp.Kind = UpdateMessage
			return resp, nil
		},
	}
}

func (c *VoteCommand) ready(r *Request) error {
	if c.d.Votes == nil {
		return Errorf("Vote chess is not available on this bot.")
	}
	if r.GuildID == "" {
		return Errorf("Vote chess is played by a server's members: use /vote in a server channel.")
	}
	return nil
}

// Handle implements Command.
func (c *VoteCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if err := c.ready(r); err != nil {
		return nil, err
	}
	var o voteOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	switch r.Sub {
	case "start":
		return c.start(ctx, r, o)
	case "join":
		id, err := c.pick(ctx, r, o.Game)
		if err != nil {
			return nil, err
		}
		return c.join(ctx, r, id)
	case "move":
		id, err := c.pick(ctx, r, o.Game)
		if err != nil {
			return nil, err
		}
		v, err := c.d.Votes.Ballot(ctx, votechess.BallotRequest{GameID: id, GuildID: r.GuildID, UserID: r.User.ID, Ply: -1, Move: o.Move})
		if err != nil {
			return nil, voteError(err, o.Move)
		}
		san := o.Move
		for _, b := range v.Vote.Round.Ballots {
			if b.UserID == r.User.ID {
				san = sanIn(v, b.Move)
			}
		}
		return Private("🗳 Your vote for **%s** is in; you may change it until the vote closes <t:%d:R>.", EscapeMarkdown(san), v.Vote.Round.Closes.Unix()), nil
	}
	return nil, fmt.Errorf("/vote: unknown subcommand %q", r.Sub)
}

// sanIn is the SAN of a voted move in the view's tally (its UCI when not found).
func sanIn(v *votechess.View, uci string) string {
	for _, t := range v.Tally {
		if t.Move == uci {
			return t.SAN
		}
	}
	return uci
}

func (c *VoteCommand) start(ctx context.Context, r *Request, o voteOptions) (*Response, error) {
	if c.d.draining() {
		return nil, Errorf("Gambit is restarting: new games are paused for a minute. Games in progress go on.")
	}
	level := defaultBotLevel
	if o.Level != nil {
		level = *o.Level
	}
	maxL := NewPlay(c.d).maxLevel()
	if level < engine.MinLevel || level > maxL {
		return nil, Errorf("There is no level %d: choose a level from %d (beginner) to %d (%s).", level, engine.MinLevel, maxL, levelWord(maxL))
	}
	window := defaultVoteWindow
	if s := strings.TrimSpace(o.Window); s != "" {
		w, err := parseVoteWindow(s)
		if err != nil {
			return nil, err
		}
		window = w
	}
	v, err := c.d.Votes.Start(ctx, votechess.StartRequest{RequestID: r.Interaction.ID, GuildID: r.GuildID, ChannelID: r.ChannelID,
		Starter: storagePlayer(r.User), Level: level, Color: storage.ColorChoice(o.Color), Window: window})
	if err != nil {
		if errors.Is(err, engineplay.ErrBadLevel) {
			return nil, Explain(err, fmt.Sprintf("There is no level %d here.", level))
		}
		return nil, voteError(err, "")
	}
	return &Response{
		Content: fmt.Sprintf("🗳 **Vote chess**, game %d: this server's team plays the engine at level %d, with %s. Each move is chosen by the team's votes, every vote open for %s. Join the team to vote; the board and the votes follow in the game's thread.",
			v.Game.ID, level, colorName(v.Vote.Color), windowLabel(window)),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{joinButton(v)}}},
	}, nil
}

func joinButton(v *votechess.View) discordgo.Button {
	return discordgo.Button{Label: "Join the team", Style: discordgo.PrimaryButton,
		CustomID: NewCustomID("vote", v.Game.ID, 0, actionVoteJoin).String()}
}

func (c *VoteCommand) join(ctx context.Context, r *Request, id uint64) (*Response, error) {
	v, err := c.d.Votes.Join(ctx, id, r.GuildID, r.User.ID)
	if err != nil {
		return nil, voteError(err, "")
	}
	return Private("🤝 You are in the team of game %d (%d member%s). Vote in the vote post of the game's thread, or with /vote move.",
		v.Game.ID, len(v.Vote.Members), plural(len(v.Vote.Members))), nil
}

// pick finds the vote game a command is about: the one given, else the one live in
// this channel or thread.
func (c *VoteCommand) pick(ctx context.Context, r *Request, id int64) (uint64, error) {
	if id > 0 {
		return uint64(id), nil
	}
	vs, err := c.d.Votes.InChannel(ctx, r.GuildID, r.ChannelID)
	if err != nil {
		return 0, err
	}
	switch len(vs) {
	case 0:
		return 0, Errorf("No vote game is being played here: give its number (game:), or start one with /vote start.")
	case 1:
		return vs[0].Game.ID, nil
	}
	ids := make([]string, len(vs))
	for i, v := range vs {
		ids[i] = strconv.FormatUint(v.Game.ID, 10)
	}
	return 0, Errorf("Several vote games are being played here (%s): say which with game:.", strings.Join(ids, ", "))
}

// parseVoteWindow reads a vote window: a Go duration (10m, 2h30m) or days (1d, 3d).
func parseVoteWindow(s string) (time.Duration, error) {
	bad := Errorf("I cannot read the window %q: give minutes, hours or days such as 10m, 2h or 1d, from %s to %s.",
		EscapeMarkdown(s), windowLabel(votechess.MinWindow), windowLabel(storage.MaxVoteWindow))
	var d time.Duration
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 1 || days > 14 {
			return 0, bad
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, bad
		}
	}
	if d < votechess.MinWindow || d > storage.MaxVoteWindow {
		return 0, bad
	}
	return d, nil
}

// windowLabel writes a window as people say it: "1 day", "2 hours", "90 minutes".
func windowLabel(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		n := int(d / (24 * time.Hour))
		return fmt.Sprintf("%d day%s", n, plural(n))
	case d%time.Hour == 0:
		n := int(d / time.Hour)
		return fmt.Sprintf("%d hour%s", n, plural(n))
	case d%time.Minute == 0:
		n := int(d / time.Minute)
		return fmt.Sprintf("%d minute%s", n, plural(n))
	}
	return d.String()
}

// voteError says what went wrong with a vote request; move is the move asked for.
func voteError(err error, move string) error {
	var ue *UserError
	switch {
	case errors.As(err, &ue):
		return err
	case errors.Is(err, votechess.ErrNotFound):
		return Explain(err, "There is no such vote game on this server.")
	case errors.Is(err, votechess.ErrNotMember):
		return Explain(err, "You are not in the team: press **Join the team** (or use /vote join) first.")
	case errors.Is(err, votechess.ErrAlreadyMember):
		return Explain(err, "You are already in the team.")
	case errors.Is(err, votechess.ErrTeamFull):
		return Explain(err, fmt.Sprintf("The team is full (%d members).", storage.MaxTeamMembers))
	case errors.Is(err, votechess.ErrVoteClosed):
		return Explain(err, "That vote is closed: the team votes on the newest vote post now (or with /vote move).")
	case errors.Is(err, votechess.ErrIllegalMove):
		return Explain(err, fmt.Sprintf("%q is not a legal move in the team's position.", Shorten(move, 16, UTF16)))
	case errors.Is(err, votechess.ErrGameOver):
		return Explain(err, "That vote game is over.")
	case errors.Is(err, votechess.ErrBadWindow):
		return Explain(err, fmt.Sprintf("A vote lasts from %s to %s.", windowLabel(votechess.MinWindow), windowLabel(storage.MaxVoteWindow)))
	case errors.Is(err, votechess.ErrNotReady), errors.Is(err, engineplay.ErrNotReady):
		return Explain(err, "The engine is still starting. Try again in a few seconds.")
	}
	return gameError(err)
}

// VoteMessage is the vote post of an open vote: the move voted on, when it closes, the
// tally (counts only: who voted what is nobody's business), the move menu and the
// Join button.
func (d *Deps) VoteMessage(v *votechess.View) *Response {
	rec, g := v.Vote, v.Game
	var b strings.Builder
	move := g.Ply()/2 + 1
	fmt.Fprintf(&b, "🗳 **Vote chess**, game %d · move %d for %s (the team) against the engine at level %d", g.ID, move, colorName(rec.Color), v.Level)
	if rec.Round.Open && !rec.Over {
		fmt.Fprintf(&b, "\nThe vote closes <t:%d:R>; the most voted move is played (a tie goes to the move voted for first).", rec.Round.Closes.Unix())
	}
	if rec.Empty > 0 {
		fmt.Fprintf(&b, "\nNo ballot in the last %d vote%s: after %d in a row the team resigns.", rec.Empty, plural(rec.Empty), votechess.MaxEmptyVotes)
	}
	fmt.Fprintf(&b, "\n%d ballot%s from %d member%s", len(rec.Round.Ballots), plural(len(rec.Round.Ballots)), len(rec.Members), plural(len(rec.Members)))
	if len(v.Tally) > 0 {
		parts := make([]string, len(v.Tally))
		for i, t := range v.Tally {
			parts[i] = fmt.Sprintf("**%s** %d", t.SAN, t.Votes)
		}
		b.WriteString(": " + strings.Join(parts, " · "))
	}
	resp := &Response{}
	if len(v.Choices) > 0 {
		opts := make([]discordgo.SelectMenuOption, 0, len(v.Choices))
		for _, c := range v.Choices {
			opts = append(opts, discordgo.SelectMenuOption{Label: c.SAN, Value: c.Move})
		}
		pos := g.Position
		if ml := pos.CountLegalMoves(); ml > len(v.Choices) {
			fmt.Fprintf(&b, "\nThe menu holds the engine's best candidates and the moves voted for; vote for any of the %d legal moves with /vote move.", ml)
		}
		resp.Components = append(resp.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			MenuType: discordgo.StringSelectMenu, CustomID: NewCustomID("vote", g.ID, rec.Round.Ply, actionVotePick).String(),
			Placeholder: "Vote for a move…", Options: opts,
		}}})
	}
	if !rec.Over {
		resp.Components = append(resp.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{joinButton(v)}})
	}
	resp.Content = b.String()
	return resp
}

// VoteEvent posts the vote service's events in the game's thread: a vote opened (the
// vote post, then recorded as posted), a vote closed (the move and its tally), the
// team's resignation. The boards come from the game's own events.
func (d *Deps) VoteEvent(ctx context.Context, e votechess.Event) {
	if err := d.voteEvent(ctx, e); err != nil {
		slog.Error("vote chess post", "event", fmt.Sprintf("%T", e), "err", err)
	}
}

func (d *Deps) voteEvent(ctx context.Context, e votechess.Event) error {
	if d.Outbox == nil {
		return nil
	}
	place := func(v *votechess.View) string {
		if v.Game.ThreadID != "" {
			return v.Game.ThreadID
		}
		return v.Game.ChannelID
	}
	switch ev := e.(type) {
	case votechess.VoteOpened:
		if d.placePending(ctx, ev.View.Game) {
			return nil // StartOnDiscord asks for the announcement again once the thread is there
		}
		if _, err := d.Outbox.Post(ctx, place(ev.View), d.VoteMessage(ev.View)); err != nil {
			return err
		}
		if d.Votes != nil {
			return d.Votes.MarkPosted(ctx, ev.View.Game.ID, ev.View.Vote.Round.Ply)
		}
	case votechess.VoteClosed:
		parts := make([]string, len(ev.Tally))
		votes := 0
		for i, t := range ev.Tally {
			parts[i] = fmt.Sprintf("%s %d", t.SAN, t.Votes)
			votes += t.Votes
		}
		_, err := d.Outbox.Post(ctx, place(ev.View), Reply("✅ The vote is closed: the team plays **%s** (%d ballot%s: %s).",
			EscapeMarkdown(ev.SAN), votes, plural(votes), EscapeMarkdown(strings.Join(parts, " · "))))
		return err
	case votechess.TeamResigned:
		_, err := d.Outbox.Post(ctx, place(ev.View), Reply("🏳 %d votes in a row closed without a ballot: the team resigns.", votechess.MaxEmptyVotes))
		return err
	}
	return nil
}

// votePlaced records that vote game id has its place (its thread) and asks the vote
// service to announce its vote there.
func (d *Deps) votePlaced(id uint64) {
	d.placed.Store(id, struct{}{})
	if d.Votes != nil {
		d.Votes.Kick(id)
	}
}

// placePending reports whether a new vote game's thread may still be on its way: the
// game starts, and its thread is made, on the game's events, which the vote service
// does not wait for. A game past its first moves is where it will stay.
func (d *Deps) placePending(ctx context.Context, g *games.Game) bool {
	if _, ok := d.placed.Load(g.ID); ok || g.ThreadID != "" || g.Ply() > 1 {
		return false
	}
	gs := d.settings(ctx, g.GuildID)
	return gs.ThreadPerGame || gs.GamesChannel != ""
}
