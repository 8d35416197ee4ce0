package serve

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// TestShardLeasesDivideTheGatewayOnPostgres runs two gambit serve processes in gateway
// mode on one PostgreSQL store with two shards: the first alone identifies both; with
// the second they hold one each (the first closes the shard it gives up, the second
// identifies it), each guild's interactions are answered on its shard; when the second
// stops the first identifies its shard again. No two identifies come within 5 s (the
// fake's max_concurrency is 1).
func TestShardLeasesDivideTheGatewayOnPostgres(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	w := newWorld(t, discordfake.WithShards(2), discordfake.WithGuilds(2))
	w.cfg.Discord.InteractionsAddress, w.cfg.Discord.PublicKey = "", "" // a test of the gateway, whatever GAMBIT_TEST_INTERACTIONS says
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
	db := storagetest.OpenPostgresDSN(t, dsn, nil)
	cfg1, cfg2 := w.cfg, w.cfg
	cfg1.Instance, cfg2.Instance = "web-1", "web-2"

	r1 := w.startWith(cfg1, Deps{})
	if got := r1.bot.Discord.Gateway.Running(); !slices.Equal(got, []int{0, 1}) || !slices.Equal(r1.bot.Discord.Gateway.Connected(), []bool{true, true}) {
		t.Fatalf("alone, web-1 runs shards %v, connected %v", got, r1.bot.Discord.Gateway.Connected())
	}
	r2 := w.startWith(cfg2, Deps{})
	w.f.WaitFor(func() bool {
		h := storagetest.LeaseHolders(t, db, storage.LeaseSetShards)
		return h["web-1"] == 1 && h["web-2"] == 1 && len(r2.bot.Discord.Gateway.Running()) == 1 &&
			slices.Equal(r2.bot.Discord.Gateway.Connected(), []bool{true}) && len(r1.bot.Discord.Gateway.Running()) == 1
	}, 4*lease.DefaultTTL)
	one, two := r1.bot.Discord.Gateway.Running(), r2.bot.Discord.Gateway.Running()
	if len(one) != 1 || len(two) != 1 || one[0] == two[0] {
		t.Fatalf("web-1 runs %v, web-2 %v (holders %v); want one shard each", one, two, storagetest.LeaseHolders(t, db, storage.LeaseSetShards))
	}
	if n := w.f.Identifies(); n != 3 {
		t.Errorf("%d identifies, want 3 (web-1 both shards, then web-2 the one it took)", n)
	}
	for _, g := range w.f.Guilds() {
		c, err := w.f.AddChannel(g, "chess")
		if err != nil {
			t.Fatal(err)
		}
		res := w.send(discordfake.Command("games").In(g, c))
		if !strings.Contains(res.Callback.Data.Content, "no games") {
			t.Errorf("/games in guild %s (shard %d) answered %q", g, bot.ShardFor(g, 2), res.Callback.Data.Content)
		}
	}

	r2.stop() // closes its shard, then releases it
	w.f.WaitFor(func() bool {
		return storagetest.LeaseHolders(t, db, storage.LeaseSetShards)["web-1"] == 2 && slices.Equal(r1.bot.Discord.Gateway.Connected(), []bool{true, true})
	}, 4*lease.DefaultTTL)
	if got := r1.bot.Discord.Gateway.Running(); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("after web-2 stopped, web-1 runs %v (holders %v); want both", got, storagetest.LeaseHolders(t, db, storage.LeaseSetShards))
	}
	w.f.CheckIdentifySpacing(t, bot.IdentifyWindow)
}

// TestLoneProcessKeepsItsShardOverADatabaseOutage: a lone gateway process on
// PostgreSQL whose database is cut off for 5 s (every connection closed, new ones
// refused), 1.5 s after a renewal of its shard's lease, keeps the lease (renewed at its
// epoch once the database is back, nobody having taken it) and its gateway session:
// no second identify, and a command sent once the database is back is answered. Before
// an expired lease could be renewed at its epoch, the process lost the shard at its
// first tick after the outage, closed the session and identified again.
func TestLoneProcessKeepsItsShardOverADatabaseOutage(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	proxy, viaProxy := newDBProxy(t, dsn)
	w := newWorld(t)
	w.cfg.Discord.InteractionsAddress, w.cfg.Discord.PublicKey = "", ""
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, viaProxy
	w.cfg.Instance = "web-1"
	db := storagetest.OpenPostgresDSN(t, dsn, nil) // the test's own handle, not through the proxy
	r := w.startWith(w.cfg, Deps{})
	if !slices.Equal(r.bot.Discord.Gateway.Connected(), []bool{true}) || w.f.Identifies() != 1 {
		t.Fatalf("connected %v after %d identifies", r.bot.Discord.Gateway.Connected(), w.f.Identifies())
	}
	shardLease := func() lease.Lease {
		ls, err := storage.LeaseTable(db, storage.LeaseSetShards).Leases()
		if err != nil || len(ls) != 1 {
			t.Fatalf("shard leases %v, %v", ls, err)
		}
		return ls[0]
	}
	before := shardLease()
	if !w.f.WaitFor(func() bool { return !shardLease().Expires.Equal(before.Expires) }, 2*lease.DefaultTTL) {
		t.Fatal("the shard's lease was not renewed")
	}
	time.Sleep(1500 * time.Millisecond)
	proxy.setCut(true)
	time.Sleep(5 * time.Second)
	proxy.setCut(false)
	back := time.Now()
	// The lease is renewed again, at its epoch, within a few ticks.
	if !w.f.WaitFor(func() bool { l := shardLease(); return l.Expires.After(back) && l.Holder == "web-1" }, 3*lease.DefaultTTL) {
		t.Fatalf("the shard's lease after the outage: %+v", shardLease())
	}
	if l := shardLease(); l.Epoch != before.Epoch {
		t.Errorf("the shard's lease went from epoch %d to %d over the outage; want it kept", before.Epoch, l.Epoch)
	}
	// One more tick or two: a loss would show as a second identify.
	time.Sleep(lease.DefaultTTL / 3 * 2)
	if n := w.f.Identifies(); n != 1 {
		t.Errorf("%d identifies after a 5 s database outage, want 1 (the session kept)", n)
	}
	c, err := w.f.AddChannel(w.f.GuildID, "chess")
	if err != nil {
		t.Fatal(err)
	}
	res := w.send(discordfake.Command("games").In(w.f.GuildID, c))
	if !strings.Contains(res.Callback.Data.Content, "no games") {
		t.Errorf("/games after the outage answered %q", res.Callback.Data.Content)
	}
}
