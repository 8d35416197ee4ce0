// service.go: the puzzle service: its errors and options, start and stop, and the
// locks that serialise each member's requests.

package puzzles

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"math/rand/v2"
	"sync"

	"github.com/gambitchess/gambit/internal/lru"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/puzzle/starter"
	"github.com/gambitchess/gambit/storage"
)

// Errors of the service, for the bot to answer ephemerally (errors.Is).
var (
	// ErrNoPuzzles: the store has no puzzle that fits.
	ErrNoPuzzles = errors.New("no puzzle available")
	// ErrNoSuchPuzzle: no puzzle with that id.
	ErrNoSuchPuzzle = errors.New("no such puzzle")
	// ErrBadMove: the move cannot be read or is illegal in the solver's position.
	ErrBadMove = errors.New("not a legal move")
	// ErrClosed: the service is closed.
	ErrClosed = errors.New("the puzzle service is closed")
	// ErrNotInGuild: puzzles belong to a guild.
	ErrNotInGuild = errors.New("puzzles are played in a server")
	// ErrBadRequest: a request the service cannot take (bad ids).
	ErrBadRequest = errors.New("bad request")
)

// Options configure a Service. The zero value is the production setting.
type Options struct {
	// Clock is the time source (default the system clock).
	Clock timers.Clock
	// Poster posts the daily puzzles (nil: days are planned but nothing is posted).
	Poster Poster
	// Rand draws the random choices (default math/rand/v2).
	Rand func() uint64
	// Logger receives the logs (default slog.Default()).
	Logger *slog.Logger
	// Starter is the CSV loaded into a store without puzzles at start-up (default the
	// embedded starter set); NoStarter turns that off.
	Starter   []byte
	NoStarter bool
	// Mine tunes the mining of finished games.
	Mine MineOptions
	// Owns, if set, limits the guilds whose daily posts the service schedules at
	// start-up and on Adopt to those it answers true for (its share when several
	// processes run on one store). Nil: every guild, as with one process. A guild whose
	// settings change in this process is scheduled here all the same; the reservation
	// in the store makes each post once whoever fires it.
	Owns func(guildID string) bool
	// Instance names the process in the reservations it takes (default "bot"): unique
	// among the processes on one store. A process restarted under its name takes its
	// own reservations back at once; another waits until they expire.
	Instance string
}

// Service runs the puzzles of every guild: the puzzle of the day and its post, members'
// answers, ratings, streaks and leaderboards. Its methods are safe for concurrent use.
type Service struct {
	db    storage.Store
	opts  Options
	clock timers.Clock
	log   *slog.Logger
	sched *timers.Scheduler
	rand  func() uint64

	seed  maphash.Seed
	locks [256]sync.Mutex

	lines *lru.Cache[string, puzzle.Line] // validated lines by puzzle id

	daily  dailyState
	holder string // this service's name in the reservations it takes

	mineMu   sync.Mutex
	mineQ    chan *storage.Game
	mineDone chan struct{}

	closeMu sync.RWMutex
	closed  bool
	ctx     context.Context
	cancel  context.CancelFunc
}

// New starts the service on db: it loads the starter set into a store without puzzles
// and schedules every guild's daily post (a post missed while the bot was down is due
// at once). Call Run to fire the posts and Close to stop.
func New(db storage.Store, opts Options) (*Service, error) {
	if opts.Clock == nil {
		opts.Clock = timers.SystemClock{}
	}
	if opts.Rand == nil {
		opts.Rand = rand.Uint64
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Starter == nil {
		opts.Starter = starter.CSV
	}
	if opts.Instance == "" {
		opts.Instance = "bot"
	}
	m := &opts.Mine
	if m.ScanNodes == 0 {
		m.ScanNodes = 3000
	}
	if m.VerifyNodes == 0 {
		m.VerifyNodes = 40000
	}
	if m.MinPlies <= 0 {
		m.MinPlies = 16
	}
	if m.Queue <= 0 {
		m.Queue = 256
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Service{
		db: db, opts: opts, clock: opts.Clock, log: opts.Logger, sched: timers.New(), rand: opts.Rand,
		seed: maphash.MakeSeed(), lines: lru.New[string, puzzle.Line](maxLineCache), ctx: ctx, cancel: cancel,
	}
	s.daily.init()
	s.holder = opts.Instance
	if !opts.NoStarter {
		if err := s.loadStarter(ctx); err != nil {
			cancel()
			return nil, err
		}
	}
	if err := s.restoreDaily(ctx); err != nil {
		cancel()
		return nil, err
	}
	return s, nil
}

// Close stops the miner (a game waiting to be mined is dropped) and refuses further
// requests. Stop Run first. It does not close the store.
func (s *Service) Close() error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		return nil
	}
	s.closed = true
	s.closeMu.Unlock()
	s.cancel()
	s.mineMu.Lock()
	done := s.mineDone
	if s.mineQ != nil {
		close(s.mineQ)
	}
	s.mineMu.Unlock()
	if done != nil {
		<-done
	}
	return nil
}

// enter admits a request: it refuses one after Close or with a cancelled context.
func (s *Service) enter(ctx context.Context) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.closeMu.RLock()
	if s.closed {
		s.closeMu.RUnlock()
		return nil, ErrClosed
	}
	return s.closeMu.RUnlock, nil
}

// lock serialises the requests of one member (or one guild's daily post, user "").
func (s *Service) lock(guild, user string) func() {
	m := &s.locks[maphash.String(s.seed, guild+"\x00"+user)%uint64(len(s.locks))]
	m.Lock()
	return m.Unlock
}

// checkMember refuses a request without a guild or a member.
func checkMember(guild, user string) error {
	if guild == "" {
		return ErrNotInGuild
	}
	if user == "" {
		return fmt.Errorf("%w: no user", ErrBadRequest)
	}
	return nil
}

// truncateName cuts a member's name to what the store keeps, on a character boundary.
func truncateName(s string) string {
	if len(s) <= storage.MaxNameLen {
		return s
	}
	cut := storage.MaxNameLen
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut]
}
