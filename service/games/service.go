// service.go: the Service, its options, its per-game locks and cache, start-up and
// shutdown, and the read methods.

package games

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/settings"
	"github.com/gambitchess/gambit/storage"
)

// Clock tells the time (timers.SystemClock in production, a timers.ManualClock in
// tests).
type Clock = timers.Clock

// Options configure a Service. The zero value is the production setting.
type Options struct {
	// Clock is the time source (default the system clock).
	Clock Clock
	// Notifier receives the events (default: none).
	Notifier Notifier
	// Rand draws random colours (default math/rand/v2).
	Rand func() uint64
	// OnFinish, if set, runs inside the transaction that ends a game, with the game as it
	// ends: the ladder updates ratings here so that the result and the ratings commit
	// together. An error fails the request that ended the game (nothing is written).
	// OnFinish may run more than once for one ending (a retried group commit); only
	// writes through w count, so it must not act outside the transaction.
	OnFinish func(tx storage.Tx, g *Game) error
	// FirstMoveTimeout is how long a live game waits for each side's first move before
	// it is aborted (default 5 minutes).
	FirstMoveTimeout time.Duration
	// DefaultControl is the time control of a challenge that names none in a guild that
	// has not chosen its own (default 10+5; the bot passes games.default_time_control).
	// Unused when Settings is set, which has its own (settings.Options.DefaultControl).
	DefaultControl clock.TimeControl
	// Settings owns the guilds' settings and the users' preferences (default: a
	// settings.Service on the store with DefaultControl); SetUserPrefs writes through it.
	Settings *settings.Service
	// ChallengeTTL is how long a challenge waits for an answer when the request names no
	// expiry (default 15 minutes; 24 hours for a correspondence control).
	ChallengeTTL time.Duration
	// ChallengeLimits cap one user's pending challenges, their challenges to one person
	// and the pings challenges give one person (challenges.go; zero fields take the
	// defaults).
	ChallengeLimits ChallengeLimits
	// MaxDrawOffers is how many draw offers a player may make in one game (default 3);
	// a player may also offer at most once per own move.
	MaxDrawOffers int
	// DrawOfferWindow is how long after one's move a draw may still be offered while
	// the opponent is to move (default 15 s): the online "after making a move and
	// before pressing the clock" of FIDE 9.1.2.1. Later, the offer goes with one's next
	// move.
	DrawOfferWindow time.Duration
	// ReceiptTTL is how long request receipts are kept (default 24 hours).
	ReceiptTTL time.Duration
	// CacheSize bounds the live games kept replayed in memory (default 20,000); a
	// negative size disables the cache (every request replays from storage).
	CacheSize int
	// Heartbeat is how often the service records that it is alive, for the downtime
	// policy (default 2 s).
	Heartbeat time.Duration
	// Instance names the service's heartbeat (default "bot"); two programs sharing a
	// file (the bot and gambit play) must use different names and scopes.
	Instance string
	// Peers, if set, names the other instances whose heartbeats vouch for this
	// service's games: the processes that run the same games on the store (every
	// `gambit serve` process of a cluster, whatever its name). At start-up the service
	// credits downtime from the latest heartbeat of itself or any peer, since the games'
	// clocks ran while any of them was alive. Nil: its own heartbeat only.
	Peers func(instance string) bool
	// LastAlive, if not zero, is the instant the downtime credit at start-up runs from,
	// in place of the heartbeats: what LastAlive (the function) read before this
	// process took its share of the servers, so that a peer that started a moment
	// earlier, after the same outage, does not vouch for clocks nobody ran.
	LastAlive time.Time
	// Scope, if set, limits the games whose clocks this service runs (timers, downtime
	// credit) to those it accepts; requests still work on every game.
	Scope func(*storage.Game) bool
	// Owns, if set, limits the games whose deadlines (flag falls, reminders, first-move
	// aborts) this service fires to those of the servers it returns true for: the
	// servers of the partitions this process leases when several share one store. A
	// deadline of another server is dropped when due (its owner fires it); call Adopt
	// when Owns starts accepting more servers. Nil: every game, as with one process.
	Owns func(guildID string) bool
	// BackgroundTimeout bounds the store work of one timer (a flag fall, a reminder, an
	// abort, a challenge's expiry, a heartbeat): background work has no user waiting,
	// so it gets its own deadline instead of a request's (default 10 s). A timer whose
	// work times out is tried again a second later.
	BackgroundTimeout time.Duration
	// VacationDays is each player's vacation days a year in a server whose settings
	// name none (default 14; negative: none; the bot passes games.vacation_days).
	VacationDays int
	// Logger receives the service's logs (default slog.Default()).
	Logger *slog.Logger
}

// lockStripes is the size of a lock table: 1<<10, the top ten bits of a key's mixed hash.
const lockStripes = 1 << (64 - 54)

// Service runs games: challenges, moves, offers, claims, clocks. Its methods are safe
// for concurrent use; requests on one game are serialised by that game's lock.
type Service struct {
	db    storage.Store
	opts  Options
	clock Clock
	log   *slog.Logger
	sched *timers.Scheduler

	// The locks of requests (by id), challenges and games. A goroutine takes at most one
	// of each table, in this order: a request's, a challenge's, a game's (starting a
	// game holds the request's or the challenge's lock and then takes the new game's).
	// Separate tables keep two keys of different kinds off one stripe: with one shared
	// table a request id and its new game could hash to the same mutex and deadlock.
	requestLocks, challengeLocks, gameLocks lockTable
	// stripeMask selects a stripe from a key's hash: lockStripes-1; 0 in tests that
	// put every key of a table on one stripe.
	stripeMask uint64
	seed       maphash.Seed

	cacheMu sync.Mutex
	cache   map[uint64]*entry

	events   *dispatcher
	cancel   context.CancelFunc
	closed   atomic.Bool
	inflight sync.RWMutex   // held shared by every request and timer handler; Close takes it
	async    sync.WaitGroup // flag commits handed off by timer handlers
	flags    *queue[flagCommit]

	// vacations maps the timer ids of vacations (vacationKey) to their guild and user.
	vacMu     sync.Mutex
	vacations map[uint64]member

	// testFlagDetected, if set (before Run), is told each flag fall the timers detect:
	// the deadline and the instant the scheduler found it due.
	testFlagDetected func(deadline, seen time.Time)
}

// New starts the service on db: it loads the live games, credits their clocks for any
// downtime (see the package documentation), rebuilds every timer and starts the event
// queue. Call Run to fire timers and Close to stop.
func New(db storage.Store, opts Options) (*Service, error) {
	if opts.Clock == nil {
		opts.Clock = timers.SystemClock{}
	}
	if opts.Notifier == nil {
		opts.Notifier = NotifierFunc(func(context.Context, Event) {})
	}
	if opts.Rand == nil {
		opts.Rand = rand.Uint64
	}
	if opts.FirstMoveTimeout <= 0 {
		opts.FirstMoveTimeout = 5 * time.Minute
	}
	if opts.DefaultControl.Kind() == clock.KindUnknown {
		opts.DefaultControl = clock.TimeControl{Periods: []clock.Period{{Base: 10 * time.Minute, Increment: 5 * time.Second}}}
	}
	if opts.MaxDrawOffers <= 0 {
		opts.MaxDrawOffers = 3
	}
	if opts.DrawOfferWindow <= 0 {
		opts.DrawOfferWindow = 15 * time.Second
	}
	if opts.ReceiptTTL <= 0 {
		opts.ReceiptTTL = 24 * time.Hour
	}
	if opts.CacheSize == 0 {
		opts.CacheSize = 20000
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 2 * time.Second
	}
	if opts.Instance == "" {
		opts.Instance = "bot"
	}
	if opts.BackgroundTimeout <= 0 {
		opts.BackgroundTimeout = 10 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	switch {
	case opts.VacationDays == 0:
		opts.VacationDays = DefaultVacationDays
	case opts.VacationDays < 0:
		opts.VacationDays = 0
	}
	if opts.Settings == nil {
		opts.Settings = settings.New(db, settings.Options{DefaultControl: opts.DefaultControl, Now: opts.Clock.Now})
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Service{
		db: db, opts: opts, clock: opts.Clock, log: opts.Logger, sched: timers.New(),
		seed: maphash.MakeSeed(), cache: make(map[uint64]*entry), cancel: cancel, stripeMask: lockStripes - 1,
		vacations: make(map[uint64]member),
	}
	s.events = newDispatcher(ctx, opts.Notifier, opts.Logger)
	if err := s.restore(); err != nil {
		s.events.close()
		cancel()
		return nil, err
	}
	return s, nil
}

// Run fires the service's timers (flag falls, deadlines, reminders, aborts, challenge
// expiries, heartbeats) as they come due, until ctx is done. The scheduler's goroutine
// only hands due timers to a small pool of handlers through an unbounded queue, and the
// handlers hand flag falls, once decided, to one committer that writes all those
// waiting in a single transaction; so neither a burst of deadlines nor a slow disk
// delays the detection of the next deadline.
func (s *Service) Run(ctx context.Context) error {
	workers := runtime.GOMAXPROCS(0) // the work is mostly CPU (6.9 verdicts): one per core
	timersQ := newQueue[dueTimer]()
	s.flags = newQueue[flagCommit]()
	var pool sync.WaitGroup
	for range workers {
		pool.Add(1)
		go func() {
			defer pool.Done()
			for {
				d, ok := timersQ.pop(1)
				if !ok {
					return
				}
				s.onTimer(d[0].Entry, d[0].seen, true)
			}
		}()
	}
	committed := make(chan struct{})
	go func() {
		defer close(committed)
		for {
			batch, ok := s.flags.pop(1000)
			if !ok {
				return
			}
			// Background work with its own deadline, not Run's ctx: the queue is
			// drained at shutdown, and the falls already decided must still be written.
			fctx, cancel := context.WithTimeout(context.Background(), s.opts.BackgroundTimeout)
			s.commitFlags(fctx, batch)
			cancel()
		}
	}()
	err := s.sched.Run(ctx, s.clock, func(e timers.Entry) {
		timersQ.push(dueTimer{Entry: e, seen: s.clock.Now()})
	})
	timersQ.close()
	pool.Wait()
	s.flags.close()
	<-committed
	return err
}

// flagCommit is a decided flag fall waiting to be written; the game's lock is held
// until it is.
type flagCommit struct {
	p      *prepared
	retry  func(error)
	unlock func()
}

// commitFlags writes decided flag falls in one transaction, then publishes them and
// releases their games. If the transaction fails (one change's hook refused), each is
// committed on its own.
func (s *Service) commitFlags(ctx context.Context, batch []flagCommit) {
	changes := make([]*storage.Change, len(batch))
	for i, f := range batch {
		changes[i] = f.p.change
	}
	if err := s.db.CommitAll(ctx, changes); err == nil {
		for _, f := range batch {
			f.p.publish()
		}
	} else {
		for _, f := range batch {
			if err := s.db.Commit(ctx, f.p.change); err != nil {
				f.retry(err)
				continue
			}
			f.p.publish()
		}
	}
	for _, f := range batch {
		f.unlock()
		s.async.Done()
	}
}

// queue is an unbounded FIFO: pushing never blocks.
type queue[T any] struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []T
	closed bool
}

func newQueue[T any]() *queue[T] {
	q := &queue[T]{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue[T]) push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Signal()
}

// pop waits for an item and returns up to max of the oldest; false once closed and
// drained.
func (q *queue[T]) pop(max int) ([]T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return nil, false
	}
	n := min(max, len(q.items))
	out := make([]T, n)
	copy(out, q.items)
	rest := copy(q.items, q.items[n:])
	clear(q.items[rest:])
	q.items = q.items[:rest]
	return out, true
}

func (q *queue[T]) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// dueTimer is a timer handed to a handler, with the instant the scheduler saw it due.
type dueTimer struct {
	timers.Entry
	seen time.Time
}

// FireDue handles, one after another on the caller's goroutine, every timer due at the
// clock's present time, and returns how many there were. Tests drive the service with a
// manual clock and FireDue instead of Run.
func (s *Service) FireDue() int {
	now := s.clock.Now()
	due := s.sched.PopDue(now, nil)
	for _, e := range due {
		s.onTimer(e, now, false)
	}
	return len(due)
}

// Flush waits until every event of the requests answered so far has been delivered.
func (s *Service) Flush(ctx context.Context) error { return s.events.flush(ctx) }

// Close stops the service: it refuses further requests and timers, waits for those in
// progress, records a last heartbeat and delivers the queued events. Stop Run first. It
// does not close the store.
func (s *Service) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return nil
	}
	s.inflight.Lock() // wait for the requests and handlers in progress
	//lint:ignore SA2001 a barrier: requests hold the read side, so taking it waits for them
	s.inflight.Unlock()
	s.async.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.BackgroundTimeout)
	defer cancel()
	err := s.heartbeat(ctx, s.clock.Now())
	s.events.close()
	s.cancel()
	if err != nil {
		return fmt.Errorf("close game service: %w", err)
	}
	return nil
}

// lockTable is a striped table of mutexes: keys whose hashes share a stripe share a
// mutex, so the table's size bounds the memory whatever the number of keys.
type lockTable [lockStripes]sync.Mutex

// lock locks the stripe of key k (under mask) and returns the unlock.
func (t *lockTable) lock(k, mask uint64) func() {
	m := &t[(k*0x9E3779B97F4A7C15)>>54&mask]
	m.Lock()
	return m.Unlock
}

// lockString locks a request id's stripe.
func (s *Service) lockString(key string) func() {
	return s.requestLocks.lock(maphash.String(s.seed, key), s.stripeMask)
}

// lockGame locks game id's stripe.
func (s *Service) lockGame(id uint64) func() { return s.gameLocks.lock(id, s.stripeMask) }

// lockChallenge locks challenge id's stripe.
func (s *Service) lockChallenge(id uint64) func() { return s.challengeLocks.lock(id, s.stripeMask) }

// cached returns the cached entry of a live game.
func (s *Service) cached(id uint64) *entry {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	return s.cache[id]
}

// load returns the committed entry of game id. The caller holds the game's lock.
func (s *Service) load(ctx context.Context, id uint64) (*entry, error) {
	if e := s.cached(id); e != nil {
		return e, nil
	}
	rec, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("game %d: %w", id, ErrNoSuchGame)
	}
	if err != nil {
		return nil, fmt.Errorf("load game %d: %w", id, err)
	}
	chess, err := Replay(rec)
	if err != nil {
		return nil, err
	}
	e := &entry{rec: rec, chess: chess}
	s.remember(e)
	return e, nil
}

// remember puts a live game in the cache and drops a finished one. The caller holds the
// game's lock.
func (s *Service) remember(e *entry) {
	if s.opts.CacheSize < 0 {
		return
	}
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if !e.rec.Live() {
		delete(s.cache, e.rec.ID)
		return
	}
	if _, ok := s.cache[e.rec.ID]; !ok && len(s.cache) >= s.opts.CacheSize {
		for id := range s.cache { // drop any one: it is replayed from storage when needed
			delete(s.cache, id)
			break
		}
	}
	s.cache[e.rec.ID] = e
}

func (s *Service) inScope(g *storage.Game) bool { return s.opts.Scope == nil || s.opts.Scope(g) }

// Game returns a snapshot of game id as stored, also when another process sharing the
// store changed it after this one cached it.
func (s *Service) Game(ctx context.Context, id uint64) (*Game, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e := s.cached(id); e != nil && s.current(ctx, e) {
		return e.view(), nil
	}
	unlock := s.lockGame(id) // a miss loads under the lock, so it cannot cache a stale copy
	defer unlock()
	if e := s.cached(id); e != nil && !s.current(ctx, e) {
		s.forget(id) // another process sharing the store changed the game
	}
	e, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	return e.view(), nil
}

// current reports whether the cached copy e is the game as stored. Only a store other
// processes share can differ: there, the stored version is read (a process of the bot
// may have moved the game since this one cached it). A copy that cannot be checked is
// taken as out of date.
func (s *Service) current(ctx context.Context, e *entry) bool {
	if !s.db.Shared() {
		return true
	}
	rec, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(e.rec.ID) })
	return err == nil && rec.Version == e.rec.Version
}

// OpenGames returns the records of every live game (not replayed: use Game for a board).
func (s *Service) OpenGames(ctx context.Context) ([]*storage.Game, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return storage.Read(ctx, s.db, storage.Tx.OpenGames)
}

// OpenGamesInGuild returns the records of a server's live games, newest first, read
// through the server's index (no other server's game is read).
func (s *Service) OpenGamesInGuild(ctx context.Context, guildID string) ([]*storage.Game, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return storage.Read(ctx, s.db, func(tx storage.Tx) ([]*storage.Game, error) {
		return tx.GamesInGuild(guildID, storage.Query{LiveOnly: true})
	})
}

// OpenGamesInChannel returns the records of the live games played in a channel (not
// in its threads), newest first.
func (s *Service) OpenGamesInChannel(ctx context.Context, channelID string) ([]*storage.Game, error) {
	return s.GamesInChannel(ctx, channelID, storage.Query{LiveOnly: true})
}

// GamesByUser returns the records of a user's games, newest first.
func (s *Service) GamesByUser(ctx context.Context, userID string, q storage.Query) ([]*storage.Game, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return storage.Read(ctx, s.db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser(userID, q) })
}

// GamesInChannel returns the records of a channel's games, newest first.
func (s *Service) GamesInChannel(ctx context.Context, channelID string, q storage.Query) ([]*storage.Game, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return storage.Read(ctx, s.db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesInChannel(channelID, q) })
}

// Challenge returns challenge id.
func (s *Service) Challenge(ctx context.Context, id uint64) (*storage.Challenge, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Challenge, error) { return tx.Challenge(id) })
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("challenge %d: %w", id, ErrNoSuchChallenge)
	}
	return c, err
}

// PendingChallenges returns the challenges waiting for an answer.
func (s *Service) PendingChallenges(ctx context.Context) ([]*storage.Challenge, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return storage.Read(ctx, s.db, storage.Tx.PendingChallenges)
}

// Settings is the owner of the guilds' settings and the users' preferences the
// service was built with (Options.Settings).
func (s *Service) Settings() *settings.Service { return s.opts.Settings }

// SetUserPrefs stores a user's notification preferences (idempotent by value) through
// Settings and reschedules the reminders of the user's correspondence games.
func (s *Service) SetUserPrefs(ctx context.Context, userID string, p storage.UserPrefs) error {
	if err := s.opts.Settings.SetPrefs(ctx, userID, p); err != nil {
		return err
	}
	games, err := storage.Read(ctx, s.db, func(tx storage.Tx) ([]*storage.Game, error) {
		return tx.GamesByUser(userID, storage.Query{LiveOnly: true})
	})
	if err != nil {
		return err
	}
	for _, g := range games {
		unlock := s.lockGame(g.ID)
		if e, err := s.load(ctx, g.ID); err == nil {
			s.schedule(e)
		}
		unlock()
	}
	return nil
}

// SetGameThread records the thread the bot opened for a game (idempotent by value).
func (s *Service) SetGameThread(ctx context.Context, gameID uint64, threadID string) (*Game, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if len(threadID) > storage.MaxIDLen {
		return nil, fmt.Errorf("%w: thread id is longer than %d bytes", ErrBadRequest, storage.MaxIDLen)
	}
	unlock := s.lockGame(gameID)
	defer unlock()
	for attempt := 1; ; attempt++ {
		e, err := s.load(ctx, gameID)
		if err != nil {
			return nil, err
		}
		if e.rec.ThreadID == threadID {
			return e.view(), nil
		}
		rec := e.rec.Clone()
		rec.ThreadID = threadID
		if err := s.db.Commit(ctx, &storage.Change{Game: rec}); err != nil {
			if errors.Is(err, storage.ErrConflict) && attempt < maxOpAttempts {
				s.forget(gameID) // another process changed the game: reload it and try again
				continue
			}
			return nil, fmt.Errorf("set thread of game %d: %w", gameID, err)
		}
		ne := &entry{rec: rec, chess: e.chess, wrote: e.wrote}
		s.remember(ne)
		return ne.view(), nil
	}
}

// enter admits a request: it refuses one after Close or with a cancelled context, and
// otherwise returns the function that marks the request done (Close waits for it).
func (s *Service) enter(ctx context.Context) (done func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.inflight.RLock()
	if s.closed.Load() {
		s.inflight.RUnlock()
		return nil, ErrClosed
	}
	return s.inflight.RUnlock, nil
}

// receipt returns the answer of a request already done, if requestID has a receipt.
func (s *Service) receipt(ctx context.Context, requestID string) (*Result, bool, error) {
	if requestID == "" {
		return nil, false, nil
	}
	r, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Receipt, error) { return tx.Receipt(requestID) })
	if errors.Is(err, storage.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	res := &Result{Effect: Effect(r.Effect), SAN: r.SAN, Ply: r.Ply, Outcome: r.Outcome, Replayed: true}
	if r.GameID != 0 {
		if e := s.cached(r.GameID); e != nil {
			res.Game = e.view()
		} else if rec, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(r.GameID) }); err == nil {
			if chess, err := Replay(rec); err == nil {
				res.Game = (&entry{rec: rec, chess: chess}).view()
			}
		}
	}
	if r.ChallengeID != 0 {
		if c, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Challenge, error) { return tx.Challenge(r.ChallengeID) }); err == nil {
			res.Challenge = c
		}
	}
	return res, true, nil
}

// localPrefix marks the players of a terminal game.
const localPrefix = "local:"

// LocalScope is the Scope of a terminal program (gambit play): the games whose two
// players are local.
func LocalScope(g *storage.Game) bool {
	return strings.HasPrefix(g.White.ID, localPrefix) && strings.HasPrefix(g.Black.ID, localPrefix)
}

// BotScope is the Scope of the bot: every game but the terminal ones.
func BotScope(g *storage.Game) bool { return !LocalScope(g) }
