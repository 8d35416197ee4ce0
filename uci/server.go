// server.go: the built-in engine behind a UCI interface.

package uci

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
)

// Server is the built-in engine as a UCI engine. Set the fields, then call Serve.
type Server struct {
	// Name and Author are sent in reply to "uci".
	Name, Author string
	// HashMB is the initial transposition table size (0: engine.DefaultHashMB).
	HashMB int
	// Level is the initial playing level (0: full strength, 8).
	Level int
	// Seed seeds the randomness of the levels below 8. Serve uses the same seed each time,
	// so a fixed seed replays the same games; pick a fresh one for variety.
	Seed uint64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Log receives protocol problems (nil: discarded).
	Log *slog.Logger
}

// Limits of the options the server declares.
const (
	maxHashMB      = 4096
	maxMultiPV     = 64
	maxOverheadMS  = 5000
	defaultOverMS  = 30
	scanBufferSize = 1 << 20
)

// session is one Serve call's state.
type session struct {
	srv      *Server
	out      *syncWriter
	log      *slog.Logger
	now      func() time.Time
	eng      *engine.Engine
	pos      cc.Position
	keys     []uint64     // hashes of the positions before pos, oldest first
	level    engine.Level // the Level option
	limit    bool         // UCI_LimitStrength: play at the level nearest elo
	elo      int
	multiPV  int
	chess960 bool // UCI_Chess960: castling read and written as the king taking its rook
	showWDL  bool // UCI_ShowWDL: info lines carry win, draw and loss chances
	overhead time.Duration
	rng      *rand.Rand
	search   *running
}

// running is a search in progress.
type running struct {
	stop     atomic.Bool
	stopCh   chan struct{}
	stopOnce sync.Once
	answered atomic.Bool // set just before bestmove is written
	done     chan struct{}
}

func (r *running) halt() {
	r.stop.Store(true)
	r.stopOnce.Do(func() { close(r.stopCh) })
}

// syncWriter writes whole lines under a lock: the search goroutine and the command loop
// both write.
type syncWriter struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
}

func (w *syncWriter) line(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	if _, err := w.w.WriteString(s + "\n"); err != nil {
		w.err = err
		return
	}
	w.err = w.w.Flush()
}

// Serve reads commands from in and answers on out until "quit" or the end of in. It
// returns the first write error, or a read error other than the end of input.
func (s *Server) Serve(in io.Reader, out io.Writer) error {
	ss := &session{
		srv:      s,
		out:      &syncWriter{w: bufio.NewWriter(out)},
		log:      s.Log,
		now:      s.Now,
		multiPV:  1,
		overhead: defaultOverMS * time.Millisecond,
		rng:      rand.New(rand.NewPCG(s.Seed, s.Seed^0x9E3779B97F4A7C15)),
	}
	if ss.log == nil {
		ss.log = slog.New(slog.DiscardHandler)
	}
	if ss.now == nil {
		ss.now = time.Now
	}
	ss.eng = engine.New(engine.Options{HashMB: s.HashMB})
	ss.level, _ = engine.LevelByNumber(engine.MaxLevel)
	if s.Level != 0 {
		l, err := engine.LevelByNumber(s.Level)
		if err != nil {
			return fmt.Errorf("uci server: %w", err)
		}
		ss.level = l
	}
	ss.pos = cc.StartPosition()
	defer ss.stopSearch()

	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), scanBufferSize)
	for sc.Scan() {
		if !ss.handle(sc.Text()) {
			break
		}
		if err := ss.writeErr(); err != nil {
			return fmt.Errorf("uci server: write: %w", err)
		}
	}
	ss.stopSearch()
	if err := ss.writeErr(); err != nil {
		return fmt.Errorf("uci server: write: %w", err)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("uci server: read: %w", err)
	}
	return nil
}

func (ss *session) writeErr() error {
	ss.out.mu.Lock()
	defer ss.out.mu.Unlock()
	return ss.out.err
}

// handle runs one command line; it returns false on "quit".
func (ss *session) handle(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	cmd, args := f[0], f[1:]
	switch cmd {
	case "uci":
		ss.identify()
	case "isready":
		ss.out.line("readyok")
	case "ucinewgame":
		ss.stopSearch()
		ss.eng.NewGame()
		ss.pos, ss.keys = cc.StartPosition(), nil
	case "setoption":
		ss.stopSearch()
		ss.setOption(args)
	case "position":
		ss.stopSearch()
		ss.setPosition(args)
	case "go":
		ss.startSearch(args)
	case "stop":
		ss.stopSearch()
	case "ponderhit":
		// Pondering is not offered (no Ponder option), so there is nothing to convert.
	case "debug", "register":
	case "quit":
		ss.stopSearch()
		return false
	default:
		ss.infoString("unknown command " + strconv.Quote(cmd))
	}
	return true
}

func (ss *session) infoString(s string) {
	ss.log.Warn("uci server", "problem", s)
	ss.out.line("info string " + s)
}

func (ss *session) identify() {
	name := ss.srv.Name
	if name == "" {
		name = "Gambit"
	}
	author := ss.srv.Author
	if author == "" {
		author = "the Gambit authors"
	}
	hash := ss.srv.HashMB
	if hash <= 0 {
		hash = engine.DefaultHashMB
	}
	ss.out.line("id name " + name)
	ss.out.line("id author " + author)
	ss.out.line(fmt.Sprintf("option name Hash type spin default %d min 1 max %d", hash, maxHashMB))
	ss.out.line("option name Threads type spin default 1 min 1 max 1")
	ss.out.line(fmt.Sprintf("option name Level type spin default %d min %d max %d", ss.level.Number, engine.MinLevel, engine.MaxLevel))
	lo, hi := levelRating(engine.MinLevel), levelRating(engine.MaxLevel)
	ss.out.line("option name UCI_LimitStrength type check default false")
	ss.out.line(fmt.Sprintf("option name UCI_Elo type spin default %d min %d max %d", ss.eloOrDefault(), lo, hi))
	ss.out.line(fmt.Sprintf("option name MultiPV type spin default 1 min 1 max %d", maxMultiPV))
	ss.out.line(fmt.Sprintf("option name Move Overhead type spin default %d min 0 max %d", defaultOverMS, maxOverheadMS))
	ss.out.line("option name UCI_ShowWDL type check default false")
	ss.out.line("option name UCI_Chess960 type check default false")
	ss.out.line("option name Clear Hash type button")
	ss.out.line("uciok")
}

// setOption handles "setoption name <id> [value <x>]".
func (ss *session) setOption(args []string) {
	if len(args) < 2 || args[0] != "name" {
		ss.infoString("setoption: want setoption name <id> [value <x>]")
		return
	}
	var name, value []string
	inValue := false
	for _, w := range args[1:] {
		switch {
		case !inValue && w == "value":
			inValue = true
		case inValue:
			value = append(value, w)
		default:
			name = append(name, w)
		}
	}
	id := strings.ToLower(strings.Join(name, " "))
	val := strings.Join(value, " ")
	spin := func(lo, hi int) (int, bool) {
		n, err := strconv.Atoi(val)
		if err != nil || n < lo || n > hi {
			ss.infoString(fmt.Sprintf("setoption %s: value %q: want %d to %d", strings.Join(name, " "), val, lo, hi))
			return 0, false
		}
		return n, true
	}
	check := func() (bool, bool) {
		switch strings.ToLower(val) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		ss.infoString(fmt.Sprintf("setoption %s: value %q: want true or false", strings.Join(name, " "), val))
		return false, false
	}
	switch id {
	case "hash":
		if n, ok := spin(1, maxHashMB); ok {
			ss.eng.SetHash(n)
		}
	case "threads":
		spin(1, 1)
	case "level":
		if n, ok := spin(engine.MinLevel, engine.MaxLevel); ok {
			ss.level, _ = engine.LevelByNumber(n)
		}
	case "uci_limitstrength":
		if b, ok := check(); ok {
			ss.limit = b
		}
	case "uci_elo":
		if n, ok := spin(levelRating(engine.MinLevel), levelRating(engine.MaxLevel)); ok {
			ss.elo = n
		}
	case "uci_showwdl":
		if b, ok := check(); ok {
			ss.showWDL = b
		}
	case "uci_chess960":
		if b, ok := check(); ok {
			ss.chess960 = b
		}
	case "multipv":
		if n, ok := spin(1, maxMultiPV); ok {
			ss.multiPV = n
		}
	case "move overhead":
		if n, ok := spin(0, maxOverheadMS); ok {
			ss.overhead = time.Duration(n) * time.Millisecond
		}
	case "clear hash":
		ss.eng.NewGame()
	default:
		ss.infoString("setoption: no option " + strconv.Quote(strings.Join(name, " ")))
	}
}

// levelRating returns the estimated rating of level n.
func levelRating(n int) int {
	l, _ := engine.LevelByNumber(n)
	return l.Rating
}

// eloOrDefault is the UCI_Elo value, or the Level option's rating if none was set.
func (ss *session) eloOrDefault() int {
	if ss.elo != 0 {
		return ss.elo
	}
	return ss.level.Rating
}

// infoLine returns the search's report callback, in the form the options ask for
// (taken when the search starts).
func (ss *session) infoLine() func(engine.Info) {
	wdl, root := ss.showWDL, ss.pos
	return func(in engine.Info) { ss.out.line(formatInfo(in, wdl, &root)) }
}

// setPosition handles "position ...". On an illegal move the position stops before it.
func (ss *session) setPosition(args []string) {
	p, pos, err := ParsePosition(args, ss.chess960)
	if err != nil {
		ss.infoString(err.Error())
		if pos == (cc.Position{}) {
			return
		}
	}
	start, _ := p.Start()
	ss.keys = ss.keys[:0]
	q := start
	for _, m := range p.Moves {
		ss.keys = append(ss.keys, q.Hash())
		q = q.Play(m)
	}
	ss.pos = q
}

// startSearch handles "go": it starts the search goroutine, which prints bestmove.
func (ss *session) startSearch(args []string) {
	if ss.search != nil {
		if !ss.search.answered.Load() {
			ss.infoString("go: already searching; send stop first")
			return
		}
		<-ss.search.done // bestmove is out; the goroutine is ending
		ss.search = nil
	}
	gp, err := ParseGo(args)
	if err != nil {
		ss.infoString(err.Error())
		return
	}
	r := &running{stopCh: make(chan struct{}), done: make(chan struct{})}
	lim := engine.Limits{
		Depth:    gp.Depth,
		Nodes:    gp.Nodes,
		MoveTime: gp.MoveTime,
		Infinite: gp.Infinite || gp.Ponder,
		Now:      ss.now,
		Stop:     &r.stop,
		MultiPV:  ss.multiPV,
		Info:     ss.infoLine(),
	}
	if gp.Mate > 0 && lim.Depth == 0 {
		lim.Depth = 2*gp.Mate + 1
	}
	remaining, inc := gp.WTime, gp.WInc
	if ss.pos.Turn() == cc.Black {
		remaining, inc = gp.BTime, gp.BInc
	}
	if remaining > 0 && gp.MoveTime == 0 {
		lim.Clock = &engine.TimeLeft{Remaining: remaining, Increment: inc, MovesToGo: gp.MovesToGo, Overhead: ss.overhead}
	}
	for _, w := range gp.SearchMoves {
		if m, err := ss.pos.ParseUCI(w); err == nil {
			lim.SearchMoves = append(lim.SearchMoves, m)
		} else {
			ss.infoString("go searchmoves: " + err.Error())
		}
	}
	ss.search = r
	level := ss.level
	if ss.limit {
		level = engine.LevelForRating(ss.eloOrDefault())
	}
	pos, keys, eng, rng := ss.pos, append([]uint64(nil), ss.keys...), ss.eng, ss.rng
	go func() {
		defer close(r.done)
		res, err := eng.Play(pos, keys, lim, level, rng)
		if err != nil {
			ss.infoString("search: " + err.Error())
		}
		if lim.Infinite {
			// UCI: after go infinite, bestmove waits for stop even if the search is done.
			<-r.stopCh
		}
		r.answered.Store(true)
		line := "bestmove " + pos.UCIMove(res.Move)
		if res.Ponder != cc.NullMove && pos.IsLegal(res.Move) {
			after := pos.Play(res.Move)
			line += " ponder " + after.UCIMove(res.Ponder)
		}
		ss.out.line(line)
	}()
}

// stopSearch stops a running search and waits for its bestmove.
func (ss *session) stopSearch() {
	if ss.search == nil {
		return
	}
	ss.search.halt()
	<-ss.search.done
	ss.search = nil
}
