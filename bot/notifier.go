package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/service/digest"
	"github.com/gambitchess/gambit/service/games"
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

// DM sends m to a user in a direct message. A failure to open the DM channel wraps
// digest.ErrNotSent (no message left); Discord's refusal of the message (the user's DMs
// are closed) wraps digest.ErrDMRefused (dmrefusal.go).
func (p *poster) DM(ctx context.Context, userID string, m *commands.Response) error {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	ch, err := p.rest.OpenDM(ctx, userID)
	if err != nil {
		return fmt.Errorf("%w: %w", digest.ErrNotSent, err)
	}
	_, err = p.rest.Send(ctx, ch, messageSend(m), m.Files)
	return dmRefused(err)
}

// GuildName reads a guild's name (the digest names each game's server).
func (p *poster) GuildName(ctx context.Context, guildID string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	return p.rest.GuildName(ctx, guildID)
}

// Notifier posts what is not the answer to an interaction. It hears the game
// service's events (the board after a move made outside the game's thread, flag falls,
// timeouts, reminders, expiries) and posts what no interaction's answer already showed
// (see commands.PostLedger); and it is the commands' Outbox, through which a new
// game's thread and board, the tournaments' rounds and standings and the puzzle of the
// day leave. So every such post leaves through here, and nothing posts before Connect.
//
// Notify only queues the event: each channel has its own queue (notifyqueue.go), so
// the events of a game (all in its channel's queue) are posted in order, while a channel
// that is rate limited or slow delays no other channel's posts. Close drains the queues.
type Notifier struct {
	d       *commands.Deps
	log     *slog.Logger
	metrics *Metrics
	out     atomic.Pointer[transport]
	queues  *postQueues

	// The game state below is touched by the queue of each game's channel, several
	// channels at once.
	mu       sync.Mutex
	flagNote map[uint64]string
	// offerShown is 1 + the ply of the last board posted with a draw offer on it, by
	// game: an offer made with a move shows in that move's board.
	offerShown map[uint64]int
	// places are the threads this notifier opened for games whose later events may still
	// carry a snapshot taken before the thread was recorded (the engine can move first).
	places map[uint64]string

	// guildNames are the servers' names the digests read (dmrefusal.go).
	guildNames guildNames
}

// transport is what the notifier posts with: the REST client in production.
type transport interface {
	commands.Outbox
	// DM sends m to a user in a direct message.
	DM(ctx context.Context, userID string, m *commands.Response) error
}

// errNotConnected is the error of a post before Connect.
var errNotConnected = errors.New("the notifier has no connection to Discord yet")

// NewNotifier returns the notifier of d's posts and makes it d's Outbox and Calendar. It posts
// nothing until Connect.
func NewNotifier(d *commands.Deps, log *slog.Logger, m *Metrics) *Notifier {
	n := &Notifier{d: d, log: log, metrics: m, flagNote: map[uint64]string{}, offerShown: map[uint64]int{}, places: map[uint64]string{}}
	n.queues = newPostQueues(n.deliver, n.drop)
	d.Outbox = n
	d.Calendar = n
	return n
}

// Flush waits until every event notified so far has been posted (or has failed), or ctx
// ends.
func (n *Notifier) Flush(ctx context.Context) error { return n.queues.flush(ctx) }

// Close waits up to grace for the queued events to be posted, then cancels the posts
// still in flight. Events notified later are posted at once, on the caller's goroutine.
func (n *Notifier) Close(grace time.Duration) {
	if err := n.queues.close(grace); err != nil {
		n.log.Warn("notifier: gave up waiting for the last posts", "after", grace, "err", err)
	}
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

// Notify implements games.Notifier: it queues e behind the other events of its
// channel and returns (it waits only when every queue together is full).
func (n *Notifier) Notify(_ context.Context, e games.Event) {
	n.queues.push(eventChannel(e), e)
}

// eventChannel is the queue of an event: the channel of its game or challenge (a game's
// thread lives in that channel, so its events share one queue from the first).
func eventChannel(e games.Event) string {
	switch ev := e.(type) {
	case games.GameStarted:
		return ev.Game.ChannelID
	case games.YourTurn:
		return ev.Game.ChannelID
	case games.DrawOffered:
		return ev.Game.ChannelID
	case games.DrawDeclined:
		return ev.Game.ChannelID
	case games.TakebackRequested:
		return ev.Game.ChannelID
	case games.TakebackAccepted:
		return ev.Game.ChannelID
	case games.TakebackDeclined:
		return ev.Game.ChannelID
	case games.FlagFell:
		return ev.Game.ChannelID
	case games.GameOver:
		return ev.Game.ChannelID
	case games.ReminderDue:
		return ev.Game.ChannelID
	case games.ConditionalPlayed:
		return ev.Game.ChannelID
	case games.PlanDropped:
		return ev.Game.ChannelID
	case games.VacationStarted:
		return ev.Game.ChannelID
	case games.ChallengeExpired:
		return ev.Challenge.ChannelID
	case games.ChallengeDeclined:
		return ev.Challenge.ChannelID
	}
	return ""
}

// deliver posts one event (a queue's drainer calls it).
func (n *Notifier) deliver(ctx context.Context, e games.Event) {
	defer func() {
		if p := recover(); p != nil {
			n.log.Error("notify: panic", "event", fmt.Sprintf("%T", e), "panic", p)
			n.metrics.failed("notify")
		}
	}()
	if err := n.notify(ctx, e); err != nil {
		n.log.Error("notify", "event", fmt.Sprintf("%T", e), "err", err)
		n.metrics.failed("notify")
	}
}

// drop reports an event refused because its channel's queue is full.
func (n *Notifier) drop(channelID string, e games.Event) {
	n.log.Error("notify: dropped an event: its channel has too many posts waiting (rate limited or unreachable?)",
		"event", fmt.Sprintf("%T", e), "channel", channelID, "waiting", maxQueuedPerChannel)
	n.metrics.notificationDropped()
}

// answered reports whether an interaction's answer stood for the post.
func (n *Notifier) answered(p commands.Post) bool { return n.d.Ledger.Consume(p) }

// post sends m to where game g lives; nothing for a guest game, whose place the bot
// cannot post in (its boards go with the answers to its players' interactions).
func (n *Notifier) post(ctx context.Context, g *games.Game, m *commands.Response) error {
	if g.Guest {
		return nil
	}
	place := commands.Place(&g.Game)
	if g.ThreadID == "" {
		n.mu.Lock()
		if p, ok := n.places[g.ID]; ok {
			place = p // the snapshot predates the thread this notifier opened
		}
		n.mu.Unlock()
	}
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
		if g.ChannelID == "" || g.Guest {
			return nil // a guest game's first board is the answer to the Accept click
		}
		ng, err := d.StartOnDiscord(ctx, g, "")
		if ng != nil && ng.ThreadID != "" {
			n.mu.Lock()
			n.places[g.ID] = ng.ThreadID
			n.mu.Unlock()
		}
		return err
	case games.YourTurn:
		g := ev.Game
		if g.DrawOffer.Pending && g.DrawOffer.Ply == g.Ply() {
			n.mu.Lock()
			n.offerShown[g.ID] = g.Ply() + 1 // offered with this move: the board shows it
			n.mu.Unlock()
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
		return n.dmTurn(ctx, g, ev.Player.ID)
	case games.DrawOffered:
		g := ev.Game
		if n.answered(commands.GamePost(g.ID, g.Ply(), commands.EventDraw)) {
			return nil
		}
		n.mu.Lock()
		shown := n.offerShown[g.ID] == g.Ply()+1
		if shown {
			delete(n.offerShown, g.ID)
		}
		n.mu.Unlock()
		if shown {
			return nil // offered with the move: that move's board shows it
		}
		return n.post(ctx, g, d.DrawOfferMessage(ctx, g, ev.By))
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
		return n.post(ctx, g, d.TakebackMessage(ctx, g, ev.By))
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
		n.mu.Lock()
		n.flagNote[ev.Game.ID] = commands.FlagFellNote(ev.Color)
		n.mu.Unlock()
		return nil
	case games.GameOver:
		g := ev.Game
		n.mu.Lock()
		note := n.flagNote[g.ID]
		delete(n.flagNote, g.ID)
		delete(n.offerShown, g.ID)
		place, hasPlace := n.places[g.ID]
		delete(n.places, g.ID)
		n.mu.Unlock()
		if hasPlace && g.ThreadID == "" {
			gg := *g
			gg.ThreadID = place
			g = &gg
		}
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
		if g.Guest {
			return n.dmOver(ctx, g, msg)
		}
		return n.post(ctx, g, msg)
	case games.ReminderDue:
		g := ev.Game
		if err := n.post(ctx, g, commands.ReminderMessage(g, ev.Player, ev.Deadline)); err != nil {
			return err
		}
		return n.dmTurn(ctx, g, ev.Player.ID)
	case games.ConditionalPlayed:
		g := ev.Game
		msg, err := d.TurnMessage(ctx, g)
		if err != nil {
			return err
		}
		msg.Content = commands.ConditionalNote(ev) + "\n" + msg.Content
		if err := n.post(ctx, g, msg); err != nil {
			return err
		}
		return n.dmTurn(ctx, g, g.Player(g.Turn()).ID)
	case games.PlanDropped:
		return n.post(ctx, ev.Game, commands.PlanDroppedMessage(ev.Game, ev.Player, ev.Move, ev.Off))
	case games.VacationStarted:
		return n.post(ctx, ev.Game, commands.VacationStartedMessage(ev))
	case games.ChallengeExpired:
		c := ev.Challenge
		if c.ChannelID == "" || c.Guest {
			return nil
		}
		_, err := n.Post(ctx, c.ChannelID, commands.ChallengeExpiredMessage(c))
		return err
	case games.ChallengeDeclined:
		c := ev.Challenge
		if n.answered(commands.ChallengePost(c.ID, commands.EventDeclined)) || c.ChannelID == "" || c.Guest {
			return nil
		}
		_, err := n.Post(ctx, c.ChannelID, commands.ChallengeDeclinedMessage(c))
		return err
	}
	return nil
}

// dmTurn sends a direct message to the player userID of g, who has the move, if they
// asked for one in correspondence games.
func (n *Notifier) dmTurn(ctx context.Context, g *games.Game, userID string) error {
	if g.Control.Kind() != clock.KindCorrespondence {
		return nil
	}
	prefs, err := n.d.Games.Settings().Prefs(ctx, userID)
	if err != nil || !prefs.DMOnTurn {
		return err
	}
	return n.dm(ctx, userID, commands.TurnDM(g))
}

// dmOver sends the end of a guest game, which the bot cannot post where the game is
// played, to each of its players who allowed DMs (/notify dm_on_turn); the others see it
// when they next act on the game. An answer that showed the end stood for this post
// already (the caller checks the ledger first).
func (n *Notifier) dmOver(ctx context.Context, g *games.Game, m *commands.Response) error {
	var errs []error
	for _, p := range []string{g.White.ID, g.Black.ID} {
		prefs, err := n.d.Games.Settings().Prefs(ctx, p)
		if err != nil {
			errs = append(errs, fmt.Errorf("preferences of %s: %w", p, err))
			continue
		}
		if !prefs.DMOnTurn {
			continue
		}
		dm := *m
		dm.Components, dm.Mentions = nil, nil
		if err := n.dm(ctx, p, &dm); err != nil {
			errs = append(errs, fmt.Errorf("DM the end of game %d to %s: %w", g.ID, p, err))
		}
	}
	return errors.Join(errs...)
}
