// service.go: the Service: requests (create, join, leave, start, withdraw), the result
// hook run in the transaction that ends a game, and the worker that moves events on.

package tournaments

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"sync"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// Errors of the service, for errors.Is. Their texts are fit to show to a user.
var (
	ErrBadRequest     = errors.New("bad request")
	ErrNoSuchEvent    = errors.New("no such tournament")
	ErrAlreadyJoined  = errors.New("you have already joined this tournament")
	ErrNotJoined      = errors.New("you are not in this tournament")
	ErrStarted        = errors.New("the tournament has already started")
	ErrNotStarted     = errors.New("the tournament has not started yet")
	ErrOver           = errors.New("the tournament is over")
	ErrFull           = errors.New("the tournament is full")
	ErrTooFewPlayers  = errors.New("not enough players to start")
	ErrNotOrganizer   = errors.New("only the tournament's creator or a server manager can do that")
	ErrWithdrawn      = errors.New("you have already withdrawn from this tournament")
	ErrClosed         = errors.New("the tournament service is shut down")
	ErrWrongGuild     = errors.New("that tournament belongs to another server")
	ErrNoSuchRound    = errors.New("no such round")
	errNothingChanged = storage.ErrStale
)

// Games is what the service needs of the game service.
type Games interface {
	StartGame(ctx context.Context, r games.StartRequest) (*games.Result, error)
}

// Options configure a Service.
type Options struct {
	// Clock is the time source (default the system clock).
	Clock timers.Clock
	// Notifier receives the events (default none).
	Notifier Notifier
	// Rating, if set, returns a player's rating in a guild for a time category, for
	// seeding (0 for none).
	Rating func(guildID, userID string, cat clock.Category) int
	// Logger receives the logs (default slog.Default()).
	Logger *slog.Logger
	// Owns, if set, limits the events the service takes up at start-up (Restore) and
	// on Adopt to those of the guilds it answers true for (its share when several
	// processes run on one store). Nil: every guild, as with one process. An event
	// whose game ends in this process is moved on here all the same: the store makes
	// each pairing, game start and announcement once whoever does it.
	Owns func(guildID string) bool
	// Instance names the process in the reservations it takes on announcements (default
	// "bot"): unique among the processes on one store.
	Instance string
}

// Service runs tournaments. Its methods are safe for concurrent use.
type Service struct {
	db    storage.Store
	games Games
	opts  Options
	clock timers.Clock
	log   *slog.Logger
	sched *timers.Scheduler

	mu sync.Mutex // serialises creation and the moves of events (advance)

	kickMu sync.Mutex
	kicked map[uint64]bool
	wake   chan struct{}
}

const kindArenaEnd timers.Kind = 1

// New returns the service on db, starting games through g; call Restore once the game
// service runs, then Run. g may be nil when the game service is built after this one
// (its finish hook is OnFinish): Bind it then.
func New(db storage.Store, g Games, opts Options) *Service {
	if opts.Clock == nil {
		opts.Clock = timers.SystemClock{}
	}
	if opts.Notifier == nil {
		opts.Notifier = NotifierFunc(func(context.Context, Event) {})
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Instance == "" {
		opts.Instance = "bot"
	}
	return &Service{db: db, games: g, opts: opts, clock: opts.Clock, log: opts.Logger, sched: timers.New(),
		kicked: map[uint64]bool{}, wake: make(chan struct{}, 1)}
}

// Restore schedules the arena ends and queues every running event (of the guilds the
// service owns, Options.Owns), so that what was left to do when the bot stopped (a
// round to pair, games to start, standings to post) is done. It does not start games
// itself: Run (or Advance) does.
func (s *Service) Restore(ctx context.Context) error {
	_, err := s.takeUp(ctx)
	return err
}

// Adopt takes up the running events of the guilds the service owns (Options.Owns), as
// Restore does at start-up: call it when the service gains guilds (a partition's
// lease). It returns how many events it queued.
func (s *Service) Adopt(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return s.takeUp(ctx)
}

// owns reports whether the service takes up guild's events (Options.Owns).
func (s *Service) owns(guild string) bool { return s.opts.Owns == nil || s.opts.Owns(guild) }

// takeUp schedules the arena ends and queues the running events of the guilds the
// service owns, and returns how many it queued.
func (s *Service) takeUp(ctx context.Context) (int, error) {
	ts, err := storage.Read(ctx, s.db, func(tx storage.Tx) ([]*storage.Tournament, error) { return tx.Tournaments("", false) })
	if err != nil {
		return 0, fmt.Errorf("restore tournaments: %w", err)
	}
	n := 0
	for _, t := range ts {
		if t.Status == storage.TournamentOpen || t.Status == storage.TournamentCanceled || !s.owns(t.GuildID) {
			continue
		}
		st, err := decodeState(t.State)
		if err != nil {
			s.log.Error("tournaments: undecodable state", "tournament", t.ID, "err", err)
			continue
		}
		if t.Status == storage.TournamentFinished && st.Closed {
			continue
		}
		if !st.Ends.IsZero() {
			s.sched.Set(timers.Key{Kind: kindArenaEnd, ID: t.ID}, st.Ends)
		}
		s.kick(t.ID)
		n++
	}
	return n, nil
}

// kick queues an event for the worker.
func (s *Service) kick(id uint64) {
	s.kickMu.Lock()
	s.kicked[id] = true
	s.kickMu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Service) takeKicked() []uint64 {
	s.kickMu.Lock()
	defer s.kickMu.Unlock()
	var ids []uint64
	for id := range s.kicked {
		ids = append(ids, id)
	}
	clear(s.kicked)
	return ids
}

// Run moves the events on as their games end and their arenas close, until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	go func() {
		_ = s.sched.Run(ctx, s.clock, func(e timers.Entry) { s.kick(e.Key.ID) })
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.wake:
		}
		for _, id := range s.takeKicked() {
			if err := s.Advance(ctx, id); err != nil && !errors.Is(err, context.Canceled) {
				s.log.Error("tournaments: advance", "tournament", id, "err", err)
			}
		}
	}
}

// FireDue advances, on the caller's goroutine, the events queued and those whose arena
// end is due at the clock's time; it returns how many were handled. Tests drive the
// service with a manual clock through it.
func (s *Service) FireDue(ctx context.Context) int {
	for _, e := range s.sched.PopDue(s.clock.Now(), nil) {
		s.kick(e.Key.ID)
	}
	ids := s.takeKicked()
	for _, id := range ids {
		if err := s.Advance(ctx, id); err != nil {
			s.log.Error("tournaments: advance", "tournament", id, "err", err)
		}
	}
	return len(ids)
}

// GameOver tells the service that a game ended (after its end committed): the event it
// belongs to, if any, moves on.
func (s *Service) GameOver(ctx context.Context, gameID uint64) {
	tg, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.TournamentGame, error) { return tx.TournamentGame(gameID) })
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			s.log.Error("tournaments: game over", "game", gameID, "err", err)
		}
		return
	}
	s.kick(tg.TournamentID)
}

// OnFinish records the result of a tournament game in the transaction that ends it
// (the games service's Options.OnFinish): the game's end and the tournament's result
// commit together. A game outside any tournament changes nothing.
func (s *Service) OnFinish(w storage.TournamentsTx, g *storage.Game) error {
	tg, err := w.TournamentGame(g.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	t, err := w.Tournament(tg.TournamentID)
	if err != nil {
		return err
	}
	st, err := decodeState(t.State)
	if err != nil {
		return fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	if !st.record(g) {
		return nil
	}
	t.State = st.encode()
	return w.PutTournament(t)
}

// CreateRequest creates an event.
type CreateRequest struct {
	// RequestID makes a repeated request (a duplicate interaction) return the event
	// the first one created.
	RequestID          string
	GuildID, ChannelID string
	By                 storage.Player
	Name               string
	Settings           Settings
	// Starts is when the event is meant to start (zero: not said); it must be in the
	// future, within MaxLeadTime.
	Starts time.Time
}

// Create creates an event, open for entries.
func (s *Service) Create(ctx context.Context, r CreateRequest) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.GuildID == "" || r.ChannelID == "" {
		return nil, fmt.Errorf("%w: tournaments are run in a server's channel", ErrBadRequest)
	}
	if err := r.Settings.normalize(); err != nil {
		return nil, err
	}
	if len([]rune(r.Name)) > 80 {
		return nil, fmt.Errorf("%w: a name of at most 80 characters", ErrBadRequest)
	}
	if r.Name == "" {
		r.Name = defaultName(r.Settings)
	}
	if err := checkStarts(r.Starts, s.clock.Now()); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.RequestID != "" {
		ts, err := storage.Read(ctx, s.db, func(tx storage.Tx) ([]*storage.Tournament, error) { return tx.Tournaments(r.GuildID, false) })
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if st, err := decodeState(t.State); err == nil && st.RequestID == r.RequestID {
				return newView(t, st), nil
			}
		}
	}
	st := &State{Settings: r.Settings, RequestID: r.RequestID, Starts: r.Starts}
	t := &storage.Tournament{GuildID: r.GuildID, ChannelID: r.ChannelID, Name: r.Name, Format: string(r.Settings.Format),
		Status: storage.TournamentOpen, CreatedBy: r.By.ID, Created: s.clock.Now(), State: st.encode()}
	err := s.db.Update(ctx, func(tx storage.Tx) error {
		t.ID, t.Version = 0, 0 // a retried group commit starts again
		return tx.PutTournament(t)
	})
	if err != nil {
		return nil, fmt.Errorf("create tournament: %w", err)
	}
	return newView(t, st), nil
}

func defaultName(set Settings) string {
	switch set.Format {
	case Swiss:
		return fmt.Sprintf("%s Swiss", set.Control)
	case RoundRobin:
		if set.Rounds == 2 {
			return fmt.Sprintf("%s double round robin", set.Control)
		}
		return fmt.Sprintf("%s round robin", set.Control)
	case Arena:
		return fmt.Sprintf("%s arena", set.Control)
	}
	return fmt.Sprintf("%s knockout", set.Control)
}

// Get returns an event as it stands.
func (s *Service) Get(ctx context.Context, id uint64) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Tournament, error) { return tx.Tournament(id) })
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("tournament %d: %w", id, ErrNoSuchEvent)
	}
	if err != nil {
		return nil, err
	}
	st, err := decodeState(t.State)
	if err != nil {
		return nil, err
	}
	return newView(t, st), nil
}

// List returns a guild's events, newest first (only the open and running ones with
// liveOnly).
func (s *Service) List(ctx context.Context, guildID string, liveOnly bool) ([]*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ts, err := storage.Read(ctx, s.db, func(tx storage.Tx) ([]*storage.Tournament, error) { return tx.Tournaments(guildID, liveOnly) })
	if err != nil {
		return nil, err
	}
	var out []*View
	for _, t := range ts {
		st, err := decodeState(t.State)
		if err != nil {
			return nil, err
		}
		out = append(out, newView(t, st))
	}
	return out, nil
}

// update changes an event in one transaction.
func (s *Service) update(ctx context.Context, id uint64, fn func(w storage.Tx, t *storage.Tournament, st *State) error) (*View, error) {
	var view *View
	t, err := storage.UpdateTournament(ctx, s.db, id, func(w storage.Tx, t *storage.Tournament) error {
		st, err := decodeState(t.State)
		if err != nil {
			return err
		}
		if err := fn(w, t, st); err != nil {
			view = newView(t, st)
			return err
		}
		t.State = st.encode()
		view = newView(t, st)
		return nil
	})
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("tournament %d: %w", id, ErrNoSuchEvent)
	}
	if err != nil {
		return nil, err
	}
	_ = t
	return view, nil
}

// Join enters a player (before the start; an arena also takes entries while it runs).
func (s *Service) Join(ctx context.Context, id uint64, guildID string, p storage.Player) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.ID == "" {
		return nil, fmt.Errorf("%w: no player", ErrBadRequest)
	}
	now := s.clock.Now()
	late := false
	v, err := s.update(ctx, id, func(w storage.Tx, t *storage.Tournament, st *State) error {
		if err := checkGuild(t, guildID); err != nil {
			return err
		}
		switch t.Status {
		case storage.TournamentFinished, storage.TournamentCanceled:
			return ErrOver
		case storage.TournamentRunning:
			if st.Settings.Format != Arena {
				return ErrStarted
			}
			if !now.Before(st.Ends) {
				return ErrOver
			}
		}
		if i := st.player(p.ID); i >= 0 {
			if st.Players[i].Withdrawn && t.Status == storage.TournamentRunning {
				st.Players[i].Withdrawn = false // back into the arena
				st.ArenaLog = append(st.ArenaLog, arenaOp{Op: "join", Player: i + 1, At: now})
				late = true
				return nil
			}
			return ErrAlreadyJoined
		}
		if len(st.Players) >= st.Settings.MaxPlayers {
			return ErrFull
		}
		st.Players = append(st.Players, Entrant{UserID: p.ID, Name: p.Name, Rating: s.rating(t.GuildID, p.ID, st.Settings)})
		if t.Status == storage.TournamentRunning {
			st.ArenaLog = append(st.ArenaLog, arenaOp{Op: "join", Player: len(st.Players), At: now})
			late = true
		}
		return nil
	})
	if err == nil && late {
		s.kick(id)
	}
	return v, err
}

func (s *Service) rating(guildID, userID string, set Settings) int {
	if s.opts.Rating == nil {
		return 0
	}
	tc, err := clock.Parse(set.Control)
	if err != nil {
		return 0
	}
	return s.opts.Rating(guildID, userID, tc.Category())
}

func checkGuild(t *storage.Tournament, guildID string) error {
	if guildID != "" && t.GuildID != guildID {
		return ErrWrongGuild
	}
	return nil
}

// Leave takes a player's entry back before the start.
func (s *Service) Leave(ctx context.Context, id uint64, guildID, userID string) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.update(ctx, id, func(w storage.Tx, t *storage.Tournament, st *State) error {
		if err := checkGuild(t, guildID); err != nil {
			return err
		}
		i := st.player(userID)
		switch {
		case t.Status == storage.TournamentRunning:
			return fmt.Errorf("%w: withdraw instead", ErrStarted)
		case !t.Live():
			return ErrOver
		case i < 0:
			return ErrNotJoined
		}
		st.Players = append(st.Players[:i], st.Players[i+1:]...)
		return nil
	})
}

// Start starts an event: the entrants are seeded and the first round is paired and
// started. by must be the creator or a manager (the caller says which with manager).
func (s *Service) Start(ctx context.Context, id uint64, guildID, by string, manager bool) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	v, err := s.update(ctx, id, func(w storage.Tx, t *storage.Tournament, st *State) error {
		if err := checkGuild(t, guildID); err != nil {
			return err
		}
		switch {
		case t.CreatedBy != by && !manager:
			return ErrNotOrganizer
		case t.Status == storage.TournamentRunning:
			return ErrStarted
		case !t.Live():
			return ErrOver
		}
		if min := 2; len(st.Players) < min || (st.Settings.Format == Swiss && len(st.Players) < 3) {
			need := 2
			if st.Settings.Format == Swiss {
				need = 3
			}
			return fmt.Errorf("%w: %d joined, at least %d are needed", ErrTooFewPlayers, len(st.Players), need)
		}
		if st.Settings.Format == Swiss && st.Settings.Rounds >= len(st.Players) {
			return fmt.Errorf("%w: %d rounds need at least %d players (%d joined)", ErrTooFewPlayers, st.Settings.Rounds, st.Settings.Rounds+1, len(st.Players))
		}
		st.seed()
		t.Status = storage.TournamentRunning
		st.Started = now
		if st.Settings.Format == Arena {
			st.Ends = now.Add(st.Settings.Duration)
			for i := range st.Players {
				st.ArenaLog = append(st.ArenaLog, arenaOp{Op: "join", Player: i + 1, At: now})
			}
		}
		return nil
	})
	if err != nil {
		return v, err
	}
	if !v.State.Ends.IsZero() {
		s.sched.Set(timers.Key{Kind: kindArenaEnd, ID: id}, v.State.Ends)
	}
	if err := s.Advance(ctx, id); err != nil {
		return v, err
	}
	return s.Get(ctx, id)
}

// Cancel calls off an event that has not started.
func (s *Service) Cancel(ctx context.Context, id uint64, guildID, by string, manager bool) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.update(ctx, id, func(w storage.Tx, t *storage.Tournament, st *State) error {
		if err := checkGuild(t, guildID); err != nil {
			return err
		}
		switch {
		case t.CreatedBy != by && !manager:
			return ErrNotOrganizer
		case t.Status == storage.TournamentRunning:
			return ErrStarted
		case !t.Live():
			return ErrOver
		}
		t.Status = storage.TournamentCanceled
		return nil
	})
}

// Withdraw takes a player out of a running event: no further pairings (Swiss, arena),
// the remaining round-robin games forfeited, a knockout match conceded. A game under way
// goes on (resign it to end it at once).
func (s *Service) Withdraw(ctx context.Context, id uint64, guildID, userID string) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, err := s.update(ctx, id, func(w storage.Tx, t *storage.Tournament, st *State) error {
		if err := checkGuild(t, guildID); err != nil {
			return err
		}
		i := st.player(userID)
		switch {
		case t.Status == storage.TournamentOpen:
			return fmt.Errorf("%w: use leave before the start", ErrNotStarted)
		case !t.Live():
			return ErrOver
		case i < 0:
			return ErrNotJoined
		case st.Players[i].Withdrawn:
			return ErrWithdrawn
		}
		st.Players[i].Withdrawn = true
		if st.Settings.Format == Arena {
			st.ArenaLog = append(st.ArenaLog, arenaOp{Op: "pause", Player: i + 1})
		}
		return nil
	})
	if err == nil {
		s.kick(id)
	}
	return v, err
}

// lot is the event's draw for Armageddon colours: a hash of its id.
func lot(id uint64) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, "gambit tournament ", id)
	return h.Sum64()
}

// Advance moves an event on as far as it can now: it records the results of finished
// games the hook could not (a game that ended before its board knew it), pairs the next
// round or game, starts the games, announces the round and, at the end, closes the
// event and posts the final standings. It is idempotent: a repeated or interrupted call
// does what is left, never a thing twice (games start with request ids of their board).
func (s *Service) Advance(ctx context.Context, id uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range 64 { // each pass pairs at most one round; 64 bounds a broken state
		progressed, err := s.advanceOnce(ctx, id)
		if err != nil || !progressed {
			return err
		}
	}
	return fmt.Errorf("tournament %d: still moving after 64 steps", id)
}

func (s *Service) advanceOnce(ctx context.Context, id uint64) (bool, error) {
	now := s.clock.Now()
	wrote := false
	v, err := s.update(ctx, id, func(w storage.Tx, t *storage.Tournament, st *State) error {
		wrote = false
		if t.Status != storage.TournamentRunning {
			return errNothingChanged
		}
		changed := false
		for _, bs := range st.allBoards() { // results the hook missed
			for _, b := range bs {
				if b.GameID == 0 || b.Result != Pending {
					continue
				}
				if g, err := w.Game(b.GameID); err == nil && !g.Live() && st.record(g) {
					changed = true
				}
			}
		}
		c, over, err := st.step(now, lot(t.ID))
		if err != nil {
			return err
		}
		if over {
			t.Status = storage.TournamentFinished
		} else if !c && !changed {
			return errNothingChanged
		}
		wrote = true
		return nil
	})
	if err != nil {
		return false, err
	}
	switch v.Status {
	case storage.TournamentFinished:
		return false, s.close(ctx, id, v)
	case storage.TournamentRunning:
	default:
		return false, nil
	}
	started, err := s.startGames(ctx, v)
	if err != nil {
		return false, err
	}
	if err := s.announce(ctx, id); err != nil {
		return false, err
	}
	return wrote || started, nil
}

// startGames starts the games of the boards still without one, each with its board's
// request id, and records the game on its board.
func (s *Service) startGames(ctx context.Context, v *View) (bool, error) {
	boards := v.State.toStart()
	for _, b := range boards {
		w, bl := v.State.Players[b.White-1], v.State.Players[b.Black-1]
		control := v.State.Settings.Control
		if b.Control != "" {
			control = b.Control
		}
		rid := fmt.Sprintf("tournament:%d:%s", v.ID, v.State.boardKey(b))
		req := games.StartRequest{
			RequestID: rid, GuildID: v.GuildID, ChannelID: v.ChannelID,
			White: storage.Player{ID: w.UserID, Name: w.Name}, Black: storage.Player{ID: bl.UserID, Name: bl.Name},
			Control: control, Rated: v.State.Settings.Rated, NoShow: v.State.Settings.NoShow, BlackTime: b.BlackTime,
		}
		if v.State.Settings.Chess960 {
			req.Variant, req.Position = chesscore.Chess960, games.RandomPosition
		}
		res, err := s.games.StartGame(ctx, req)
		if err != nil {
			return false, fmt.Errorf("start game %s of tournament %d: %w", rid, v.ID, err)
		}
		if res.Game == nil {
			return false, fmt.Errorf("start game %s of tournament %d: no game in the answer", rid, v.ID)
		}
		gameID, key := res.Game.ID, v.State.boardKey(b)
		round, board, game := v.State.boardPlace(b)
		if _, err := s.update(ctx, v.ID, func(w storage.Tx, t *storage.Tournament, st *State) error {
			nb := st.boardByKey(key)
			if nb == nil || nb.GameID != 0 {
				return errNothingChanged
			}
			nb.GameID = gameID
			if err := w.PutTournamentGame(storage.TournamentGame{GameID: gameID, TournamentID: t.ID, Round: round, Board: board, Game: game}); err != nil {
				return err
			}
			if g, err := w.Game(gameID); err == nil && !g.Live() {
				st.record(g) // it ended before its board knew it
			}
			return nil
		}); err != nil {
			return false, err
		}
	}
	return len(boards) > 0, nil
}

// announce posts the rounds (brackets, arena start) not yet announced, once their games
// have started, under the event's reservation (announceOnce).
func (s *Service) announce(ctx context.Context, id uint64) error {
	v, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	n := v.State.rounds()
	if v.State.Announced >= n || len(v.State.toStart()) > 0 {
		return nil
	}
	return s.announceOnce(ctx, id, fmt.Sprintf("tournament/%d/round/%d", id, n), func(st *State) bool { return st.Announced >= n },
		func(ctx context.Context) {
			for r := v.State.Announced + 1; r <= n; r++ {
				s.opts.Notifier.Notify(ctx, RoundStarted{Tournament: v, Round: r})
			}
		},
		func(st *State) bool {
			if st.Announced >= n {
				return false
			}
			st.Announced = n
			return true
		})
}

// close posts the final standings of a finished event, once, under the event's
// reservation (announceOnce).
func (s *Service) close(ctx context.Context, id uint64, v *View) error {
	if v.State.Closed {
		return nil
	}
	s.sched.Cancel(timers.Key{Kind: kindArenaEnd, ID: id})
	return s.announceOnce(ctx, id, fmt.Sprintf("tournament/%d/final", id), func(st *State) bool { return st.Closed },
		func(ctx context.Context) { s.opts.Notifier.Notify(ctx, Finished{Tournament: v}) },
		func(st *State) bool {
			if st.Closed {
				return false
			}
			st.Closed = true
			return true
		})
}

// The reservation on an announcement: how long it holds, and how long the notifier may
// take within it.
const (
	announceReservationTTL = 2 * time.Minute
	announceTimeout        = 90 * time.Second
	// announceMargin is how long before its reservation's end a process no longer
	// starts an announcement (by its own clock; see announceOnce).
	announceMargin = 10 * time.Second
)

// kindReservationRetry is the timer that moves an event on again when another process's
// reservation on its announcement expires.
const kindReservationRetry timers.Kind = 2

// announceOnce makes an announcement once across processes: in one transaction it checks
// that the event still needs it (done false) and reserves it (storage.ReserveEffect);
// it then notifies, within the reservation's lifetime, and records it done (mark). If
// another process holds the reservation, the event is moved on again when the
// reservation expires: by then the announcement is recorded, or the other process died
// and this one makes it. A notification made but not recorded (a crash in between) is
// made again then.
func (s *Service) announceOnce(ctx context.Context, id uint64, key string, done func(*State) bool,
	notify func(context.Context), mark func(*State) bool) error {
	var res storage.Reservation
	due := false
	now := s.clock.Now()
	err := s.db.Update(ctx, func(w storage.Tx) error {
		res, due = storage.Reservation{}, false
		t, err := w.Tournament(id)
		if err != nil {
			return err
		}
		st, err := decodeState(t.State)
		if err != nil {
			return err
		}
		if done(st) {
			return nil
		}
		due = true
		res, err = storage.ReserveEffect(w, key, s.opts.Instance, now, announceReservationTTL)
		return err
	})
	if err != nil {
		return fmt.Errorf("reserve %s: %w", key, err)
	}
	if !due {
		return nil
	}
	if !res.Held {
		s.log.Debug("tournaments: announcement reserved by another process", "tournament", id, "reservation", key,
			"holder", res.Holder, "until", res.Until)
		s.sched.Set(timers.Key{Kind: kindReservationRetry, ID: id}, res.Until)
		return nil
	}
	// The reservation is this process's until res.Until, measured from before it was
	// sent (on the monotonic clock in production): a process paused or slowed since
	// then past it does not announce (another may have), it looks again at once; the
	// announcement is cut off where the reservation ends, less the margin.
	left := res.Until.Sub(s.clock.Now()) - announceMargin
	if left <= 0 {
		s.log.Warn("tournaments: the reservation of an announcement ran out before it was made (the process was paused or slow); looking again",
			"tournament", id, "reservation", key, "until", res.Until)
		s.sched.Set(timers.Key{Kind: kindReservationRetry, ID: id}, s.clock.Now())
		return nil
	}
	nctx, cancel := context.WithTimeout(ctx, min(announceTimeout, left))
	notify(nctx)
	cancel()
	_, err = s.update(ctx, id, func(w storage.Tx, t *storage.Tournament, st *State) error {
		if !mark(st) {
			return errNothingChanged
		}
		return nil
	})
	return err
}

// Bind gives a service made with no game service the one it starts games through. Call
// it once, before Restore and Run, and before any request.
func (s *Service) Bind(g Games) { s.games = g }

// Errors of berserk.
var (
	ErrNoBerserk      = errors.New("berserk is for arena games of an event that allows it")
	ErrAlreadyBerserk = errors.New("you have already gone berserk in this game")
)

// BerserkHook checks that userID may go berserk in game gameID (an arena game under way
// of an event that allows it, not yet berserk) and returns the hook that records it,
// for games.BerserkRequest.After: the halved clock and the arena's bonus commit
// together, and the hook refuses a second berserk.
func (s *Service) BerserkHook(ctx context.Context, gameID uint64, userID string) (func(w storage.Tx) error, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tg, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.TournamentGame, error) { return tx.TournamentGame(gameID) })
	if errors.Is(err, storage.ErrNotFound) {
		return nil, ErrNoBerserk
	}
	if err != nil {
		return nil, err
	}
	mark := func(t *storage.Tournament, st *State) error {
		b := st.boardOf(gameID)
		if st.Settings.Format != Arena || st.Settings.NoBerserk || b == nil || t.Status != storage.TournamentRunning {
			return ErrNoBerserk
		}
		if b.Result != Pending {
			return ErrOver
		}
		i := st.player(userID)
		switch {
		case i+1 == b.White && b.BerserkWhite, i+1 == b.Black && b.BerserkBlack:
			return ErrAlreadyBerserk
		case i+1 == b.White:
			b.BerserkWhite = true
		case i+1 == b.Black:
			b.BerserkBlack = true
		default:
			return ErrNotJoined
		}
		round, _, _ := st.boardPlace(b)
		st.ArenaLog = append(st.ArenaLog, arenaOp{Op: "berserk", Game: round, Player: i + 1})
		return nil
	}
	t, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Tournament, error) { return tx.Tournament(tg.TournamentID) })
	if err != nil {
		return nil, err
	}
	st, err := decodeState(t.State)
	if err != nil {
		return nil, err
	}
	if err := mark(t, st); err != nil {
		return nil, err
	}
	return func(w storage.Tx) error {
		t, err := w.Tournament(tg.TournamentID)
		if err != nil {
			return err
		}
		st, err := decodeState(t.State)
		if err != nil {
			return err
		}
		if err := mark(t, st); err != nil {
			return err
		}
		t.State = st.encode()
		return w.PutTournament(t)
	}, nil
}
