// service.go: the puzzle service: the store of puzzles, members solving them one move
// at a time with a Glicko-2 puzzle rating, and puzzles mined from a guild's finished
// games in the background.

package puzzles

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/chesscore/rating"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/puzzles/starter"
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
)

// Glicko-2 parameters of the puzzle ratings: a newcomer starts at 1500 ± 350, like on
// lichess, and τ (how fast volatility moves) is 0.75.
const (
	StartRating  = rating.Glicko2DefaultRating
	StartRD      = rating.Glicko2DefaultRD
	StartVol     = rating.Glicko2DefaultVolatility
	Tau          = 0.75
	minRD        = 30.0  // the RD used for a puzzle or player below it
	generatedRD  = 200.0 // the RD of a puzzle whose rating is an estimate
	maxLineCache = 4096
)

// MineOptions tune the mining of finished games.
type MineOptions struct {
	// Off turns mining off.
	Off bool
	// ScanNodes and VerifyNodes are the engine's budgets (defaults 3,000 and 40,000: a
	// low budget, so a game takes well under a second of one core).
	ScanNodes, VerifyNodes uint64
	// MinPlies skips shorter games (default 16).
	MinPlies int
	// Queue bounds the games waiting to be mined (default 256); more are dropped.
	Queue int
}

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
}

// Service runs the puzzles of every guild: the puzzle of the day and its post, members'
// answers, ratings, streaks and leaderboards. Its methods are safe for concurrent use.
type Service struct {
	db    *storage.DB
	opts  Options
	clock timers.Clock
	log   *slog.Logger
	sched *timers.Scheduler
	rand  func() uint64

	seed  maphash.Seed
	locks [256]sync.Mutex

	lineMu sync.Mutex
	lines  map[string]Line

	daily dailyState

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
func New(db *storage.DB, opts Options) (*Service, error) {
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
		seed: maphash.MakeSeed(), lines: map[string]Line{}, ctx: ctx, cancel: cancel,
	}
	s.daily.init()
	if !opts.NoStarter {
		if err := s.loadStarter(); err != nil {
			cancel()
			return nil, err
		}
	}
	if err := s.restoreDaily(); err != nil {
		cancel()
		return nil, err
	}
	return s, nil
}

// loadStarter imports the starter set into a store that has no puzzles.
func (s *Service) loadStarter() error {
	n, err := s.db.CountPuzzles()
	if err != nil {
		return fmt.Errorf("start puzzle service: %w", err)
	}
	if n > 0 || len(s.opts.Starter) == 0 {
		return nil
	}
	st, err := Import(s.db, bytes.NewReader(s.opts.Starter), ImportOptions{Now: s.clock.Now(), Source: "starter"})
	if err != nil {
		return fmt.Errorf("start puzzle service: load the starter set: %w", err)
	}
	s.log.Info("puzzles: loaded the starter set into an empty store", "imported", st.Imported, "errors", st.Errors)
	return nil
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

// ToStore converts a puzzle to its stored form.
func ToStore(p *Puzzle, added time.Time) *storage.Puzzle {
	return &storage.Puzzle{
		ID: p.ID, FEN: p.FEN, Moves: p.Moves, Rating: p.Rating, RD: p.RD, Popularity: p.Popularity, Plays: p.Plays,
		Themes: p.Themes, GameURL: p.GameURL, Openings: p.Openings, Source: p.Source, Description: p.Description,
		Added: added, Played: p.Played,
	}
}

// FromStore converts a stored puzzle.
func FromStore(sp *storage.Puzzle) *Puzzle {
	return &Puzzle{
		ID: sp.ID, FEN: sp.FEN, Moves: sp.Moves, Rating: sp.Rating, RD: sp.RD, Popularity: sp.Popularity, Plays: sp.Plays,
		Themes: sp.Themes, GameURL: sp.GameURL, Openings: sp.Openings, Source: sp.Source, Description: sp.Description,
		Played: sp.Played,
	}
}

// ImportStats counts what an import did.
type ImportStats struct {
	Rows     int `json:"-"`
	Imported int `json:"imported"`
	Skipped  int `json:"skipped"`
	Errors   int `json:"errors"`
}

// importBatch is how many puzzles one import transaction writes.
const importBatch = 4000

// ImportOptions tune Import.
type ImportOptions struct {
	// Filter selects the rows (its Limit stops after that many imported).
	Filter Filter
	// Now is when the puzzles are added.
	Now time.Time
	// Source, if set, replaces the rows' source (the reader's is "lichess").
	Source string
	// OnError, if set, is told of every row counted as an error.
	OnError func(error)
}

// Import streams a lichess-layout CSV into the store: each row is read, validated
// (replayed) and filtered, and the kept ones are written in batches of a few thousand
// per transaction, so memory stays flat whatever the size of the file. Rows the filter
// drops and puzzles already stored count as skipped; rows that cannot be read or do not
// replay count as errors. Validation runs on a second goroutine while the first writes.
func Import(db *storage.DB, r io.Reader, o ImportOptions) (ImportStats, error) {
	f, now, bad := o.Filter, o.Now, o.OnError
	var st ImportStats
	rd, err := NewReader(r)
	if err != nil {
		return st, err
	}
	type row struct {
		p   *Puzzle
		err error
	}
	rows := make(chan []row, 4)
	stop := make(chan struct{})
	readErr := make(chan error, 1)
	go func() { // read and validate
		defer close(rows)
		batch := make([]row, 0, 256)
		for {
			p, err := rd.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			var re *RowError
			if err != nil && !errors.As(err, &re) {
				readErr <- err
				return
			}
			if err == nil {
				if _, verr := p.Validate(); verr != nil {
					p, err = nil, verr
				}
			}
			batch = append(batch, row{p, err})
			if len(batch) == cap(batch) {
				select {
				case rows <- batch:
				case <-stop:
					return
				}
				batch = make([]row, 0, 256)
			}
		}
		if len(batch) > 0 {
			select {
			case rows <- batch:
			case <-stop:
			}
		}
		readErr <- nil
	}()
	defer func() {
		close(stop)
		for range rows { // let the reader finish
		}
	}()
	var pending []*storage.Puzzle
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		added, err := db.AddPuzzles(pending)
		if err != nil {
			return fmt.Errorf("store %d puzzles: %w", len(pending), err)
		}
		st.Imported += added
		st.Skipped += len(pending) - added
		pending = pending[:0]
		return nil
	}
	for batch := range rows {
		for _, rw := range batch {
			if f.Limit > 0 && st.Imported+len(pending) >= f.Limit {
				// Writing may find some of the pending ones already stored: top up after.
				if err := flush(); err != nil {
					return st, err
				}
				if st.Imported >= f.Limit {
					return st, nil
				}
			}
			st.Rows++
			if rw.err != nil {
				st.Errors++
				if bad != nil {
					bad(rw.err)
				}
				continue
			}
			if !f.Keep(rw.p) {
				st.Skipped++
				continue
			}
			if o.Source != "" {
				rw.p.Source = o.Source
			}
			pending = append(pending, ToStore(rw.p, now))
			if len(pending) >= importBatch {
				if err := flush(); err != nil {
					return st, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return st, err
	}
	if err := <-readErr; err != nil {
		return st, err
	}
	return st, nil
}

// Export writes every stored puzzle as lichess-layout CSV and returns how many.
func Export(db *storage.DB, w io.Writer) (int, error) {
	cw, err := NewWriter(w)
	if err != nil {
		return 0, err
	}
	n := 0
	err = db.EachPuzzle(func(sp *storage.Puzzle) error {
		n++
		return cw.Write(FromStore(sp))
	})
	if err != nil {
		return n, err
	}
	return n, cw.Flush()
}

// line returns the validated line of a stored puzzle (cached by id).
func (s *Service) line(p *Puzzle) (Line, error) {
	s.lineMu.Lock()
	l, ok := s.lines[p.ID]
	s.lineMu.Unlock()
	if ok {
		return l, nil
	}
	l, err := p.Validate()
	if err != nil {
		return l, err
	}
	s.lineMu.Lock()
	if len(s.lines) >= maxLineCache {
		for k := range s.lines {
			delete(s.lines, k)
			break
		}
	}
	s.lines[p.ID] = l
	s.lineMu.Unlock()
	return l, nil
}

// Progress is where a member stands in a puzzle.
type Progress struct {
	Puzzle  *Puzzle
	Line    Line
	Attempt storage.PuzzleAttempt
	Player  storage.PuzzlePlayer
	// Daily is the date of the guild's day when this is the guild's puzzle of the day.
	Daily string
	// Position is what the member faces: their move (after the opponent's LastMove); at
	// the end of the line, the final position after the member's LastMove.
	Position cc.Position
	LastMove cc.Move
	// Done reports that the try in progress is complete.
	Done bool
}

// Step returns the solver step of the try in progress (0 for the first move).
func (p *Progress) Step() int { return p.Attempt.Step }

// progress fills a Progress from the records.
func progress(p *Puzzle, l Line, a storage.PuzzleAttempt, pl storage.PuzzlePlayer, daily string) *Progress {
	pr := &Progress{Puzzle: p, Line: l, Attempt: a, Player: pl, Daily: daily}
	if a.Step >= l.Steps() {
		pr.Done = true
		pos := l.Start
		for _, m := range l.Moves {
			pos = pos.Play(m)
		}
		pr.Position, pr.LastMove = pos, l.Moves[len(l.Moves)-1]
		return pr
	}
	pr.Position, pr.LastMove = l.PositionAt(a.Step)
	return pr
}

// newPlayer fills in the rating of a member who never tried a puzzle.
func newPlayer(p storage.PuzzlePlayer) storage.PuzzlePlayer {
	if p.RD == 0 {
		p.Rating, p.RD, p.Volatility = StartRating, StartRD, StartVol
	}
	return p
}

func checkMember(guild, user string) error {
	if guild == "" {
		return ErrNotInGuild
	}
	if user == "" {
		return fmt.Errorf("%w: no user", ErrBadRequest)
	}
	return nil
}

// ErrBadRequest: a request the service cannot take (bad ids).
var ErrBadRequest = errors.New("bad request")

// loadPuzzle reads a puzzle and its line through a writer.
func (s *Service) loadPuzzle(w *storage.Writer, id string) (*Puzzle, Line, error) {
	sp, err := w.Puzzle(id)
	return s.withLine(id, sp, err)
}

// withLine turns a stored puzzle read for id (or the error reading it) into the puzzle
// and its line.
func (s *Service) withLine(id string, sp *storage.Puzzle, err error) (*Puzzle, Line, error) {
	if errors.Is(err, storage.ErrNotFound) {
		return nil, Line{}, fmt.Errorf("puzzle %s: %w", id, ErrNoSuchPuzzle)
	}
	if err != nil {
		return nil, Line{}, err
	}
	p := FromStore(sp)
	l, err := s.line(p)
	return p, l, err
}

// currentDaily returns the guild's puzzle of the day as the transaction sees it ("" for
// none).
func currentDaily(w *storage.Writer, guild string) (*storage.Daily, error) {
	d, err := w.LatestDaily(guild, "")
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	return d, err
}

// Start makes puzzleID the member's current puzzle (creating the attempt if this is the
// first look) and returns where they stand.
func (s *Service) Start(ctx context.Context, guild, user, name, puzzleID string) (*Progress, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := checkMember(guild, user); err != nil {
		return nil, err
	}
	unlock := s.lock(guild, user)
	defer unlock()
	now := s.clock.Now()
	var out *Progress
	err = s.db.UpdatePuzzles(func(w *storage.Writer) error {
		out = nil
		p, l, err := s.loadPuzzle(w, puzzleID)
		if err != nil {
			return err
		}
		if g := ToStore(p, now).SourceGuild(); g != "" && g != guild {
			return fmt.Errorf("puzzle %s: %w", puzzleID, ErrNoSuchPuzzle)
		}
		pl, err := w.PuzzlePlayer(guild, user)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		pl = newPlayer(pl)
		a, err := w.PuzzleAttempt(guild, user, puzzleID)
		fresh := errors.Is(err, storage.ErrNotFound)
		if err != nil && !fresh {
			return err
		}
		day, err := currentDaily(w, guild)
		if err != nil {
			return err
		}
		daily := ""
		if day != nil && day.PuzzleID == puzzleID {
			daily = day.Date
		}
		if fresh {
			a.Tries, a.Started, a.Daily = 1, now, daily
			if err := w.PutPuzzleAttempt(a); err != nil {
				return err
			}
		}
		if pl.Current != puzzleID || (name != "" && pl.Name != name) {
			pl.Current, pl.Updated = puzzleID, now
			if name != "" {
				pl.Name = truncateName(name)
			}
			if err := w.PutPuzzlePlayer(pl); err != nil {
				return err
			}
		}
		out = progress(p, l, a, pl, daily)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

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

// Today returns the guild's puzzle of the day, made the member's current puzzle. A guild
// without a daily post gets its puzzle of the day from the first member who asks.
func (s *Service) Today(ctx context.Context, guild, user, name string) (*Progress, error) {
	if err := checkMember(guild, user); err != nil {
		return nil, err
	}
	d, err := s.TodayDaily(ctx, guild)
	if err != nil {
		return nil, err
	}
	return s.Start(ctx, guild, user, name, d.PuzzleID)
}

// Random picks a puzzle for the member (one they have not tried, near the rating asked
// for, or near their own rating when 0) and makes it their current one.
func (s *Service) Random(ctx context.Context, guild, user, name string, around int) (*Progress, error) {
	if err := checkMember(guild, user); err != nil {
		return nil, err
	}
	if around == 0 {
		pl, err := s.db.PuzzlePlayer(guild, user)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return nil, err
		}
		around = int(math.Round(newPlayer(pl).Rating))
	}
	seed := s.rand()
	q := storage.PuzzlePick{GuildID: guild, MinRating: max(around-150, 1), MaxRating: around + 150, Seed: seed, NotTriedBy: user}
	sp, err := s.db.PickPuzzle(q)
	for _, relax := range []func(){
		func() { q.MinRating, q.MaxRating = max(around-500, 1), around+500 },
		func() { q.MinRating, q.MaxRating = 0, 0 },
		func() { q.NotTriedBy = "" },
	} {
		if !errors.Is(err, storage.ErrNoPuzzle) {
			break
		}
		relax()
		sp, err = s.db.PickPuzzle(q)
	}
	if errors.Is(err, storage.ErrNoPuzzle) {
		return nil, ErrNoPuzzles
	}
	if err != nil {
		return nil, err
	}
	return s.Start(ctx, guild, user, name, sp.ID)
}

// Current returns where the member stands in their current puzzle (puzzleID, if set,
// or the one they last looked at, or the guild's puzzle of the day), without changing
// anything: for autocomplete and hints.
func (s *Service) Current(ctx context.Context, guild, user, puzzleID string) (*Progress, error) {
	if err := checkMember(guild, user); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pl, err := s.db.PuzzlePlayer(guild, user)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	pl = newPlayer(pl)
	if puzzleID == "" {
		puzzleID = pl.Current
	}
	if puzzleID == "" {
		d, err := s.TodayDaily(ctx, guild)
		if err != nil {
			return nil, err
		}
		puzzleID = d.PuzzleID
	}
	sp, err := s.db.Puzzle(puzzleID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("puzzle %s: %w", puzzleID, ErrNoSuchPuzzle)
	}
	if err != nil {
		return nil, err
	}
	if g := sp.SourceGuild(); g != "" && g != guild {
		return nil, fmt.Errorf("puzzle %s: %w", puzzleID, ErrNoSuchPuzzle)
	}
	p := FromStore(sp)
	l, err := s.line(p)
	if err != nil {
		return nil, err
	}
	a, err := s.db.PuzzleAttempt(guild, user, puzzleID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	daily := ""
	if d, err := s.db.LatestDaily(guild, ""); err == nil && d.PuzzleID == puzzleID {
		daily = d.Date
	}
	return progress(p, l, a, pl, daily), nil
}

// SolveRequest is a member's answer: a move (SAN or UCI) in their current puzzle.
type SolveRequest struct {
	// RequestID is the interaction id: a repeated request is answered again without
	// acting.
	RequestID   string
	Guild, User string
	Name        string
	// PuzzleID names the puzzle ("" for the member's current one, or today's).
	PuzzleID string
	Move     string
}

// Answer is the service's judgement of a move.
type Answer struct {
	// Progress is where the member stands after the answer (and the opponent's reply).
	*Progress
	Verdict Verdict
	// Played is the member's move in SAN; Reply the opponent's answer ("" when the line
	// is complete or the move was wrong); Correct the move the line wanted, for a wrong
	// answer.
	Played, Reply string
	// Rated reports that this answer decided the rated first try (a wrong move, or the
	// solve); RatingBefore and RatingAfter are the member's rating around it.
	Rated                     bool
	RatingBefore, RatingAfter float64
	// Practice reports that the rated try was decided before: nothing counts.
	Practice bool
	// Streak is the member's daily streak after a solve of the puzzle of the day (0
	// otherwise).
	Streak int
	// Replayed reports a repeated request: nothing was done again.
	Replayed bool
}

// glickoPlayer is a member's Glicko-2 state.
func glickoPlayer(p storage.PuzzlePlayer) rating.Glicko2Player {
	return rating.Glicko2Player{Rating: p.Rating, RD: max(p.RD, minRD), Volatility: p.Volatility}
}

// puzzleGlicko is a puzzle's Glicko-2 state.
func puzzleGlicko(sp *storage.Puzzle) rating.Glicko2Player {
	rd := float64(sp.RD)
	if rd == 0 {
		rd = generatedRD
	}
	vol := sp.Volatility
	if vol == 0 {
		vol = StartVol
	}
	return rating.Glicko2Player{Rating: float64(sp.Rating), RD: max(rd, minRD), Volatility: vol}
}

// rate plays one rated game between the member and the puzzle (score is the member's)
// and writes the puzzle's new rating.
func rate(w *storage.Writer, pl *storage.PuzzlePlayer, sp *storage.Puzzle, score float64) error {
	me, them := glickoPlayer(*pl), puzzleGlicko(sp)
	nme, err := rating.Glicko2Update(me, []rating.Glicko2Game{{Rating: them.Rating, RD: them.RD, Score: score}}, Tau)
	if err != nil {
		return fmt.Errorf("rate %s against puzzle %s: %w", pl.UserID, sp.ID, err)
	}
	nthem, err := rating.Glicko2Update(them, []rating.Glicko2Game{{Rating: me.Rating, RD: me.RD, Score: 1 - score}}, Tau)
	if err != nil {
		return fmt.Errorf("rate puzzle %s against %s: %w", sp.ID, pl.UserID, err)
	}
	pl.Rating, pl.RD, pl.Volatility = nme.Rating, nme.RD, nme.Volatility
	pl.Rated++
	if score == 1 {
		pl.Solved++
	}
	sp.Rating = min(max(int(math.Round(nthem.Rating)), 0), 4000)
	sp.RD = min(max(int(math.Round(nthem.RD)), 1), 5000)
	sp.Volatility = nthem.Volatility
	sp.Plays++
	_, err = w.PutPuzzle(sp)
	return err
}

// Solve judges a member's move. A wrong move ends the rated try as a loss against the
// puzzle's rating (the member may go on trying: practice); finding the whole line at the
// first try is a win. In a mate-in-one, any mate is right. After a right move that does
// not end the line, the opponent's reply is played and the member faces the next move.
// Solving the guild's puzzle of the day while it is the puzzle of the day adds the
// member to its solvers and to their daily streak.
func (s *Service) Solve(ctx context.Context, req SolveRequest) (*Answer, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := checkMember(req.Guild, req.User); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Move) == "" {
		return nil, fmt.Errorf("%w: no move given", ErrBadMove)
	}
	if req.PuzzleID == "" {
		cur, err := s.Current(ctx, req.Guild, req.User, "")
		if err != nil {
			return nil, err
		}
		req.PuzzleID = cur.Puzzle.ID
	}
	unlock := s.lock(req.Guild, req.User)
	defer unlock()
	now := s.clock.Now()
	var out *Answer
	err = s.db.UpdatePuzzles(func(w *storage.Writer) error {
		out = nil
		a, err := s.solve(w, req, now)
		out = a
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// solve is Solve inside the transaction.
func (s *Service) solve(w *storage.Writer, req SolveRequest, now time.Time) (*Answer, error) {
	p, l, err := s.loadPuzzle(w, req.PuzzleID)
	if err != nil {
		return nil, err
	}
	sp, err := w.Puzzle(req.PuzzleID)
	if err != nil {
		return nil, err
	}
	if g := sp.SourceGuild(); g != "" && g != req.Guild {
		return nil, fmt.Errorf("puzzle %s: %w", req.PuzzleID, ErrNoSuchPuzzle)
	}
	pl, err := w.PuzzlePlayer(req.Guild, req.User)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	pl = newPlayer(pl)
	a, err := w.PuzzleAttempt(req.Guild, req.User, req.PuzzleID)
	fresh := errors.Is(err, storage.ErrNotFound)
	if err != nil && !fresh {
		return nil, err
	}
	day, err := currentDaily(w, req.Guild)
	if err != nil {
		return nil, err
	}
	daily := ""
	if day != nil && day.PuzzleID == req.PuzzleID {
		daily = day.Date
	}
	if fresh {
		a.Tries, a.Started, a.Daily = 1, now, daily
	}
	if req.RequestID != "" && a.LastRequest == req.RequestID {
		ans := decodeAnswer(a.LastAnswer)
		ans.Progress, ans.Replayed = progress(p, l, a, pl, daily), true
		return ans, nil
	}
	if a.Step >= l.Steps() { // the try in progress is complete: a new one (practice)
		a.Step = 0
		a.Tries++
	}
	pos, _ := l.PositionAt(a.Step)
	m, err := pos.ParseSAN(req.Move)
	if err != nil {
		var me *cc.MoveError
		if errors.As(err, &me) {
			return nil, fmt.Errorf("%w: %s", ErrBadMove, me.Reason)
		}
		return nil, fmt.Errorf("%w: %v", ErrBadMove, err)
	}
	verdict, err := Check(l, a.Step, m)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadMove, err)
	}
	ans := &Answer{Verdict: verdict, Played: pos.SAN(m), RatingBefore: pl.Rating, RatingAfter: pl.Rating}
	first := a.Result == storage.AttemptOpen
	ans.Practice = !first
	switch verdict {
	case Wrong:
		a.Misses++
		if first {
			a.Result, a.RatingBefore = storage.AttemptFailed, pl.Rating
			if err := rate(w, &pl, sp, 0); err != nil {
				return nil, err
			}
			a.RatingAfter, ans.Rated, ans.RatingAfter = pl.Rating, true, pl.Rating
		}
	case Correct:
		a.Step++
		reply := l.Moves[2*a.Step]
		after := pos.Play(m)
		ans.Reply = after.SAN(reply)
	case Solved:
		a.Step = l.Steps()
		a.Finished = now
		if first {
			a.Result, a.RatingBefore = storage.AttemptSolved, pl.Rating
			if err := rate(w, &pl, sp, 1); err != nil {
				return nil, err
			}
			a.RatingAfter, ans.Rated, ans.RatingAfter = pl.Rating, true, pl.Rating
		}
		if daily != "" { // solved while it is the puzzle of the day
			streak, err := s.solvedDaily(w, day, &pl, req, now, first && a.Misses == 0 && a.Hints == 0)
			if err != nil {
				return nil, err
			}
			ans.Streak = streak
		}
	}
	if req.Name != "" {
		pl.Name = truncateName(req.Name)
	}
	pl.Current, pl.Updated = req.PuzzleID, now
	a.LastRequest, a.LastAnswer = req.RequestID, encodeAnswer(ans)
	if err := w.PutPuzzleAttempt(a); err != nil {
		return nil, err
	}
	if err := w.PutPuzzlePlayer(pl); err != nil {
		return nil, err
	}
	ans.Progress = progress(p, l, a, pl, daily)
	return ans, nil
}

// solvedDaily adds a solve of the puzzle of the day: the member joins the day's
// solvers and their streak goes on (when they solved the day before too) or restarts.
func (s *Service) solvedDaily(w *storage.Writer, day *storage.Daily, pl *storage.PuzzlePlayer, req SolveRequest, now time.Time, clean bool) (int, error) {
	if pl.StreakDay != day.Date {
		if day.Prev != "" && pl.StreakDay == day.Prev {
			pl.Streak++
		} else {
			pl.Streak = 1
		}
		pl.StreakDay = day.Date
		pl.Best = max(pl.Best, pl.Streak)
	}
	for _, sv := range day.Solvers {
		if sv.UserID == req.User {
			return pl.Streak, nil
		}
	}
	if len(day.Solvers) < storage.MaxDailySolvers {
		day.Solvers = append(day.Solvers, storage.DailySolver{UserID: req.User, Name: truncateName(req.Name), At: now, Clean: clean})
		if err := w.PutDaily(day); err != nil {
			return 0, err
		}
	}
	return pl.Streak, nil
}

// encodeAnswer keeps what a repeated request needs to be answered again.
func encodeAnswer(a *Answer) string {
	return strings.Join([]string{strconv.Itoa(int(a.Verdict)), a.Played, a.Reply, strconv.FormatBool(a.Rated),
		strconv.FormatFloat(a.RatingBefore, 'f', 3, 64), strconv.FormatFloat(a.RatingAfter, 'f', 3, 64),
		strconv.FormatBool(a.Practice), strconv.Itoa(a.Streak)}, "|")
}

func decodeAnswer(s string) *Answer {
	f := strings.Split(s, "|")
	a := &Answer{}
	if len(f) != 8 {
		return a
	}
	v, _ := strconv.Atoi(f[0])
	a.Verdict, a.Played, a.Reply = Verdict(v), f[1], f[2]
	a.Rated, _ = strconv.ParseBool(f[3])
	a.RatingBefore, _ = strconv.ParseFloat(f[4], 64)
	a.RatingAfter, _ = strconv.ParseFloat(f[5], 64)
	a.Practice, _ = strconv.ParseBool(f[6])
	a.Streak, _ = strconv.Atoi(f[7])
	return a
}

// Hint is the piece to move.
type Hint struct {
	*Progress
	// From is the square of the piece the solution moves.
	From cc.Square
	// Rated reports that the hint decided the rated try (as a miss).
	Rated                     bool
	RatingBefore, RatingAfter float64
}

// Hint shows which piece the solution moves in the member's current position. A hint
// during the rated first try counts as a miss, as on lichess.
func (s *Service) Hint(ctx context.Context, guild, user, name, puzzleID string) (*Hint, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	cur, err := s.Current(ctx, guild, user, puzzleID)
	if err != nil {
		return nil, err
	}
	puzzleID = cur.Puzzle.ID
	unlock := s.lock(guild, user)
	defer unlock()
	now := s.clock.Now()
	var out *Hint
	err = s.db.UpdatePuzzles(func(w *storage.Writer) error {
		out = nil
		p, l, err := s.loadPuzzle(w, puzzleID)
		if err != nil {
			return err
		}
		sp, err := w.Puzzle(puzzleID)
		if err != nil {
			return err
		}
		pl, err := w.PuzzlePlayer(guild, user)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		pl = newPlayer(pl)
		a, err := w.PuzzleAttempt(guild, user, puzzleID)
		if errors.Is(err, storage.ErrNotFound) {
			a.Tries, a.Started, a.Daily = 1, now, cur.Daily
		} else if err != nil {
			return err
		}
		if a.Step >= l.Steps() {
			a.Step = 0
			a.Tries++
		}
		h := &Hint{From: l.Moves[1+2*a.Step].From(), RatingBefore: pl.Rating, RatingAfter: pl.Rating}
		a.Hints++
		if a.Result == storage.AttemptOpen {
			a.Result, a.RatingBefore = storage.AttemptFailed, pl.Rating
			if err := rate(w, &pl, sp, 0); err != nil {
				return err
			}
			a.RatingAfter, h.Rated, h.RatingAfter = pl.Rating, true, pl.Rating
		}
		if name != "" {
			pl.Name = truncateName(name)
		}
		pl.Current, pl.Updated = puzzleID, now
		if err := w.PutPuzzleAttempt(a); err != nil {
			return err
		}
		if err := w.PutPuzzlePlayer(pl); err != nil {
			return err
		}
		h.Progress = progress(p, l, a, pl, cur.Daily)
		out = h
		return nil
	})
	return out, err
}

// Stats is a member's puzzle record as /puzzle stats shows it.
type Stats struct {
	storage.PuzzlePlayer
	// Streak is the streak still alive: the member solved the latest puzzle of the day,
	// or the one before it (today's is still open).
	Streak int
	// Rank is the member's place on the guild's leaderboard (0 without a rated
	// attempt); Of the number of ranked members.
	Rank, Of int
}

// Stats returns a member's puzzle record.
func (s *Service) Stats(ctx context.Context, guild, user string) (*Stats, error) {
	if err := checkMember(guild, user); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pl, err := s.db.PuzzlePlayer(guild, user)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	st := &Stats{PuzzlePlayer: newPlayer(pl)}
	if pl.StreakDay != "" {
		d, err := s.TodayDaily(ctx, guild)
		if err != nil && !errors.Is(err, ErrNoPuzzles) {
			return nil, err
		}
		if d != nil && (d.Date == pl.StreakDay || d.Prev == pl.StreakDay) {
			st.Streak = pl.Streak
		}
	}
	board, err := s.db.PuzzleLeaderboard(guild, 0)
	if err != nil {
		return nil, err
	}
	st.Of = len(board)
	for i, b := range board {
		if b.UserID == user {
			st.Rank = i + 1
		}
	}
	return st, nil
}

// Leaderboard returns the guild's best puzzle ratings, at most limit members.
func (s *Service) Leaderboard(ctx context.Context, guild string, limit int) ([]storage.PuzzlePlayer, error) {
	if guild == "" {
		return nil, ErrNotInGuild
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.db.PuzzleLeaderboard(guild, limit)
}

// Puzzle returns a stored puzzle and its line.
func (s *Service) Puzzle(ctx context.Context, id string) (*Puzzle, Line, error) {
	if err := ctx.Err(); err != nil {
		return nil, Line{}, err
	}
	sp, err := s.db.Puzzle(id)
	return s.withLine(id, sp, err)
}

// GameOver queues a finished game to be mined for puzzles in the background (a guild's
// games only; aborted and short games are skipped; when the queue is full the game is
// dropped). The puzzles found are stored with the source game:<guild>:<id> and the
// players in their description, and are only shown in that guild.
func (s *Service) GameOver(g *storage.Game) {
	if s.opts.Mine.Off || g == nil || g.GuildID == "" || g.Live() || g.Ply() < s.opts.Mine.MinPlies ||
		g.Outcome.Termination == cc.Aborted {
		return
	}
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return
	}
	s.mineMu.Lock()
	if s.mineQ == nil {
		s.mineQ = make(chan *storage.Game, s.opts.Mine.Queue)
		s.mineDone = make(chan struct{})
		go s.miner(s.mineQ, s.mineDone)
	}
	q := s.mineQ
	s.mineMu.Unlock()
	select {
	case q <- g.Clone():
	default:
		s.log.Warn("puzzles: mining queue full, game not mined", "game", g.ID, "guild", g.GuildID)
	}
}

// miner mines queued games one at a time with one engine.
func (s *Service) miner(q <-chan *storage.Game, done chan<- struct{}) {
	defer close(done)
	gen := NewGenerator(engine.New(engine.Options{HashMB: 8}), GenOptions{ScanNodes: s.opts.Mine.ScanNodes, VerifyNodes: s.opts.Mine.VerifyNodes})
	for g := range q {
		if s.ctx.Err() != nil {
			continue // closing: drain
		}
		n, err := s.mine(gen, g)
		if err != nil {
			s.log.Error("puzzles: mine a finished game", "game", g.ID, "guild", g.GuildID, "err", err)
			continue
		}
		if n > 0 {
			s.log.Info("puzzles: mined a finished game", "game", g.ID, "guild", g.GuildID, "puzzles", n)
		}
	}
}

// MineGame mines one finished game now (on the caller's goroutine) and stores what it
// finds; it returns how many puzzles were added.
func (s *Service) MineGame(g *storage.Game) (int, error) {
	gen := NewGenerator(engine.New(engine.Options{HashMB: 8}), GenOptions{ScanNodes: s.opts.Mine.ScanNodes, VerifyNodes: s.opts.Mine.VerifyNodes})
	return s.mine(gen, g)
}

func (s *Service) mine(gen *Generator, g *storage.Game) (int, error) {
	start := cc.StartPosition()
	if g.StartFEN != "" {
		pos, err := cc.ParseFEN(g.StartFEN)
		if err != nil {
			return 0, fmt.Errorf("game %d: start position: %w", g.ID, err)
		}
		start = pos
	}
	game := cc.NewGame(start)
	for i, m := range g.Moves {
		if err := game.Play(m); err != nil {
			return 0, fmt.Errorf("game %d: move %d: %w", g.ID, i+1, err)
		}
	}
	found := gen.FromGame(game, fmt.Sprintf("gm%d-", g.ID), fmt.Sprintf("game:%s:%d", g.GuildID, g.ID))
	if len(found) == 0 {
		return 0, nil
	}
	now := s.clock.Now()
	batch := make([]*storage.Puzzle, 0, len(found))
	for i := range found {
		p := &found[i]
		p.Description = fmt.Sprintf("<@%s> vs <@%s>", g.White.ID, g.Black.ID)
		p.Played = g.Ended
		batch = append(batch, ToStore(p, now))
	}
	return s.db.AddPuzzles(batch)
}
