// lease.go: the lease manager, which divides work partitions fairly between the
// processes on one store by leases that expire unless renewed.

// Package lease divides background work (deadlines and the like) between processes:
// the work is split into partitions by server id, and each process holds, by renewed
// leases kept in a shared Table, a fair share of the partitions. A process that stops
// renewing loses its leases when they expire and the others take them over; each
// takeover increases the partition's epoch (a fencing token).
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
	// Renew extends holder's unexpired lease of epoch on partition to now+ttl, and
	// reports whether it still held it.
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
)

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
}

// Manager holds this process's fair share of the partitions. Its methods are called
// from one goroutine (the one that ticks it).
type Manager struct {
	t    Table
	opts Options
	held map[int]Lease
}

// New returns a manager holding nothing until its first Tick.
func New(t Table, opts Options) *Manager {
	if opts.Partitions <= 0 {
		opts.Partitions = DefaultPartitions
	}
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	return &Manager{t: t, opts: opts, held: map[int]Lease{}}
}

// Partition returns the partition of a server id among n partitions (FNV-1a).
func Partition(guildID string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(guildID))
	return int(h.Sum32() % uint32(n))
}

// Interval is how often Tick should run: a third of the lease's lifetime.
func (m *Manager) Interval() time.Duration { return m.opts.TTL / 3 }

// Holds reports whether the manager held partition at its last Tick.
func (m *Manager) Holds(partition int) bool { _, ok := m.held[partition]; return ok }

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
// up to it.
func (m *Manager) Tick(now time.Time) error {
	if err := m.t.Beat(m.opts.Instance, now); err != nil {
		return fmt.Errorf("lease beat of %s: %w", m.opts.Instance, err)
	}
	for _, p := range m.Held() {
		l, ok, err := m.t.Renew(p, m.opts.Instance, m.held[p].Epoch, now, m.opts.TTL)
		if err != nil {
			return fmt.Errorf("renew lease %d: %w", p, err)
		}
		if ok {
			m.held[p] = l
		} else {
			m.lose(p)
		}
	}
	live, err := m.t.Live(now.Add(-m.opts.TTL))
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
	taken := map[int]bool{}
	for _, l := range leases {
		if now.Before(l.Expires) {
			taken[l.Partition] = true
		}
	}
	for p := 0; p < m.opts.Partitions && len(m.held) < share; p++ {
		if taken[p] || m.Holds(p) {
			continue
		}
		l, ok, err := m.t.Acquire(p, m.opts.Instance, now, m.opts.TTL)
		if err != nil {
			return fmt.Errorf("acquire lease %d: %w", p, err)
		}
		if ok {
			m.held[p] = l
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
