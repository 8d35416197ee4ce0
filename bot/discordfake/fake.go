// Package discordfake is a fake Discord for tests: a REST API on an
// httptest server and a websocket gateway on the same loopback port, close
// enough to the real thing that an unmodified discordgo session (pointed at
// it with discordnet.Configure) can log in, register commands, receive
// interactions and answer them.
//
// The fake records what the bot sent (interaction callbacks, messages with
// their files, threads, command registrations, every REST request) and lets
// a test drive the bot: dispatch interactions and raw gateway events, make
// routes answer 429, drop the gateway connection or ask for a reconnect.
//
// It checks what Discord checks where a bot bug would otherwise pass
// unnoticed: the bot token, one callback per interaction within the
// deadline, callback types that fit the interaction, message limits
// (content length, embeds, component layout, custom ID uniqueness),
// command definitions in a bulk overwrite, identify and resume on the
// gateway, a guild's scheduled events (events.go: required fields, status
// transitions, the Manage Events permission). Anything it does not know is answered
// 404 and listed by Unknown.
//
// Interactions reach the bot over the gateway, or, after SetInteractionsURL, as
// Discord delivers them to an Interactions Endpoint URL: POSTed to the bot, signed
// with the application's Ed25519 key (PublicKey), the HTTP response taken as the
// callback. A Failure can also answer as a rate-limit proxy in front of Discord would.
//
// Typical use:
//
//	f := discordfake.New(t)
//	s, _ := discordgo.New("Bot " + f.Token)
//	discordnet.Configure(s, f.RESTURL(), f.GatewayURL())
//	s.Open()
//	defer discordnet.Close(s) // not s.Close: see discordnet.Close
//	res, err := f.SendInteraction(ctx, discordfake.Command("move", discordfake.StringOpt("san", "e4")))
//
// Close the session before the fake (t.Cleanup runs in reverse order, so
// create the fake first); a session left open keeps reconnecting to a
// fake that is gone.
package discordfake

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Errors returned by the test-facing API.
var (
	// ErrClosed is returned once the fake has shut down.
	ErrClosed = errors.New("discordfake: closed")
	// ErrNoSession is returned when no gateway session could carry an event.
	ErrNoSession = errors.New("discordfake: no gateway session for the shard")
	// ErrUnknownCommand is returned when an interaction names a command the
	// bot never registered.
	ErrUnknownCommand = errors.New("discordfake: command not registered")
	// ErrNoComponent is returned when a component interaction names a
	// custom ID no message carries.
	ErrNoComponent = errors.New("discordfake: no message carries the component")
)

// Defaults, chosen to look like Discord but run fast in tests.
const (
	// DefaultHeartbeatInterval is the interval Discord's Hello gives. Keep it
	// that long in tests of reconnects and resumes: discordgo (v0.29) answers
	// an ACK later than five intervals, or a heartbeat write that fails
	// (also on a connection it is closing itself, when a tick lands in its
	// Close), with Session.Close and a reconnect. Close sends 1000 on the
	// session's current connection, which may already be the resumed one,
	// and a 1000 close ends the session (on Discord as here). With a
	// sub-second interval a loaded machine does that often enough to turn a
	// resume into a new identify.
	DefaultHeartbeatInterval   = 41250 * time.Millisecond
	DefaultInteractionDeadline = 3 * time.Second
	// historyLimit caps the dispatches one gateway session keeps for resume.
	historyLimit = 10000
)

// Option configures a Fake.
type Option func(*config)

type config struct {
	shards    int
	heartbeat time.Duration
	deadline  time.Duration
	guilds    int
	token     string
	logger    *slog.Logger
	now       func() time.Time
}

// WithShards sets the shard count GET gateway/bot recommends (default 1).
// Sessions may identify with any count; events are routed by the count each
// session identified with.
func WithShards(n int) Option { return func(c *config) { c.shards = n } }

// WithHeartbeatInterval sets the heartbeat_interval sent in Hello.
func WithHeartbeatInterval(d time.Duration) Option { return func(c *config) { c.heartbeat = d } }

// WithInteractionDeadline sets how long after dispatch an interaction
// callback is accepted (Discord: 3 s); 0 disables the deadline.
func WithInteractionDeadline(d time.Duration) Option { return func(c *config) { c.deadline = d } }

// WithGuilds sets how many guilds exist at start (default 1). Guild IDs are
// spread so that consecutive guilds fall on consecutive shards.
func WithGuilds(n int) Option { return func(c *config) { c.guilds = n } }

// WithToken sets the bot token (default: random).
func WithToken(token string) Option { return func(c *config) { c.token = token } }

// WithLogger sets where the fake logs what it does (default: nowhere).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// Fake is a fake Discord. Its exported fields are set by New and must not be
// changed afterwards.
type Fake struct {
	// Token is the bare bot token; sessions authenticate with "Bot " + Token.
	Token string
	// AppID is the application ID (equal to the bot user's ID, as on Discord).
	AppID string
	// Bot is the bot's own user.
	Bot *discordgo.User
	// User is the default human who sends interactions.
	User *discordgo.User
	// ClientSecret is the application's OAuth2 client secret, which the token
	// exchange (POST oauth2/token) checks with AppID.
	ClientSecret string
	// GuildID and ChannelID name the first guild and its text channel, where
	// interactions happen unless a spec says otherwise.
	GuildID, ChannelID string

	cfg       config
	srv       *httptest.Server
	ids       snowflakes
	log       *slog.Logger
	guildBase time.Time
	done      chan struct{}
	wg        sync.WaitGroup

	mu      sync.Mutex // guards everything below; never held while taking a session's lock
	changed chan struct{}
	closed  bool
	users   map[string]*discordgo.User
	// closedDMs are the users who accept no direct message from the bot (RefuseDMs).
	closedDMs map[string]bool
	guilds    []*guild
	channels  map[string]*discordgo.Channel
	// places are the channels where the bot is not a member (places.go).
	places map[string]*place
	rest   restState
	gw     gatewayState
	hook   webhookState
	oauth  oauthState
	events eventState
	linked linkedState
}

// guild is one guild the bot is in.
type guild struct {
	id, name string
	channels []string
	joined   time.Time
}

// New starts a fake Discord on loopback and shuts it down when the test ends.
func New(t testing.TB, opts ...Option) *Fake {
	t.Helper()
	f, err := Start(opts...)
	if err != nil {
		t.Fatalf("start fake discord: %v", err)
	}
	t.Cleanup(f.Close)
	return f
}

// Start starts a fake Discord on loopback; the caller must Close it. Most
// tests want New.
func Start(opts ...Option) (*Fake, error) {
	cfg := config{shards: 1, heartbeat: DefaultHeartbeatInterval, deadline: DefaultInteractionDeadline, guilds: 1}
	for _, o := range opts {
		o(&cfg)
	}
	switch {
	case cfg.shards < 1:
		return nil, fmt.Errorf("shard count %d: must be at least 1", cfg.shards)
	case cfg.heartbeat < time.Millisecond:
		return nil, fmt.Errorf("heartbeat interval %v: must be at least 1ms", cfg.heartbeat)
	case cfg.guilds < 1:
		return nil, fmt.Errorf("guild count %d: must be at least 1", cfg.guilds)
	case cfg.deadline < 0:
		return nil, fmt.Errorf("interaction deadline %v: must not be negative", cfg.deadline)
	}
	if cfg.token == "" {
		cfg.token = "fake." + randomHex(24)
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	f := &Fake{
		Token:     cfg.token,
		cfg:       cfg,
		log:       cfg.logger,
		guildBase: time.Now().Add(-24 * time.Hour).Truncate(time.Second),
		done:      make(chan struct{}),
		changed:   make(chan struct{}),
		users:     map[string]*discordgo.User{},
		closedDMs: map[string]bool{},
		channels:  map[string]*discordgo.Channel{},
		places:    map[string]*place{},
	}
	f.ids.worker = 1
	f.rest.init()
	f.gw.init()
	f.oauth.init()
	f.events.init()
	f.linked.init()
	f.ClientSecret = "secret." + randomHex(16)
	if err := f.hook.init(); err != nil {
		return nil, err
	}
	f.Bot = f.addUser("Gambit", true)
	f.AppID = f.Bot.ID
	f.User = f.addUser("alice", false)
	for i := 0; i < cfg.guilds; i++ {
		gid, cid := f.addGuild(fmt.Sprintf("Guild %d", i+1))
		if i == 0 {
			f.GuildID, f.ChannelID = gid, cid
		}
	}
	f.srv = httptest.NewServer(f.handler())
	return f, nil
}

// Close shuts the fake down: gateway connections are dropped, the HTTP
// server stops and waiting calls return ErrClosed. Close is idempotent.
func (f *Fake) Close() {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	f.closed = true
	close(f.done)
	f.notifyLocked()
	f.mu.Unlock()
	f.dropConnections()
	f.srv.Close()
	f.hook.client.CloseIdleConnections()
	f.wg.Wait()
}

// RESTURL returns the API base, ending in "/api/v10/", for discord.rest_url.
func (f *Fake) RESTURL() string { return f.srv.URL + "/api/v10/" }

// GatewayURL returns the websocket URL, for discord.gateway_url.
func (f *Fake) GatewayURL() string { return "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/gateway" }

// WaitFor calls cond each time the fake's records change (and every 50 ms)
// until it returns true or timeout passes; it reports whether cond held.
// cond may call the fake's accessors.
func (f *Fake) WaitFor(cond func() bool, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		f.mu.Lock()
		ch := f.changed
		f.mu.Unlock()
		if cond() {
			return true
		}
		select {
		case <-ch:
		case <-tick.C:
		case <-deadline.C:
			return cond()
		}
	}
}

// notifyLocked wakes every WaitFor; f.mu must be held.
func (f *Fake) notifyLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// NewUser adds a human user the fake knows (GET users/{id} finds it) and
// returns it.
func (f *Fake) NewUser(name string) *discordgo.User {
	return f.addUser(name, false)
}

func (f *Fake) addUser(name string, bot bool) *discordgo.User {
	u := &discordgo.User{ID: f.ids.next(), Username: name, GlobalName: name, Discriminator: "0", Bot: bot}
	f.mu.Lock()
	f.users[u.ID] = u
	f.mu.Unlock()
	return copyUser(u)
}

// AddGuild adds a guild with one text channel, "general", and returns both
// IDs. If a gateway session already covers the guild's shard it receives
// GUILD_CREATE, as when a bot is invited.
func (f *Fake) AddGuild(name string) (guildID, channelID string) {
	guildID, channelID = f.addGuild(name)
	if s := f.sessionFor(guildID); s != nil {
		s.dispatch("GUILD_CREATE", f.guildCreate(guildID))
	}
	return guildID, channelID
}

func (f *Fake) addGuild(name string) (guildID, channelID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	// Guild k is stamped k ms after guildBase, so (id >> 22) % n cycles
	// through the shards for every shard count n.
	k := int64(len(f.guilds))
	id := makeSnowflake(f.guildBase.Add(time.Duration(k)*time.Millisecond), 2, 1, 0)
	g := &guild{id: fmt.Sprint(id), name: name, joined: time.Now().UTC()}
	f.guilds = append(f.guilds, g)
	ch := &discordgo.Channel{ID: f.ids.next(), GuildID: g.id, Name: "general", Type: discordgo.ChannelTypeGuildText}
	f.channels[ch.ID] = ch
	g.channels = append(g.channels, ch.ID)
	f.notifyLocked()
	return g.id, ch.ID
}

// AddChannel adds a text channel to a guild and returns its ID.
func (f *Fake) AddChannel(guildID, name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.guildLocked(guildID)
	if g == nil {
		return "", fmt.Errorf("add channel %q: unknown guild %s", name, guildID)
	}
	ch := &discordgo.Channel{ID: f.ids.next(), GuildID: guildID, Name: name, Type: discordgo.ChannelTypeGuildText}
	f.channels[ch.ID] = ch
	g.channels = append(g.channels, ch.ID)
	f.notifyLocked()
	return ch.ID, nil
}

// Guilds returns the IDs of the guilds the bot is in, oldest first.
func (f *Fake) Guilds() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ids := make([]string, len(f.guilds))
	for i, g := range f.guilds {
		ids[i] = g.id
	}
	return ids
}

// Channel returns a copy of a channel or thread the fake knows.
func (f *Fake) Channel(id string) (*discordgo.Channel, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch, ok := f.channels[id]
	if !ok {
		return nil, false
	}
	return copyChannel(ch), true
}

func (f *Fake) guildLocked(id string) *guild {
	for _, g := range f.guilds {
		if g.id == id {
			return g
		}
	}
	return nil
}

func copyUser(u *discordgo.User) *discordgo.User {
	if u == nil {
		return nil
	}
	c := *u
	return &c
}

func copyChannel(ch *discordgo.Channel) *discordgo.Channel {
	c := *ch
	if ch.ThreadMetadata != nil {
		md := *ch.ThreadMetadata
		c.ThreadMetadata = &md
	}
	c.Recipients = append([]*discordgo.User(nil), ch.Recipients...)
	c.AppliedTags = append([]string(nil), ch.AppliedTags...)
	return &c
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("discordfake: read random bytes: %v", err))
	}
	return hex.EncodeToString(b)
}
