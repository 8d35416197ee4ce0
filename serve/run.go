// Package serve composes `gambit serve`: it opens the store, builds the services on it
// (services.go), with PostgreSQL takes this process's share of the servers'
// background work under leases (leases.go), runs the Discord runtime of package bot on
// them, the scheduled backups (backups.go) and the ops listener (/metrics, /healthz and
// the live backup: ops.go, opsbackup.go). It is the only package that knows all of
// them: bot holds the Discord runtime alone and reaches the services through the
// commands' Deps and the lease tables handed to it.
//
// Run is the whole of `gambit serve`: it returns when its context ends, after a
// graceful shutdown (no new challenges, in-flight interactions finished, events
// posted, the store committed and closed).
package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/digest"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/service/tournaments"
	"github.com/gambitchess/gambit/service/votechess"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/pg"
	"github.com/gambitchess/gambit/web"
)

// Deps are what Run takes besides the configuration. The zero value is production.
type Deps struct {
	// Logger receives the logs (default slog.Default()). The token is never logged.
	Logger *slog.Logger
	// Clock is the time source of the games (default the system clock).
	Clock timers.Clock
	// Store tunes the store (nil: production settings).
	Store *bolt.Options
	// Ready, if set, is called once the bot is connected and its commands registered.
	Ready func(*Server)
	// DeferAfter is how long a handler may run before the interaction is deferred
	// (default 1.5 s, half of Discord's 3 s).
	DeferAfter time.Duration
	// ShutdownTimeout bounds the wait for in-flight interactions and queued posts at
	// shutdown (default 10 s).
	ShutdownTimeout time.Duration
	// AuthorizeURL is Discord's OAuth2 authorization page, where the Linked Roles
	// verification page sends a browser (default Discord's; the tests give the fake's).
	AuthorizeURL string
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

// Server is a running server, as Deps.Ready sees it.
type Server struct {
	// Discord is the Discord runtime: the router, the gateway or the interactions
	// endpoint, the notifier, the application id.
	Discord *bot.Discord
	Games   *games.Service
	// Puzzles runs the puzzles (nil when puzzles.enabled is false).
	Puzzles *puzzles.Service
	// Digest sends the daily digests.
	Digest *digest.Service
	// Tournaments runs the tournaments.
	Tournaments *tournaments.Service
	Engine      *engineplay.Service
	Votes       *votechess.Service
	// Instance is this process's name (config instance, or the host name).
	Instance string
	// Owns reports whether this process runs the background work of a server: with
	// PostgreSQL, whether it holds the lease of the server's partition; with bbolt it
	// owns every server.
	Owns    func(guildID string) bool
	Metrics *bot.Metrics
	// OpsAddr is the address the metrics and health endpoint listen on ("" when off).
	OpsAddr string
	// Web is the web server (nil when web.address is empty), and WebAddr the address it
	// listens on.
	Web     *web.Server
	WebAddr string

	draining atomic.Bool
	store    *bolt.DB
	backups  *backups // nil without backups.dir
}

// Draining reports whether the server is shutting down: the commands take no new
// challenges.
func (s *Server) Draining() bool { return s.draining.Load() }

// startTimeout bounds the first contact with Discord (application, registration,
// shard count) and the engine's binding.
const startTimeout = 30 * time.Second

// Run runs the server until ctx ends, then shuts it down gracefully. Its steps: open
// the store; make the Discord runtime (bot.New: the REST client, no request yet, and
// the notifier, the commands' outbox, posting over it); with PostgreSQL, take this
// process's share of the servers' background work under leases (leases.go; renewed
// until Run returns, then released); build the services (buildServices); build the
// router and its commands and meet Discord (application, registration, shards); start
// the background work; connect the gateway (with PostgreSQL, the shards this process
// leases), or with discord.interactions_address serve the interactions endpoint
// instead; serve the ops endpoint; wait; shut down.
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
	log := bot.RedactLogs(deps.Logger, cfg.Discord.Token, cfg.Backups.EndpointToken, cfg.Web.Secret, cfg.Discord.ClientSecret)
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
	// wall is the real clock of the gateway's leases (the games' is deps.Clock, a
	// test's own time in tests), both corrected to the database's.
	var wall timers.Clock = timers.SystemClock{}
	if pdb, ok := db.(*pg.DB); ok {
		// One process per instance name, and one clock for all processes: checked
		// against the database before anything is written.
		hold, err := pdb.HoldInstance(ctx, cfg.Instance, log)
		if errors.Is(err, pg.ErrInstanceTaken) {
			return fmt.Errorf("another gambit process is running as instance %q on this database: give each process its own name (config `instance`, GAMBIT_INSTANCE)", cfg.Instance)
		}
		if err != nil {
			return err
		}
		defer hold.Release() // after the leases are released (deferred below)
		offset, err := syncClock(ctx, pdb, deps.Clock, log)
		if err != nil {
			return err
		}
		if offset != 0 {
			deps.Clock = offsetClock{base: deps.Clock, offset: offset}
			wall = offsetClock{base: wall, offset: offset}
		}
	}
	s := &Server{Metrics: bot.NewMetrics(liveGames(db)), Instance: cfg.Instance}
	s.store, _ = db.(*bolt.DB) // the tests' handle on a bbolt store (nil on PostgreSQL)

	d := commandDeps(cfg, deps.Clock, s)
	bopts := bot.Options{Config: cfg, Logger: log, Metrics: s.Metrics,
		DeferAfter: deps.DeferAfter, ShutdownTimeout: deps.ShutdownTimeout}
	if db.Shared() {
		// Other processes may get the same interaction (a replay, a retry): the store
		// says which delivery is the first.
		clk := deps.Clock
		bopts.ClaimInteraction = func(ctx context.Context, id string) (bool, error) {
			return storage.ClaimDelivery(ctx, db, id, clk.Now())
		}
	}
	dc, err := bot.New(bopts, d) // d's Outbox: dc.Notifier
	if err != nil {
		return err
	}
	s.Discord = dc
	dc.Health.SetStoreProbe(storeProbe(db, cfg.Instance))
	s.Metrics.WatchStore(dc.Health.StoreUp)
	defer dc.Notifier.Close(deps.ShutdownTimeout) // after the services close (deferred below): their last events posted

	// With PostgreSQL, other processes may share the store: the background work is
	// divided by leases, and this process takes its first share before the services
	// restore their work. With bbolt it is alone and owns everything.
	// The last instant a process ran the clocks, read before this one takes its share:
	// a peer starting at the same moment after an outage then vouches for nothing.
	alive, err := games.LastAlive(ctx, db, cfg.Instance, servePeer)
	if err != nil {
		return fmt.Errorf("read the heartbeats: %w", err)
	}
	var leases *partitionLeases
	s.Owns = func(string) bool { return true }
	if cfg.Storage.Driver == backend.DriverPostgres {
		if leases, err = newPartitionLeases(db, cfg.Instance, deps.Clock, log); err != nil {
			return err
		}
		s.Owns = leases.Owns
		s.Metrics.LeaseGauges(storage.LeaseSetGames, func() float64 { return float64(leases.Held()) },
			func() float64 { return float64(leases.Owned()) })
	}
	svcs, err := buildServices(ctx, cfg, db, d, dc.Notifier, deps.Clock, leases, alive, log)
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
	svcs.expose(d, s)
	dc.SetPendingNotes(digestNote(svcs.digest))
	if err := svcs.tournaments.Restore(ctx); err != nil {
		return err
	}

	startCtx, cancelStart := context.WithTimeout(ctx, startTimeout)
	defer cancelStart()
	if err := dc.Register(startCtx, commandList(cfg, d)); err != nil {
		return err
	}
	// The engine plays under the bot's own user id, so mentions of it are valid.
	if err := svcs.engine.Bind(startCtx, svcs.games, dc.AppID); err != nil {
		return err
	}
	svcs.votes.Bind(svcs.games, svcs.engine)

	if cfg.Web.Address != "" {
		// Before the gateway connects: the first board posted carries the web's links.
		var fanout web.Fanout
		if pdb, ok := db.(*pg.DB); ok {
			fanout = pgFanout{pdb} // the other processes' moves reach this one's pages
		}
		rw, err := startWeb(cfg, db, svcs, deps.Clock.Now, fanout, deps.ShutdownTimeout, dc.AppID, deps.AuthorizeURL, log)
		if err != nil {
			return err
		}
		defer rw.stop() // before the services close (deferred above)
		s.Web, s.WebAddr, d.Web = rw.srv, rw.addr, rw.srv
		d.Activity = rw.srv.ActivityURL() != "" // the boards carry "Play in Discord"
		log.Info("web pages", "address", rw.addr, "public_url", rw.srv.BaseURL())
		if u := rw.srv.ActivityURL(); u != "" {
			log.Info("the Activity", "url", u) // the target of its root URL mapping (docs/activity.md)
		}
	}

	work := svcs.workers()
	if cfg.Backups.Dir != "" {
		s.backups = newBackups(cfg.Backups.Dir, cfg.Backups.Every, cfg.Backups.Keep, db.Backup, log)
		work = append(work, worker{"scheduled backups", s.backups.Run})
		log.Info("scheduled backups", "dir", cfg.Backups.Dir, "every", cfg.Backups.Every, "keep", cfg.Backups.Keep)
	}
	bg := startBackground(ctx, log, work)
	defer bg.stop() // before the services close (deferred above)

	// Several processes may share the store (leases): each runs the shards it leases.
	var shared *bot.ShardTables
	if leases != nil {
		shared = &bot.ShardTables{Instance: cfg.Instance, Now: wall.Now,
			Shards: storage.LeaseTable(db, storage.LeaseSetShards), Identify: storage.LeaseTable(db, storage.LeaseSetIdentify)}
	}
	if err := dc.Connect(ctx, shared); err != nil {
		if errors.Is(err, bot.ErrStopped) {
			return nil // asked to stop while connecting: not a failure
		}
		return err
	}
	defer dc.Disconnect() // on an early return; the shutdown drains it first
	if cfg.Metrics.Address != "" {
		bound, stopOps, err := serveOps(opsFromConfig(cfg, db.Backup, s.Metrics, dc.Health, log))
		if err != nil {
			return err
		}
		defer stopOps()
		s.OpsAddr = bound
		log.Info("metrics and health", "address", bound)
	}
	dc.Health.SetReady(true)
	log.Info("gambit is running", "instance", s.Instance, "shards", dc.Shards, "application", dc.AppID)
	if deps.Ready != nil {
		deps.Ready(s)
	}

	<-ctx.Done()
	shutdown(s, bg, svcs.games, deps.ShutdownTimeout, log)
	return nil
}

// openStore opens the configured store (backend.OpenConfig): the PostgreSQL database
// of storage.dsn with driver postgres, else the bbolt file at storage.path with opts.
func openStore(cfg config.Storage, opts *bolt.Options, log *slog.Logger) (storage.Store, error) {
	db, loc, err := backend.OpenConfig(cfg, &backend.Options{Bolt: opts})
	if err != nil {
		return nil, err
	}
	if loc.Driver == backend.DriverPostgres {
		log.Info("store open", "database", loc.String())
	} else {
		log.Info("store open", "path", loc.Path)
	}
	return db, nil
}

// storeProbe is /healthz's check that the store answers: PostgreSQL's Ping, else a
// read of this instance's heartbeat.
func storeProbe(db storage.Store, instance string) func(ctx context.Context) error {
	if p, ok := db.(storage.Pinger); ok {
		return p.Ping
	}
	return func(ctx context.Context) error {
		return db.View(ctx, func(tx storage.Tx) error {
			if _, err := tx.Heartbeat(instance); err != nil && !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			return nil
		})
	}
}

// gaugeTimeout bounds the store read behind a gauge: a scrape of /metrics must answer
// while the database does not (the gauge then reads 0).
const gaugeTimeout = 2 * time.Second

// liveGames returns the gauge function of the games in progress.
func liveGames(db storage.Store) func() float64 {
	return func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), gaugeTimeout)
		defer cancel()
		var live int
		err := db.View(ctx, func(tx storage.Tx) (err error) {
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
// them) and the outbox (the Discord runtime's notifier): the post ledger, the clock,
// the challenge expiry, the draining flag.
func commandDeps(cfg config.Config, clk timers.Clock, s *Server) *commands.Deps {
	return &commands.Deps{
		Ledger: commands.NewPostLedger(clk.Now), Now: clk.Now,
		ChallengeExpiry: cfg.Games.ChallengeExpiry, Draining: s.Draining,
	}
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
	return append(out, commands.UserMenus(d)...)
}

// shutdown stops the server gracefully: no new challenges, the gateway closed, the
// interactions in flight answered, the background work stopped, the games' last events
// delivered. (The ops endpoint, the services and the store close after, as Run returns.)
func shutdown(s *Server, bg *background, svc *games.Service, timeout time.Duration, log *slog.Logger) {
	log.Info("shutting down: no new challenges, finishing what is in flight")
	s.draining.Store(true)
	s.Discord.Health.SetReady(false)
	s.Discord.Drain()
	bg.stop()
	flushCtx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := svc.Flush(flushCtx); err != nil {
		log.Warn("deliver the last events", "err", err)
	}
	log.Info("stopped")
}

// digestNote is the note a user's next answer carries once their digest turned itself
// off (their DMs are closed): commands.DigestRefusedNote, once.
func digestNote(dg *digest.Service) func(ctx context.Context, userID string) (string, error) {
	return func(ctx context.Context, userID string) (string, error) {
		took, err := dg.TakeRefusedNote(ctx, userID)
		if err != nil || !took {
			return "", err
		}
		return commands.DigestRefusedNote, nil
	}
}
