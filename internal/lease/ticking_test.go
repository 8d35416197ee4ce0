// Tests of the helpers around a Manager on a store's real lease table (bbolt).

package lease_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// epoch is the instant the tests' leases are taken at.
var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// TestAnyFree: a partition is free when never taken, released or expired; leases of
// partitions beyond the count (a shard count that shrank) do not count.
func TestAnyFree(t *testing.T) {
	const n, ttl = 4, 9 * time.Second
	tests := []struct {
		name string
		// set prepares the table at epoch.
		set  func(tab lease.Table) error
		at   time.Duration
		free bool
	}{
		{"never taken", func(lease.Table) error { return nil }, 0, true},
		{"all held", takeAll(n, 0), time.Second, false},
		{"one expired", takeAll(n, 0), ttl, true},
		{"one released", func(tab lease.Table) error {
			if err := takeAll(n, 0)(tab); err != nil {
				return err
			}
			l, err := tab.Leases()
			if err != nil {
				return err
			}
			return tab.Release(2, "a", l[2].Epoch)
		}, time.Second, true},
		{"one of n missing, one beyond n", func(tab lease.Table) error {
			if err := takeAll(n-1, 0)(tab); err != nil {
				return err
			}
			_, _, err := tab.Acquire(n, "a", epoch, ttl)
			return err
		}, time.Second, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab := storage.LeaseTable(storagetest.Open(t), storage.LeaseSetShards)
			if err := tc.set(tab); err != nil {
				t.Fatal(err)
			}
			if free, err := lease.AnyFree(tab, n, epoch.Add(tc.at)); err != nil || free != tc.free {
				t.Errorf("free %v, %v; want %v", free, err, tc.free)
			}
		})
	}
}

// takeAll takes partitions 0 to n-1 for "a" at epoch (plus at) for 9 s.
func takeAll(n int, at time.Duration) func(lease.Table) error {
	return func(tab lease.Table) error {
		for p := range n {
			if _, ok, err := tab.Acquire(p, "a", epoch.Add(at), 9*time.Second); err != nil || !ok {
				return fmt.Errorf("take %d: %v, %w", p, ok, err)
			}
		}
		return nil
	}
}
