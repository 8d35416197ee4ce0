package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// poster posts over the REST client: the notifier's transport.
type poster struct{ rest *REST }

// postTimeout bounds one post, 429 retries included.
const postTimeout = 15 * time.Second

func messageSend(m *commands.Response) *discordgo.MessageSend {
	return &discordgo.MessageSend{
		Content: m.Content, Embeds: m.Embeds, Components: m.Components,
		AllowedMentions: commands.AllowedMentions(m.Mentions...),
	}
}

// Post sends m to a channel or thread and returns the message's ID.
func (p *poster) Post(ctx context.Context, channelID string, m *commands.Response) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	msg, err := p.rest.Send(ctx, channelID, messageSend(m), m.Files)
	if err != nil {
		return "", err
	}
	return msg.ID, nil
}

// StartThread opens a public thread in a channel (from a message when messageID is
// set) and returns its ID.
func (p *poster) StartThread(ctx context.Context, channelID, messageID, name string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	th, err := p.rest.StartThread(ctx, channelID, messageID, name)
	if err != nil {
		return "", err
	}
	return th.ID, nil
}

// DM sends m to a user in a direct message.
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

// Notifier posts what is not the answer to an interaction. It hears the game
// service's events (the board after a move made outside the game's thread, flag falls,
// timeouts, reminders, expiries) and posts what no interaction's answer already showed
// (see commands.PostLedger); and it is the commands' Outbox, through which a new
// game's thread and board, the tournaments' rounds and standings and the puzzle of the
// day leave. So every such post leaves through here, and nothing posts before Connect.
type Notifier struct {
	d       *commands.Deps
	log     *slog.Logger
	metrics *Metrics
	out     atomic.Pointer[transport]
	// Notify runs on one goroutine (the service's event queue): no lock needed.
	flagNote map[uint64]string
	// offerShown is 1 + the ply of the last board posted with a draw offer on it, by
	// game: an offer made with a move shows in that move's board.
	offerShown map[uint64]int
}

// transport is what the notifier posts with: the REST client in production.
type transport interface {
	commands.Outbox
	// DM sends m to a user in a direct message.
	DM(ctx context.Context, userID string, m *commands.Response) error
}

// errNotConnected is the error of a post before Connect.
var errNotConnected = errors.New("the notifier has no connection to Discord yet")

// NewNotifier returns the notifier of d's posts and makes it d's Outbox. It posts
// nothing until Connect.
func NewNotifier(d *commands.Deps, log *slog.Logger, m *Metrics) *Notifier {
	n := &Notifier{d: d, log: log, metrics: m, flagNote: map[uint64]string{}, offerShown: map[uint64]int{}}
	d.Outbox = n
	return n
}

// Connect gives the notifier what it posts with.
func (n *Notifier) Connect(t transport) { n.out.Store(&t) }

func (n *Notifier) transport() (transport, error) {
	t := n.out.Load()
	if t == nil {
		return nil, errNotConnected
	}
	return *t, nil
}

var (
	_ games.Notifier  = (*Notifier)(nil)
	_ commands.Outbox = (*Notifier)(nil)
)

// Post implements commands.Outbox.
func (n *Notifier) Post(ctx context.Context, channelID string, m *commands.Response) (string, error) {
	t, err := n.transport()
	if err != nil {
		return "", err
	}
	return t.Post(ctx, channelID, m)
}

// StartThread implements commands.Outbox.
func (n *Notifier) StartThread(ctx context.Context, channelID, messageID, name string) (string, error) {
	t, err := n.transport()
	if err != nil {
		return "", err
	}
	return t.StartThread(ctx, channelID, messageID, name)
}

// dm sends m to a user in a direct message.
func (n *Notifier) dm(ctx context.Context, userID string, m *commands.Response) error {
	t, err := n.transport()
	if err != nil {
		return err
	}
	return t.DM(ctx, userID, m)
}

// Notify implements games.Notifier.
func (n *Notifier) Notify(ctx context.Context, e games.Event) {
	if err := n.notify(ctx, e); err != nil {
		n.log.Error("notify", "event", fmt.Sprintf("%T", e), "err", err)
		n.metrics.failed("notify")
	}
}

// answered reports whether an interaction's answer stood for the post.
func (n *Notifier) answered(p commands.Post) bool { return n.d.Ledger.Consume(p) }

// post sends m to where game g lives.
func (n *Notifier) post(ctx context.Context, g *games.Game, m *commands.Response) error {
	place := commands.Place(&g.Game)
	if place == "" {
		return nil // a game without a place on Discord (a terminal game)
	}
	_, err := n.Post(ctx, place, m)
	return err
}

func (n *Notifier) notify(ctx context.Context, e games.Event) error {
	d := n.d
	switch ev := e.(type) {
	case games.GameStarted:
		g := ev.Game
		if g.ChallengeID != 0 && n.answered(commands.ChallengePost(g.ChallengeID, commands.EventStarted)) {
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
		if n.answered(commands.GamePost(g.ID, g.Ply(), commands.EventTurn)) {
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
		if n.answered(commands.GamePost(g.ID, g.Ply(), commands.EventDraw)) {
			return nil
		}
		if n.offerShown[g.ID] == g.Ply()+1 {
			delete(n.offerShown, g.ID)
			return nil // offered with the move: that move's board shows it
		}
		return n.post(ctx, g, d.DrawOfferMessage(g, ev.By))
	case games.DrawDeclined:
		g := ev.Game
		if n.answered(commands.GamePost(g.ID, g.Ply(), commands.EventDeclined)) {
			return nil
		}
		return n.post(ctx, g, commands.DrawDeclinedMessage(g, ev.By))
	case games.TakebackRequested:
		g := ev.Game
		if n.answered(commands.GamePost(g.ID, g.Ply(), commands.EventTakeback)) {
			return nil
		}
		return n.post(ctx, g, d.TakebackMessage(g, ev.By))
	case games.TakebackAccepted:
		g := ev.Game
		if n.answered(commands.GamePost(g.ID, g.Ply(), commands.EventTakeback)) {
			return nil
		}
		return n.post(ctx, g, commands.TakebackGrantedMessage(g, ev.By))
	case games.TakebackDeclined:
		g := ev.Game
		if n.answered(commands.GamePost(g.ID, g.Ply(), commands.EventDeclined)) {
			return nil
		}
		return n.post(ctx, g, commands.TakebackDeclinedMessage(g, ev.By))
	case games.FlagFell:
		n.flagNote[ev.Game.ID] = commands.FlagFellNote(ev.Color)
		return nil
	case games.GameOver:
		g := ev.Game
		note := n.flagNote[g.ID]
		delete(n.flagNote, g.ID)
		delete(n.offerShown, g.ID)
		if n.answered(commands.GamePost(g.ID, g.Ply(), commands.EventOver)) {
			return nil
		}
		if g.Outcome.Termination == chesscore.Aborted && note == "" {
			note = commands.NoFirstMovesNote
		}
		msg, err := d.GameOverMessage(ctx, g, note)
		if err != nil {
			return err
		}
		return n.post(ctx, g, msg)
	case games.ReminderDue:
		g := ev.Game
		if err := n.post(ctx, g, commands.ReminderMessage(g, ev.Player, ev.Deadline)); err != nil {
			return err
		}
		return n.dmTurn(ctx, g, ev.Player)
	case games.ChallengeExpired:
		c := ev.Challenge
		if c.ChannelID == "" {
			return nil
		}
		_, err := n.Post(ctx, c.ChannelID, commands.ChallengeExpiredMessage(c))
		return err
	case games.ChallengeDeclined:
		c := ev.Challenge
		if n.answered(commands.ChallengePost(c.ID, commands.EventDeclined)) || c.ChannelID == "" {
			return nil
		}
		_, err := n.Post(ctx, c.ChannelID, commands.ChallengeDeclinedMessage(c))
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
	return n.dm(ctx, p.ID, commands.TurnDM(g))
}
