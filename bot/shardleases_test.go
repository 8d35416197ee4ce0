// Tests of the shard leases alone: gateways of two processes on one PostgreSQL store,
// without the rest of the server.

package bot

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/pg"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// TestShardLeasesSurvivorTakesADeadProcessesShards: a process that dies (its store and
// its connections gone, its leases left to expire) loses its shards to the survivor
// within the lease's lifetime, a tick and the identify window.
func TestShardLeasesSurvivorTakesADeadProcessesShards(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	f := discordfake.New(t, discordfake.WithShards(2), discordfake.WithGuilds(2))
	dopts := DiscordOptions{Token: f.Token, RESTURL: f.RESTURL(), GatewayURL: f.GatewayURL(), Intents: intents}
	log := testLogger(t)
	type process struct {
		db     *pg.DB
		gw     *Gateway
		sl     *shardLeases
		cancel context.CancelFunc
		done   chan error
	}
	start := func(name string) *process {
		t.Helper()
		rest, err := newSession(dopts)
		if err != nil {
			t.Fatal(err)
		}
		p := &process{db: storagetest.OpenPostgresDSN(t, dsn, nil), done: make(chan error, 1)}
		p.gw = newGateway(dopts, rest, 2, log, func(*discordgo.Interaction) {})
		if p.sl, err = newShardLeases(ShardTables{Instance: name, Shards: storage.LeaseTable(p.db, storage.LeaseSetShards),
			Identify: storage.LeaseTable(p.db, storage.LeaseSetIdentify)}, p.gw, 1, log); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		p.cancel = cancel
		go func() { p.done <- p.sl.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-p.done; p.gw.Close() })
		if err := p.sl.waitInitial(ctx); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := start("a")
	if got := a.gw.Running(); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("alone, a runs %v", got)
	}
	b := start("b") // holds nothing yet: a holds both
	if got := b.gw.Running(); len(got) != 0 {
		t.Fatalf("b runs %v while a holds both", got)
	}
	// a dies: it can no longer reach the store (so it neither renews nor releases),
	// and its connections drop.
	died := time.Now()
	a.db.Close()
	a.gw.Close()
	a.cancel() // its Run finds the store gone and cannot release
	if err := <-a.done; err == nil {
		t.Error("a released its leases from a closed store")
	}
	a.done <- nil // for the cleanup
	limit := lease.DefaultTTL + lease.DefaultTTL/3 + 2*IdentifyWindow + time.Second
	if !f.WaitFor(func() bool { return slices.Equal(b.gw.Connected(), []bool{true, true}) }, limit+5*time.Second) {
		t.Fatalf("b runs %v, connected %v %v after a died; holders %v", b.gw.Running(), b.gw.Connected(), time.Since(died), storagetest.LeaseHolders(t, b.db, storage.LeaseSetShards))
	}
	took := time.Since(died)
	t.Logf("b ran both shards %v after a died", took.Round(time.Millisecond))
	if took > limit {
		t.Errorf("b ran both shards %v after a died; want within %v (lease, tick, two identify windows)", took, limit)
	}
	if h := storagetest.LeaseHolders(t, b.db, storage.LeaseSetShards); h["b"] != 2 {
		t.Errorf("holders %v, want b with both", h)
	}
	f.CheckIdentifySpacing(t, IdentifyWindow)
}
