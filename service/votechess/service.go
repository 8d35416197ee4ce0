// service.go: the Service, its options and events, its timers and its background work:
// the reconcile that opens, closes and ends the votes of a game.

package votechess

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// Policy (see the package documentation).
const (
	// MaxEmptyVotes is how many votes in a row may close without a ballot: the team
	// resigns when that many have.
	MaxEmptyVotes = 3
	// MaxChoices is how many moves a vote offers to pick from (Discord's select menu
	// holds 25 options).
	MaxChoices = 25
	// MinWindow is the shortest vote window.
	MinWindow = time.Minute
	// DiscoverEvery is how often the live vote games are read again, for work another
	// process wrote.
	DiscoverEvery = time.Minute
	// TeamPrefix starts every team's player id, which is never a person's (Discord's
	// user ids are numbers).
	TeamPrefix = "team-"
	// TeamName is the team's name in the game record.
	TeamName = "The team"
)

// Errors of the service, for errors.Is.
var (
	// ErrNotFound: no vote game of that id on the server asked about.
	ErrNotFound = errors.New("no such vote game")
	// ErrNotMember: a ballot from someone who has not joined the team.
	ErrNotMember = errors.New("not in the team")
	// ErrAlreadyMember: a second join.
	ErrAlreadyMember = errors.New("already in the team")
	// ErrTeamFull: the team has storage.MaxTeamMembers members.
	ErrTeamFull = errors.New("the team is full")
	// ErrVoteClosed: a ballot for a vote that is not open (it closed, or it is
	// another move's).
	ErrVoteClosed = errors.New("the vote is closed")
	// ErrIllegalMove: a ballot for a move that cannot be played.
	ErrIllegalMove = errors.New("not a legal move")
	// ErrGameOver: the game has ended.
	ErrGameOver = errors.New("the game is over")
	// ErrBadWindow: a vote window out of range.
	ErrBadWindow = errors.New("vote window out of range")
	// ErrNotReady: a request before Bind.
	ErrNotReady = errors.New("vote chess is not ready yet")
)

// Options configure a Service. The zero value is the production setting.
type Options struct {
	// Clock is the time (default the system clock); it must be the game service's.
	Clock timers.Clock
	// Notifier receives the events (default: none).
	Notifier Notifier
	// Logger receives the logs (default slog.Default()).
	Logger *slog.Logger
	// Owns, if set, limits the games whose votes this process closes to those of the
	// servers it returns true for (its share when several processes run on one
	// store). Nil: every game.
	Owns func(guildID string) bool
	// BackgroundTimeout bounds the work of one reconcile (default 30 s: a close waits
	// for the move's commit).
	BackgroundTimeout time.Duration
	// CandidateNodes bounds the search that finds the candidates of a position with
	// more than MaxChoices legal moves (default 40,000 nodes).
	CandidateNodes uint64
}

// Notifier receives the service's events, after the change they report is committed,
// from the goroutine that committed it.
type Notifier interface {
	Notify(ctx context.Context, e Event)
}

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, e Event)

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, e Event) { f(ctx, e) }

// Event is VoteOpened, VoteClosed or TeamResigned.
type Event interface{ voteEvent() }

// VoteOpened: a vote is open (new, or moved on after closing empty: View.Vote.Empty
// says how many closed so in a row). It may be delivered again after a crash until
// MarkPosted records its post.
type VoteOpened struct{ View *View }

// VoteClosed: a vote closed and its move was played. Tally is the vote's, SAN the move.
type VoteClosed struct {
	View  *View
	Ply   int
	SAN   string
	Tally []Count
}

// TeamResigned: MaxEmptyVotes votes in a row closed without a ballot; the team
// resigned (a game in which a side has not moved yet is aborted instead).
type TeamResigned struct{ View *View }

func (VoteOpened) voteEvent()   {}
func (VoteClosed) voteEvent()   {}
func (TeamResigned) voteEvent() {}

// kindClose is the timer of a vote's close.
const kindClose timers.Kind = 1

// lockStripes is the size of the table of game locks.
const lockStripes = 64

// Service runs vote games. Its methods are safe for concurrent use.
type Service struct {
	db    storage.Store
	opts  Options
	clock timers.Clock
	log   *slog.Logger
	games atomic.Pointer[games.Service]
	eng   atomic.Pointer[engineplay.Service]
	sched *timers.Scheduler

	locks [lockStripes]sync.Mutex // serialise the reconciles of a game in this process

	mu      sync.Mutex
	pending map[uint64]struct{} // games to reconcile
	wake    chan struct{}

	candMu sync.Mutex
	cands  map[candKey][]Choice
}

// New makes the service on db. Call Bind before any request, and Run (or FireDue, in
// tests) for the votes to open and close.
func New(db storage.Store, opts Options) *Service {
	if opts.Clock == nil {
		opts.Clock = timers.SystemClock{}
	}
	if opts.Notifier == nil {
		opts.Notifier = NotifierFunc(func(context.Context, Event) {})
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.BackgroundTimeout <= 0 {
		opts.BackgroundTimeout = 30 * time.Second
	}
	if opts.CandidateNodes == 0 {
		opts.CandidateNodes = 40000
	}
	return &Service{
		db: db, opts: opts, clock: opts.Clock, log: opts.Logger.With("service", "votechess"), sched: timers.New(),
		pending: map[uint64]struct{}{}, wake: make(chan struct{}, 1), cands: map[candKey][]Choice{},
	}
}

// Bind gives the service the game service and the engine it plays through.
func (s *Service) Bind(g *games.Service, e *engineplay.Service) {
	s.games.Store(g)
	s.eng.Store(e)
}

func (s *Service) bound() (*games.Service, *engineplay.Service, error) {
	g, e := s.games.Load(), s.eng.Load()
	if g == nil || e == nil {
		return nil, nil, ErrNotReady
	}
	return g, e, nil
}

func (s *Service) owns(guildID string) bool { return s.opts.Owns == nil || s.opts.Owns(guildID) }

// Notify implements games.Notifier: a vote game whose team is to move, or that ended,
// is reconciled by the background work. It never blocks.
func (s *Service) Notify(_ context.Context, e games.Event) {
	var g *games.Game
	switch ev := e.(type) {
	case games.GameStarted:
		g = ev.Game
	case games.YourTurn:
		g = ev.Game
	case games.GameOver:
		g = ev.Game
	default:
		return
	}
	if IsTeam(g.White.ID) || IsTeam(g.Black.ID) {
		s.kick(g.ID)
	}
}

// IsTeam reports whether a player id is a vote team's.
func IsTeam(playerID string) bool {
	return len(playerID) > len(TeamPrefix) && playerID[:len(TeamPrefix)] == TeamPrefix
}

// Kick asks for game id to be reconciled soon (a vote owed is opened, an open vote
// not yet announced is announced again): the bot calls it once a new game has its
// thread.
func (s *Service) Kick(id uint64) { s.kick(id) }

// kick asks for game id to be reconciled.
func (s *Service) kick(id uint64) {
	s.mu.Lock()
	s.pending[id] = struct{}{}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Adopt reads the live vote games of the servers this process owns and queues each for
// a reconcile (their timers follow); it returns how many. Run calls it at start and
// every DiscoverEvery; call it when Options.Owns starts accepting more servers.
func (s *Service) Adopt(ctx context.Context) (int, error) {
	live, err := storage.Read(ctx, s.db, storage.Tx.LiveVoteGames)
	if err != nil {
		return 0, fmt.Errorf("read the live vote games: %w", err)
	}
	n := 0
	for _, v := range live {
		if s.owns(v.GuildID) {
			s.kick(v.GameID)
			n++
		}
	}
	return n, nil
}

// FireDue reconciles, on the caller's goroutine, every game whose close is due at the
// clock's present time and every game queued by an event, and returns how many. Tests
// drive the service with a manual clock and FireDue instead of Run.
func (s *Service) FireDue(ctx context.Context) int {
	due := s.sched.PopDue(s.clock.Now(), nil)
	s.mu.Lock()
	ids := make([]uint64, 0, len(due)+len(s.pending))
	seen := map[uint64]bool{}
	for _, e := range due {
		if !seen[e.Key.ID] {
			seen[e.Key.ID] = true
			ids = append(ids, e.Key.ID)
		}
	}
	for id := range s.pending {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	clear(s.pending)
	s.mu.Unlock()
	for _, id := range ids {
		rctx, cancel := context.WithTimeout(ctx, s.opts.BackgroundTimeout)
		if err := s.reconcile(rctx, id); err != nil && ctx.Err() == nil {
			s.log.Error("vote chess: reconcile", "game", id, "err", err)
			s.sched.Set(timers.Key{Kind: kindClose, ID: id}, s.clock.Now().Add(time.Second)) // try again
		}
		cancel()
	}
	return len(ids)
}

// Run opens and closes the votes as they come due, until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	if _, err := s.Adopt(ctx); err != nil {
		s.log.Error("vote chess: adopt", "err", err)
	}
	discover := time.NewTicker(DiscoverEvery)
	defer discover.Stop()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		s.FireDue(ctx)
		wait := DiscoverEvery
		if next, ok := s.sched.Next(); ok {
			wait = min(wait, max(next.At.Sub(s.clock.Now()), time.Millisecond))
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.wake:
		case <-timer.C:
		case <-discover.C:
			if _, err := s.Adopt(ctx); err != nil && ctx.Err() == nil {
				s.log.Error("vote chess: discover", "err", err)
			}
		}
	}
}

// reconcile brings game id's vote up to date, under the game's lock in this process;
// a write that lost to another (ErrConflict, or a stale move) reads again.
// The events are delivered once the lock is let go, so a slow post holds up no ballot.
func (s *Service) reconcile(ctx context.Context, id uint64) error {
	var evs []Event
	emit := func(e Event) { evs = append(evs, e) }
	err := func() error {
		unlock := s.lock(id)
		defer unlock()
		var err error
		for range 5 {
			err = s.step(ctx, id, emit)
			if !errors.Is(err, storage.ErrConflict) && !errors.Is(err, games.ErrStale) {
				return err
			}
		}
		return err
	}()
	for _, e := range evs {
		s.opts.Notifier.Notify(ctx, e)
	}
	return err
}

// lock takes game id's lock in this process and returns its release.
func (s *Service) lock(id uint64) func() {
	l := &s.locks[id%lockStripes]
	l.Lock()
	return l.Unlock
}

// step is one look at a vote game: it ends the record of a finished game, opens the
// vote owed to the team, closes a vote whose window has passed, or sets the timer of
// the open one.
func (s *Service) step(ctx context.Context, id uint64, emit func(Event)) error {
	gs, _, err := s.bound()
	if err != nil {
		return err
	}
	key := timers.Key{Kind: kindClose, ID: id}
	v, err := s.read(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		s.sched.Cancel(key)
		return nil
	}
	if err != nil {
		return err
	}
	if v.Over {
		s.sched.Cancel(key)
		return nil
	}
	g, err := gs.Game(ctx, id)
	if err != nil {
		return fmt.Errorf("load vote game %d: %w", id, err)
	}
	now := s.clock.Now()
	if !g.Live() {
		w := v.Clone()
		w.Over, w.Round.Open = true, false
		s.sched.Cancel(key)
		return s.put(ctx, w)
	}
	ply := g.Ply()
	if g.Turn() != v.Color {
		s.sched.Cancel(key) // the engine is to move: its reply brings the team's turn
		return nil
	}
	if v.Round.Ply != ply || !v.Round.Open {
		w := v.Clone()
		w.Round = storage.VoteRound{Ply: ply, Open: true, Opened: now, Closes: now.Add(v.Window)}
		if err := s.put(ctx, w); err != nil {
			return err
		}
		w.Version++
		s.schedule(w)
		emit(VoteOpened{View: s.view(ctx, w, g)})
		return nil
	}
	if now.Before(v.Round.Closes) {
		s.schedule(v)
		if !v.Round.Posted {
			emit(VoteOpened{View: s.view(ctx, v, g)})
		}
		return nil
	}
	return s.close(ctx, gs, v, g, now, emit)
}

// close ends the open vote of v, due at now: the winning move is played with the vote's
// record in its commit; a vote without a ballot moves on a window, or resigns the team.
func (s *Service) close(ctx context.Context, gs *games.Service, v *storage.VoteGame, g *games.Game, now time.Time, emit func(Event)) error {
	id, ply := v.GameID, v.Round.Ply
	key := timers.Key{Kind: kindClose, ID: id}
	tally := tallyOf(v.Round.Ballots, &g.Position)
	if len(tally) == 0 {
		w := v.Clone()
		w.Empty++
		if w.Empty >= MaxEmptyVotes {
			w.Over, w.Round.Open = true, false
			res, err := gs.Resign(ctx, games.Action{RequestID: fmt.Sprintf("vote/%d/%d/resign", id, ply), GameID: id, UserID: v.TeamID,
				Expect: games.AtPly(ply), After: func(tx storage.Tx, _ *storage.Game) error { return tx.PutVoteGame(w) }})
			if err != nil {
				return fmt.Errorf("resign vote game %d: %w", id, err)
			}
			s.sched.Cancel(key)
			if !res.Replayed {
				w.Version++
				emit(TeamResigned{View: s.view(ctx, w, res.Game)})
			}
			return nil
		}
		w.Round.Closes = now.Add(v.Window)
		w.Round.Posted = false // announced again, with its new close
		if err := s.put(ctx, w); err != nil {
			return err
		}
		w.Version++
		s.schedule(w)
		emit(VoteOpened{View: s.view(ctx, w, g)})
		return nil
	}
	chosen := tally[0].Move
	w := v.Clone()
	w.Round.Open, w.Round.Chosen, w.Empty = false, chosen, 0
	res, err := gs.Move(ctx, games.MoveRequest{Move: chosen, Action: games.Action{
		RequestID: fmt.Sprintf("vote/%d/%d", id, ply), GameID: id, UserID: v.TeamID, Expect: games.AtPly(ply),
		After: func(tx storage.Tx, rec *storage.Game) error {
			x := w.Clone()
			x.Over = !rec.Live()
			return tx.PutVoteGame(x)
		}}})
	if err != nil {
		return fmt.Errorf("play the vote of game %d at ply %d (%s): %w", id, ply, chosen, err)
	}
	s.sched.Cancel(key)
	if res.Replayed {
		return nil // played by another process, which announced it
	}
	w.Version++
	w.Over = !res.Game.Live()
	emit(VoteClosed{View: s.view(ctx, w, res.Game), Ply: ply, SAN: res.SAN, Tally: tally})
	return nil
}

// schedule sets the timer of v's open vote, in the process that owns its server.
func (s *Service) schedule(v *storage.VoteGame) {
	key := timers.Key{Kind: kindClose, ID: v.GameID}
	if v.Over || !v.Round.Open || !s.owns(v.GuildID) {
		s.sched.Cancel(key)
		return
	}
	s.sched.Set(key, v.Round.Closes)
}

// read returns the stored vote record of game id.
func (s *Service) read(ctx context.Context, id uint64) (*storage.VoteGame, error) {
	return storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.VoteGame, error) { return tx.VoteGame(id) })
}

// put writes v from its stored version (ErrConflict when another write came first).
func (s *Service) put(ctx context.Context, v *storage.VoteGame) error {
	if err := s.db.Update(ctx, func(tx storage.Tx) error { return tx.PutVoteGame(v) }); err != nil {
		return fmt.Errorf("write vote game %d: %w", v.GameID, err)
	}
	return nil
}
