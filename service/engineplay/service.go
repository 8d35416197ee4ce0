// service.go: the Service, its options, starting games against the engine, and the
// queue of games waiting for the engine.

package engineplay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// Draw policy (see the package documentation), in centipawns for the engine's side.
const (
	// DrawAcceptBelow: the engine accepts a draw when its evaluation is below this.
	DrawAcceptBelow = -100
	// DrawLevelWithin and DrawLevelAfterMove: it also accepts a level position (within
	// ±DrawLevelWithin) from move DrawLevelAfterMove on.
	DrawLevelWithin    = 25
	DrawLevelAfterMove = 30
	// drawNodes is the node budget of the evaluation a draw offer gets.
	drawNodes = 60000
)

// ExternalLevel is the level of the external engine at full strength (offered only
// when one is configured).
const ExternalLevel = engine.MaxLevel + 1

// Errors of the service, for errors.Is.
var (
	// ErrBadLevel: a level out of range.
	ErrBadLevel = errors.New("no such level")
	// ErrNotReady: Start before Bind.
	ErrNotReady = errors.New("the engine is not ready yet")
	// ErrNotFinished: analysis of a game still being played.
	ErrNotFinished = errors.New("the game is not finished")
	// ErrNoMoves: analysis of a game without moves.
	ErrNoMoves = errors.New("the game has no moves")
)

// Options configure a Service. The zero value is the production setting without an
// external engine.
type Options struct {
	// Clock is the game service's clock, read for the engine's time left (default the
	// system clock). Thinking itself is timed by the wall clock.
	Clock timers.Clock
	// Workers is how many games the engine thinks about at once (default 1).
	Workers int
	// HashMB is the transposition table of each built-in engine, in MiB (default 16).
	HashMB int
	// MaxThink caps the thinking time of one move (default 10 s).
	MaxThink time.Duration
	// Untimed is the thinking time of a move in a game without a clock (default 2 s).
	Untimed time.Duration
	// ReplyDelay is the least time between the person's move and the engine's reply,
	// so the person's board is posted first (default 1 s; negative: none). It is never
	// more than a hundredth of the engine's time left.
	ReplyDelay time.Duration
	// External, if set, is the UCI engine of the stronger level and of analysis.
	External *ExternalConfig
	// AnalysisTime is the time per position of an analysis (default 200 ms).
	AnalysisTime time.Duration
	// AnalysisBudget bounds a whole analysis: the time per position shrinks to fit it
	// (default 45 s).
	AnalysisBudget time.Duration
	// AnalysisNodes, if positive, bounds each position of a built-in analysis by nodes
	// instead of time (deterministic; for tests).
	AnalysisNodes uint64
	// Rand draws colours and seeds the levels' randomness (default math/rand/v2); the
	// service serialises its calls.
	Rand func() uint64
	// Logger receives the service's logs (default slog.Default()).
	Logger *slog.Logger
}

// Service plays the engine's side of games and analyses games. Its methods are safe
// for concurrent use.
type Service struct {
	db   storage.Store
	opts Options
	log  *slog.Logger
	svc  atomic.Pointer[games.Service]
	pid  atomic.Pointer[string]

	pool     chan *engine.Engine // the built-in engines of the workers
	analysis *engine.Engine      // the built-in engine of analyses, made on first use (under analyseMu)
	ext      *external           // plays
	extA     *external           // analyses (a process of its own, so analyses never hold up a game)

	mu     sync.Mutex
	known  map[uint64]storage.EngineGame // engine games seen (live ones at least)
	states map[uint64]*turnState
	queue  []uint64
	wake   chan struct{}

	analyseMu sync.Mutex
	cache     *analysisCache

	randMu sync.Mutex
}

// rand64 draws from Options.Rand.
func (s *Service) rand64() uint64 {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	return s.opts.Rand()
}

// turnState is a game in the queue or being thought about.
type turnState struct {
	queued  bool
	running bool
	again   bool               // an event came while running: look again after
	cancel  context.CancelFunc // interrupts the thought (set while running)
}

// New makes the service on db and reads the live engine games, to take up at Run.
func New(db storage.Store, opts Options) (*Service, error) {
	if opts.Clock == nil {
		opts.Clock = timers.SystemClock{}
	}
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	if opts.HashMB <= 0 {
		opts.HashMB = engine.DefaultHashMB
	}
	if opts.MaxThink <= 0 {
		opts.MaxThink = 10 * time.Second
	}
	if opts.Untimed <= 0 {
		opts.Untimed = 2 * time.Second
	}
	if opts.ReplyDelay == 0 {
		opts.ReplyDelay = time.Second
	}
	if opts.AnalysisTime <= 0 {
		opts.AnalysisTime = 200 * time.Millisecond
	}
	if opts.AnalysisBudget <= 0 {
		opts.AnalysisBudget = 45 * time.Second
	}
	if opts.Rand == nil {
		opts.Rand = rand.Uint64
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	s := &Service{
		db: db, opts: opts, log: opts.Logger.With("service", "engineplay"),
		pool:  make(chan *engine.Engine, opts.Workers),
		known: map[uint64]storage.EngineGame{}, states: map[uint64]*turnState{},
		wake: make(chan struct{}, 1), cache: newAnalysisCache(64),
	}
	for range opts.Workers {
		s.pool <- engine.New(engine.Options{HashMB: opts.HashMB})
	}
	if opts.External != nil && opts.External.Path != "" {
		s.ext = newExternal(*opts.External, s.log.With("role", "play"))
		s.extA = newExternal(*opts.External, s.log.With("role", "analysis"))
	}
	live, err := storage.Read(db, storage.Tx.LiveEngineGames)
	if err != nil {
		return nil, fmt.Errorf("read the live games against the engine: %w", err)
	}
	for _, e := range live {
		s.known[e.GameID] = e
	}
	return s, nil
}

// Bind gives the service the game service it plays through and the user id the
// engine plays under (the bot's own, so that mentions of it are valid). It silences the
// engine's turn pings and reminders. Call it before Start and Run.
func (s *Service) Bind(ctx context.Context, svc *games.Service, playerID string) error {
	if playerID == "" || len(playerID) > storage.MaxIDLen {
		return fmt.Errorf("engine player id %q: want 1 to %d bytes", playerID, storage.MaxIDLen)
	}
	s.svc.Store(svc)
	s.pid.Store(&playerID)
	// Nobody is to be pinged, messaged or reminded for the engine's turns.
	if err := svc.SetUserPrefs(ctx, playerID, storage.UserPrefs{}); err != nil {
		return fmt.Errorf("silence the engine's notifications: %w", err)
	}
	return nil
}

func (s *Service) playerID() string {
	if p := s.pid.Load(); p != nil {
		return *p
	}
	return ""
}

// MaxLevel is the strongest level offered: 8, or ExternalLevel with an external
// engine.
func (s *Service) MaxLevel() int {
	if s.ext != nil {
		return ExternalLevel
	}
	return engine.MaxLevel
}

// HasExternal reports whether an external engine is configured.
func (s *Service) HasExternal() bool { return s.ext != nil }

// StartRequest is a new game between a person and the engine.
type StartRequest struct {
	// RequestID is the idempotency key (the interaction id).
	RequestID          string
	GuildID, ChannelID string
	// Human is the person.
	Human storage.Player
	// Level is the engine's level, 1 to MaxLevel.
	Level int
	// Control is the time control as players type it ("5+3", "1d", "-"); empty: none.
	Control string
	// Color is the person's colour: white, black or random (the default).
	Color storage.ColorChoice
	// FEN is the start position (empty: the standard one).
	FEN string
}

// PlayerName is how the engine at a level is named in a game.
func PlayerName(level int) string {
	return fmt.Sprintf("Gambit engine level %d", level)
}

// Start creates a game against the engine. It fails with ErrBadLevel for a level out
// of range and with the game service's errors (ErrBadRequest for a bad time control).
func (s *Service) Start(ctx context.Context, r StartRequest) (*games.Result, error) {
	svc, pid := s.svc.Load(), s.playerID()
	if svc == nil || pid == "" {
		return nil, ErrNotReady
	}
	if r.Level < engine.MinLevel || r.Level > s.MaxLevel() {
		return nil, fmt.Errorf("%w: level %d: want %d to %d", ErrBadLevel, r.Level, engine.MinLevel, s.MaxLevel())
	}
	choice, err := storage.ParseColorChoice(string(r.Color))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", games.ErrBadRequest, err)
	}
	human := chesscore.White
	if choice == storage.ChooseBlack || (choice == storage.ChooseRandom && s.rand64()&1 == 1) {
		human = chesscore.Black
	}
	kind := storage.EngineBuiltin
	if r.Level == ExternalLevel {
		kind = storage.EngineExternal
	}
	bot := storage.Player{ID: pid, Name: PlayerName(r.Level)}
	req := games.StartRequest{
		RequestID: r.RequestID, GuildID: r.GuildID, ChannelID: r.ChannelID,
		White: r.Human, Black: bot, Control: r.Control, FEN: r.FEN,
	}
	if human == chesscore.Black {
		req.White, req.Black = bot, r.Human
	}
	req.After = func(w storage.Tx, g *storage.Game) error {
		return w.PutEngineGame(storage.EngineGame{GameID: g.ID, Color: human.Other(), Level: r.Level, Engine: kind, Created: g.Created})
	}
	res, err := svc.StartGame(ctx, req)
	if err != nil {
		return nil, err
	}
	if res.Game != nil {
		s.mu.Lock()
		if _, ok := s.known[res.Game.ID]; !ok {
			s.known[res.Game.ID] = storage.EngineGame{GameID: res.Game.ID, Color: human.Other(), Level: r.Level, Engine: kind, Created: res.Game.Created}
		}
		s.mu.Unlock()
	}
	return res, nil
}

// EngineGame returns the engine's side of game id, and false for a game between
// people.
func (s *Service) EngineGame(id uint64) (storage.EngineGame, bool) {
	s.mu.Lock()
	e, ok := s.known[id]
	s.mu.Unlock()
	if ok {
		return e, true
	}
	e, err := storage.Read(s.db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(id) })
	if err != nil {
		return storage.EngineGame{}, false
	}
	return e, true
}

// lookup returns the engine record of a game the event is about, reading the store
// only for a game the engine plays in under its present id.
func (s *Service) lookup(g *games.Game) (storage.EngineGame, bool) {
	s.mu.Lock()
	e, ok := s.known[g.ID]
	s.mu.Unlock()
	if ok {
		return e, true
	}
	pid := s.playerID()
	if pid == "" || (g.White.ID != pid && g.Black.ID != pid) {
		return storage.EngineGame{}, false
	}
	e, err := storage.Read(s.db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(g.ID) })
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			s.log.Error("read the engine's side of a game", "game", g.ID, "err", err)
		}
		return storage.EngineGame{}, false
	}
	s.mu.Lock()
	s.known[g.ID] = e
	s.mu.Unlock()
	return e, true
}

// Notify implements games.Notifier: it queues the games the engine has something to do
// in, and never blocks.
func (s *Service) Notify(_ context.Context, ev games.Event) {
	switch e := ev.(type) {
	case games.GameStarted:
		s.consider(e.Game, false)
	case games.YourTurn:
		s.consider(e.Game, false)
	case games.DrawOffered:
		s.consider(e.Game, false)
	case games.TakebackRequested:
		s.consider(e.Game, true) // answer it rather than move on
	case games.GameOver:
		s.finished(e.Game.ID)
	}
}

// consider queues an engine game; interrupt cancels a thought in progress.
func (s *Service) consider(g *games.Game, interrupt bool) {
	if _, ok := s.lookup(g); !ok || !g.Live() {
		return
	}
	s.enqueue(g.ID, interrupt)
}

func (s *Service) enqueue(id uint64, interrupt bool) {
	s.mu.Lock()
	st := s.states[id]
	if st == nil {
		st = &turnState{}
		s.states[id] = st
	}
	switch {
	case st.running:
		st.again = true
		if interrupt && st.cancel != nil {
			st.cancel()
		}
	case !st.queued:
		st.queued = true
		s.queue = append(s.queue, id)
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// finished forgets a game that ended, interrupting a thought about it.
func (s *Service) finished(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.known, id)
	if st := s.states[id]; st != nil {
		if st.cancel != nil {
			st.cancel()
		}
		st.again = false
		if !st.running && !st.queued {
			delete(s.states, id)
		}
	}
}

// next takes the next game of the queue, marking it running with cancel.
func (s *Service) next(cancel context.CancelFunc) (uint64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queue) > 0 {
		id := s.queue[0]
		s.queue = s.queue[1:]
		st := s.states[id]
		if st == nil || !st.queued {
			continue
		}
		st.queued, st.running, st.again, st.cancel = false, true, false, cancel
		return id, true
	}
	return 0, false
}

// done marks a game's turn handled, queueing it again when an event came meanwhile.
func (s *Service) done(id uint64) {
	s.mu.Lock()
	st := s.states[id]
	again := false
	if st != nil {
		st.running, st.cancel = false, nil
		again = st.again
		st.again = false
		if !again {
			delete(s.states, id)
		}
	}
	s.mu.Unlock()
	if again {
		s.enqueue(id, false)
	}
}

// Run serves the queue with Options.Workers workers until ctx ends, starting with every
// live engine game (the engine may have been to move when the bot stopped).
func (s *Service) Run(ctx context.Context) error {
	if s.svc.Load() == nil {
		return ErrNotReady
	}
	s.mu.Lock()
	ids := make([]uint64, 0, len(s.known))
	for id := range s.known {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	for _, id := range ids {
		s.enqueue(id, false)
	}
	var wg sync.WaitGroup
	if s.ext != nil {
		// Start the external engine now, so a bad path is in the log at start-up.
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.ext.get(ctx)
		}()
	}
	for range s.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(ctx)
		}()
	}
	wg.Wait()
	return ctx.Err()
}

func (s *Service) work(ctx context.Context) {
	for {
		turnCtx, cancel := context.WithCancel(ctx)
		id, ok := s.next(cancel)
		if !ok {
			cancel()
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
				// Let another idle worker see the queue too.
				s.mu.Lock()
				more := len(s.queue) > 1
				s.mu.Unlock()
				if more {
					select {
					case s.wake <- struct{}{}:
					default:
					}
				}
			}
			continue
		}
		eng := <-s.pool
		s.turn(turnCtx, id, eng)
		s.pool <- eng
		cancel()
		s.done(id)
		if ctx.Err() != nil {
			return
		}
	}
}

// Close stops the external engine, if one runs. Stop Run first.
func (s *Service) Close() error {
	if s.ext == nil {
		return nil
	}
	return errors.Join(s.ext.close(), s.extA.close())
}

// timeLeft is the engine's clock for the time manager, nil for an untimed game.
func (s *Service) timeLeft(g *games.Game, me chesscore.Color) *engine.TimeLeft {
	c := g.Clock
	if c == nil || c.State != clock.Running {
		return nil
	}
	tl := engine.ClockTimeLeft(c, me, s.opts.Clock.Now())
	if tl.MaxThink == 0 || tl.MaxThink > s.opts.MaxThink {
		tl.MaxThink = s.opts.MaxThink
	}
	return &tl
}
