// Package match plays engine matches over UCI: two engine processes (package uci's
// Client) play each other from a set of opening positions, each opening once with each
// colour; chesscore decides how every game ends (the Laws' automatic endings, draws
// claimed as soon as they may be, flag falls), optionally with score adjudication. The
// games can go to a PGN writer and the score comes back as a Result with an Elo
// difference and its 95% error bar, the pentanomial counts of the game pairs and, when
// the match runs one, a sequential probability ratio test (SPRT) that stops it at its
// verdict. Book is a built-in set of balanced openings. `gambit match` is its command
// line.
package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/uci"
)

// Engine is one engine of a match: the process to start and its UCI options.
type Engine struct {
	// Name is the engine's name in the PGN and the report ("": its UCI id name).
	Name string
	// Path and Args are the process to start.
	Path string
	Args []string
	// Options are set with setoption before the first game.
	Options []uci.OptionValue
}

// ParseEngineCommand splits an engine's command line at spaces into its path and
// arguments.
func ParseEngineCommand(s string) (Engine, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return Engine{}, errors.New("missing: give the engine's command line")
	}
	return Engine{Path: f[0], Args: f[1:]}, nil
}

// Adjudication ends games early, as a match arbiter would for engines. Zero fields
// switch the rule off.
type Adjudication struct {
	// ResignScore and ResignMoves: a win when both engines' scores pass ResignScore
	// centipawns in the same direction for ResignMoves moves of each side.
	ResignScore, ResignMoves int
	// DrawScore, DrawMoves and DrawAfter: a draw when both engines' scores stay within
	// DrawScore centipawns for DrawMoves moves of each side, from move DrawAfter on.
	DrawScore, DrawMoves, DrawAfter int
	// MaxMoves: a draw after this many moves.
	MaxMoves int
}

// Config is a whole match.
type Config struct {
	// Engines are the two engines; Result is from Engines[0]'s point of view.
	Engines [2]Engine
	// Games is the number of games, rounded up to pairs (each opening is played with
	// both colours).
	Games int
	// Openings are the start positions, used in turn (default: the start position).
	Openings []Opening
	// TimeControl is the clock (zero: none); MoveTime, Nodes and Depth limit each move
	// instead or as well. At least one limit is required.
	TimeControl TimeControl
	MoveTime    time.Duration
	Nodes       uint64
	Depth       int
	// Margin is how long an engine may overstep its clock before it loses on time.
	Margin time.Duration
	// Concurrency is the number of games played at once, each with its own pair of
	// engine processes (default 1).
	Concurrency int
	// Adjudication ends decided and dead-level games early.
	Adjudication Adjudication
	// PGN receives the games as they finish (nil: not written).
	PGN io.Writer
	// Progress receives a line per finished game (nil: discarded).
	Progress io.Writer
	// Log receives engine failures (nil: discarded).
	Log *slog.Logger
	// StartTimeout bounds an engine's start-up handshake (0: package uci's default).
	StartTimeout time.Duration
	// SPRT, when not nil, is tested after every game pair; the match stops as soon as
	// the test gives a verdict, Games being the most it plays.
	SPRT *SPRT
}

// job is one game to play: the opening and which engine has White.
type job struct {
	round   int
	opening Opening
	white   int // engine index with White
}

// record is a finished game, or the error that stopped it.
type record struct {
	job job
	pg  *chesscore.PGNGame
	err error
}

// Play plays the match and returns its result. The first error (an engine that does not
// start, a PGN write that fails, ctx cancelled) stops the match and is returned with
// the games counted so far.
func Play(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Games < 1 {
		return Result{}, fmt.Errorf("play match: %d games: want at least 1", cfg.Games)
	}
	if cfg.TimeControl.Base == 0 && cfg.MoveTime == 0 && cfg.Nodes == 0 && cfg.Depth == 0 {
		return Result{}, errors.New("play match: no limit per move: give a time control, a move time, nodes or a depth")
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.Validate(); err != nil {
			return Result{}, fmt.Errorf("play match: %w", err)
		}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Progress == nil {
		cfg.Progress = io.Discard
	}
	if len(cfg.Openings) == 0 {
		cfg.Openings = []Opening{{Name: "start position", Pos: chesscore.StartPosition()}}
	}
	cfg.Concurrency = max(cfg.Concurrency, 1)
	games := cfg.Games + cfg.Games%2
	jobs := make(chan job)
	records := make(chan record)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	names := [2]string{cfg.Engines[0].Name, cfg.Engines[1].Name}
	var namesMu sync.Mutex
	var wg sync.WaitGroup
	for range min(cfg.Concurrency, games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var clients [2]*uci.Client
			defer func() {
				for _, c := range clients {
					if c != nil {
						c.Close()
					}
				}
			}()
			for i, e := range cfg.Engines {
				c, err := uci.Start(ctx, uci.Config{Name: e.Name, Path: e.Path, Args: e.Args, Options: e.Options,
					Log: cfg.Log, StartTimeout: cfg.StartTimeout})
				if err != nil {
					records <- record{err: fmt.Errorf("engine %d: %w", i+1, err)}
					return
				}
				clients[i] = c
				namesMu.Lock()
				if names[i] == "" {
					names[i], _ = c.ID()
				}
				namesMu.Unlock()
			}
			for j := range jobs {
				namesMu.Lock()
				n := names
				namesMu.Unlock()
				pg, err := playGame(ctx, cfg, clients, n, j)
				records <- record{job: j, pg: pg, err: err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range games {
			j := job{round: i + 1, opening: cfg.Openings[(i/2)%len(cfg.Openings)], white: i % 2}
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(records)
	}()

	res := Result{Terminations: map[string]int{}}
	var firstErr error
	halves := map[int]float64{} // first engine's points in the finished game of an unfinished pair
	decided := false            // the SPRT gave its verdict: later games are not counted
	for rec := range records {
		if decided {
			continue
		}
		if rec.err != nil {
			if firstErr == nil {
				firstErr = rec.err
				cancel()
			}
			continue
		}
		points := res.add(rec.pg.Game, rec.job.white)
		pair := (rec.job.round - 1) / 2
		if other, ok := halves[pair]; ok {
			delete(halves, pair)
			res.Pentanomial.add(points + other)
			if cfg.SPRT != nil {
				if _, v := cfg.SPRT.Judge(res.Pentanomial); v != Continue && firstErr == nil {
					decided = true
					cancel()
				}
			}
		} else {
			halves[pair] = points
		}
		namesMu.Lock()
		res.Engine1, res.Engine2 = names[0], names[1]
		namesMu.Unlock()
		if cfg.PGN != nil {
			if err := chesscore.WritePGN(cfg.PGN, rec.pg); err != nil && firstErr == nil {
				firstErr = fmt.Errorf("write pgn: %w", err)
				cancel()
			}
		}
		o := rec.pg.Game.Outcome()
		llr := ""
		if cfg.SPRT != nil {
			llr = fmt.Sprintf(", LLR %.2f", res.Pentanomial.LLR(cfg.SPRT.Elo0, cfg.SPRT.Elo1))
		}
		fmt.Fprintf(cfg.Progress, "game %d/%d %s-%s %s (%s, %s): %s %.1f/%d%s\n", rec.job.round, games,
			rec.pg.Tags["White"], rec.pg.Tags["Black"], o.Result, o.Termination, rec.job.opening.Name,
			res.Engine1, res.Score, res.Games, llr)
	}
	if firstErr != nil {
		return res, firstErr
	}
	res.finish(cfg.SPRT)
	return res, nil
}
