package serve

// The end-to-end harness: the real Run wiring (as `gambit serve` runs it), with the
// real discordgo client pointed at the fake Discord through discord.rest_url and
// discord.gateway_url, a store in a temporary directory, and a manual clock for the
// games, so clocks move only when a test says.
//
// A world can instead deliver its interactions over HTTP (discord.interactions_address,
// the fake POSTing them signed to the bot's endpoint): the worlds of a test marked with
// overHTTP do, and with GAMBIT_TEST_INTERACTIONS=http in the environment every world
// does but those of the tests of the gateway itself (gatewayOnly): a run of the whole
// suite over HTTP.

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage/bolt"
)

// epoch is where the manual clock of every test starts.
var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// allOverHTTP makes every world deliver its interactions over HTTP.
var allOverHTTP = os.Getenv("GAMBIT_TEST_INTERACTIONS") == "http"

// gatewayOnly are the tests of the gateway, of shards or of callbacks sent through REST,
// which GAMBIT_TEST_INTERACTIONS=http leaves on the gateway.
var gatewayOnly = []string{
	"TestShardCountConfigured", "TestShardsAndRegistration", "TestStoryRestartMidGame", "TestStoryDuplicateInteraction",
	"TestStoryRateLimits", "TestStoryGatewayDisconnectAndResume", "TestFirstConnectClosedIsRetried", "TestFatalCloseStopsTheBot",
	"TestInteractionTokenNeverLogged", "TestStoryTournamentDuplicateCreate",
}

// httpTests holds the tests marked by overHTTP.
var httpTests sync.Map // testing.TB → struct{}

// overHTTP makes the worlds t creates deliver their interactions over HTTP.
func overHTTP(t testing.TB) {
	httpTests.Store(t, struct{}{})
	t.Cleanup(func() { httpTests.Delete(t) })
}

// world is a fake Discord with its users and a store path, shared by the bots a test
// starts one after another.
type world struct {
	t     testing.TB
	f     *discordfake.Fake
	clock *timers.ManualClock
	cfg   config.Config
	alice *discordgo.User // the fake's default user
	bob   *discordgo.User
	carol *discordgo.User
}

func newWorld(t testing.TB, opts ...discordfake.Option) *world {
	t.Helper()
	deadline := 3 * time.Second
	if raceEnabled {
		deadline = 10 * time.Second // the race detector slows everything tenfold
	}
	clock := timers.NewManualClock(epoch)
	// The interactions' tokens expire on the games' clock, as Discord's do on its own.
	opts = append([]discordfake.Option{discordfake.WithInteractionDeadline(deadline), discordfake.WithClock(clock.Now)}, opts...)
	f := discordfake.New(t, opts...)
	cfg := config.Default()
	cfg.Discord.Token = f.Token
	cfg.Discord.RESTURL = f.RESTURL()
	cfg.Discord.GatewayURL = f.GatewayURL()
	cfg.Storage.Path = filepath.Join(t.TempDir(), "gambit.db")
	cfg.Commands.PerUserPerMinute = 0
	top, _, _ := strings.Cut(t.Name(), "/")
	if _, marked := httpTests.Load(t); marked || (allOverHTTP && !slices.Contains(gatewayOnly, top)) {
		cfg.Discord.InteractionsAddress = "127.0.0.1:0"
		cfg.Discord.PublicKey = f.PublicKey()
	}
	return &world{
		t: t, f: f, clock: clock, cfg: cfg,
		alice: f.User, bob: f.NewUser("bob"), carol: f.NewUser("carol"),
	}
}

// running is one bot started by a test.
type running struct {
	w      *world
	bot    *Server
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
}

// testLogger logs to the test when -v is given, else nowhere.
func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() && os.Getenv("GAMBIT_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// start runs a bot on the world's configuration and waits until it is ready.
func (w *world) start() *running {
	w.t.Helper()
	return w.startWith(w.cfg, Deps{})
}

func (w *world) startWith(cfg config.Config, deps Deps) *running {
	w.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *Server, 1)
	r := &running{w: w, cancel: cancel, done: make(chan error, 1)}
	if deps.Logger == nil {
		deps.Logger = testLogger(w.t)
	}
	if deps.Clock == nil {
		deps.Clock = w.clock
	}
	deps.Ready = func(b *Server) { ready <- b }
	go func() { r.done <- Run(ctx, cfg, deps) }()
	select {
	case r.bot = <-ready:
		if cfg.Discord.InteractionsAddress != "" {
			// The developer portal's Interactions Endpoint URL, checked as Discord does.
			sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer scancel()
			if err := w.f.SetInteractionsURL(sctx, "http://"+r.bot.Discord.Interactions.Addr()+bot.InteractionsPath); err != nil {
				cancel()
				<-r.done
				w.t.Fatalf("interactions endpoint: %v", err)
			}
		}
	case err := <-r.done:
		cancel()
		w.t.Fatalf("bot did not start: %v", err)
	case <-time.After(20 * time.Second):
		cancel()
		w.t.Fatal("bot did not become ready in 20s")
	}
	w.t.Cleanup(r.stop)
	return r
}

// stop shuts the bot down gracefully and checks that Run returned nil.
func (r *running) stop() {
	r.once.Do(func() {
		r.cancel()
		select {
		case err := <-r.done:
			if err != nil {
				r.w.t.Errorf("Run returned %v", err)
			}
		case <-time.After(30 * time.Second):
			r.w.t.Error("Run did not return 30s after cancel")
		}
	})
}

// send dispatches an interaction and returns the bot's answer, failing the test if
// there is none.
func (w *world) send(spec discordfake.InteractionSpec) *discordfake.InteractionResult {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := w.f.SendInteraction(ctx, spec)
	if err != nil {
		w.t.Fatalf("interaction %s%s: %v", spec.Name, spec.CustomID, err)
	}
	return res
}

// customID returns the custom ID among ids whose action (and argument prefix) is
// route, e.g. "accept" or "to/g2".
func customID(t testing.TB, ids []string, action string) string {
	t.Helper()
	for _, id := range ids {
		parts := strings.SplitN(id, "/", 5)
		if len(parts) == 5 && (parts[4] == action || strings.HasPrefix(parts[4], action+"/")) {
			return id
		}
	}
	t.Fatalf("no component %q among %v", action, ids)
	return ""
}

// hangGuard bounds waitFor: the condition is polled and ends the wait as soon as it
// holds, so the bound only decides how long a bot that is stuck takes to fail. It
// is far above anything the bot needs on a loaded machine under the race detector
// (a deferred answer waits for an engine analysis, a resume for discordgo's
// one-second Close).
const hangGuard = 2 * time.Minute

// waitFor waits until cond holds, failing the test after hangGuard.
func (w *world) waitFor(what string, cond func() bool) {
	w.t.Helper()
	if !w.f.WaitFor(cond, hangGuard) {
		w.t.Fatalf("timed out waiting for %s", what)
	}
}

// messagesWith returns the messages of a channel carrying a file named name.
func (w *world) messagesWith(channelID, name string) []discordfake.Message {
	var out []discordfake.Message
	for _, m := range w.f.Messages(channelID) {
		if _, ok := m.File(name); ok {
			out = append(out, m)
		}
	}
	return out
}

// storeOf returns the store of a running bot's service (for the crash image).
func (r *running) store() *bolt.DB { return r.bot.store }
