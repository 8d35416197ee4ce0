// leases.go: the share of the background work this process holds when several gambit
// processes share one PostgreSQL store: a lease manager over the store's "games" lease
// set, ticked in the background, the partitions it holds published for the services'
// Owns, and the services' adoption of the servers it gains.

package serve

import (
	"context"
	"fmt"
	"log/slog"
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
)

// leasePartitions is the number of partitions of the servers' background work: one bit
// each of partitionLeases.held.
const leasePartitions = lease.DefaultPartitions

// partitionLeases holds this process's fair share of the servers (by partition of
// their id) under renewed leases. Owns is safe for concurrent use; the manager itself
// runs on the goroutine of Run (and of the first tick, before Run starts).
type partitionLeases struct {
	m     *lease.Manager
	table lease.Table
	clock timers.Clock
	log   *slog.Logger
	// held is the set of partitions held at the last tick, bit p for partition p,
	// published after each tick for Owns.
	held atomic.Uint64
	// until[p] is the instant, on the manager's monotonic clock (mono), up to which
	// partition p is owned (lease.Manager.Until), published with held.
	until [leasePartitions]atomic.Int64
	// mono is the manager's monotonic clock.
	mono func() time.Duration
	// gained is set by the manager's OnGain during a tick.
	gained bool
	// released is set once the leases are given up.
	released bool
	// adopters are called after a tick that gained partitions, once held includes them:
	// each service reloads and schedules the work of the servers it now owns.
	adopters []adopter
}

// adopter is one service's adoption of the servers it gains.
type adopter struct {
	name  string
	adopt func(ctx context.Context) error
}

// newPartitionLeases makes the lease manager of instance over the store's games lease
// set and ticks it once, so that the services built next start with this process's
// share (and credit and restore only its servers' work).
func newPartitionLeases(db storage.Store, instance string, clk timers.Clock, log *slog.Logger) (*partitionLeases, error) {
	pl := &partitionLeases{clock: clk, log: log, table: storage.LeaseTable(db, storage.LeaseSetGames)}
	if err := reclaim(pl.table, instance, clk.Now(), log); err != nil {
		return nil, fmt.Errorf("take this process's share of the background work: %w", err)
	}
	pl.mono = lease.Monotonic
	pl.m = lease.New(pl.table, lease.Options{
		Instance: instance, Partitions: leasePartitions, Monotonic: pl.mono,
		OnGain: func(int, uint64) { pl.gained = true },
		// Owned again after its time ran out: work may have been passed over meanwhile.
		OnResume: func(int) { pl.gained = true },
	})
	if err := pl.tick(); err != nil {
		return nil, fmt.Errorf("take this process's share of the background work: %w", err)
	}
	pl.gained = false // the services start from the first share: nothing to adopt
	return pl, nil
}

// reclaim releases the leases of a table that a crashed run of this instance left held
// (lease.Reclaim), so that this run takes them at its first tick.
func reclaim(table lease.Table, instance string, now time.Time, log *slog.Logger) error {
	n, err := lease.Reclaim(table, instance, now)
	if err != nil {
		return err
	}
	if n > 0 {
		log.Info("leases: released those of this instance's previous run", "count", n, "instance", instance)
	}
	return nil
}

// tick renews, gives up and takes leases, then publishes the partitions held.
func (pl *partitionLeases) tick() error {
	err := pl.m.Tick(pl.clock.Now())
	var held uint64
	for p := range leasePartitions {
		u, ok := pl.m.Until(p)
		if ok {
			held |= 1 << p
		}
		pl.until[p].Store(int64(u))
	}
	if old := pl.held.Swap(held); old != held {
		pl.log.Info("leases: partitions held", "count", len(pl.m.Held()), "set", storage.LeaseSetGames)
	}
	return err
}

// Owns reports whether this process owns the partition of a server's background work:
// it held it at its last tick and, by its monotonic clock, the lease it last wrote has
// time left (lease.Manager.Owns). A process paused or stuck past that stops owning
// before another may take the partition, whatever its last tick said.
func (pl *partitionLeases) Owns(guildID string) bool {
	p := lease.Partition(guildID, leasePartitions)
	return pl.held.Load()&(1<<p) != 0 && pl.mono() < time.Duration(pl.until[p].Load())
}

// Held returns how many partitions this process held at its last tick, for /metrics.
func (pl *partitionLeases) Held() int { return bits.OnesCount64(pl.held.Load()) }

// Owned returns how many partitions this process owns now (Owns), for /metrics.
func (pl *partitionLeases) Owned() int {
	held, now, n := pl.held.Load(), pl.mono(), 0
	for p := range leasePartitions {
		if held&(1<<p) != 0 && now < time.Duration(pl.until[p].Load()) {
			n++
		}
	}
	return n
}

// owns is the Owns of the services: nil (every server, as one process owns them all)
// without leases.
func (pl *partitionLeases) owns() func(guildID string) bool {
	if pl == nil {
		return nil
	}
	return pl.Owns
}

// adopt registers a service's adoption of the servers it gains.
func (pl *partitionLeases) adopt(name string, fn func(ctx context.Context) error) {
	if pl != nil {
		pl.adopters = append(pl.adopters, adopter{name, fn})
	}
}

// Run ticks the manager every third of the lease's lifetime, and at once when a
// partition is free (lease.Loop), until ctx ends, each tick that gains partitions
// followed by the services' adoption of them; then it releases every lease, so the
// other processes take the partitions within a second.
func (pl *partitionLeases) Run(ctx context.Context) error {
	lease.Loop(ctx, pl.m.Interval(), func() (bool, error) { return lease.AnyFree(pl.table, leasePartitions, pl.clock.Now()) },
		func() { pl.step(ctx) })
	return pl.release()
}

// step is one tick of Run: the leases ticked, then the servers gained adopted.
func (pl *partitionLeases) step(ctx context.Context) {
	if err := pl.tick(); err != nil {
		pl.log.Error("leases: tick", "err", err) // the next tick tries again
	}
	if pl.gained {
		pl.gained = false
		for _, a := range pl.adopters {
			if err := a.adopt(ctx); err != nil {
				pl.log.Error("leases: adopt the servers gained", "service", a.name, "err", err)
			}
		}
	}
}

// release gives up every lease and withdraws the instance, so the other processes take
// its partitions at their next tick; after it Owns is false for every server. Call it
// from the goroutine of Run, or once Run has returned; a second call finds nothing held.
func (pl *partitionLeases) release() error {
	pl.held.Store(0)
	if pl.released {
		return nil
	}
	pl.released = true
	if err := pl.m.Close(); err != nil {
		pl.log.Warn("leases: release", "err", err) // they expire within the lease's lifetime
		return fmt.Errorf("release the leases: %w", err)
	}
	pl.log.Info("leases: released", "set", storage.LeaseSetGames)
	return nil
}
