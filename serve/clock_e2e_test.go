package serve

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// skewedClock is the system clock off by a fixed offset: a machine whose clock is
// behind (negative) or ahead.
type skewedClock struct{ offset time.Duration }

func (c skewedClock) Now() time.Time { return time.Now().Add(c.offset) }

// postgresWorld is a world whose processes share one fresh PostgreSQL schema.
func postgresWorld(t *testing.T) (*world, storage.Store) {
	t.Helper()
	overHTTP(t)
	dsn := storagetest.PostgresDSN(t)
	w := newWorld(t)
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
	return w, storagetest.OpenPostgresDSN(t, dsn, nil)
}

// runRefused runs a process that must refuse to start, and returns its error.
func runRefused(t *testing.T, w *world, instance string, deps Deps) error {
	t.Helper()
	cfg := w.cfg
	cfg.Instance = instance
	if deps.Logger == nil {
		deps.Logger = testLogger(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := Run(ctx, cfg, deps)
	if err == nil || ctx.Err() != nil {
		t.Fatalf("a process that must refuse to run returned %v (context: %v)", err, ctx.Err())
	}
	return err
}

// TestSecondProcessUnderOneInstanceNameRefused: a second process started under the
// name of one that runs refuses to run, saying so, and takes none of its leases.
func TestSecondProcessUnderOneInstanceNameRefused(t *testing.T) {
	w, db := postgresWorld(t)
	cfg := w.cfg
	cfg.Instance = "web-1"
	w.startWith(cfg, Deps{})
	before, err := storage.LeaseTable(db, storage.LeaseSetGames).Leases()
	if err != nil {
		t.Fatal(err)
	}
	err = runRefused(t, w, "web-1", Deps{Clock: w.clock})
	if !strings.Contains(err.Error(), `another gambit process is running as instance "web-1"`) {
		t.Errorf("the second web-1 refused with %q; want it to name the instance taken", err)
	}
	after, err := storage.LeaseTable(db, storage.LeaseSetGames).Leases()
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != lease.DefaultPartitions || len(after) != len(before) {
		t.Fatalf("%d leases before, %d after", len(before), len(after))
	}
	for i := range before {
		if after[i].Holder != "web-1" || after[i].Epoch != before[i].Epoch {
			t.Errorf("partition %d: %+v before the second web-1, %+v after", i, before[i], after[i])
		}
	}
	// Another name runs beside it.
	cfg.Instance = "web-2"
	w.startWith(cfg, Deps{})
}

// TestClockBeyondTheBoundRefused: a process whose clock is a minute off the
// database's refuses to run, saying by how much.
func TestClockBeyondTheBoundRefused(t *testing.T) {
	w, _ := postgresWorld(t)
	for _, off := range []time.Duration{time.Minute, -time.Minute} {
		err := runRefused(t, w, "web-1", Deps{Clock: skewedClock{off}})
		if !strings.Contains(err.Error(), "clock is") || !strings.Contains(err.Error(), "beyond the "+MaxClockSkew.String()) {
			t.Errorf("clock %v off: refused with %q; want the skew and the bound", off, err)
		}
	}
}

// TestSkewedClocksChargeTheTimeSpent: of two processes on one database, web-1's clock
// is 4 s ahead and web-2's 4 s behind. A game's moves go through one, then the other:
// each player is charged the time they took, neither 8 s more nor 8 s less (each
// process corrects its clock to the database's at start), and no server is owned by
// both.
func TestSkewedClocksChargeTheTimeSpent(t *testing.T) {
	w, _ := postgresWorld(t)
	const skew, think = 4 * time.Second, 1500 * time.Millisecond
	cfg1, cfg2 := w.cfg, w.cfg
	cfg1.Instance, cfg2.Instance = "web-1", "web-2"
	r1 := w.startWith(cfg1, Deps{Clock: skewedClock{skew}})
	r2 := w.startWith(cfg2, Deps{Clock: skewedClock{-skew}}) // the fake's endpoint from now on
	urls := map[*running]string{}
	for _, r := range []*running{r1, r2} {
		urls[r] = "http://" + r.bot.Discord.Interactions.Addr() + bot.InteractionsPath
	}
	g := w.startGame("5+0")
	const id = 1 // the schema's first game
	moveVia := func(r *running, san string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		u := g.white
		if strings.HasPrefix(san, "black:") {
			u, san = g.black, strings.TrimPrefix(san, "black:")
		}
		res, err := w.f.SendInteractionTo(ctx, urls[r], discordfake.Command("move", discordfake.StringOpt("move", san)).From(u).In(w.f.GuildID, g.thread))
		if err != nil {
			t.Fatalf("move %s: %v", san, err)
		}
		if !strings.Contains(res.Callback.Data.Content, "**"+san+"**") {
			t.Fatalf("move %s through %s: answered %q", san, r.bot.Instance, res.Callback.Data.Content)
		}
	}
	const start = 5 * time.Minute
	charged := func(c chesscore.Color) time.Duration {
		t.Helper()
		left, ok := r1.bot.mustGame(t, id).Remaining(c, time.Time{}) // a clock not running
		if !ok {
			t.Fatal("the game has no clock")
		}
		return start - left
	}
	moveVia(r1, "e4")
	moveVia(r2, "black:e5") // the clocks start
	time.Sleep(think)
	moveVia(r1, "Nf3") // White's think: from web-2's e5 to web-1's Nf3
	if c := charged(chesscore.White); c < think-100*time.Millisecond || c > think+3*time.Second {
		t.Errorf("White thought %v between a move through web-2 and one through web-1; charged %v", think, c)
	}
	time.Sleep(think)
	moveVia(r2, "black:Nc6") // Black's think: from web-1's Nf3 to web-2's Nc6
	if c := charged(chesscore.Black); c < think-100*time.Millisecond || c > think+3*time.Second {
		t.Errorf("Black thought %v between a move through web-1 and one through web-2; charged %v", think, c)
	}
}

// TestReplayedInteractionAnsweredOnceEverywhere: a signed interaction answered by
// web-1, delivered again within its validity to web-1, web-2 and web-1 again (a
// replay, or a load balancer's retry), is refused (409) every time, and Discord gets
// one answer: the duplicate check is the store's. Before, web-2 answered it again from
// the move's receipt, a second answer leaking to whoever replayed it.
func TestReplayedInteractionAnsweredOnceEverywhere(t *testing.T) {
	w, _ := postgresWorld(t)
	cfg1, cfg2 := w.cfg, w.cfg
	cfg1.Instance, cfg2.Instance = "web-1", "web-2"
	r1 := w.startWith(cfg1, Deps{})
	r2 := w.startWith(cfg2, Deps{}) // the fake's endpoint from now on
	url := func(r *running) string { return "http://" + r.bot.Discord.Interactions.Addr() + bot.InteractionsPath }
	g := w.startGame("10+0")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := w.f.SendInteractionTo(ctx, url(r1), discordfake.Command("move", discordfake.StringOpt("move", "e4")).From(g.white).In(w.f.GuildID, g.thread))
	if err != nil {
		t.Fatal(err)
	}
	g.played(res, "e4", g.black)
	for _, r := range []*running{r1, r2, r1} {
		status, err := w.f.RedeliverTo(ctx, url(r), res)
		if status != http.StatusConflict || err != nil {
			t.Errorf("e4 answered by web-1, delivered again to %s: %d, %v; want 409", r.bot.Instance, status, err)
		}
	}
	if fu := w.f.Followups(res.ID); len(fu) != 0 {
		t.Errorf("interaction %s has %d followups after its replays, want none", res.ID, len(fu))
	}
	if ply := r2.bot.mustGame(t, 1).Ply(); ply != 1 {
		t.Errorf("game at ply %d after e4 and its replays, want 1", ply)
	}
}
