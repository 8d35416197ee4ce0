// lease.go: the lease manager, which divides work partitions fairly between the
// processes on one store by leases that expire unless renewed.

// Package lease divides background work (deadlines and the like) between processes:
// the work is split into partitions by server id, and each process holds, by renewed
// leases kept in a shared Table, a fair share of the partitions. A process that stops
// renewing loses its leases when they expire and the others take them over; each
// takeover increases the partition's epoch (a fencing token).
//
// # Owning is bounded on the holder's side
//
// A store's lease says who holds a partition until when, by the clocks of the
// processes; a holder must not act on it longer than the store keeps it. So a Manager
// notes, on its own monotonic clock, the instant just before it sends each take or
// renewal, stamps the request with the wall-clock instant of that moment (not the
// tick's start: a slow tick's late renewals are stamped late), and owns the partition
// (Owns) only until that instant plus the lease's lifetime minus a safety margin. A
// process paused (SIGSTOP), slowed or stuck in a store call stops owning when its time
// is up, whatever its last tick said, and before another process may take the lease in
// the store (as long as the processes' wall clocks agree within the margin). A renewal
// that could not reach the store leaves the lease held but, once its time is up, not
// owned; a later renewal of the same epoch (nobody took it meanwhile) makes it owned
// again (OnResume), without a loss and a gain.
package lease

import (
	"fmt"
	"hash/fnv"
	"sort"
	"time"
)

// Lease is one partition's lease.
type Lease struct {
	// Partition is the partition's number, 0 to Partitions-1.
	Partition int
	// Holder is the instance holding the lease.
	Holder string
	// Expires is the instant the lease ends unless renewed; a released lease has the
	// zero instant.
	Expires time.Time
	// Epoch increases each time the lease passes to a new holder.
	Epoch uint64
}

// Held reports whether the lease is held by holder at now.
func (l Lease) Held(holder string, now time.Time) bool {
	return l.Holder == holder && now.Before(l.Expires)
}

// Table is the shared store of leases and of the processes' liveness.
type Table interface {
	// Leases returns every partition's lease ever taken, in any order.
	Leases() ([]Lease, error)
	// Acquire takes partition for holder until now+ttl if it is free, expired or
	// already holder's, and reports whether it did; a new holder gets a greater epoch.
	Acquire(partition int, holder string, now time.Time, ttl time.Duration) (Lease, bool, error)
	// Renew extends holder's lease of epoch on partition to now+ttl, and reports
	// whether it still held it: the lease is holder's at that epoch and was not
	// released (an expired one nobody took since renews: its epoch shows that nobody
	// held it meanwhile).
	Renew(partition int, holder string, epoch uint64, now time.Time, ttl time.Duration) (Lease, bool, error)
	// Release gives up holder's lease of epoch on partition (nothing if it is not held).
	Release(partition int, holder string, epoch uint64) error
	// Beat records that holder is alive at now (the zero instant: no longer alive).
	Beat(holder string, now time.Time) error
	// Live returns the holders whose last beat is after since.
	Live(since time.Time) ([]string, error)
}

// Defaults of Options.
const (
	DefaultPartitions = 64
	DefaultTTL        = 9 * time.Second
	// DefaultMargin is how long before its lease's end in the store a holder stops
	// owning a partition: it covers the disagreement of the processes' wall clocks
	// (each corrected to the database's at start, serve's clock check) and the time
	// between an Owns and the store call it leads to.
	DefaultMargin = 2 * time.Second
)

// processStart is the origin of Monotonic.
var processStart = time.Now()

// Monotonic returns the time elapsed on the process's monotonic clock since the
// package was loaded: it does not jump when the wall clock is set, and it runs on
// while the process is stopped (SIGSTOP), so a lease's time runs out during a pause.
func Monotonic() time.Duration { return time.Since(processStart) }

// Options configures a Manager.
type Options struct {
	// Instance is this process's name (config `instance`).
	Instance string
	// Partitions is the number of partitions (DefaultPartitions if 0).
	Partitions int
	// TTL is a lease's lifetime (DefaultTTL if 0); Tick should run every TTL/3.
	TTL time.Duration
	// OnGain, if set, is called when the manager takes a partition.
	OnGain func(partition int, epoch uint64)
	// OnLoss, if set, is called when the manager loses or gives up a partition.
	OnLoss func(partition int)
	// OnResume, if set, is called when a partition held but no longer owned (its time
	// ran out before a renewal got through) is renewed at the same epoch: owned again.
	OnResume func(partition int)
	// Margin is how long before the end of a lease the holder stops owning it
	// (DefaultMargin if 0; less than TTL).
	Margin time.Duration
	// Monotonic is the holder's monotonic clock (Monotonic if nil); tests pass a clock
	// of their own.
	Monotonic func() time.Duration
}

// Manager holds this process's fair share of the partitions. Its methods are called
// from one goroutine (the one that ticks it).
type Manager struct {
	t    Table
	opts Options
	held map[int]Lease
	// until is, for each partition held, the instant on opts.Monotonic up to which it
	// is owned: the last accepted take or renewal's sending instant + TTL - Margin.
	until map[int]time.Duration
}

// New returns a manager holding nothing until its first Tick.
func New(t Table, opts Options) *Manager {
	if opts.Partitions <= 0 {
		opts.Partitions = DefaultPartitions
	}
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	if opts.Margin <= 0 {
		opts.Margin = DefaultMargin
	}
	if opts.Margin >= opts.TTL {
		opts.Margin = opts.TTL / 2
	}
	if opts.Monotonic == nil {
		opts.Monotonic = Monotonic
	}
	return &Manager{t: t, opts: opts, held: map[int]Lease{}, until: map[int]time.Duration{}}
}

// Partition returns the partition of a server id among n partitions (FNV-1a).
func Partition(guildID string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(guildID))
	return int(h.Sum32() % uint32(n))
}

// Interval is how often Tick should run: a third of the lease's lifetime.
func (m *Manager) Interval() time.Duration { return m.opts.TTL / 3 }

// Holds reports whether the manager held partition at its last Tick (owned or not:
// see Owns).
func (m *Manager) Holds(partition int) bool { _, ok := m.held[partition]; return ok }

// Until returns the instant, on the manager's monotonic clock (Options.Monotonic), up
// to which partition is owned, and false when it is not held.
func (m *Manager) Until(partition int) (time.Duration, bool) {
	u, ok := m.until[partition]
	return u, ok
}

// Owns reports whether partition is held and its time is not up on the manager's
// monotonic clock: the one answer a holder may act on.
func (m *Manager) Owns(partition int) bool {
	u, ok := m.until[partition]
	return ok && m.opts.Monotonic() < u
}

// Elapsed returns the manager's monotonic clock (Options.Monotonic), the clock of Until.
func (m *Manager) Elapsed() time.Duration { return m.opts.Monotonic() }

// Held returns the partitions held at the last Tick, in order.
func (m *Manager) Held() []int {
	out := make([]int, 0, len(m.held))
	for p := range m.held {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}

// Tick beats, renews the leases held (dropping those lost), gives up those beyond the
// fair share (ceil(partitions / live instances)) and takes free or expired partitions
// up to it. now is the wall-clock instant of the tick's start: each store call is
// stamped with now plus the monotonic time elapsed since, the instant it is sent.
func (m *Manager) Tick(now time.Time) error {
	start := m.opts.Monotonic()
	// stamp returns the instant of a call about to be sent, on both clocks.
	stamp := func() (time.Time, time.Duration) {
		mono := m.opts.Monotonic()
		return now.Add(mono - start), mono
	}
	at, _ := stamp()
	if err := m.t.Beat(m.opts.Instance, at); err != nil {
		return fmt.Errorf("lease beat of %s: %w", m.opts.Instance, err)
	}
	for _, p := range m.Held() {
		at, sent := stamp()
		lapsed := sent >= m.until[p]
		l, ok, err := m.t.Renew(p, m.opts.Instance, m.held[p].Epoch, at, m.opts.TTL)
		if err != nil {
			return fmt.Errorf("renew lease %d: %w", p, err)
		}
		if !ok {
			m.lose(p)
			continue
		}
		m.held[p], m.until[p] = l, sent+m.opts.TTL-m.opts.Margin
		if lapsed && m.opts.OnResume != nil {
			m.opts.OnResume(p)
		}
	}
	at, _ = stamp()
	live, err := m.t.Live(at.Add(-m.opts.TTL))
	if err != nil {
		return fmt.Errorf("live instances: %w", err)
	}
	n := max(len(live), 1)
	share := (m.opts.Partitions + n - 1) / n
	for held := m.Held(); len(held) > share; held = held[:len(held)-1] {
		p := held[len(held)-1]
		if err := m.t.Release(p, m.opts.Instance, m.held[p].Epoch); err != nil {
			return fmt.Errorf("release lease %d: %w", p, err)
		}
		m.lose(p)
	}
	if len(m.held) >= share {
		return nil
	}
	leases, err := m.t.Leases()
	if err != nil {
		return fmt.Errorf("read leases: %w", err)
	}
	at, _ = stamp()
	taken := map[int]bool{}
	for _, l := range leases {
		if at.Before(l.Expires) {
			taken[l.Partition] = true
		}
	}
	for p := 0; p < m.opts.Partitions && len(m.held) < share; p++ {
		if taken[p] || m.Holds(p) {
			continue
		}
		at, sent := stamp()
		l, ok, err := m.t.Acquire(p, m.opts.Instance, at, m.opts.TTL)
		if err != nil {
			return fmt.Errorf("acquire lease %d: %w", p, err)
		}
		if ok {
			m.held[p], m.until[p] = l, sent+m.opts.TTL-m.opts.Margin
			if m.opts.OnGain != nil {
				m.opts.OnGain(p, l.Epoch)
			}
		}
	}
	return nil
}

// lose forgets partition p and reports it.
func (m *Manager) lose(p int) {
	delete(m.held, p)
	delete(m.until, p)
	if m.opts.OnLoss != nil {
		m.opts.OnLoss(p)
	}
}

// Close releases every lease held and withdraws the instance from the live ones (a
// zero beat), so the others take its partitions at their next Tick.
func (m *Manager) Close() error {
	for _, p := range m.Held() {
		if err := m.t.Release(p, m.opts.Instance, m.held[p].Epoch); err != nil {
			return fmt.Errorf("release lease %d: %w", p, err)
		}
		m.lose(p)
	}
	if err := m.t.Beat(m.opts.Instance, time.Time{}); err != nil {
		return fmt.Errorf("withdraw %s: %w", m.opts.Instance, err)
	}
	return nil
}
