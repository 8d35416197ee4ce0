// Package bot is Gambit's Discord runtime: the gateway sessions (one per shard, all
// in one process), the registration of the slash commands in one bulk overwrite, the
// router that turns interactions into calls of the commands' handlers, the
// middlewares around them, the notifier that posts the game service's events, and
// the metrics and health endpoint. Only this package and commands import discordgo.
//
// Run is the whole of `gambit serve`: it returns when its context ends, after a
// graceful shutdown (no new challenges, in-flight interactions finished, events
// posted, the store committed and closed).
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/ladder"
	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/service/tournaments"
	"github.com/gambitchess/gambit/storage"
)

// Deps are what Run takes besides the configuration. The zero value is production.
type Deps struct {
	// Logger receives the logs (default slog.Default()). The token is never logged.
	Logger *slog.Logger
	// Clock is the time source of the games (default the system clock).
	Clock timers.Clock
	// Store tunes the store (nil: production settings).
	Store *storage.Options
	// Ready, if set, is called once the bot is connected and its commands registered.
	Ready func(*Bot)
	// DeferAfter is how long a handler may run before the interaction is deferred
	// (default 1.5 s, half of Discord's 3 s).
	DeferAfter time.Duration
	// ShutdownTimeout bounds the wait for in-flight interactions and queued posts at
	// shutdown (default 10 s).
	ShutdownTimeout time.Duration
}

// Bot is a running bot, as Deps.Ready sees it.
type Bot struct {
	Router  *Router
	Games   *games.Service
	Puzzles *puzzles.Service
	// Tournaments runs the tournaments.
	Tournaments *tournaments.Service
	Engine      *engineplay.Service
	Gateway     *Gateway
	Metrics     *Metrics
	// AppID is the application the commands are registered for.
	AppID string
	// OpsAddr is the address the metrics and health endpoint listen on ("" when off).
	OpsAddr string

	draining atomic.Bool
	store    *storage.DB
}

// Draining reports whether the bot is shutting down.
func (b *Bot) Draining() bool { return b.draining.Load() }

// intents are what the bot asks the gateway for: guild and thread events only
// (interactions need no intent; no privileged intent is used).
const intents = discordgo.IntentsGuilds

// Run runs the bot until ctx ends, then shuts it down gracefully.
func Run(ctx context.Context, cfg config.Config, deps Deps) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := cfg.RequireDiscord(); err != nil {
		return err
	}
	log := deps.Logger
	if log == nil {
		log = slog.Default()
	}
	clk := deps.Clock
	if clk == nil {
		clk = timers.SystemClock{}
	}
	if deps.DeferAfter <= 0 {
		deps.DeferAfter = 1500 * time.Millisecond
	}
	if deps.ShutdownTimeout <= 0 {
		deps.ShutdownTimeout = 10 * time.Second
	}
	path, err := filepath.Abs(cfg.Storage.Path)
	if err != nil {
		return fmt.Errorf("storage.path %q: %w", cfg.Storage.Path, err)
	}
	db, err := storage.Open(path, deps.Store)
	if err != nil {
		return fmt.Errorf("storage.path %q: %w", path, err)
	}
	defer db.Close()
	log.Info("store open", "path", path)

	b := &Bot{store: db}
	d := &commands.Deps{
		Ledger: commands.NewPostLedger(clk.Now), Now: clk.Now,
		ChallengeExpiry: cfg.Games.ChallengeExpiry, Draining: b.Draining,
	}
	b.Metrics = NewMetrics(func() float64 {
		var live int
		err := db.View(func(tx storage.Tx) (err error) {
			_, live, err = tx.CountGames()
			return err
		})
		if err != nil {
			return 0
		}
		return float64(live)
	})
	notifier := NewNotifier(d, log, b.Metrics)
	lad := ladder.NewService(db, ladder.Options{Logger: log, Now: clk.Now})
	// The tournaments' hook records results in the games' transactions, so the service
	// exists before the games start; it starts games through svc, bound below.
	var svc *games.Service
	tour := tournaments.New(db, tournaments.StartFunc(func(ctx context.Context, r games.StartRequest) (*games.Result, error) {
		return svc.StartGame(ctx, r)
	}), tournaments.Options{Clock: clk, Notifier: d, Logger: log, Rating: func(guildID, userID string, cat clock.Category) int {
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
	}})
	b.Tournaments, d.Tournaments = tour, tour
	d.Ladder = lad
	// The puzzles start before the games, whose finished games they mine.
	puz, err := puzzles.New(db, puzzles.Options{Clock: clk, Poster: d, Logger: log})
	if err != nil {
		return fmt.Errorf("start the puzzle service: %w", err)
	}
	defer puz.Close() // deferred first: runs after the services below have stopped
	b.Puzzles, d.Puzzles = puz, puz
	// The engine hears of an event after the notifier posted it: a game against the
	// engine has its thread before the engine's first move.
	var eng atomic.Pointer[engineplay.Service]
	events := games.NotifierFunc(func(ctx context.Context, e games.Event) {
		notifier.Notify(ctx, e)
		if over, ok := e.(games.GameOver); ok {
			puz.GameOver(&over.Game.Game)
			tour.GameOver(over.Game.ID)
		}
		if ep := eng.Load(); ep != nil {
			ep.Notify(ctx, e)
		}
	})
	svc, err = games.New(db, games.Options{
		Clock: clk, Notifier: events, FirstMoveTimeout: cfg.Games.FirstMoveTimeout,
		Scope: games.BotScope, Logger: log, Instance: "bot", Heartbeat: cfg.Games.RestartGrace,
		// A rated game's ratings commit in the transaction that ends it.
		// A tournament game's result too; a forfeit by absence is not rated.
		OnFinish: func(w storage.Tx, g *games.Game) error {
			if err := tour.OnFinish(w, &g.Game); err != nil {
				return err
			}
			return lad.Record(w, &g.Game) // ladder.Counts leaves forfeits out
		},
	})
	if err != nil {
		return fmt.Errorf("start the game service: %w", err)
	}
	b.Games, d.Games = svc, svc
	if err := tour.Restore(ctx); err != nil {
		return err
	}
	engine, err := engineplay.New(db, engineOptions(cfg, clk, log))
	if err != nil {
		return fmt.Errorf("start the engine: %w", err)
	}
	defer engine.Close() // after its Run has stopped (below)
	eng.Store(engine)
	b.Engine, d.Engine = engine, engine
	svcCtx, stopSvc := context.WithCancel(context.WithoutCancel(ctx))
	var svcDone sync.WaitGroup
	defer func() {
		stopSvc()
		svcDone.Wait()
		if err := svc.Close(); err != nil && !errors.Is(err, games.ErrClosed) {
			log.Error("close the game service", "err", err)
		}
	}()

	dopts := DiscordOptions{Token: cfg.Discord.Token, RESTURL: cfg.Discord.RESTURL, GatewayURL: cfg.Discord.GatewayURL,
		Shards: int(cfg.Discord.Shards), Intents: intents}
	restSession, err := newSession(dopts)
	if err != nil {
		return err
	}
	rest := NewREST(restSession, b.Metrics)
	notifier.Connect(&poster{rest: rest})

	b.Router, err = NewRouter(commands.All(d), RouterOptions{
		Log: log, Now: time.Now, Metrics: b.Metrics,
		Middleware: []commands.Middleware{
			Recover(), Logging(), Measure(b.Metrics),
			PerUserLimit(cfg.Commands.PerUserPerMinute, time.Now),
			DeferIfSlow(deps.DeferAfter),
		},
	})
	if err != nil {
		return err
	}

	startCtx, cancelStart := context.WithTimeout(ctx, 30*time.Second)
	defer cancelStart()
	b.AppID = cfg.Discord.ApplicationID
	if b.AppID == "" {
		app, err := restSession.Application("@me")
		if err != nil {
			return fmt.Errorf("discord.application_id is not set and reading it from Discord failed: %w", err)
		}
		b.AppID = app.ID
	}
	if err := register(startCtx, rest, b.AppID, cfg.Discord.GuildID, b.Router.Definitions()); err != nil {
		return err
	}
	log.Info("commands registered", "count", len(b.Router.Definitions()), "guild", cfg.Discord.GuildID)
	count, err := shardCount(restSession, dopts.Shards)
	if err != nil {
		return err
	}

	// The engine plays under the bot's own user id, so mentions of it are valid.
	if err := engine.Bind(startCtx, svc, b.AppID); err != nil {
		return err
	}
	svcDone.Add(1)
	go func() {
		defer svcDone.Done()
		if err := tour.Run(svcCtx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("tournaments", "err", err)
		}
	}()
	svcDone.Add(1)
	go func() {
		defer svcDone.Done()
		if err := engine.Run(svcCtx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("games against the engine", "err", err)
		}
	}()
	svcDone.Add(1)
	go func() {
		defer svcDone.Done()
		if err := puz.Run(svcCtx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("daily puzzle posts", "err", err)
		}
	}()
	svcDone.Add(1)
	go func() {
		defer svcDone.Done()
		if err := svc.Run(svcCtx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("game timers", "err", err)
		}
	}()

	serveCtx := context.WithoutCancel(ctx)
	b.Gateway, err = openGateway(dopts, restSession, count, log, func(i *discordgo.Interaction) {
		b.Router.Serve(serveCtx, rest, i)
	})
	if err != nil {
		return err
	}
	health := &Health{shards: b.Gateway.Connected}
	if addr := cfg.Metrics.Address; addr != "" {
		bound, stopOps, err := serveOps(ctx, addr, b.Metrics, health, db.Backup, log)
		if err != nil {
			b.Gateway.Close()
			return err
		}
		defer stopOps()
		b.OpsAddr = bound
		log.Info("metrics and health", "address", bound)
	}
	health.ready.Store(true)
	log.Info("gambit is running", "shards", count, "application", b.AppID)
	if deps.Ready != nil {
		deps.Ready(b)
	}

	<-ctx.Done()
	log.Info("shutting down: no new challenges, finishing what is in flight")
	b.draining.Store(true)
	health.ready.Store(false)
	if err := b.Gateway.Close(); err != nil {
		log.Warn("close gateway", "err", err)
	}
	waitTimeout(b.Router.Wait, deps.ShutdownTimeout, log, "in-flight interactions")
	stopSvc()
	svcDone.Wait()
	flushCtx, cancelFlush := context.WithTimeout(context.Background(), deps.ShutdownTimeout)
	defer cancelFlush()
	if err := svc.Flush(flushCtx); err != nil {
		log.Warn("deliver the last events", "err", err)
	}
	log.Info("stopped")
	return nil
}

// waitTimeout runs wait, giving up (with a warning) after d.
func waitTimeout(wait func(), d time.Duration, log *slog.Logger, what string) {
	done := make(chan struct{})
	go func() {
		wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
		log.Warn("shutdown: gave up waiting", "for", what, "after", d)
	}
}

// engineOptions are the engine's settings from the configuration.
func engineOptions(cfg config.Config, clk timers.Clock, log *slog.Logger) engineplay.Options {
	e := cfg.Engine
	o := engineplay.Options{
		Clock: clk, Workers: e.BotWorkers, HashMB: e.HashMB, MaxThink: e.MaxThink, ReplyDelay: e.ReplyDelay,
		AnalysisTime: e.AnalysisTime, AnalysisBudget: e.AnalysisBudget, Logger: log,
	}
	if o.ReplyDelay == 0 {
		o.ReplyDelay = -1 // none
	}
	if e.ExternalPath != "" {
		o.External = &engineplay.ExternalConfig{Path: e.ExternalPath, HashMB: e.HashMB, Threads: e.Threads}
	}
	return o
}
