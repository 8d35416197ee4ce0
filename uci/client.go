// client.go: driving an external UCI engine process, with deadlines on every wait and
// restarts after a crash or a hang.

package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
)

// Errors of Client methods, for errors.Is.
var (
	// ErrCrashed: the engine process ended (it is restarted for the next request).
	ErrCrashed = errors.New("engine crashed")
	// ErrHung: the engine did not answer in time and was killed (and restarted).
	ErrHung = errors.New("engine hung")
	// ErrIllegalMove: the engine answered with a move that is not legal.
	ErrIllegalMove = errors.New("engine played an illegal move")
	// ErrGivenUp: the engine failed more often than Config.MaxRestarts allows.
	ErrGivenUp = errors.New("engine failed too often")
	// ErrClosed: the client has been closed.
	ErrClosed = errors.New("engine client closed")
)

// OptionValue is an option to set: "setoption name Name value Value".
type OptionValue struct {
	Name, Value string
}

// Config describes an external engine and how patient to be with it.
type Config struct {
	// Name labels the engine in logs (default: the base name of Path).
	Name string
	// Path and Args are the command to run; Dir its working directory.
	Path string
	Args []string
	Dir  string
	// Options are set after every start, in order (Hash, Threads, UCI_Elo, ...).
	Options []OptionValue
	// StartTimeout bounds the wait for uciok and readyok (0: 10 s).
	StartTimeout time.Duration
	// Grace is how long past the time a search should take the engine may be late
	// before it counts as hung, and how long it gets to answer "stop" (0: 3 s).
	Grace time.Duration
	// SearchTimeout bounds searches limited by depth or nodes only (0: 5 min).
	SearchTimeout time.Duration
	// MaxRestarts is how many restarts after failures the client makes in its life
	// (0: 3; negative: none).
	MaxRestarts int
	// Untimed is BestMove's thinking time without a clock (0: 1 s).
	Untimed time.Duration
	// Log receives the engine's failures and restarts (nil: discarded).
	Log *slog.Logger
}

func (c *Config) defaults() {
	if c.Name == "" {
		c.Name = filepath.Base(c.Path)
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = 10 * time.Second
	}
	if c.Grace <= 0 {
		c.Grace = 3 * time.Second
	}
	if c.SearchTimeout <= 0 {
		c.SearchTimeout = 5 * time.Minute
	}
	if c.MaxRestarts == 0 {
		c.MaxRestarts = 3
	}
	if c.Untimed <= 0 {
		c.Untimed = time.Second
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
}

// Client is a running external engine. Its methods are safe for concurrent use; requests
// are served one at a time.
type Client struct {
	cfg      Config
	log      *slog.Logger
	mu       sync.Mutex
	p        *proc
	name     string
	author   string
	declared []Option
	multiPV  int
	restarts int
	closed   bool
}

var _ engine.Player = (*Client)(nil)

// proc is one engine process.
type proc struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	lines    chan string   // stdout, line by line; closed at the end of output
	exited   chan struct{} // closed once the process has been waited for
	dead     chan struct{} // closed by kill: stop delivering lines
	killOnce sync.Once
	waitErr  error
	stderr   *tailWriter
	chess960 bool // UCI_Chess960 has been set on
}

// tailWriter keeps the last lines written to it (the engine's stderr, for crash logs).
type tailWriter struct {
	mu    sync.Mutex
	lines []string
	part  string
}

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.part + string(b)
	parts := strings.Split(s, "\n")
	t.part = parts[len(parts)-1]
	if len(t.part) > 1024 {
		t.part = t.part[:1024]
	}
	t.lines = append(t.lines, parts[:len(parts)-1]...)
	if n := len(t.lines); n > 20 {
		t.lines = append(t.lines[:0], t.lines[n-20:]...)
	}
	return len(b), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := t.lines
	if t.part != "" {
		all = append(append([]string(nil), all...), t.part)
	}
	return strings.Join(all, " | ")
}

func (p *proc) kill() {
	p.killOnce.Do(func() {
		close(p.dead)
		if p.cmd.Process != nil {
			_ = p.cmd.Process.Kill()
		}
	})
}

func (p *proc) pid() int {
	if p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

func (p *proc) send(line string) error {
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		return fmt.Errorf("send %q: %w", line, err)
	}
	return nil
}

// errTimeout and errExited are internal wait outcomes.
var (
	errTimeout = errors.New("timed out")
	errExited  = errors.New("process exited")
)

// next returns the next output line, waiting at most until deadline (nil: no deadline).
func (p *proc) next(ctx context.Context, deadline <-chan time.Time) (string, error) {
	select {
	case l, ok := <-p.lines:
		if !ok {
			return "", errExited
		}
		return l, nil
	case <-deadline:
		return "", errTimeout
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Start launches the engine, runs the UCI handshake and sets the configured options.
func Start(ctx context.Context, cfg Config) (*Client, error) {
	cfg.defaults()
	c := &Client{cfg: cfg, log: cfg.Log.With("engine", cfg.Name), multiPV: 1}
	if err := c.launch(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// launch starts a process and runs the handshake; c.mu is held or c is not shared yet.
func (c *Client) launch(ctx context.Context) error {
	cmd := exec.Command(c.cfg.Path, c.cfg.Args...)
	cmd.Dir = c.cfg.Dir
	p := &proc{cmd: cmd, lines: make(chan string, 1024), exited: make(chan struct{}), dead: make(chan struct{}), stderr: &tailWriter{}}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("engine %s: stdin: %w", c.cfg.Name, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("engine %s: stdout: %w", c.cfg.Name, err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("engine %s: start %s: %w", c.cfg.Name, c.cfg.Path, err)
	}
	p.stdin = stdin
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), scanBufferSize)
		delivering := true
		for sc.Scan() {
			if !delivering {
				continue
			}
			select {
			case p.lines <- sc.Text():
			case <-p.dead:
				delivering = false
			}
		}
		close(p.lines)
		_, _ = io.Copy(io.Discard, stdout)
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	c.p = p
	if err := c.handshake(ctx); err != nil {
		c.stop(p)
		c.p = nil
		return fmt.Errorf("engine %s: %w", c.cfg.Name, err)
	}
	c.log.Info("engine started", "pid", p.pid(), "id", c.name)
	return nil
}

// handshake sends uci, reads the engine's identity and options, sets ours, and waits
// until the engine is ready.
func (c *Client) handshake(ctx context.Context) error {
	p := c.p
	if err := p.send("uci"); err != nil {
		return err
	}
	deadline := time.After(c.cfg.StartTimeout)
	c.declared = c.declared[:0]
	for {
		l, err := p.next(ctx, deadline)
		if err != nil {
			return c.waitError("uciok", err)
		}
		switch {
		case l == "uciok":
			goto options
		case strings.HasPrefix(l, "id name "):
			c.name = strings.TrimPrefix(l, "id name ")
		case strings.HasPrefix(l, "id author "):
			c.author = strings.TrimPrefix(l, "id author ")
		case strings.HasPrefix(l, "option "):
			if o, err := ParseOption(l); err == nil {
				c.declared = append(c.declared, o)
			}
		}
	}
options:
	for _, o := range c.cfg.Options {
		if !c.declares(o.Name) {
			c.log.Warn("engine does not declare option", "option", o.Name)
		}
		if err := p.send("setoption name " + o.Name + " value " + o.Value); err != nil {
			return err
		}
	}
	if c.multiPV > 1 {
		if err := p.send("setoption name MultiPV value " + strconv.Itoa(c.multiPV)); err != nil {
			return err
		}
	}
	return c.ready(ctx)
}

func (c *Client) declares(name string) bool {
	for _, o := range c.declared {
		if strings.EqualFold(o.Name, name) {
			return true
		}
	}
	return false
}

// ready sends isready and waits for readyok.
func (c *Client) ready(ctx context.Context) error {
	if err := c.p.send("isready"); err != nil {
		return err
	}
	deadline := time.After(c.cfg.StartTimeout)
	for {
		l, err := c.p.next(ctx, deadline)
		if err != nil {
			return c.waitError("readyok", err)
		}
		if l == "readyok" {
			return nil
		}
	}
}

// waitError describes a failed wait for what.
func (c *Client) waitError(what string, err error) error {
	switch {
	case errors.Is(err, errExited):
		<-c.p.exited
		return fmt.Errorf("%w while waiting for %s (%v; stderr: %s)", ErrCrashed, what, c.p.waitErr, c.p.stderr)
	case errors.Is(err, errTimeout):
		return fmt.Errorf("%w: no %s", ErrHung, what)
	}
	return err
}

// stop ends a process: quit, then kill if it lingers.
func (c *Client) stop(p *proc) {
	_ = p.send("quit")
	_ = p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		p.kill()
		<-p.exited
	}
}

// ID returns the engine's name and author from its "id" lines.
func (c *Client) ID() (name, author string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.name, c.author
}

// Options returns the options the engine declared.
func (c *Client) Options() []Option {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Option(nil), c.declared...)
}

// revive makes sure a process is running, restarting it if allowed.
func (c *Client) revive(ctx context.Context) error {
	if c.closed {
		return ErrClosed
	}
	if c.p != nil {
		return nil
	}
	if c.cfg.MaxRestarts < 0 || c.restarts >= c.cfg.MaxRestarts {
		return fmt.Errorf("engine %s: %w (%d restarts)", c.cfg.Name, ErrGivenUp, c.restarts)
	}
	c.restarts++
	c.log.Warn("restarting engine", "restart", c.restarts, "of", c.cfg.MaxRestarts)
	return c.launch(ctx)
}

// fail records a failed process: it is killed and forgotten, to be restarted on the next
// request.
func (c *Client) fail(p *proc, err error) {
	c.log.Error("engine failed", "pid", p.pid(), "err", err, "stderr", p.stderr.String())
	p.kill()
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
	}
	if c.p == p {
		c.p = nil
	}
}

// NewGame tells the engine a new game begins.
func (c *Client) NewGame(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.revive(ctx); err != nil {
		return err
	}
	p := c.p
	if err := p.send("ucinewgame"); err != nil {
		c.fail(p, err)
		return fmt.Errorf("engine %s: %w: %w", c.cfg.Name, ErrCrashed, err)
	}
	if err := c.ready(ctx); err != nil {
		c.fail(p, err)
		return fmt.Errorf("engine %s: new game: %w", c.cfg.Name, err)
	}
	return nil
}

// SetOption sets an option now (and does not keep it for restarts: use Config.Options).
func (c *Client) SetOption(ctx context.Context, name, value string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.revive(ctx); err != nil {
		return err
	}
	if err := c.p.send("setoption name " + name + " value " + value); err != nil {
		c.fail(c.p, err)
		return fmt.Errorf("engine %s: %w: %w", c.cfg.Name, ErrCrashed, err)
	}
	return c.ready(ctx)
}

// Result is an engine's answer to "go".
type Result struct {
	// BestMove is the move chosen (NullMove when the engine says there is none: "0000").
	BestMove cc.Move
	// Ponder is the reply the engine expects (NullMove if none or not legal).
	Ponder cc.Move
	// Info is the last scored report of the first line.
	Info Info
	// Lines holds the last scored report of each line, Lines[0] for multipv 1.
	Lines []Info
}

// Go sets up pos, runs "go" with gp and waits for bestmove. The wait is bounded: by the
// time the search should take (movetime, or the side's clock) plus Grace, or by
// SearchTimeout. An engine past its time gets "stop", then Grace more; one that still
// does not answer is killed and ErrHung returned; one whose process ends gives
// ErrCrashed. Either way the next request starts a fresh process. When ctx is done the
// engine gets "stop" and its answer is returned (with ctx's error unless gp.Infinite).
func (c *Client) Go(ctx context.Context, pos Position, gp GoParams) (Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.goLocked(ctx, pos, gp)
}

func (c *Client) goLocked(ctx context.Context, pos Position, gp GoParams) (Result, error) {
	var res Result
	cur, err := replay(pos)
	if err != nil {
		return res, err
	}
	if err := c.revive(ctx); err != nil {
		return res, err
	}
	p := c.p
	// Drop output left over from an earlier request.
	for drained := false; !drained; {
		select {
		case _, ok := <-p.lines:
			if !ok {
				drained = true
			}
		default:
			drained = true
		}
	}
	if pos.Chess960 != p.chess960 {
		if !c.declares("UCI_Chess960") {
			return res, fmt.Errorf("engine %s does not play Chess960: it declares no UCI_Chess960 option", c.cfg.Name)
		}
		if err := p.send("setoption name UCI_Chess960 value " + strconv.FormatBool(pos.Chess960)); err != nil {
			c.fail(p, err)
			return res, fmt.Errorf("engine %s: %w: %w", c.cfg.Name, ErrCrashed, err)
		}
		p.chess960 = pos.Chess960
	}
	if err := p.send(pos.String()); err != nil {
		c.fail(p, err)
		return res, fmt.Errorf("engine %s: %w: %w", c.cfg.Name, ErrCrashed, err)
	}
	if err := p.send(gp.String()); err != nil {
		c.fail(p, err)
		return res, fmt.Errorf("engine %s: %w: %w", c.cfg.Name, ErrCrashed, err)
	}
	var deadline <-chan time.Time
	if !gp.Infinite && !gp.Ponder {
		deadline = time.After(c.expected(gp, cur.Turn()) + c.cfg.Grace)
	}
	waitCtx := ctx
	stopped := false
	for {
		l, err := p.next(waitCtx, deadline)
		switch {
		case err == nil:
		case errors.Is(err, errExited):
			<-p.exited
			err = fmt.Errorf("engine %s: %w during search (%v)", c.cfg.Name, ErrCrashed, p.waitErr)
			c.fail(p, err)
			return res, err
		case stopped:
			// No answer to stop within Grace.
			err = fmt.Errorf("engine %s: %w: no bestmove %s after stop", c.cfg.Name, ErrHung, c.cfg.Grace)
			c.fail(p, err)
			return res, err
		default:
			// Timed out or cancelled: ask for the move now.
			if errors.Is(err, errTimeout) {
				c.log.Warn("engine is late; sending stop", "pid", p.pid(), "go", gp.String())
			}
			if err := p.send("stop"); err != nil {
				c.fail(p, err)
				return res, fmt.Errorf("engine %s: %w: %w", c.cfg.Name, ErrCrashed, err)
			}
			stopped = true
			waitCtx = context.Background()
			deadline = time.After(c.cfg.Grace)
			continue
		}
		switch {
		case strings.HasPrefix(l, "info "):
			in, perr := ParseInfo(l)
			if perr != nil || !in.HasScore {
				continue
			}
			k := max(in.MultiPV, 1) - 1
			for len(res.Lines) <= k {
				res.Lines = append(res.Lines, Info{})
			}
			res.Lines[k] = in
			if k == 0 {
				res.Info = in
			}
		case l == "bestmove" || strings.HasPrefix(l, "bestmove "):
			if err := c.readBestMove(&res, &cur, l); err != nil {
				return res, err
			}
			if ctx.Err() != nil && !gp.Infinite {
				return res, ctx.Err()
			}
			return res, nil
		}
	}
}

// readBestMove parses "bestmove m [ponder r]" against the position cur.
func (c *Client) readBestMove(res *Result, cur *cc.Position, l string) error {
	f := strings.Fields(l)
	if len(f) < 2 || f[1] == "0000" || f[1] == "(none)" {
		return nil
	}
	m, err := cur.ParseUCI(f[1])
	if err != nil {
		return fmt.Errorf("engine %s: %w: %q in %s: %w", c.cfg.Name, ErrIllegalMove, f[1], cur.FEN(), err)
	}
	res.BestMove = m
	if len(f) >= 4 && f[2] == "ponder" {
		next := cur.Play(m)
		if r, err := next.ParseUCI(f[3]); err == nil {
			res.Ponder = r
		}
	}
	return nil
}

// expected is how long a search with gp may take.
func (c *Client) expected(gp GoParams, turn cc.Color) time.Duration {
	if gp.MoveTime > 0 {
		return gp.MoveTime
	}
	left, inc := gp.WTime, gp.WInc
	if turn == cc.Black {
		left, inc = gp.BTime, gp.BInc
	}
	if left > 0 {
		return left + inc
	}
	return c.cfg.SearchTimeout
}

// replay sets up a Position's start and plays its moves.
func replay(p Position) (cc.Position, error) {
	pos, err := p.Start()
	if err != nil {
		return pos, err
	}
	for i, m := range p.Moves {
		if !pos.IsLegal(m) {
			return pos, fmt.Errorf("%w: move %d %s is illegal", ErrBadPosition, i+1, m)
		}
		pos = pos.Play(m)
	}
	return pos, nil
}

// BestMove implements engine.Player: it sends the game and the clock and returns the
// engine's move. A crash or hang costs one restart and one retry with the time that is
// left.
func (c *Client) BestMove(ctx context.Context, g *cc.Game, tl *engine.TimeLeft) (cc.Move, error) {
	if g.Over() {
		return cc.NullMove, engine.ErrGameOver
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	pos := PositionOf(g)
	start := time.Now()
	var lastErr error
	for attempt := 0; attempt < 2; attempt++ {
		gp := c.clockParams(g, tl, time.Since(start))
		res, err := c.goLocked(ctx, pos, gp)
		if err == nil {
			if res.BestMove == cc.NullMove {
				return cc.NullMove, fmt.Errorf("engine %s: no move in a game that is not over", c.cfg.Name)
			}
			return res.BestMove, nil
		}
		lastErr = err
		if ctx.Err() != nil || !(errors.Is(err, ErrCrashed) || errors.Is(err, ErrHung)) {
			break
		}
		c.log.Warn("retrying the move after an engine failure", "err", err)
	}
	return cc.NullMove, lastErr
}

// clockParams turns the side to move's clock into go parameters, less the time already
// spent on this move.
func (c *Client) clockParams(g *cc.Game, tl *engine.TimeLeft, spent time.Duration) GoParams {
	if tl == nil {
		return GoParams{MoveTime: max(c.cfg.Untimed-spent, 10*time.Millisecond)}
	}
	if tl.Correspondence || tl.MaxThink > 0 {
		// UCI has no per-move allowance or think cap: give the engine the time to spend.
		soft, _ := tl.Budget(g.Ply())
		return GoParams{MoveTime: max(soft-spent, 10*time.Millisecond)}
	}
	left := max(tl.Remaining-spent, time.Millisecond)
	inc := tl.Increment
	if tl.Delay > 0 {
		// UCI has no delay; a delay gives back time like an increment does.
		inc += tl.Delay
	}
	// The opponent's clock is not known here; engines budget from their own side's.
	return GoParams{WTime: left, BTime: left, WInc: inc, BInc: inc, MovesToGo: tl.MovesToGo}
}

// Analyse returns the engine's multiPV best lines for g's current position.
func (c *Client) Analyse(ctx context.Context, g *cc.Game, gp GoParams, multiPV int) ([]engine.Line, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	multiPV = max(multiPV, 1)
	if err := c.revive(ctx); err != nil {
		return nil, err
	}
	if multiPV != c.multiPV {
		if err := c.p.send("setoption name MultiPV value " + strconv.Itoa(multiPV)); err != nil {
			c.fail(c.p, err)
			return nil, fmt.Errorf("engine %s: %w: %w", c.cfg.Name, ErrCrashed, err)
		}
		c.multiPV = multiPV
	}
	res, err := c.goLocked(ctx, PositionOf(g), gp)
	if err != nil {
		return nil, err
	}
	cur := g.Position()
	var lines []engine.Line
	for _, in := range res.Lines {
		if !in.HasScore || len(in.PV) == 0 {
			continue
		}
		ln := engine.Line{Score: in.Score, Depth: in.Depth}
		p := cur
		for _, w := range in.PV {
			m, err := p.ParseUCI(w)
			if err != nil {
				break
			}
			ln.PV = append(ln.PV, m)
			p = p.Play(m)
		}
		if len(ln.PV) == 0 {
			continue
		}
		ln.Move = ln.PV[0]
		lines = append(lines, ln)
	}
	return lines, nil
}

// Close quits the engine (killing it if it does not quit within a second).
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if c.p != nil {
		c.stop(c.p)
		c.p = nil
	}
	return nil
}
