// events.go: what the service tells the world, and the queue that delivers it after
// commit without holding any game's lock.

package games

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// Notifier receives the service's events. The bot posts them to Discord; tests record
// them. Notify is called from one goroutine, in commit order, after the change the
// event reports is durable; a slow Notify delays later events, never a game.
type Notifier interface {
	Notify(ctx context.Context, e Event)
}

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, e Event)

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, e Event) { f(ctx, e) }

// Event is one of the event types below.
type Event interface{ event() }

// GameStarted: a game was created (a challenge accepted, or StartGame).
type GameStarted struct{ Game *Game }

// YourTurn: Player (of Color) has the move, after the opponent moved or a takeback.
type YourTurn struct {
	Game   *Game
	Player storage.Player
	Color  chesscore.Color
}

// DrawOffered: By offered a draw; the opponent may accept until they move.
type DrawOffered struct {
	Game *Game
	By   chesscore.Color
}

// DrawDeclined: By declined the opponent's draw offer.
type DrawDeclined struct {
	Game *Game
	By   chesscore.Color
}

// TakebackRequested: By asked to take back their last move.
type TakebackRequested struct {
	Game *Game
	By   chesscore.Color
}

// TakebackAccepted: By's takeback request was accepted; By has the move again.
type TakebackAccepted struct {
	Game *Game
	By   chesscore.Color
}

// TakebackDeclined: By declined the opponent's takeback request.
type TakebackDeclined struct {
	Game *Game
	By   chesscore.Color
}

// GameOver: the game ended. Every ending sends exactly one GameOver (a flag fall sends
// FlagFell first).
type GameOver struct {
	Game    *Game
	Outcome chesscore.Outcome
}

// FlagFell: Color's time ran out (the outcome follows FIDE 6.9: a draw when the
// opponent could not checkmate). GameOver follows.
type FlagFell struct {
	Game  *Game
	Color chesscore.Color
}

// ReminderDue: Player has until Deadline to move in a correspondence game.
type ReminderDue struct {
	Game     *Game
	Player   storage.Player
	Color    chesscore.Color
	Deadline time.Time
}

// ChallengeExpired: a challenge was not answered in time.
type ChallengeExpired struct{ Challenge *storage.Challenge }

// ChallengeDeclined: the challenged user declined.
type ChallengeDeclined struct{ Challenge *storage.Challenge }

func (GameStarted) event()       {}
func (YourTurn) event()          {}
func (DrawOffered) event()       {}
func (DrawDeclined) event()      {}
func (TakebackRequested) event() {}
func (TakebackAccepted) event()  {}
func (TakebackDeclined) event()  {}
func (GameOver) event()          {}
func (FlagFell) event()          {}
func (ReminderDue) event()       {}
func (ChallengeExpired) event()  {}
func (ChallengeDeclined) event() {}

// Recorder is a Notifier that keeps the events, for tests (here and in the bot).
type Recorder struct {
	mu     sync.Mutex
	events []Event
}

// Notify records e.
func (r *Recorder) Notify(_ context.Context, e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// Events returns the events recorded so far and forgets them.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

// dispatcher delivers events in order on its own goroutine.
type dispatcher struct {
	n      Notifier
	ctx    context.Context
	log    *slog.Logger
	mu     sync.Mutex
	cond   *sync.Cond
	queue  []Event
	busy   bool // a batch is being delivered
	closed bool
	done   chan struct{}
}

func newDispatcher(ctx context.Context, n Notifier, log *slog.Logger) *dispatcher {
	d := &dispatcher{n: n, ctx: ctx, log: log, done: make(chan struct{})}
	d.cond = sync.NewCond(&d.mu)
	go d.run()
	return d
}

// push queues events; it never blocks on delivery.
func (d *dispatcher) push(evs ...Event) {
	if len(evs) == 0 {
		return
	}
	d.mu.Lock()
	d.queue = append(d.queue, evs...)
	d.mu.Unlock()
	d.cond.Broadcast()
}

func (d *dispatcher) run() {
	defer close(d.done)
	for {
		d.mu.Lock()
		for len(d.queue) == 0 && !d.closed {
			d.busy = false
			d.cond.Broadcast()
			d.cond.Wait()
		}
		if len(d.queue) == 0 && d.closed {
			d.busy = false
			d.mu.Unlock()
			d.cond.Broadcast()
			return
		}
		batch := d.queue
		d.queue = nil
		d.busy = true
		d.mu.Unlock()
		for _, e := range batch {
			d.deliver(e)
		}
	}
}

func (d *dispatcher) deliver(e Event) {
	defer func() {
		if p := recover(); p != nil {
			d.log.Error("games: notifier panicked", "event", e, "panic", p)
		}
	}()
	d.n.Notify(d.ctx, e)
}

// flush waits until every event queued so far has been delivered.
func (d *dispatcher) flush(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		d.mu.Lock()
		d.cond.Broadcast()
		d.mu.Unlock()
	})
	defer stop()
	d.mu.Lock()
	defer d.mu.Unlock()
	for len(d.queue) > 0 || d.busy {
		if err := ctx.Err(); err != nil {
			return err
		}
		d.cond.Wait()
	}
	return nil
}

// close delivers what is queued and stops the goroutine.
func (d *dispatcher) close() {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	d.cond.Broadcast()
	<-d.done
}
