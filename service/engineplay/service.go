// service.go: the Service, its options, starting games against the engine, and the
// fair queue of games waiting for the engine.

package engineplay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
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
	// ErrTooManyGames: the person already plays Options.MaxGamesPerUser games against
	// the engine (the error is a *TooManyGamesError).
	ErrTooManyGames = errors.New("too many games against the engine")
)

// TooManyGamesError refuses a new game against the engine to a person who already
// plays Max of them.
type TooManyGamesError struct {
	UserID string
	Max    int
}

func (e *TooManyGamesError) Error() string {
	return fmt.Sprintf("%s already plays %d games against the engine (the most allowed)", e.UserID, e.Max)
}

// Unwrap makes the error match ErrTooManyGames.
func (e *TooManyGamesError) Unwrap() error { return ErrTooManyGames }

// Options configure a Service. The zero value is the production setting without an
// external engine.
type Options struct {
	// Clock is the game service's clock, read for the engine's time left (default the
	// system clock). Thinking itself is timed by the wall clock.
	Clock timers.Clock
	// Workers is how many games the engine thinks about at once (default 1). Games
	// waiting for a worker are served in turn by server, then by person, then in order
	// (fairQueue), so one server or person cannot crowd out the others.
	Workers int
	// MaxGamesPerUser is how many live games against the engine one person may have
	// at once (default 2; negative: no limit).
	MaxGamesPerUser int
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
	// AnalysisWorkers is how many analyses run at once (default 1), each on an engine
	// of its own; a server's analyses run one at a time, servers taking turns.
	AnalysisWorkers int
	// AnalysisCooldown is the least time between the end of one of a person's analyses
	// and the start of the next (default 2 minutes; negative: none). Answers from the
	// cache are not limited.
	AnalysisCooldown time.Duration
	// AnalysisNodes, if positive, bounds each position of a built-in analysis by nodes
	// instead of time (deterministic; for tests).
	AnalysisNodes uint64
	// Rand draws colours and seeds the levels' randomness (default math/rand/v2); the
	// service serialises its calls.
	Rand func() uint64
	// Logger receives the service's logs (default slog.Default()).
	Logger *slog.Logger
	// Owns, if set, limits the games Run takes up at start-up and Adopt takes up
	// later to those of the guilds it answers true for (its share when several
	// processes run on one store). Nil: every game, as with one process. A game whose
	// events reach this process (its person moved here) is played here all the same;
	// the move's request id makes it once whoever plays it.
	Owns func(guildID string) bool
}

// Service plays the engine's side of games and analyses games. Its methods are safe
// for concurrent use.
type Service struct {
	db   storage.Store
	opts Options
	log  *slog.Logger
	svc  atomic.Pointer[games.Service]
	pid  atomic.Pointer[string]

	pool chan *engine.Engine // the built-in engines of the workers
	ext  *external           // plays

	mu       sync.Mutex
	known    map[uint64]engineGame // the live games against the engine
	starting map[string]int        // person → games being created (counted against the limit)
	states   map[uint64]*turnState
	holding  map[uint64]*turnState // turns holding a worker's engine
	queue    *fairQueue[uint64]
	wake     chan struct{}

	analyses analyses
	cache    *analysisCache

	randMu sync.Mutex
}

// engineGame is the engine's side of a game, with where it is played and by whom: the
// game's place in the fair queue.
type engineGame struct {
	storage.EngineGame
	guild, human string
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
	cancel  context.CancelFunc // interrupts the turn (set while running)
	since   time.Time          // when it was queued (the reply delay counts from it)
	server  string             // the game's server (its line in the queue)
	// A turn may give way to another server's game (preemptFor) before its thought
	// or during it: yield asks it not to start thinking, preempt stops the thought in
	// progress (set while thinking). preempted marks a game that gave way, which does
	// not give way again before its turn is done.
	phase     turnPhase
	yield     bool
	preempt   context.CancelFunc
	preempted bool
	resume    bool // gave way: queues again first in its person's line, the reply delay still counting from since
}

// turnPhase is where a running turn stands with its thought.
type turnPhase uint8

const (
	beforeThought turnPhase = iota
	inThought
	afterThought
)

// New makes the service on db and reads the live engine games, to take up at Run.
func New(ctx context.Context, db storage.Store, opts Options) (*Service, error) {
	if opts.Clock == nil {
		opts.Clock = timers.SystemClock{}
	}
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	if opts.MaxGamesPerUser == 0 {
		opts.MaxGamesPerUser = 2
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
	if opts.AnalysisWorkers <= 0 {
		opts.AnalysisWorkers = 1
	}
	if opts.AnalysisCooldown == 0 {
		opts.AnalysisCooldown = 2 * time.Minute
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
		known: map[uint64]engineGame{}, starting: map[string]int{}, states: map[uint64]*turnState{}, holding: map[uint64]*turnState{},
		queue: newFairQueue[uint64](false), wake: make(chan struct{}, 1), cache: newAnalysisCache(64),
	}
	for range opts.Workers {
		s.pool <- engine.New(engine.Options{HashMB: opts.HashMB})
	}
	if opts.External != nil && opts.External.Path != "" {
		s.ext = newExternal(*opts.External, s.log.With("role", "play"))
	}
	s.analyses.init(s)
	live, err := storage.Read(ctx, db, func(tx storage.Tx) ([]engineGame, error) {
		recs, err := tx.LiveEngineGames()
		if err != nil {
			return nil, err
		}
		out := make([]engineGame, 0, len(recs))
		for _, e := range recs {
			g, err := tx.Game(e.GameID)
			if err != nil {
				return nil, fmt.Errorf("game %d: %w", e.GameID, err)
			}
			out = append(out, engineGame{EngineGame: e, guild: g.GuildID, human: g.Player(e.Color.Other()).ID})
		}
		return out, nil
	})
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
	// Variant and Position choose the kind of chess, as in games.StartRequest.
	Variant  chesscore.Variant
	Position int
	// After, if set, runs in the transaction that creates the game, after the engine's
	// side is recorded (as games.StartRequest.After): a vote game records its team
	// there.
	After func(tx storage.Tx, g *storage.Game) error
}

// PlayerName is how the engine at a level is named in a game.
func PlayerName(level int) string {
	return fmt.Sprintf("Gambit engine level %d", level)
}

// Start creates a game against the engine. It fails with ErrBadLevel for a level out
// of range, with a *TooManyGamesError when the person already plays
// Options.MaxGamesPerUser games against the engine, and with the game service's errors
// (ErrBadRequest for a bad time control).
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
	if err := s.reserve(ctx, svc, r.Human.ID); err != nil {
		return nil, err
	}
	defer s.unreserve(r.Human.ID)
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
		White: r.Human, Black: bot, Control: r.Control, FEN: r.FEN, Variant: r.Variant, Position: r.Position,
	}
	if human == chesscore.Black {
		req.White, req.Black = bot, r.Human
	}
	req.After = func(w storage.Tx, g *storage.Game) error {
		if err := w.PutEngineGame(storage.EngineGame{GameID: g.ID, Color: human.Other(), Level: r.Level, Engine: kind, Created: g.Created}); err != nil {
			return err
		}
		if r.After != nil {
			return r.After(w, g)
		}
		return nil
	}
	res, err := svc.StartGame(ctx, req)
	if err != nil {
		return nil, err
	}
	if g := res.Game; g != nil && g.Live() {
		s.mu.Lock()
		if _, ok := s.known[g.ID]; !ok {
			s.known[g.ID] = engineGame{
				EngineGame: storage.EngineGame{GameID: g.ID, Color: human.Other(), Level: r.Level, Engine: kind, Created: g.Created},
				guild:      g.GuildID, human: g.Player(human).ID,
			}
		}
		s.mu.Unlock()
	}
	return res, nil
}

// reserve counts a game being created for user against Options.MaxGamesPerUser, or
// refuses it with a *TooManyGamesError. unreserve ends the count once the game is
// created (or failed).
func (s *Service) reserve(ctx context.Context, svc *games.Service, user string) error {
	max := s.opts.MaxGamesPerUser
	if max < 0 {
		return nil
	}
	s.mu.Lock()
	ids := s.liveGamesOf(user)
	if len(ids)+s.starting[user] < max {
		s.starting[user]++
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	// At the limit: make sure of it with the store, in case a game's end was missed.
	for _, id := range ids {
		g, err := svc.Game(ctx, id)
		switch {
		case err == nil && !g.Live(), errors.Is(err, games.ErrNoSuchGame), errors.Is(err, storage.ErrNotFound):
			s.finished(id)
		case err != nil:
			return fmt.Errorf("check the games of %s against the engine: %w", user, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.liveGamesOf(user))+s.starting[user] >= max {
		return &TooManyGamesError{UserID: user, Max: max}
	}
	s.starting[user]++
	return nil
}

func (s *Service) unreserve(user string) {
	if s.opts.MaxGamesPerUser < 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.starting[user]--; s.starting[user] <= 0 {
		delete(s.starting, user)
	}
}

// liveGamesOf lists user's live games against the engine (s.mu held).
func (s *Service) liveGamesOf(user string) []uint64 {
	var ids []uint64
	for id, e := range s.known {
		if e.human == user {
			ids = append(ids, id)
		}
	}
	return ids
}

// LiveGames returns how many live games against the engine user plays.
func (s *Service) LiveGames(user string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.liveGamesOf(user))
}

// EngineGame returns the engine's side of game id, and false for a game between
// people.
func (s *Service) EngineGame(ctx context.Context, id uint64) (storage.EngineGame, bool) {
	s.mu.Lock()
	e, ok := s.known[id]
	s.mu.Unlock()
	if ok {
		return e.EngineGame, true
	}
	rec, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(id) })
	if err != nil {
		return storage.EngineGame{}, false
	}
	return rec, true
}

// lookup returns the engine record of a live game the event is about, reading the
// store only for a game the engine plays in under its present id.
func (s *Service) lookup(ctx context.Context, g *games.Game) (engineGame, bool) {
	s.mu.Lock()
	e, ok := s.known[g.ID]
	s.mu.Unlock()
	if ok {
		return e, true
	}
	pid := s.playerID()
	if pid == "" || (g.White.ID != pid && g.Black.ID != pid) || !g.Live() {
		return engineGame{}, false
	}
	rec, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(g.ID) })
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			s.log.Error("read the engine's side of a game", "game", g.ID, "err", err)
		}
		return engineGame{}, false
	}
	e = engineGame{EngineGame: rec, guild: g.GuildID, human: g.Player(rec.Color.Other()).ID}
	s.mu.Lock()
	s.known[g.ID] = e
	s.mu.Unlock()
	return e, true
}

// Notify implements games.Notifier: it queues the games the engine has something to do
// in, and never blocks.
func (s *Service) Notify(ctx context.Context, ev games.Event) {
	switch e := ev.(type) {
	case games.GameStarted:
		s.consider(ctx, e.Game, false)
	case games.YourTurn:
		s.consider(ctx, e.Game, false)
	case games.ConditionalPlayed: // a person's planned reply: the engine has the move again
		s.consider(ctx, e.Game, false)
	case games.DrawOffered:
		s.consider(ctx, e.Game, false)
	case games.TakebackRequested:
		// Answer it rather than move on: the thought in progress (if any) stops, and
		// the game queues again in its person's turn, like any request.
		s.consider(ctx, e.Game, true)
	case games.GameOver:
		s.finished(e.Game.ID)
	}
}

// consider queues an engine game; interrupt cancels a thought in progress.
func (s *Service) consider(ctx context.Context, g *games.Game, interrupt bool) {
	if _, ok := s.lookup(ctx, g); !ok || !g.Live() {
		return
	}
	s.enqueue(g.ID, interrupt)
}

// enqueue queues a live engine game behind its person's other games (or, while it is
// being thought about, marks it to be looked at again); interrupt cancels the thought.
func (s *Service) enqueue(id uint64, interrupt bool) {
	s.mu.Lock()
	e, ok := s.known[id]
	if !ok { // ended
		s.mu.Unlock()
		return
	}
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
	case !st.queued && st.resume:
		st.queued, st.server, st.resume = true, e.guild, false
		s.queue.pushFront(e.guild, e.human, id)
	case !st.queued:
		st.queued, st.since, st.server = true, time.Now(), e.guild
		s.queue.push(e.guild, e.human, id)
		s.preemptFor(e.guild)
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// preemptFor makes room for server's game, just queued, when every worker is thinking
// and server has nothing else queued or in thought: it stops the thought of a game of
// another server that has more games waiting (a flood), which queues again first in
// its person's line. So a server's request waits for no thought of a busy server's,
// only for the queue's order. A thought gives way once per move at most, so every game
// progresses.
// (s.mu held.)
func (s *Service) preemptFor(server string) {
	if len(s.holding) < s.opts.Workers || s.queue.waiting(server) != 1 {
		return
	}
	for _, h := range s.holding {
		if h.server == server {
			return
		}
	}
	for _, h := range s.holding {
		if h.server == server || h.preempted || h.phase == afterThought || s.queue.waiting(h.server) == 0 {
			continue
		}
		h.preempted, h.again, h.resume = true, true, true
		if h.preempt != nil {
			h.preempt()
			h.preempt = nil
		} else {
			h.yield = true
		}
		return
	}
}

// thinking registers preempt, the way to stop game id's thought, before it starts:
// preemptible is false when the thought may not be preempted (the game gave way
// already), yielded true when the turn is to give way without thinking.
func (s *Service) thinking(id uint64, preempt context.CancelFunc) (preemptible, yielded bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.states[id]
	if st == nil || !st.running {
		return false, false
	}
	if st.yield {
		return false, true
	}
	st.phase = inThought
	if st.preempted {
		return false, false
	}
	st.preempt = preempt
	return true, false
}

// thought ends game id's thought: true if it was preempted.
func (s *Service) thought(id uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.states[id]
	if st == nil {
		return false
	}
	st.phase = afterThought
	preempted := st.preempt == nil
	st.preempt = nil
	return preempted
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
		if !st.running {
			// A queued turn is dropped when its turn comes (next skips it).
			delete(s.states, id)
		}
	}
}

// next takes the next game in fair order, marking it running with cancel, and returns
// when it was queued.
func (s *Service) next(cancel context.CancelFunc) (uint64, time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, _, ok := s.queue.pop(s.stillQueued)
	if !ok {
		return 0, time.Time{}, false
	}
	st := s.states[id]
	st.queued, st.running, st.again, st.cancel = false, true, false, cancel
	st.phase, st.yield = beforeThought, false
	s.holding[id] = st
	return id, st.since, true
}

// release notes that game id's turn handed its worker's engine back.
func (s *Service) release(id uint64) {
	s.mu.Lock()
	delete(s.holding, id)
	s.mu.Unlock()
}

// stillQueued tells the queue's live entries from those of games that ended (s.mu
// held).
func (s *Service) stillQueued(id uint64) bool {
	st := s.states[id]
	return st != nil && st.queued
}

// done marks a game's turn handled, queueing it again when an event came meanwhile.
func (s *Service) done(id uint64) {
	s.mu.Lock()
	st := s.states[id]
	again := false
	if st != nil {
		st.running, st.cancel, st.preempt = false, nil, nil
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
	for id, e := range s.known {
		if s.owns(e.guild) {
			ids = append(ids, id)
		}
	}
	s.mu.Unlock()
	slices.Sort(ids) // oldest first within each person's line
	for _, id := range ids {
		s.enqueue(id, false)
	}
	var wg, replies sync.WaitGroup
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
			s.work(ctx, &replies)
		}()
	}
	wg.Wait()
	replies.Wait()
	return ctx.Err()
}

// work is one worker: it takes the games in fair order and thinks about each with its
// built-in engine. A move waiting for Options.ReplyDelay waits without the worker,
// which goes on to the next game (replies counts those waits).
func (s *Service) work(ctx context.Context, replies *sync.WaitGroup) {
	for {
		turnCtx, cancel := context.WithCancel(ctx)
		id, since, ok := s.next(cancel)
		if !ok {
			cancel()
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
				// Let another idle worker see the queue too.
				s.mu.Lock()
				more := s.queue.len() > 1
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
		reply := s.turn(turnCtx, id, since, eng)
		s.pool <- eng
		s.release(id)
		if reply == nil {
			cancel()
			s.done(id)
		} else {
			replies.Add(1)
			go func() {
				defer replies.Done()
				reply()
				cancel()
				s.done(id)
			}()
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// Close stops the external engines, if any run. Stop Run first.
func (s *Service) Close() error {
	var errs []error
	if s.ext != nil {
		errs = append(errs, s.ext.close())
	}
	errs = append(errs, s.analyses.close())
	return errors.Join(errs...)
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
