// lease_table.go: LeaseTable, the lease.Table of one lease set over a Store: the rules
// of taking, renewing and releasing a partition, each one transaction.

package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
)

// LeaseTable returns the lease.Table of a lease set (LeaseSetGames, LeaseSetShards,
// LeaseSetIdentify) kept in st, for a lease.Manager. Each Acquire, Renew and Release is
// atomic across the processes sharing the store: on PostgreSQL it is one statement
// that reads and writes the partition's row under its row lock (storage/pg), so
// processes renewing their own partitions never fail to serialize with one another;
// on bbolt it reads and writes the lease in one write transaction. Of two processes
// taking one free partition at once exactly one gets it, and a renewal with a stale
// epoch never extends a lease another process took since. The instants are the
// callers' (the processes' clocks must agree to well under the lease's lifetime).
func LeaseTable(st Store, set string) lease.Table { return &leaseTable{st: st, set: set} }

// AtomicLeases are a backend's own atomic lease operations (PostgreSQL's single
// statements), used instead of a read and a write in a transaction.
type AtomicLeases interface {
	AcquireLease(ctx context.Context, set string, partition int, holder string, now time.Time, ttl time.Duration) (lease.Lease, bool, error)
	RenewLease(ctx context.Context, set string, partition int, holder string, epoch uint64, now time.Time, ttl time.Duration) (lease.Lease, bool, error)
	ReleaseLease(ctx context.Context, set string, partition int, holder string, epoch uint64) error
	LeaseBeat(ctx context.Context, set, holder string, now time.Time) error
}

// LeaseOpTimeout bounds each operation of a LeaseTable: the lease.Table surface takes no
// context, and a lease operation that cannot finish in a third of the default lease's
// life (lease.DefaultTTL) is of no use to the manager, which tries again next tick.
const LeaseOpTimeout = lease.DefaultTTL / 3

// leaseOpContext is the context of one lease operation: background work with its own
// deadline, so a stalled database fails the operation instead of hanging the tick.
func leaseOpContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), LeaseOpTimeout)
}

// leaseTable is LeaseTable's Table.
type leaseTable struct {
	st  Store
	set string
}

// Leases returns every partition's lease of the set.
func (t *leaseTable) Leases() ([]lease.Lease, error) {
	ctx, cancel := leaseOpContext()
	defer cancel()
	return Read(ctx, t.st, func(tx Tx) ([]lease.Lease, error) { return tx.Leases(t.set) })
}

// storedLease reads a partition's lease; found is false for one never taken.
func (t *leaseTable) storedLease(tx LeasesTx, partition int) (l lease.Lease, found bool, err error) {
	l, err = tx.Lease(t.set, partition)
	if errors.Is(err, ErrNotFound) {
		return lease.Lease{Partition: partition}, false, nil
	}
	return l, err == nil, err
}

// Acquire takes partition for holder until now+ttl if it is free (never taken,
// released or expired) or already holder's; a lease passing to holder from anyone,
// or from holder's own expired or released lease, gets the next epoch.
func (t *leaseTable) Acquire(partition int, holder string, now time.Time, ttl time.Duration) (lease.Lease, bool, error) {
	ctx, cancel := leaseOpContext()
	defer cancel()
	if s, isStmt := t.st.(AtomicLeases); isStmt {
		l, ok, err := s.AcquireLease(ctx, t.set, partition, holder, now, ttl)
		if err != nil {
			return lease.Lease{}, false, fmt.Errorf("acquire lease %s/%d for %s: %w", t.set, partition, holder, err)
		}
		return l, ok, nil
	}
	var got lease.Lease
	var ok bool
	err := t.st.Update(ctx, func(tx Tx) error {
		l, found, err := t.storedLease(tx, partition)
		if err != nil {
			return err
		}
		held := found && now.Before(l.Expires)
		if held && l.Holder != holder {
			got, ok = l, false
			return nil
		}
		if !held {
			l.Epoch++
		}
		l.Holder, l.Expires = holder, now.Add(ttl)
		if err := tx.PutLease(t.set, l); err != nil {
			return err
		}
		got, ok = l, true
		return nil
	})
	if err != nil {
		return lease.Lease{}, false, fmt.Errorf("acquire lease %s/%d for %s: %w", t.set, partition, holder, err)
	}
	return got, ok, nil
}

// Renew extends holder's unexpired lease of epoch to now+ttl; a lease that expired, was
// released or passed to another epoch is not renewed.
func (t *leaseTable) Renew(partition int, holder string, epoch uint64, now time.Time, ttl time.Duration) (lease.Lease, bool, error) {
	ctx, cancel := leaseOpContext()
	defer cancel()
	if s, isStmt := t.st.(AtomicLeases); isStmt {
		l, ok, err := s.RenewLease(ctx, t.set, partition, holder, epoch, now, ttl)
		if err != nil {
			return lease.Lease{}, false, fmt.Errorf("renew lease %s/%d for %s: %w", t.set, partition, holder, err)
		}
		return l, ok, nil
	}
	var got lease.Lease
	var ok bool
	err := t.st.Update(ctx, func(tx Tx) error {
		l, found, err := t.storedLease(tx, partition)
		if err != nil {
			return err
		}
		if !found || l.Holder != holder || l.Epoch != epoch || !now.Before(l.Expires) {
			got, ok = l, false
			return nil
		}
		l.Expires = now.Add(ttl)
		if err := tx.PutLease(t.set, l); err != nil {
			return err
		}
		got, ok = l, true
		return nil
	})
	if err != nil {
		return lease.Lease{}, false, fmt.Errorf("renew lease %s/%d for %s: %w", t.set, partition, holder, err)
	}
	return got, ok, nil
}

// Release ends holder's lease of epoch at once (its expiry becomes the zero instant);
// a lease another holder or epoch has is left alone.
func (t *leaseTable) Release(partition int, holder string, epoch uint64) error {
	ctx, cancel := leaseOpContext()
	defer cancel()
	if s, isStmt := t.st.(AtomicLeases); isStmt {
		if err := s.ReleaseLease(ctx, t.set, partition, holder, epoch); err != nil {
			return fmt.Errorf("release lease %s/%d of %s: %w", t.set, partition, holder, err)
		}
		return nil
	}
	err := t.st.Update(ctx, func(tx Tx) error {
		l, found, err := t.storedLease(tx, partition)
		if err != nil || !found || l.Holder != holder || l.Epoch != epoch {
			return err
		}
		l.Expires = time.Time{}
		return tx.PutLease(t.set, l)
	})
	if err != nil {
		return fmt.Errorf("release lease %s/%d of %s: %w", t.set, partition, holder, err)
	}
	return nil
}

// Beat records holder's beat in the set.
func (t *leaseTable) Beat(holder string, now time.Time) error {
	ctx, cancel := leaseOpContext()
	defer cancel()
	beat := func() error {
		return t.st.Update(ctx, func(tx Tx) error { return tx.PutLeaseBeat(t.set, holder, now) })
	}
	if s, isStmt := t.st.(AtomicLeases); isStmt {
		beat = func() error { return s.LeaseBeat(ctx, t.set, holder, now) }
	}
	if err := beat(); err != nil {
		return fmt.Errorf("lease beat of %s in %s: %w", holder, t.set, err)
	}
	return nil
}

// Live returns the instances of the set whose last beat is after since.
func (t *leaseTable) Live(since time.Time) ([]string, error) {
	ctx, cancel := leaseOpContext()
	defer cancel()
	beats, err := Read(ctx, t.st, func(tx Tx) ([]InstanceBeat, error) { return tx.LeaseBeats(t.set) })
	if err != nil {
		return nil, err
	}
	var live []string
	for _, b := range beats {
		if b.At.After(since) {
			live = append(live, b.Instance)
		}
	}
	return live, nil
}
