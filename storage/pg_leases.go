// pg_leases.go: the leases of partitions and the beats of their holders in the
// PostgreSQL backend (tables leases and lease_beats), and the list of every instance's
// heartbeat.

package storage

import (
	"fmt"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
	"github.com/jackc/pgx/v5"
)

// Lease reads a set's lease of a partition.
func (t *pgTx) Lease(set string, partition int) (lease.Lease, error) {
	if err := checkLeaseSet(set); err != nil {
		return lease.Lease{}, err
	}
	l := lease.Lease{Partition: partition}
	var expires, epoch int64
	ok, err := t.scanOne(`SELECT holder, expires, epoch FROM leases WHERE lease_set = $1 AND partition = $2`,
		[]any{set, partition}, &l.Holder, &expires, &epoch)
	if err != nil {
		return lease.Lease{}, fmt.Errorf("lease %s/%d: %w", set, partition, err)
	}
	if !ok {
		return lease.Lease{}, fmt.Errorf("lease %s/%d: %w", set, partition, ErrNotFound)
	}
	l.Expires, l.Epoch = fromUnixNanos(expires), uint64(epoch)
	return l, nil
}

// Leases reads a set's leases in partition order.
func (t *pgTx) Leases(set string) ([]lease.Lease, error) {
	if err := checkLeaseSet(set); err != nil {
		return nil, err
	}
	var out []lease.Lease
	err := t.each(`SELECT partition, holder, expires, epoch FROM leases WHERE lease_set = $1 ORDER BY partition`,
		[]any{set}, func(r pgx.Rows) error {
			var l lease.Lease
			var expires, epoch int64
			if err := r.Scan(&l.Partition, &l.Holder, &expires, &epoch); err != nil {
				return err
			}
			l.Expires, l.Epoch = fromUnixNanos(expires), uint64(epoch)
			out = append(out, l)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("leases of %s: %w", set, err)
	}
	return out, nil
}

// PutLease writes a set's lease.
func (t *pgTx) PutLease(set string, l lease.Lease) error {
	if err := checkLease(set, l); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO leases (lease_set, partition, holder, expires, epoch) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (lease_set, partition) DO UPDATE SET holder = excluded.holder, expires = excluded.expires, epoch = excluded.epoch`,
		set, l.Partition, l.Holder, unixNanos(l.Expires), int64(l.Epoch))
	if err != nil {
		return fmt.Errorf("lease %s/%d: %w", set, l.Partition, err)
	}
	return nil
}

// LeaseBeats reads the beats of a set's instances in instance order.
func (t *pgTx) LeaseBeats(set string) ([]InstanceBeat, error) {
	if err := checkLeaseSet(set); err != nil {
		return nil, err
	}
	var out []InstanceBeat
	err := t.each(`SELECT instance, at FROM lease_beats WHERE lease_set = $1 ORDER BY instance`, []any{set},
		func(r pgx.Rows) error {
			var b InstanceBeat
			var ns int64
			if err := r.Scan(&b.Instance, &ns); err != nil {
				return err
			}
			b.At = fromUnixNanos(ns)
			out = append(out, b)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("lease beats of %s: %w", set, err)
	}
	return out, nil
}

// PutLeaseBeat records an instance's beat in a set.
func (t *pgTx) PutLeaseBeat(set, instance string, at time.Time) error {
	if err := checkBeat(set, instance); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO lease_beats (lease_set, instance, at) VALUES ($1, $2, $3)
		ON CONFLICT (lease_set, instance) DO UPDATE SET at = excluded.at`, set, instance, unixNanos(at))
	if err != nil {
		return fmt.Errorf("lease beat of %s in %s: %w", instance, set, err)
	}
	return nil
}

// Heartbeats lists every instance's last heartbeat in instance order.
func (t *pgTx) Heartbeats() ([]InstanceBeat, error) {
	var out []InstanceBeat
	err := t.eachHeartbeat(func(instance string, at time.Time) error {
		out = append(out, InstanceBeat{Instance: instance, At: at})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("heartbeats: %w", err)
	}
	return out, nil
}
