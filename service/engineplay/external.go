// external.go: the external UCI engine, started when first needed and started again
// (at most once a minute) after it gave up.

package engineplay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/uci"
)

// ExternalConfig describes the external engine.
type ExternalConfig struct {
	// Path is the engine's executable (engine.external_path).
	Path string
	// HashMB and Threads are set as the UCI options Hash and Threads when positive.
	HashMB, Threads int
	// Grace is how late an answer may come before the engine counts as hung (0: the
	// client's default, 3 s).
	Grace time.Duration
}

// retryAfter is how long the service waits before starting a failed engine again.
const retryAfter = time.Minute

// external holds the client of the external engine.
type external struct {
	cfg ExternalConfig
	log *slog.Logger

	mu      sync.Mutex
	client  *uci.Client
	failed  time.Time // when the last start failed or the client gave up
	lastErr error
	closed  bool
}

func newExternal(cfg ExternalConfig, log *slog.Logger) *external {
	return &external{cfg: cfg, log: log.With("engine", cfg.Path)}
}

// get returns the running client, starting it if needed.
func (x *external) get(ctx context.Context) (*uci.Client, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, uci.ErrClosed
	}
	if x.client != nil {
		return x.client, nil
	}
	if !x.failed.IsZero() && time.Since(x.failed) < retryAfter {
		return nil, fmt.Errorf("external engine unavailable since %s: %w", x.failed.Format(time.TimeOnly), x.lastErr)
	}
	cfg := uci.Config{Path: x.cfg.Path, Grace: x.cfg.Grace, Log: x.log}
	if x.cfg.HashMB > 0 {
		cfg.Options = append(cfg.Options, uci.OptionValue{Name: "Hash", Value: strconv.Itoa(x.cfg.HashMB)})
	}
	if x.cfg.Threads > 0 {
		cfg.Options = append(cfg.Options, uci.OptionValue{Name: "Threads", Value: strconv.Itoa(x.cfg.Threads)})
	}
	c, err := uci.Start(ctx, cfg)
	if err != nil {
		x.failed, x.lastErr = time.Now(), err
		x.log.Error("external engine did not start; the built-in engine stands in", "err", err, "retry_in", retryAfter)
		return nil, err
	}
	name, _ := c.ID()
	x.log.Info("external engine ready", "id", name)
	x.client, x.failed, x.lastErr = c, time.Time{}, nil
	return c, nil
}

// check drops a client that gave up, so the next request starts a new one (after
// retryAfter).
func (x *external) check(c *uci.Client, err error) {
	if !errors.Is(err, uci.ErrGivenUp) {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.client == c {
		x.client = nil
		x.failed, x.lastErr = time.Now(), err
		x.log.Error("external engine failed too often; closed", "err", err, "retry_in", retryAfter)
		go c.Close()
	}
}

// name is the engine's own name (its "id name"), or its path before it started.
func (x *external) name() string {
	x.mu.Lock()
	c := x.client
	x.mu.Unlock()
	if c != nil {
		if n, _ := c.ID(); n != "" {
			return n
		}
	}
	return x.cfg.Path
}

func (x *external) bestMove(ctx context.Context, g *chesscore.Game, tl *engine.TimeLeft) (chesscore.Move, error) {
	c, err := x.get(ctx)
	if err != nil {
		return chesscore.NullMove, err
	}
	m, err := c.BestMove(ctx, g, tl)
	x.check(c, err)
	return m, err
}

// evaluate returns the score of g's position for the side to move after movetime.
func (x *external) evaluate(ctx context.Context, g *chesscore.Game, movetime time.Duration) (engine.Score, error) {
	lines, err := x.analyse(ctx, g, movetime)
	if err != nil {
		return 0, err
	}
	return lines[0].Score, nil
}

// analyse returns the engine's best line in g's position after movetime.
func (x *external) analyse(ctx context.Context, g *chesscore.Game, movetime time.Duration) ([]engine.Line, error) {
	c, err := x.get(ctx)
	if err != nil {
		return nil, err
	}
	lines, err := c.Analyse(ctx, g, uci.GoParams{MoveTime: movetime}, 1)
	x.check(c, err)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		pos := g.Position()
		return nil, fmt.Errorf("external engine gave no line in %s", pos.FEN())
	}
	return lines, nil
}

func (x *external) close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.closed = true
	if x.client == nil {
		return nil
	}
	err := x.client.Close()
	x.client = nil
	return err
}
