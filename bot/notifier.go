package bot

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// poster implements commands.Poster over the REST client.
type poster struct{ rest *REST }

// postTimeout bounds one post, 429 retries included.
const postTimeout = 15 * time.Second

func messageSend(m *commands.Response) *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Content: m.Content, Embeds: m.Embeds, Components: m.Components,
		AllowedMentions: commands.AllowedMentions(m.Mentions...),
	}
}

// Post implements commands.Poster.
func (p *poster) Post(ctx context.Context, channelID string, m *commands.Response) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	msg, err := p.rest.Send(ctx, channelID, messageSend(m), m.Files)
	if err != nil {
		return "", err
	}
	return msg.ID, nil
}

// StartThread implements commands.Poster.
func (p *poster) StartThread(ctx context.Context, channelID, messageID, name string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	th, err := p.rest.StartThread(ctx, channelID, messageID, name)
	if err != nil {
		return "", err
	}
	return th.ID, nil
}

// DM implements commands.Poster.
func (p *poster) DM(ctx context.Context, userID string, m *commands.Response) error {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	ch, err := p.rest.OpenDM(ctx, userID)
	if err != nil {
		return err
	}
	_, err = p.rest.Send(ctx, ch, messageSend(m), m.Files)
	return err
}

// Notifier posts the game service's events to Discord: the board after a move made
// outside the game's thread, flag falls, timeouts, reminders, expiries. What an
// interaction's answer already showed (see commands.Claims) is not posted again.
type Notifier struct {
	d       *commands.Deps
	log     *slog.Logger
	metrics *Metrics
	// Notify runs on one goroutine (the service's event queue): no lock needed.
	flagNote map[uint64]string
	// offerShown is 1 + the ply of the last board posted with a draw offer on it, by
	// game: an offer made with a move shows in that move's board.
	offerShown map[uint64]int
}

// NewNotifier returns a notifier posting with d.Poster.
func NewNotifier(d *commands.Deps, log *slog.Logger, m *Metrics) *Notifier {
	return &Notifier{d: d, log: log, metrics: m, flagNote: map[uint64]string{}, offerShown: map[uint64]int{}}
}

var _ games.Notifier = (*Notifier)(nil)

// Notify implements games.Notifier.
func (n *Notifier) Notify(ctx context.Context, e games.Event) {
	if err := n.notify(ctx, e); err != nil {
		n.log.Error("notify", "event", fmt.Sprintf("%T", e), "err", err)
		n.metrics.failed("notify")
	}
}

func (n *Notifier) taken(p commands.Post) bool { return n.d.Claims.Take(p) }

// post sends m to where game g lives.
func (n *Notifier) post(ctx context.Context, g *games.Game, m *commands.Response) error {
	place := commands.Place(&g.Game)
	if place == "" {
		return nil // a game without a place on Discord (a terminal game)
	}
	_, err := n.d.Poster.Post(ctx, place, m)
	return err
}

func (n *Notifier) notify(ctx context.Context, e games.Event) error {
	d := n.d
	switch ev := e.(type) {
	case games.GameStarted:
		g := ev.Game
		if g.ChallengeID != 0 && n.taken(commands.ChallengePost(g.ChallengeID, commands.EventStarted)) {
			return nil
		}
		if g.ChannelID == "" {
			return nil
		}
		_, err := d.StartOnDiscord(ctx, g, "")
		return err
	case games.YourTurn:
		g := ev.Game
		if g.DrawOffer.Pending && g.DrawOffer.Ply == g.Ply() {
			n.offerShown[g.ID] = g.Ply() + 1 // offered with this move: the board shows it
		}
		if n.taken(commands.GamePost(g.ID, g.Ply(), commands.EventTurn)) {
			return nil
		}
		msg, err := d.TurnMessage(ctx, g)
		if err != nil {
			return err
		}
		if err := n.post(ctx, g, msg); err != nil {
			return err
		}
		return n.dmTurn(ctx, g, ev.Player)
	case games.DrawOffered:
		g := ev.Game
		if n.taken(commands.GamePost(g.ID, g.Ply(), commands.EventDraw)) {
			return nil
		}
		if n.offerShown[g.ID] == g.Ply()+1 {
			delete(n.offerShown, g.ID)
			return nil // offered with the move: that move's board shows it
		}
		return n.post(ctx, g, n.d.DrawOfferMessage(g, ev.By))
	case games.DrawDeclined:
		g := ev.Game
		if n.taken(commands.GamePost(g.ID, g.Ply(), commands.EventDeclined)) {
			return nil
		}
		return n.post(ctx, g, &commands.Response{Content: fmt.Sprintf("%s\n%s declined the draw offer. Play on!", commands.Headline(&g.Game), colorTitle(ev.By))})
	case games.TakebackRequested:
		g := ev.Game
		if n.taken(commands.GamePost(g.ID, g.Ply(), commands.EventTakeback)) {
			return nil
		}
		return n.post(ctx, g, n.d.TakebackMessage(g, ev.By))
	case games.TakebackAccepted:
		g := ev.Game
		if n.taken(commands.GamePost(g.ID, g.Ply(), commands.EventTakeback)) {
			return nil
		}
		return n.post(ctx, g, &commands.Response{Content: fmt.Sprintf("%s\n↶ %s's takeback was granted; the board follows.", commands.Headline(&g.Game), colorTitle(ev.By))})
	case games.TakebackDeclined:
		g := ev.Game
		if n.taken(commands.GamePost(g.ID, g.Ply(), commands.EventDeclined)) {
			return nil
		}
		return n.post(ctx, g, &commands.Response{Content: fmt.Sprintf("%s\n%s declined the takeback. Play on!", commands.Headline(&g.Game), colorTitle(ev.By))})
	case games.FlagFell:
		n.flagNote[ev.Game.ID] = fmt.Sprintf("⏱ %s's flag fell.", colorTitle(ev.Color))
		return nil
	case games.GameOver:
		g := ev.Game
		note := n.flagNote[g.ID]
		delete(n.flagNote, g.ID)
		delete(n.offerShown, g.ID)
		if n.taken(commands.GamePost(g.ID, g.Ply(), commands.EventOver)) {
			return nil
		}
		if g.Outcome.Termination == chesscore.Aborted && note == "" {
			note = "The game was aborted: the first moves did not come in time."
		}
		msg, err := d.GameOverMessage(ctx, g, note)
		if err != nil {
			return err
		}
		return n.post(ctx, g, msg)
	case games.ReminderDue:
		g := ev.Game
		msg := &commands.Response{
			Content:  fmt.Sprintf("⏰ %s, you have until <t:%d:f> (<t:%d:R>) to move in game %d.", commands.Mention(ev.Player.ID), ev.Deadline.Unix(), ev.Deadline.Unix(), g.ID),
			Mentions: []string{ev.Player.ID},
		}
		if err := n.post(ctx, g, msg); err != nil {
			return err
		}
		return n.dmTurn(ctx, g, ev.Player)
	case games.ChallengeExpired:
		c := ev.Challenge
		if c.ChannelID == "" {
			return nil
		}
		_, err := d.Poster.Post(ctx, c.ChannelID, &commands.Response{Content: fmt.Sprintf("⌛ Challenge %d from %s expired without an answer.", c.ID, commands.EscapeMarkdown(c.From.Name))})
		return err
	case games.ChallengeDeclined:
		c := ev.Challenge
		if n.taken(commands.ChallengePost(c.ID, commands.EventDeclined)) || c.ChannelID == "" {
			return nil
		}
		_, err := d.Poster.Post(ctx, c.ChannelID, &commands.Response{Content: fmt.Sprintf("✖ %s declined the challenge from %s.", commands.EscapeMarkdown(c.To.Name), commands.EscapeMarkdown(c.From.Name))})
		return err
	}
	return nil
}

// dmTurn sends a direct message to a player who asked for one in correspondence games.
func (n *Notifier) dmTurn(ctx context.Context, g *games.Game, p storage.Player) error {
	if g.Control.Kind() != clock.KindCorrespondence {
		return nil
	}
	prefs, err := n.d.Games.UserPrefs(ctx, p.ID)
	if err != nil || !prefs.DMOnTurn {
		return err
	}
	place := commands.Place(&g.Game)
	text := fmt.Sprintf("Your move in game %d: <#%s>", g.ID, place)
	if dl := g.Deadline(); !dl.IsZero() {
		text += fmt.Sprintf(" (deadline <t:%d:R>)", dl.Unix())
	}
	return n.d.Poster.DM(ctx, p.ID, &commands.Response{Content: text})
}

func colorTitle(c chesscore.Color) string {
	if c == chesscore.White {
		return "White"
	}
	return "Black"
}
