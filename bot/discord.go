// Package bot is Gambit's Discord runtime: the gateway sessions (one per shard, all
// in one process, or with PostgreSQL the shards this process leases) or the HTTP
// endpoint Discord posts the interactions to, the registration of the slash commands in
// one bulk overwrite, the router that turns interactions into calls of the commands'
// handlers, the middlewares around them, the REST client, the notifier that posts the
// game service's events, the redaction of secrets from the logs, the metrics, and the
// health the ops endpoint reports. Only this package and commands import discordgo.
//
// Discord is the runtime as package serve drives it: New (the REST client and the
// notifier, through which the services post), Register (the router and the commands),
// Connect (the gateway or the interactions endpoint), Drain and Disconnect. The store
// and the services are serve's: the bot reaches them through the commands' Deps and the
// lease tables serve hands it.
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/config"
)

// Options configure the Discord runtime.
type Options struct {
	// Config is the configuration; the runtime reads the discord keys and
	// commands.per_user_per_minute.
	Config config.Config
	// Logger receives the logs; redact the secrets first (RedactLogs).
	Logger *slog.Logger
	// Metrics counts the interactions, the REST calls and the posts.
	Metrics *Metrics
	// DeferAfter is how long a handler may run before the interaction is deferred.
	DeferAfter time.Duration
	// ShutdownTimeout bounds the wait for the interactions in flight at shutdown.
	ShutdownTimeout time.Duration
	// ClaimInteraction, if set, is the duplicate check the processes of the bot share
	// (RouterOptions.Claim).
	ClaimInteraction func(ctx context.Context, interactionID string) (first bool, err error)
}

// Discord is the bot's Discord runtime. Its fields are set as its steps run: Notifier
// and Health by New, Router, AppID and Shards by Register, Gateway or Interactions by
// Connect.
type Discord struct {
	// Notifier posts what is not the answer to an interaction; it is the commands'
	// Outbox and hears the games' events.
	Notifier *Notifier
	// Health is what /healthz reports.
	Health *Health
	// Router routes the interactions to the commands' handlers.
	Router *Router
	// AppID is the application the commands are registered for.
	AppID string
	// Shards is the gateway's shard count (0 when interactions come over HTTP).
	Shards int
	// Gateway is the gateway connection (nil when interactions come over HTTP).
	Gateway *Gateway
	// Interactions is the HTTP endpoint of the interactions (nil in gateway mode).
	Interactions *Interactions

	o       Options
	dopts   DiscordOptions
	session *discordgo.Session
	rest    *REST
	// stopShards ends the shard leases' work (nil without ShardTables).
	stopShards func()
	// notes hands out the note a user's next answer carries (SetPendingNotes).
	notes func(ctx context.Context, userID string) (string, error)
}

// SetPendingNotes sets, before Register, where the router finds the note a user's next
// answer carries, once (PendingNotes): the daily digest's note that it turned itself
// off.
func (dc *Discord) SetPendingNotes(take func(ctx context.Context, userID string) (string, error)) {
	dc.notes = take
}

// intents are what the bot asks the gateway for: guild and thread events only
// (interactions need no intent; no privileged intent is used).
const intents = discordgo.IntentsGuilds

// New makes the Discord REST client (no request yet) and the notifier posting over it,
// which it makes d's Outbox: nothing reaches Discord until Register.
func New(o Options, d *commands.Deps) (*Discord, error) {
	cfg := o.Config.Discord
	dopts := DiscordOptions{Token: cfg.Token, RESTURL: cfg.RESTURL, GatewayURL: cfg.GatewayURL,
		Shards: int(cfg.Shards), Intents: intents}
	session, err := newSession(dopts)
	if err != nil {
		return nil, err
	}
	rest := NewREST(session, o.Metrics)
	notifier := NewNotifier(d, o.Logger, o.Metrics)
	notifier.Connect(&poster{rest: rest})
	return &Discord{Notifier: notifier, Health: &Health{}, o: o, dopts: dopts, session: session, rest: rest}, nil
}

// Register builds the router of cmds behind the middlewares (panics recovered, logs,
// metrics, the per-user limit, the deferral of slow handlers, the pending notes), then meets Discord: it
// learns the application id (unless discord.application_id gives it), registers the
// commands with one bulk overwrite and the Linked Roles metadata (linkedroles.go), logs
// the invite URL, and resolves the shard count.
// A 401 on the first call is ErrTokenRefused.
func (dc *Discord) Register(ctx context.Context, cmds []commands.Command) error {
	m, log := dc.o.Metrics, dc.o.Logger
	router, err := NewRouter(cmds, RouterOptions{
		Log: log, Now: time.Now, Metrics: m, Claim: dc.o.ClaimInteraction,
		Middleware: []commands.Middleware{
			Recover(), Logging(), Measure(m),
			PerUserLimit(dc.o.Config.Commands.PerUserPerMinute, time.Now),
			DeferIfSlow(dc.o.DeferAfter, dc.o.Config.Commands.OperationTimeout),
			PendingNotes(dc.notes),
		},
	})
	if err != nil {
		return err
	}
	dc.Router = router
	dc.AppID, dc.Shards, err = meetDiscord(ctx, dc.o.Config, dc.session, dc.rest, router.Definitions(), log)
	return err
}

// meetDiscord is the first contact with Discord (Register).
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
	if err := register(ctx, rest, appID, cfg.Discord.GuildID, defs, ActivityOn(cfg)); err != nil {
		return "", 0, tokenRefused("register the commands", err)
	}
	log.Info("commands registered", "count", len(defs), "guild", cfg.Discord.GuildID)
	// Linked Roles' records: a failure costs the servers their linked roles' choices,
	// not the bot its start.
	if err := rest.RegisterRoleMetadata(ctx, appID); err != nil {
		log.Warn("the Linked Roles metadata could not be registered", "err", err)
	}
	log.Info("invite the bot with this URL", "url", InviteURL(appID), "permissions", Permissions())
	log.Info("people add Gambit to their own account with this URL", "url", UserInstallURL(appID))
	if cfg.Discord.InteractionsAddress != "" {
		return appID, 0, nil // no gateway, no shards
	}
	shards, err = shardCount(s, int(cfg.Discord.Shards))
	return appID, shards, err
}

// ActivityOn reports whether the configuration turns the Activity on: the web pages
// serve it when discord.client_secret is set (docs/activity.md).
func ActivityOn(cfg config.Config) bool {
	return cfg.Discord.ClientSecret != "" && cfg.Web.Address != ""
}

// ErrStopped is Connect's error when its context ended before the gateway connected:
// the bot was asked to stop while it connected, which is not a failure.
var ErrStopped = errors.New("stopped before the gateway connected")

// Connect starts taking interactions, each served by the router on a context that
// outlives ctx (interactions in flight finish after it ends): with
// discord.interactions_address, on the HTTP endpoint (no gateway; each first answer is
// the HTTP response); else with shared (several processes on one store) the shards
// this process leases, their leases renewed until Disconnect; else every shard. It
// returns once the shards it runs are connected; ErrStopped (wrapping the cause) when
// ctx ended first. On error, what it opened is closed.
func (dc *Discord) Connect(ctx context.Context, shared *ShardTables) error {
	log := dc.o.Logger
	serveCtx := context.WithoutCancel(ctx)
	serve := func(s Sender, i *discordgo.Interaction) { dc.Router.Serve(serveCtx, s, i) }
	if addr := dc.o.Config.Discord.InteractionsAddress; addr != "" {
		it, err := serveInteractions(addr, dc.o.Config.Discord.PublicKey, dc.rest, dc.Health, serve, log)
		if err != nil {
			return err
		}
		dc.Interactions = it
		log.Info("interactions over HTTP", "address", it.Addr(), "path", InteractionsPath)
		return nil
	}
	if shared != nil {
		dc.Gateway = newGateway(dc.dopts, dc.session, dc.Shards, log, func(i *discordgo.Interaction) { serve(dc.rest, i) })
		sl, err := newShardLeases(*shared, dc.Gateway, identifyConcurrency(dc.session, log), log)
		if err != nil {
			dc.Disconnect()
			return err
		}
		dc.stopShards = runShardLeases(ctx, sl, log)
		if err := sl.waitInitial(ctx); err != nil {
			dc.Disconnect()
			if ctx.Err() != nil {
				log.Info("stopped before the gateway connected", "err", err)
				return fmt.Errorf("%w: %w", ErrStopped, err)
			}
			return err
		}
		dc.Health.shards = dc.Gateway.Connected
		return nil
	}
	gw, err := openGateway(ctx, dc.dopts, dc.session, dc.Shards, log, func(i *discordgo.Interaction) { serve(dc.rest, i) })
	if err != nil {
		if ctx.Err() != nil {
			log.Info("stopped before the gateway connected", "err", err)
			return fmt.Errorf("%w: %w", ErrStopped, err)
		}
		return err
	}
	dc.Gateway = gw
	dc.Health.shards = gw.Connected
	return nil
}

// runShardLeases runs the shard leases until the returned stop, which waits for them to
// be given up. Their context does not end with ctx: Disconnect stops them once the
// gateway is closed.
func runShardLeases(ctx context.Context, sl *shardLeases, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := sl.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("shard leases", "err", err)
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// Drain stops taking interactions and waits, up to the shutdown timeout, for those in
// flight to be answered: the gateway is closed, or the interactions endpoint.
func (dc *Discord) Drain() {
	log, timeout := dc.o.Logger, dc.o.ShutdownTimeout
	if dc.Gateway != nil {
		if err := dc.Gateway.Close(); err != nil {
			log.Warn("close gateway", "err", err)
		}
	}
	if dc.Interactions != nil {
		if err := dc.Interactions.Close(timeout); err != nil {
			log.Warn("close the interactions endpoint", "err", err)
		}
	}
	waitTimeout(func() {
		if dc.Interactions != nil {
			dc.Interactions.Wait()
		}
		if dc.Router != nil {
			dc.Router.Wait()
		}
	}, timeout, log, "in-flight interactions")
}

// Disconnect closes what Connect opened (again after Drain, which does nothing more):
// the interactions endpoint or the gateway, then the shard leases, given up once their
// sessions are closed. The notifier stays open: close it after the services.
func (dc *Discord) Disconnect() {
	if dc.Interactions != nil {
		dc.Interactions.Close(dc.o.ShutdownTimeout)
	}
	if dc.Gateway != nil {
		dc.Gateway.Close()
	}
	if dc.stopShards != nil {
		dc.stopShards()
		dc.stopShards = nil
	}
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
