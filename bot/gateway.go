package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/gambitchess/gambit/bot/discordnet"
)

// ShardFor returns the shard that receives a guild's events: (guild_id >> 22) %
// count, as Discord assigns them. A DM (guildID "") or an unreadable ID is shard 0.
func ShardFor(guildID string, count int) int {
	if count <= 1 || guildID == "" {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// DiscordOptions say how to reach Discord.
type DiscordOptions struct {
	Token string // the bare token, without "Bot "
	// RESTURL and GatewayURL point at a Discord-compatible proxy or fake ("" for Discord).
	RESTURL, GatewayURL string
	// Shards is the shard count; 0 asks GET gateway/bot.
	Shards int
	// Intents the sessions identify with.
	Intents discordgo.Intent
}

// newSession makes a session redirected as o says.
func newSession(o DiscordOptions) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + o.Token)
	if err != nil {
		return nil, fmt.Errorf("new discord session: %w", err)
	}
	// discordgo logs through the standard logger; keep it to errors (it never logs
	// the token at this level).
	s.LogLevel = discordgo.LogError
	s.StateEnabled = false
	// Every REST call goes to one host: keep enough idle connections for the
	// interactions answered at once (the default keeps two, and opens and closes the
	// rest under load).
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 128
	s.Client = &http.Client{Timeout: 20 * time.Second, Transport: tr}
	if err := discordnet.Configure(s, o.RESTURL, o.GatewayURL); err != nil {
		return nil, err
	}
	return s, nil
}

// Gateway is the bot's gateway connections: one discordgo session per shard this
// process runs, sharing one REST rate limiter. Alone (openGateway) a process runs
// every shard; with shard leases (shardleases.go) it runs the shards it holds, opened
// and closed as it gains and loses them.
type Gateway struct {
	o      DiscordOptions
	rest   *discordgo.Session
	handle func(*discordgo.Interaction)
	log    *slog.Logger
	// connected is each shard's connection state; running marks the shards this
	// process runs (opening or open).
	connected []atomic.Bool
	running   []atomic.Bool

	mu       sync.Mutex
	sessions []*discordgo.Session // by shard; nil for a shard not open here
	closed   bool
}

// newGateway makes the gateway of count shards with none open, delivering each
// interaction to handle (called on its own goroutine by discordgo).
func newGateway(o DiscordOptions, rest *discordgo.Session, count int, log *slog.Logger, handle func(*discordgo.Interaction)) *Gateway {
	return &Gateway{o: o, rest: rest, handle: handle, log: log,
		connected: make([]atomic.Bool, count), running: make([]atomic.Bool, count), sessions: make([]*discordgo.Session, count)}
}

// shardCount resolves the configured count: 0 means what GET gateway/bot recommends.
func shardCount(rest *discordgo.Session, configured int) (int, error) {
	if configured > 0 {
		return configured, nil
	}
	gb, err := rest.GatewayBot()
	if err != nil {
		return 0, fmt.Errorf("discord.shards auto: GET gateway/bot: %w", err)
	}
	if gb.Shards < 1 {
		return 1, nil
	}
	return gb.Shards, nil
}

// openGateway connects every shard, one after the other, and delivers each
// interaction to handle. A shard whose first connection fails is retried with backoff
// and jitter (openShard) until ctx ends, unless Discord closed it with a fatal code
// (FatalCloseError).
func openGateway(ctx context.Context, o DiscordOptions, rest *discordgo.Session, count int, log *slog.Logger, handle func(*discordgo.Interaction)) (*Gateway, error) {
	g := newGateway(o, rest, count, log, handle)
	for id := 0; id < count; id++ {
		s, err := g.session(id)
		if err == nil {
			err = openShard(ctx, s, gatewayRetry, log)
		}
		if err == nil {
			err = g.opened(id, s)
		}
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("open gateway shard %d of %d: %w", id, count, err)
		}
	}
	return g, nil
}

// session makes shard id's session (not yet open) and marks the shard as run here.
func (g *Gateway) session(id int) (*discordgo.Session, error) {
	count := len(g.sessions)
	s, err := newSession(g.o)
	if err != nil {
		return nil, err
	}
	s.ShardID, s.ShardCount = id, count
	s.Identify.Intents = g.o.Intents
	s.Ratelimiter = g.rest.Ratelimiter
	s.Client = g.rest.Client
	s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
		if ic.Interaction != nil {
			g.handle(ic.Interaction)
		}
	})
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Ready) {
		g.connected[id].Store(true)
		g.log.Info("gateway ready", "shard", id, "shards", count)
	})
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) {
		g.connected[id].Store(true)
		g.log.Info("gateway resumed", "shard", id)
	})
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) {
		g.connected[id].Store(false)
		g.log.Warn("gateway disconnected", "shard", id)
	})
	g.running[id].Store(true)
	return s, nil
}

// opened records shard id's open session. A shard given up while it was opening
// (closeShard), or a gateway closed meanwhile, has its session closed at once.
func (g *Gateway) opened(id int, s *discordgo.Session) error {
	g.mu.Lock()
	keep := !g.closed && g.running[id].Load()
	if keep {
		g.sessions[id] = s
	}
	g.mu.Unlock()
	if !keep {
		g.connected[id].Store(false)
		return discordnet.Close(s)
	}
	return nil
}

// closeShard closes shard id's session for good, or stops it opening; this process no
// longer runs the shard.
func (g *Gateway) closeShard(id int) error {
	g.mu.Lock()
	s := g.sessions[id]
	g.sessions[id] = nil
	g.running[id].Store(false)
	g.mu.Unlock()
	g.connected[id].Store(false)
	if s == nil {
		return nil
	}
	g.log.Info("gateway shard closed", "shard", id)
	return discordnet.Close(s)
}

// fatalCloseCodes are the gateway close codes after which reconnecting cannot help,
// with what each means (Discord's gateway documentation).
var fatalCloseCodes = map[int]string{
	4004: "authentication failed: check discord.token (GAMBIT_DISCORD_TOKEN)",
	4010: "invalid shard: check discord.shards",
	4011: "sharding required: the bot is in too many servers for one shard; set discord.shards to auto or a larger count",
	4012: "invalid API version",
	4013: "invalid intents",
	4014: "disallowed intents: the bot asked for a privileged intent the developer portal does not grant it",
}

// FatalCloseError is the error of a gateway connection that Discord closed with a code
// after which retrying cannot help (4004, 4010 to 4014).
type FatalCloseError struct {
	Code   int
	Reason string // Discord's text in the close frame
}

func (e *FatalCloseError) Error() string {
	return fmt.Sprintf("Discord closed the gateway with code %d, %s (%q)", e.Code, fatalCloseCodes[e.Code], e.Reason)
}

// fatalClose returns the *FatalCloseError of a connection Discord closed with a fatal
// code, or nil for any other error.
func fatalClose(err error) *FatalCloseError {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		if _, fatal := fatalCloseCodes[ce.Code]; fatal {
			return &FatalCloseError{Code: ce.Code, Reason: ce.Text}
		}
	}
	return nil
}

// backoff is how long to wait between attempts: Base doubled after each failure up to
// Max, each wait drawn at random between half and all of it (jitter, so shards and
// restarted bots do not retry in step).
type backoff struct{ Base, Max time.Duration }

// gatewayRetry is the backoff of a shard's first connection.
var gatewayRetry = backoff{Base: time.Second, Max: 2 * time.Minute}

// wait returns the wait before attempt n (n = 1 after the first failure).
func (b backoff) wait(n int) time.Duration {
	d := b.Base
	for i := 1; i < n && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	return d/2 + rand.N(d/2+1)
}

// openShard opens a session, retrying after a failed first connection (a refused
// dial, a close such as 4000 before READY) as discordgo retries after a later
// disconnect, until ctx ends. A fatal close code ends it at once with a
// *FatalCloseError.
func openShard(ctx context.Context, s *discordgo.Session, b backoff, log *slog.Logger) error {
	for attempt := 1; ; attempt++ {
		err := s.Open()
		if err == nil {
			return nil
		}
		if fe := fatalClose(err); fe != nil {
			return fe
		}
		wait := b.wait(attempt)
		log.Warn("gateway connection failed; retrying", "shard", s.ShardID, "attempt", attempt, "err", err, "retry_in", wait.Round(time.Millisecond))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("gave up after %d attempts (%w): %w", attempt, ctx.Err(), err)
		case <-t.C:
		}
	}
}

// Count returns the number of shards.
func (g *Gateway) Count() int { return len(g.connected) }

// Running returns the shards this process runs (opening or open), in order.
func (g *Gateway) Running() []int {
	var out []int
	for id := range g.running {
		if g.running[id].Load() {
			out = append(out, id)
		}
	}
	return out
}

// Connected reports the connection state of each shard this process runs, in shard
// order (every shard when it runs them all).
func (g *Gateway) Connected() []bool {
	out := make([]bool, 0, len(g.connected))
	for id := range g.connected {
		if g.running[id].Load() {
			out = append(out, g.connected[id].Load())
		}
	}
	return out
}

// Close closes every shard for good (discordnet.Close, so no reconnect follows); a
// shard still opening is closed as soon as it opens.
func (g *Gateway) Close() error {
	g.mu.Lock()
	g.closed = true
	sessions := g.sessions
	g.sessions = make([]*discordgo.Session, len(sessions))
	g.mu.Unlock()
	var errs []error
	for id, s := range sessions {
		g.running[id].Store(false)
		if s == nil {
			continue
		}
		if err := discordnet.Close(s); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// register replaces the application's commands with one bulk overwrite: in one guild
// when guildID is set (instant, for development), else globally, with the entry
// point command when the Activity is on (overwriteDefinitions).
func register(ctx context.Context, rest *REST, appID, guildID string, defs []*discordgo.ApplicationCommand, activity bool) error {
	if err := rest.BulkOverwrite(ctx, appID, guildID, overwriteDefinitions(defs, guildID, activity)); err != nil {
		where := "globally"
		if guildID != "" {
			where = "in guild " + guildID
		}
		return fmt.Errorf("register %d commands %s: %w", len(defs), where, err)
	}
	return nil
}

// RouteLibraryLogs sends discordgo's own log lines (errors only: the level the
// sessions use) to log, interaction tokens in URLs and the passwords of URLs (a
// proxy's) redacted. discordgo logs through a package variable, so this affects the
// whole process: call it once, from the program's entry point.
func RouteLibraryLogs(log *slog.Logger) {
	discordgo.Logger = func(msgL, caller int, format string, a ...any) {
		level := slog.LevelInfo
		switch msgL {
		case discordgo.LogError:
			level = slog.LevelError
		case discordgo.LogWarning:
			level = slog.LevelWarn
		case discordgo.LogDebug:
			level = slog.LevelDebug
		}
		log.Log(context.Background(), level, "discordgo: "+redactString(fmt.Sprintf(format, a...), nil))
	}
}
