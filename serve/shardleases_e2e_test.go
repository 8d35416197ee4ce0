package serve

import (
	"slices"
	"strings"
	"testing"

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
