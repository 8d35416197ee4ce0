package serve

import (
	"context"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// TestPartitionLeasesOwnsAndAdopts runs two processes' partition leases on one
// PostgreSQL store, tick by tick: Owns answers from the partitions held (every server
// alone, complementary halves together), and the adopters run after a tick that gains
// partitions and only then.
func TestPartitionLeasesOwnsAndAdopts(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	clk := timers.NewManualClock(epoch)
	ctx := context.Background()
	type counts struct{ adopted int }
	start := func(name string) (*partitionLeases, *counts) {
		pl, err := newPartitionLeases(storagetest.OpenPostgresDSN(t, dsn, nil), name, clk, testLogger(t))
		if err != nil {
			t.Fatal(err)
		}
		c := &counts{}
		pl.adopt("test", func(context.Context) error { c.adopted++; return nil })
		return pl, c
	}
	guilds := make([]string, 200)
	for i := range guilds {
		guilds[i] = storage.LeaseSetGames + string(rune('A'+i%50)) + string(rune('a'+i/50))
	}

	a, ca := start("web-1")
	for _, g := range guilds {
		if !a.Owns(g) {
			t.Fatalf("alone, web-1 does not own %s", g)
		}
	}
	a.step(ctx)
	if ca.adopted != 0 {
		t.Errorf("web-1 adopted %d times without gaining anything", ca.adopted)
	}
	b, cb := start("web-2") // all 64 are web-1's: web-2 starts with none
	for _, g := range guilds {
		if b.Owns(g) {
			t.Fatalf("web-2 owns %s while web-1 holds every partition", g)
		}
	}
	clk.Advance(time.Second)
	a.step(ctx) // gives up 32
	b.step(ctx) // takes them, and adopts
	if cb.adopted != 1 {
		t.Errorf("web-2 adopted %d times after its gain, want 1", cb.adopted)
	}
	mine := 0
	for _, g := range guilds {
		if a.Owns(g) == b.Owns(g) {
			t.Fatalf("server %s: web-1 owns it %v, web-2 %v", g, a.Owns(g), b.Owns(g))
		}
		if a.Owns(g) {
			mine++
		}
	}
	if mine < 50 || mine > 150 {
		t.Errorf("web-1 owns %d of 200 servers, want about half", mine)
	}
	for range 5 {
		clk.Advance(a.m.Interval())
		a.step(ctx)
		b.step(ctx)
	}
	if ca.adopted != 0 || cb.adopted != 1 {
		t.Fatalf("after 5 more ticks web-1 adopted %d times and web-2 %d; want 0 and 1 (nothing changed hands)", ca.adopted, cb.adopted)
	}
	// web-2 stops: web-1 takes its half back at its next tick and adopts it; Owns of a
	// stopped process is false everywhere.
	if err := b.release(); err != nil {
		t.Fatal(err)
	}
	for _, g := range guilds {
		if b.Owns(g) {
			t.Fatalf("a released web-2 still owns %s", g)
		}
	}
	before := ca.adopted
	clk.Advance(time.Millisecond)
	a.step(ctx)
	if len(a.m.Held()) != lease.DefaultPartitions || ca.adopted != before+1 {
		t.Errorf("after web-2 stopped web-1 holds %d partitions and adopted %d more times; want 64 and 1", len(a.m.Held()), ca.adopted-before)
	}
}

// TestPartitionLeasesRestartReclaims: a process that crashed (its leases left held) and
// starts again at once under its name holds its partitions at its first tick, at
// greater epochs, instead of waiting for them to expire.
func TestPartitionLeasesRestartReclaims(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	clk := timers.NewManualClock(epoch)
	db := storagetest.OpenPostgresDSN(t, dsn, nil)
	first, err := newPartitionLeases(db, "web-1", clk, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	before, err := storage.LeaseTable(db, storage.LeaseSetGames).Leases()
	if err != nil || len(first.m.Held()) != lease.DefaultPartitions {
		t.Fatalf("first run holds %d, %v", len(first.m.Held()), err)
	}
	// web-1 crashes: no release. It comes back a second later.
	clk.Advance(time.Second)
	again, err := newPartitionLeases(storagetest.OpenPostgresDSN(t, dsn, nil), "web-1", clk, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(again.m.Held()); n != lease.DefaultPartitions {
		t.Fatalf("restarted at once, web-1 holds %d partitions at its first tick; want all 64", n)
	}
	after, err := storage.LeaseTable(db, storage.LeaseSetGames).Leases()
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range after {
		if l.Holder != "web-1" || l.Epoch <= before[i].Epoch {
			t.Errorf("partition %d: %+v after %+v; want web-1 at a greater epoch", l.Partition, l, before[i])
		}
	}
	if !again.Owns("any server") {
		t.Error("the restarted process does not own a server")
	}
}
