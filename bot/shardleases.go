// shardleases.go: the gateway shards divided between the processes sharing one
// PostgreSQL store by leases (the store's "shards" lease set): each process identifies
// only the shards it holds, no faster than Discord's identify concurrency allows across
// all the processes (the "identify" lease set), and takes over the shards of a process
// that stops or dies.

package bot

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/internal/lease"
)

// IdentifyWindow is Discord's identify rate limit: each bucket (shard id modulo the
// max_concurrency of GET gateway/bot) starts one session per 5 seconds.
const IdentifyWindow = 5 * time.Second

// ShardTables are the lease tables of the gateway shards when several processes share
// one store: with them, Connect runs only the shards this process leases.
type ShardTables struct {
	// Instance is this process's name, the holder of its leases.
	Instance string
	// Shards has one partition per shard: who runs it.
	Shards lease.Table
	// Identify has one partition per identify bucket: who identified in it last, for
	// IdentifyWindow.
	Identify lease.Table
	// Now is the wall clock the leases are stamped by (time.Now if nil): the same for
	// every process (serve corrects it to the database's).
	Now func() time.Time
}

// shardLeases runs the shards this process holds under renewed leases. The manager
// ticks on Run's goroutine; the shards gained are opened, one identify at a time, by
// an opener goroutine; a shard lost is closed at once.
type shardLeases struct {
	m        *lease.Manager
	table    lease.Table
	identify lease.Table
	instance string
	gw       *Gateway
	buckets  int // max_concurrency: identify buckets
	now      func() time.Time
	log      *slog.Logger

	mu    sync.Mutex
	held  []bool // the shards held, as the opener must see them (under mu)
	queue []int  // shards gained, waiting to be opened (under mu)
	wake  chan struct{}
	// initial are the shards held after the first tick, which start-up waits for.
	initial []int
	// released is set once the leases are given up.
	released atomic.Bool
	// refused receives the first fatal close of a connection (FatalCloseError): at
	// start-up it fails Connect as a refused first connection does with one process.
	refused chan error
}

// newShardLeases makes the shard lease manager of t.Instance over t.Shards, for gw's
// shards, and ticks it once: the shards it then holds are the ones start-up opens
// (waitInitial). The leases a crashed run of the same instance left held are released
// first (lease.Reclaim).
func newShardLeases(t ShardTables, gw *Gateway, maxConcurrency int, log *slog.Logger) (*shardLeases, error) {
	sl := &shardLeases{
		table: t.Shards, identify: t.Identify, instance: t.Instance, gw: gw,
		buckets: max(maxConcurrency, 1), now: t.Now, log: log,
		held: make([]bool, gw.Count()), wake: make(chan struct{}, 1), refused: make(chan error, 1),
	}
	if sl.now == nil {
		sl.now = time.Now
	}
	n, err := lease.Reclaim(sl.table, sl.instance, sl.now())
	if err != nil {
		return nil, fmt.Errorf("take this process's share of the gateway shards: %w", err)
	}
	if n > 0 {
		log.Info("leases: released those of this instance's previous run", "count", n, "instance", sl.instance)
	}
	sl.m = lease.New(sl.table, lease.Options{
		Instance: sl.instance, Partitions: gw.Count(), OnGain: sl.gain, OnLoss: sl.loss,
	})
	if err := sl.m.Tick(sl.now()); err != nil {
		return nil, fmt.Errorf("take this process's share of the gateway shards: %w", err)
	}
	sl.initial = sl.m.Held()
	log.Info("shard leases: shards held", "shards", sl.initial, "of", gw.Count())
	return sl, nil
}

// gain queues a shard gained for the opener.
func (sl *shardLeases) gain(shard int, _ uint64) {
	sl.mu.Lock()
	sl.held[shard] = true
	sl.queue = append(sl.queue, shard)
	sl.mu.Unlock()
	select {
	case sl.wake <- struct{}{}:
	default:
	}
}

// loss closes a shard lost (or stops it opening).
func (sl *shardLeases) loss(shard int) {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	sl.held[shard] = false
	sl.queue = slices.DeleteFunc(sl.queue, func(s int) bool { return s == shard })
	if err := sl.gw.closeShard(shard); err != nil {
		sl.log.Warn("shard leases: close a shard lost", "shard", shard, "err", err)
	}
}

// Run opens the shards held and ticks the manager every third of the lease's lifetime,
// and at once when a shard is free (lease.Loop), until ctx ends; then it waits for the opener and releases every lease, so the other
// processes take the shards at their next tick. Close the gateway first: a shard is
// given up only once its session is closed.
func (sl *shardLeases) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sl.openLoop(ctx)
	}()
	lease.Loop(ctx, sl.m.Interval(), func() (bool, error) { return lease.AnyFree(sl.table, sl.gw.Count(), sl.now()) }, func() {
		if err := sl.m.Tick(sl.now()); err != nil {
			sl.log.Error("shard leases: tick", "err", err) // the next tick tries again
		}
	})
	wg.Wait()
	return sl.release()
}

// release gives up every shard lease and withdraws the instance. Call it from Run's
// goroutine or once Run has returned; a second call does nothing.
func (sl *shardLeases) release() error {
	if sl.released.Swap(true) {
		return nil
	}
	if err := sl.m.Close(); err != nil {
		sl.log.Warn("shard leases: release", "err", err) // they expire within the lease's lifetime
		return fmt.Errorf("release the shard leases: %w", err)
	}
	sl.log.Info("shard leases: released")
	return nil
}

// openLoop opens the queued shards one at a time until ctx ends.
func (sl *shardLeases) openLoop(ctx context.Context) {
	for {
		sl.mu.Lock()
		shard := -1
		if len(sl.queue) > 0 {
			shard, sl.queue = sl.queue[0], sl.queue[1:]
		}
		sl.mu.Unlock()
		if shard < 0 {
			select {
			case <-ctx.Done():
				return
			case <-sl.wake:
				continue
			}
		}
		sl.openHeld(ctx, shard)
		if ctx.Err() != nil {
			return
		}
	}
}

// openHeld opens a shard while it is held: each attempt takes an identify slot first;
// a failed attempt is tried again after a backoff, until the shard is open, lost, or
// ctx ends.
func (sl *shardLeases) openHeld(ctx context.Context, shard int) {
	for attempt := 1; ; attempt++ {
		if err := sl.identifySlot(ctx, shard); err != nil {
			if ctx.Err() != nil {
				return
			}
			sl.log.Error("shard leases: identify slot", "shard", shard, "err", err)
		} else {
			s, ok, err := sl.session(shard)
			if !ok {
				return // lost meanwhile
			}
			if err == nil {
				if err = s.Open(); err == nil {
					if err := sl.gw.opened(shard, s); err != nil {
						sl.log.Warn("shard leases: close a shard lost while it opened", "shard", shard, "err", err)
					}
					return
				}
			}
			if fe := fatalClose(err); fe != nil {
				// Reconnecting cannot help: the shard stays closed, held, and start-up
				// fails with the reason.
				sl.log.Error("gateway connection refused", "shard", shard, "err", fe)
				select {
				case sl.refused <- fe:
				default:
				}
				return
			}
			sl.log.Warn("gateway connection failed; retrying", "shard", shard, "attempt", attempt, "err", err)
		}
		t := time.NewTimer(gatewayRetry.wait(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// session makes the session of a shard still held (ok false when it was lost).
func (sl *shardLeases) session(shard int) (*discordgo.Session, bool, error) {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if !sl.held[shard] {
		return nil, false, nil
	}
	s, err := sl.gw.session(shard)
	return s, true, err
}

// identifySlot waits until this process may identify shard: it takes the shard's
// identify bucket (shard modulo max_concurrency) in the identify lease table for
// IdentifyWindow, once nobody (this process included) has identified in it within the
// window. Of several processes waiting for one bucket exactly one takes it.
func (sl *shardLeases) identifySlot(ctx context.Context, shard int) error {
	bucket := shard % sl.buckets
	for {
		now := sl.now()
		leases, err := sl.identify.Leases()
		if err != nil {
			return err
		}
		var wait time.Duration
		for _, l := range leases {
			if l.Partition == bucket && now.Before(l.Expires) {
				wait = l.Expires.Sub(now)
			}
		}
		if wait == 0 {
			_, ok, err := sl.identify.Acquire(bucket, sl.instance, now, IdentifyWindow)
			if err != nil {
				return err
			}
			if ok {
				return nil
			}
			wait = 100 * time.Millisecond // another process took it first: read it again
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// waitInitial waits until the shards held after the first tick are connected (or no
// longer held), until ctx ends or Discord refuses a connection for good.
func (sl *shardLeases) waitInitial(ctx context.Context) error {
	for {
		done := true
		sl.mu.Lock()
		for _, id := range sl.initial {
			if sl.held[id] && !sl.gw.connected[id].Load() {
				done = false
			}
		}
		sl.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("open the shards held %v: %w", sl.initial, ctx.Err())
		case err := <-sl.refused:
			return fmt.Errorf("open the shards held %v: %w", sl.initial, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// identifyConcurrency returns the max_concurrency of GET gateway/bot: how many
// identify buckets the bot has (1 if Discord does not say).
func identifyConcurrency(s *discordgo.Session, log *slog.Logger) int {
	gb, err := s.GatewayBot()
	if err != nil {
		log.Warn("GET gateway/bot: identifying one shard at a time", "err", err)
		return 1
	}
	return max(gb.SessionStartLimit.MaxConcurrency, 1)
}
