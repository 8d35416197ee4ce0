// ticking.go: what every holder of leases on a Table does around its Manager: release
// what a crashed run of the same instance left held, tick on time and at once when a
// partition is free.

package lease

import (
	"context"
	"time"
)

// Reclaim releases the unexpired leases of t held under instance at now, and returns
// how many it released. A process of that name that crashed held them (names are
// unique to a process), and a Manager takes only free partitions, so without this a
// process restarted at once would wait for its own leases to expire before running
// their work. Released, they are free for the new Manager's first tick, at a greater
// epoch.
func Reclaim(t Table, instance string, now time.Time) (int, error) {
	leases, err := t.Leases()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, l := range leases {
		if l.Held(instance, now) {
			if err := t.Release(l.Partition, instance, l.Epoch); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// AnyFree reports whether one of t's first n partitions is held by nobody at now:
// never taken, released or expired.
func AnyFree(t Table, n int, now time.Time) (bool, error) {
	leases, err := t.Leases()
	if err != nil {
		return false, err
	}
	held := 0
	for _, l := range leases {
		if l.Partition < n && now.Before(l.Expires) {
			held++
		}
	}
	return held < n, nil
}

// Poll is how often Loop looks, between its ticks, for a partition nobody holds (a
// dead process's lease expired, or a stopped one's released): it ticks at once when it
// finds one, so a dead process's partitions are taken within a second of their expiry
// rather than within a tick interval.
const Poll = time.Second

// Loop runs tick every interval (a Manager's Interval), and sooner when free reports a
// partition nobody holds (looked at every Poll), until ctx ends. An error of free waits
// for the tick at its interval, which tries the store again.
func Loop(ctx context.Context, interval time.Duration, free func() (bool, error), tick func()) {
	t := time.NewTicker(Poll)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		due := time.Since(last) >= interval-Poll/2
		if !due {
			f, err := free()
			due = err == nil && f
		}
		if due {
			last = time.Now()
			tick()
		}
	}
}
