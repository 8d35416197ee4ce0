// services.go: the Discord-free services the server runs, built in dependency order; who hears of the games' events; their background work.

package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/digest"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/ladder"
	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/service/settings"
	"github.com/gambitchess/gambit/service/tournaments"
	"github.com/gambitchess/gambit/service/votechess"
	"github.com/gambitchess/gambit/storage"
)

// services are the server's services on one store.
type services struct {
	settings    *settings.Service
	ladder      *ladder.Service
	tournaments *tournaments.Service
	puzzles     *puzzles.Service // nil when puzzles.enabled is false
	engine      *engineplay.Service
	votes       *votechess.Service
	games       *games.Service
	digest      *digest.Service
	web         *webListener    // the web server's ear, set when web.address is
	linked      *linkedListener // the Linked Roles pushes, set with the web server
}

// buildServices builds the services, each after those it needs: the settings (the
// owner of the guilds' settings and the users' preferences, which the ladder tells of
// its changes and the games write through); the ladder; the
// tournaments (seeded from the ladder, posting through d); the puzzles, when enabled
// (posting the daily puzzle through d); the engine; then the games, which tell
// gameListeners of their events and run finishHooks in the transaction that ends a
// game; then the daily digests (sent through the notifier). The tournaments are bound last to the games they start. With leases (several
// processes on one PostgreSQL store) the background work of the games (deadlines,
// challenge expiries), the puzzles (daily posts), the tournaments (rounds,
// announcements) and the engine (its moves) is limited to the servers of the partitions
// held (Owns), and each service adopts the servers gained; leases is nil with bbolt,
// and the process owns every server. The games credit downtime from alive (the last
// heartbeat of any serve process, read before the leases were taken). On error, what
// was built is closed.
func buildServices(ctx context.Context, cfg config.Config, db storage.Store, d *commands.Deps, notifier *bot.Notifier, clk timers.Clock, leases *partitionLeases, alive time.Time, log *slog.Logger) (*services, error) {
	control, err := defaultControl(cfg)
	if err != nil {
		return nil, err
	}
	s := &services{settings: settings.New(db, settings.Options{DefaultControl: control, Now: clk.Now}), web: &webListener{}, linked: &linkedListener{}}
	s.ladder = ladder.NewService(db, ladder.Options{Logger: log, Now: clk.Now, Settings: s.settings})
	s.tournaments = tournaments.New(db, nil, tournaments.Options{Clock: clk, Notifier: d, Logger: log, Rating: seedRating(s.ladder),
		Owns: leases.owns(), Instance: cfg.Instance})
	leases.adopt("tournaments", func(ctx context.Context) error {
		_, err := s.tournaments.Adopt(ctx)
		return err
	})
	if cfg.Puzzles.Enabled {
		puz, err := puzzles.New(db, puzzles.Options{Clock: clk, Poster: d, Logger: log, Owns: leases.owns(), Instance: cfg.Instance})
		if err != nil {
			return nil, fmt.Errorf("start the puzzle service: %w", err)
		}
		s.puzzles = puz
		leases.adopt("puzzles", func(ctx context.Context) error {
			_, err := puz.Adopt(ctx)
			return err
		})
	}
	eopts := engineOptions(cfg, clk, log)
	eopts.Owns = leases.owns()
	engine, err := engineplay.New(ctx, db, eopts)
	if err != nil {
		s.close(log)
		return nil, fmt.Errorf("start the engine: %w", err)
	}
	s.engine = engine
	leases.adopt("games against the engine", func(ctx context.Context) error {
		_, err := engine.Adopt(ctx)
		return err
	})
	s.votes = votechess.New(db, votechess.Options{Clock: clk, Notifier: votechess.NotifierFunc(d.VoteEvent), Logger: log, Owns: leases.owns()})
	leases.adopt("vote games", func(ctx context.Context) error {
		_, err := s.votes.Adopt(ctx)
		return err
	})
	s.games, err = games.New(db, games.Options{Settings: s.settings,
		Clock: clk, Logger: log, Instance: cfg.Instance, Scope: games.BotScope, Peers: servePeer, LastAlive: alive, Owns: leases.owns(),
		Notifier:         gameListeners{notifier: notifier, web: s.web, puzzles: s.puzzles, tournaments: s.tournaments, engine: s.engine, votes: s.votes, linked: s.linked},
		OnFinish:         finishHooks(s.tournaments, s.ladder),
		FirstMoveTimeout: cfg.Games.FirstMoveTimeout, Heartbeat: cfg.Games.RestartGrace, DefaultControl: control,
		ChallengeLimits: games.ChallengeLimits{MaxPending: cfg.Games.MaxPendingChallenges, PerOpponent: cfg.Games.ChallengesPerOpponent,
			Pings: cfg.Games.ChallengePings, Window: cfg.Games.ChallengeWindow},
		VacationDays: vacationDays(cfg.Games.VacationDays),
	})
	if err != nil {
		s.close(log)
		return nil, fmt.Errorf("start the game service: %w", err)
	}
	s.tournaments.Bind(s.games)
	// Every process sweeps every user's digest: the claim in the store sends each once.
	s.digest, err = digest.New(db, digest.Options{Games: s.games, Settings: s.settings, Sender: notifier, Clock: clk, Logger: log})
	if err != nil {
		s.close(log)
		return nil, fmt.Errorf("start the daily digests: %w", err)
	}
	leases.adopt("games", func(ctx context.Context) error {
		n, err := s.games.Adopt(ctx)
		if n > 0 {
			log.Info("leases: adopted the games of the servers gained", "games", n)
		}
		if err != nil {
			return err
		}
		_, err = s.games.AdoptChallenges(ctx)
		return err
	})
	return s, nil
}

// servePeer reports whether an instance's heartbeat vouches for the games this process
// runs: every instance but those of other programs (config.ReservedInstances: gambit
// play), as every gambit serve process on the store runs the same games.
func servePeer(instance string) bool { return !slices.Contains(config.ReservedInstances, instance) }

// CheckConfig is the check of the configuration that package config leaves to the
// server (a config.Check, for config.Load): games.default_time_control must be a time
// control.
func CheckConfig(cfg config.Config) error {
	_, err := defaultControl(cfg)
	return err
}

// defaultControl reads games.default_time_control as the games service takes it; its
// error is a *config.Error naming the key.
func defaultControl(cfg config.Config) (clock.TimeControl, error) {
	const key = "games.default_time_control"
	tc, err := clock.Parse(cfg.Games.DefaultTimeControl)
	if err != nil {
		return clock.TimeControl{}, &config.Error{Key: key, Reason: err.Error()}
	}
	if tc.Kind() == clock.KindUnknown {
		return clock.TimeControl{}, &config.Error{Key: key, Reason: fmt.Sprintf("%q: give a time control such as 10+5, 3+2 or 1d, or - for none", cfg.Games.DefaultTimeControl)}
	}
	return tc, nil
}

// gameListeners are everyone who hears of the games' events, in this order:
//  1. the notifier posts the event on Discord (so a game against the engine has its
//     thread before the engine's first move), and the web server pushes it to the
//     pages watching the game;
//  2. for a game that ended, the puzzle miner (when puzzles are on) looks for puzzles
//     in it, and the tournaments move its event on;
//  3. the engine plays its move, answers an offer, or forgets a finished game;
//  4. vote chess opens the team's next vote, or ends a finished game's (after the
//     notifier, so the vote post follows the game's thread and board).
type gameListeners struct {
	notifier    *bot.Notifier
	web         *webListener
	puzzles     *puzzles.Service // nil when puzzles are off
	tournaments *tournaments.Service
	engine      *engineplay.Service
	votes       *votechess.Service
	linked      *linkedListener
}

// Notify implements games.Notifier.
func (l gameListeners) Notify(ctx context.Context, e games.Event) {
	l.notifier.Notify(ctx, e)
	l.web.Notify(ctx, e)
	if over, ok := e.(games.GameOver); ok {
		if l.puzzles != nil {
			l.puzzles.GameOver(&over.Game.Game)
		}
		l.tournaments.GameOver(ctx, over.Game.ID)
	}
	l.engine.Notify(ctx, e)
	l.votes.Notify(ctx, e)
	l.linked.Notify(ctx, e)
}

// finishHooks is what commits with the end of a game, in its transaction: the result of
// a tournament game, then the ratings of a rated one (ladder.Counts leaves forfeits by
// absence out).
func finishHooks(tour *tournaments.Service, lad *ladder.Service) func(w storage.Tx, g *games.Game) error {
	return func(w storage.Tx, g *games.Game) error {
		if err := tour.OnFinish(w, &g.Game); err != nil {
			return err
		}
		return lad.Record(w, &g.Game)
	}
}

// seedRating returns a player's ladder rating in a guild for a time category (0 for
// none): how the tournaments seed their players.
func seedRating(lad *ladder.Service) func(guildID, userID string, cat clock.Category) int {
	return func(guildID, userID string, cat clock.Category) int {
		p, err := lad.Profile(context.Background(), guildID, userID)
		if err != nil {
			return 0
		}
		for _, e := range p.Entries {
			if e.Category == cat {
				return int(e.Rating)
			}
		}
		return 0
	}
}

// engineOptions are the engine's settings from the configuration.
func engineOptions(cfg config.Config, clk timers.Clock, log *slog.Logger) engineplay.Options {
	e := cfg.Engine
	o := engineplay.Options{
		Clock: clk, Workers: e.BotWorkers, HashMB: e.HashMB, MaxThink: e.MaxThink, ReplyDelay: e.ReplyDelay,
		AnalysisTime: e.AnalysisTime, AnalysisBudget: e.AnalysisBudget, Logger: log,
		MaxGamesPerUser: e.MaxGamesPerUser, AnalysisWorkers: e.AnalysisWorkers, AnalysisCooldown: e.AnalysisCooldown,
		AnalysisNodes: uint64(e.AnalysisNodes),
	}
	if o.ReplyDelay == 0 {
		o.ReplyDelay = -1 // none
	}
	if o.AnalysisCooldown == 0 {
		o.AnalysisCooldown = -1 // none
	}
	if e.ExternalPath != "" {
		o.External = &engineplay.ExternalConfig{Path: e.ExternalPath, HashMB: e.HashMB, Threads: e.Threads}
	}
	return o
}

// expose hands the services to the commands and to the Server Deps.Ready sees.
func (s *services) expose(d *commands.Deps, srv *Server) {
	d.Games, d.Settings, d.Ladder, d.Tournaments, d.Engine, d.Votes = s.games, s.settings, s.ladder, s.tournaments, s.engine, s.votes
	srv.Games, srv.Tournaments, srv.Engine, srv.Votes, srv.Digest = s.games, s.tournaments, s.engine, s.votes, s.digest
	d.Puzzles, srv.Puzzles = s.puzzles, s.puzzles // nil when puzzles are off
}

// worker is one piece of background work: its name in the logs, and its loop, which
// runs until its context ends.
type worker struct {
	name string
	run  func(context.Context) error
}

// workers are the services' background loops.
func (s *services) workers() []worker {
	ws := []worker{
		{"game timers", s.games.Run},
		{"tournaments", s.tournaments.Run},
		{"games against the engine", s.engine.Run},
		{"daily digests", s.digest.Run},
		{"vote chess", s.votes.Run},
	}
	if s.puzzles != nil {
		ws = append(ws, worker{"daily puzzle posts", s.puzzles.Run})
	}
	return ws
}

// close stops the services, the games first (their last events delivered), then the
// engine and the puzzles that hear of them. Stop the background work before.
func (s *services) close(log *slog.Logger) {
	if s.games != nil {
		if err := s.games.Close(); err != nil && !errors.Is(err, games.ErrClosed) {
			log.Error("close the game service", "err", err)
		}
	}
	if s.engine != nil {
		if err := s.engine.Close(); err != nil {
			log.Error("close the engine", "err", err)
		}
	}
	if s.puzzles != nil {
		if err := s.puzzles.Close(); err != nil {
			log.Error("close the puzzle service", "err", err)
		}
	}
}

// background is the background work once started.
type background struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startBackground runs each worker on its own goroutine until stop. Their context does
// not end with parent's: the shutdown stops them in its own order.
func startBackground(parent context.Context, log *slog.Logger, ws []worker) *background {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	bg := &background{cancel: cancel}
	for _, w := range ws {
		bg.wg.Add(1)
		go func() {
			defer bg.wg.Done()
			if err := w.run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				log.Error(w.name, "err", err)
			}
		}()
	}
	return bg
}

// stop ends the background work and waits for it; calling it again does nothing more.
func (bg *background) stop() {
	bg.cancel()
	bg.wg.Wait()
}

// vacationDays is games.vacation_days as the game service takes it: 0 there means no
// vacations, where the service's zero value is its default.
func vacationDays(days int) int {
	if days == 0 {
		return -1
	}
	return days
}
