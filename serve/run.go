// Package bot is Gambit's Discord runtime: the gateway sessions (one per shard, all
// in one process) or the HTTP endpoint Discord posts the interactions to, the
// registration of the slash commands in one bulk overwrite, the router that turns
// interactions into calls of the commands' handlers, the middlewares around them, the
// notifier that posts the game service's events, the scheduled backups, and the
// metrics and health endpoint. Only this package and commands import discordgo.
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
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
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

// withDefaults fills in the production values of what d leaves unset.
func (d Deps) withDefaults() Deps {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Clock == nil {
		d.Clock = timers.SystemClock{}
	}
	if d.DeferAfter <= 0 {
		d.DeferAfter = 1500 * time.Millisecond
	}
	if d.ShutdownTimeout <= 0 {
		d.ShutdownTimeout = 10 * time.Second
	}
	return d
}

// Bot is a running bot, as Deps.Ready sees it.
type Bot struct {
	Router *Router
	Games  *games.Service
	// Puzzles runs the puzzles (nil when puzzles.enabled is false).
	Puzzles *puzzles.Service
	// Tournaments runs the tournaments.
	Tournaments *tournaments.Service
	Engine      *engineplay.Service
	// Gateway is the gateway connection (nil when interactions come over HTTP).
	Gateway *Gateway
	// Interactions is the HTTP endpoint of the interactions (nil in gateway mode).
	Interactions *Interactions
	// Instance is this process's name (config instance, or the host name).
	Instance string
	// Owns reports whether this process runs the background work of a server: with
	// PostgreSQL, whether it holds the lease of the server's partition; with bbolt it
	// owns every server.
	Owns    func(guildID string) bool
	Metrics *Metrics
	// AppID is the application the commands are registered for.
	AppID string
	// OpsAddr is the address the metrics and health endpoint listen on ("" when off).
	OpsAddr string

	draining atomic.Bool
	store    *storage.DB
	backups  *backups // nil without backups.dir
}

// Draining reports whether the bot is shutting down.
func (b *Bot) Draining() bool { return b.draining.Load() }

// intents are what the bot asks the gateway for: guild and thread events only
// (interactions need no intent; no privileged intent is used).
const intents = discordgo.IntentsGuilds

// startTimeout bounds the first contact with Discord (application, registration,
// shard count) and the engine's binding.
const startTimeout = 30 * time.Second

// Run runs the bot until ctx ends, then shuts it down gracefully. Its steps: open the
// store; make the Discord REST client (no request yet) and the notifier, the commands'
// outbox, posting over it; with PostgreSQL, take this process's share of the servers'
// background work under leases (leases.go; renewed until Run returns, then released);
// build the services (buildServices); build the router and
// its commands; meet Discord (application, registration, shards); start the background
// work; connect the gateway (with PostgreSQL, the shards this process leases:
// shardleases.go), or with discord.interactions_address serve the interactions
// endpoint instead; serve the ops endpoint; wait; shut down.
func Run(ctx context.Context, cfg config.Config, deps Deps) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := CheckConfig(cfg); err != nil {
		return err
	}
	if err := cfg.RequireDiscord(); err != nil {
		return err
	}
	deps = deps.withDefaults()
	log := redactLogs(deps.Logger, cfg.Discord.Token, cfg.Backups.EndpointToken)
	instance, err := cfg.InstanceName()
	if err != nil {
		return err
	}
	cfg.Instance = instance // the games' heartbeat carries it (buildServices)

	db, err := openStore(cfg.Storage, deps.Store, log)
	if err != nil {
		return err
	}
	defer db.Close() // last of all
	b := &Bot{Metrics: NewMetrics(liveGames(db)), Instance: cfg.Instance}
	b.store, _ = db.(*storage.DB) // the tests' handle on a bbolt store (nil on PostgreSQL)

	dopts := DiscordOptions{Token: cfg.Discord.Token, RESTURL: cfg.Discord.RESTURL, GatewayURL: cfg.Discord.GatewayURL,
		Shards: int(cfg.Discord.Shards), Intents: intents}
	session, err := newSession(dopts) // no request yet
	if err != nil {
		return err
	}
	rest := NewREST(session, b.Metrics)
	d := commandDeps(cfg, deps.Clock, b)
	notifier := NewNotifier(d, log, b.Metrics) // d's Outbox
	notifier.Connect(&poster{rest: rest})
	defer notifier.Close(deps.ShutdownTimeout) // after the services close (deferred below): their last events posted

	// With PostgreSQL, other processes may share the store: the background work is
	// divided by leases, and this process takes its first share before the services
	// restore their work. With bbolt it is alone and owns everything.
	// The last instant a process ran the clocks, read before this one takes its share:
	// a peer starting at the same moment after an outage then vouches for nothing.
	alive, err := games.LastAlive(db, cfg.Instance, servePeer)
	if err != nil {
		return fmt.Errorf("read the heartbeats: %w", err)
	}
	var leases *partitionLeases
	b.Owns = func(string) bool { return true }
	if cfg.Storage.Driver == storage.DriverPostgres {
		if leases, err = newPartitionLeases(db, cfg.Instance, deps.Clock, log); err != nil {
			return err
		}
		b.Owns = leases.Owns
	}
	svcs, err := buildServices(cfg, db, d, notifier, deps.Clock, leases, alive, log)
	if err != nil {
		if leases != nil {
			leases.release()
		}
		return err
	}
	defer svcs.close(log) // after the background work has stopped (below)
	if leases != nil {
		// Renewed from now on (meeting Discord may outlast a lease); released when Run
		// returns, after the services' background work stopped, before they close.
		renew := startBackground(ctx, log, []worker{{"partition leases", leases.Run}})
		defer renew.stop()
	}
	svcs.expose(d, b)
	if err := svcs.tournaments.Restore(ctx); err != nil {
		return err
	}

	if b.Router, err = buildRouter(cfg, deps, d, b.Metrics, log); err != nil {
		return err
	}

	startCtx, cancelStart := context.WithTimeout(ctx, startTimeout)
	defer cancelStart()
	var shards int
	if b.AppID, shards, err = meetDiscord(startCtx, cfg, session, rest, b.Router.Definitions(), log); err != nil {
		return err
	}
	// The engine plays under the bot's own user id, so mentions of it are valid.
	if err := svcs.engine.Bind(startCtx, svcs.games, b.AppID); err != nil {
		return err
	}

	work := svcs.workers()
	if cfg.Backups.Dir != "" {
		b.backups = newBackups(cfg.Backups.Dir, cfg.Backups.Every, cfg.Backups.Keep, db.Backup, log)
		work = append(work, worker{"scheduled backups", b.backups.Run})
		log.Info("scheduled backups", "dir", cfg.Backups.Dir, "every", cfg.Backups.Every, "keep", cfg.Backups.Keep)
	}
	bg := startBackground(ctx, log, work)
	defer bg.stop() // before the services close (deferred above)

	serveCtx := context.WithoutCancel(ctx) // interactions in flight finish after ctx ends
	serve := func(s Sender, i *discordgo.Interaction) { b.Router.Serve(serveCtx, s, i) }
	health := &Health{}
	if addr := cfg.Discord.InteractionsAddress; addr != "" {
		// Interactions over HTTP: no gateway; each first answer is the HTTP response.
		if b.Interactions, err = serveInteractions(addr, cfg.Discord.PublicKey, rest, health, serve, log); err != nil {
			return err
		}
		defer b.Interactions.Close(deps.ShutdownTimeout) // on an early return; the shutdown closes it first
		log.Info("interactions over HTTP", "address", b.Interactions.Addr(), "path", InteractionsPath)
	} else if leases != nil {
		// Several processes may share the store: each runs the shards it leases.
		b.Gateway = newGateway(dopts, session, shards, log, func(i *discordgo.Interaction) { serve(rest, i) })
		sl, err := newShardLeases(db, cfg.Instance, b.Gateway, identifyConcurrency(session, log), log)
		if err != nil {
			return err
		}
		shardWork := startBackground(ctx, log, []worker{{"shard leases", sl.Run}})
		defer shardWork.stop()  // after the gateway closes (below): the shards given up once closed
		defer b.Gateway.Close() // on an early return; the shutdown closes it first
		if err := sl.waitInitial(ctx); err != nil {
			if ctx.Err() != nil {
				log.Info("stopped before the gateway connected", "err", err)
				return nil // asked to stop while connecting: not a failure
			}
			return err
		}
		health.shards = b.Gateway.Connected
	} else {
		b.Gateway, err = openGateway(ctx, dopts, session, shards, log, func(i *discordgo.Interaction) { serve(rest, i) })
		if err != nil {
			if ctx.Err() != nil {
				log.Info("stopped before the gateway connected", "err", err)
				return nil // asked to stop while retrying: not a failure
			}
			return err
		}
		defer b.Gateway.Close() // on an early return; the shutdown closes it first
		health.shards = b.Gateway.Connected
	}
	if cfg.Metrics.Address != "" {
		bound, stopOps, err := serveOps(opsFromConfig(cfg, db.Backup, b.Metrics, health, log))
		if err != nil {
			return err
		}
		defer stopOps()
		b.OpsAddr = bound
		log.Info("metrics and health", "address", bound)
	}
	health.ready.Store(true)
	log.Info("gambit is running", "instance", b.Instance, "shards", shards, "application", b.AppID)
	if deps.Ready != nil {
		deps.Ready(b)
	}

	<-ctx.Done()
	shutdown(b, health, bg, svcs.games, deps.ShutdownTimeout, log)
	return nil
}

// openStore opens the configured store: the PostgreSQL database of storage.dsn with
// driver postgres, else the bbolt file at storage.path (made absolute, for the logs and
// the errors).
func openStore(cfg config.Storage, opts *storage.Options, log *slog.Logger) (storage.Store, error) {
	if cfg.Driver == storage.DriverPostgres {
		loc := storage.Location{Driver: storage.DriverPostgres, DSN: cfg.DSN}
		db, err := storage.OpenLocation(loc, nil)
		if err != nil {
			return nil, fmt.Errorf("storage.dsn: %w", err)
		}
		log.Info("store open", "database", loc.String())
		return db, nil
	}
	path := cfg.Path
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("storage.path %q: %w", path, err)
	}
	db, err := storage.Open(abs, opts)
	if err != nil {
		return nil, fmt.Errorf("storage.path %q: %w", abs, err)
	}
	log.Info("store open", "path", abs)
	return db, nil
}

// liveGames returns the gauge function of the games in progress.
func liveGames(db storage.Store) func() float64 {
	return func() float64 {
		var live int
		err := db.View(func(tx storage.Tx) (err error) {
			_, live, err = tx.CountGames()
			return err
		})
		if err != nil {
			return 0
		}
		return float64(live)
	}
}

// commandDeps are the commands' dependencies but the services (buildServices adds
// them) and the outbox (the notifier): the post ledger, the clock, the challenge
// expiry, the draining flag.
func commandDeps(cfg config.Config, clk timers.Clock, b *Bot) *commands.Deps {
	return &commands.Deps{
		Ledger: commands.NewPostLedger(clk.Now), Now: clk.Now,
		ChallengeExpiry: cfg.Games.ChallengeExpiry, Draining: b.Draining,
	}
}

// buildRouter makes the router of the commands, behind the middlewares: panics
// recovered, logs, metrics, the per-user limit, the deferral of slow handlers.
func buildRouter(cfg config.Config, deps Deps, d *commands.Deps, m *Metrics, log *slog.Logger) (*Router, error) {
	return NewRouter(commandList(cfg, d), RouterOptions{
		Log: log, Now: time.Now, Metrics: m,
		Middleware: []commands.Middleware{
			Recover(), Logging(), Measure(m),
			PerUserLimit(cfg.Commands.PerUserPerMinute, time.Now),
			DeferIfSlow(deps.DeferAfter),
		},
	})
}

// commandList is every command of package commands, less /puzzle when puzzles are off.
func commandList(cfg config.Config, d *commands.Deps) []commands.Command {
	var out []commands.Command
	for _, c := range commands.All(d) {
		if _, isPuzzle := c.(*commands.PuzzleCommand); isPuzzle && !cfg.Puzzles.Enabled {
			continue
		}
		out = append(out, c)
	}
	return out
}

// meetDiscord is the first contact with Discord: it learns the application id (unless
// discord.application_id gives it), registers the commands with one bulk overwrite,
// logs the invite URL, and resolves the shard count. A 401 on the first call is
// ErrTokenRefused.
func meetDiscord(ctx context.Context, cfg config.Config, s *discordgo.Session, rest *REST, defs []*discordgo.ApplicationCommand, log *slog.Logger) (appID string, shards int, err error) {
	appID = cfg.Discord.ApplicationID
	if appID == "" {
		app, err := s.Application("@me")
		if err != nil {
			if err := tokenRefused("GET applications/@me", err); errors.Is(err, ErrTokenRefused) {
				return "", 0, err
			}
			return "", 0, fmt.Errorf("discord.application_id is not set and reading it from Discord failed: %w", err)
		}
		appID = app.ID
	}
	if err := register(ctx, rest, appID, cfg.Discord.GuildID, defs); err != nil {
		return "", 0, tokenRefused("register the commands", err)
	}
	log.Info("commands registered", "count", len(defs), "guild", cfg.Discord.GuildID)
	log.Info("invite the bot with this URL", "url", InviteURL(appID), "permissions", Permissions())
	if cfg.Discord.InteractionsAddress != "" {
		return appID, 0, nil // no gateway, no shards
	}
	shards, err = shardCount(s, int(cfg.Discord.Shards))
	return appID, shards, err
}

// shutdown stops the bot gracefully: no new challenges, the gateway closed, the
// interactions in flight answered, the background work stopped, the games' last events
// delivered. (The ops endpoint, the services and the store close after, as Run returns.)
func shutdown(b *Bot, health *Health, bg *background, svc *games.Service, timeout time.Duration, log *slog.Logger) {
	log.Info("shutting down: no new challenges, finishing what is in flight")
	b.draining.Store(true)
	health.ready.Store(false)
	if b.Gateway != nil {
		if err := b.Gateway.Close(); err != nil {
			log.Warn("close gateway", "err", err)
		}
	}
	if b.Interactions != nil {
		if err := b.Interactions.Close(timeout); err != nil {
			log.Warn("close the interactions endpoint", "err", err)
		}
	}
	waitTimeout(func() {
		if b.Interactions != nil {
			b.Interactions.Wait()
		}
		b.Router.Wait()
	}, timeout, log, "in-flight interactions")
	bg.stop()
	flushCtx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := svc.Flush(flushCtx); err != nil {
		log.Warn("deliver the last events", "err", err)
	}
	log.Info("stopped")
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
