// leases.go: the leases of partitions and the beats of their holders in the
// PostgreSQL backend (tables leases and lease_beats), and the list of every instance's
// heartbeat.

package pg

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// Lease reads a set's lease of a partition.
func (t *pgTx) Lease(set string, partition int) (lease.Lease, error) {
	if err := storage.CheckLeaseSet(set); err != nil {
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
		return lease.Lease{}, fmt.Errorf("lease %s/%d: %w", set, partition, storage.ErrNotFound)
	}
	l.Expires, l.Epoch = codec.FromUnixNanos(expires), uint64(epoch)
	return l, nil
}

// Leases reads a set's leases in partition order.
func (t *pgTx) Leases(set string) ([]lease.Lease, error) {
	if err := storage.CheckLeaseSet(set); err != nil {
		return nil, err
	}
	var out []lease.Lease
	err := t.Each(`SELECT partition, holder, expires, epoch FROM leases WHERE lease_set = $1 ORDER BY partition`,
		[]any{set}, func(r pgx.Rows) error {
			var l lease.Lease
			var expires, epoch int64
			if err := r.Scan(&l.Partition, &l.Holder, &expires, &epoch); err != nil {
				return err
			}
			l.Expires, l.Epoch = codec.FromUnixNanos(expires), uint64(epoch)
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
	if err := storage.CheckLease(set, l); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO leases (lease_set, partition, holder, expires, epoch) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (lease_set, partition) DO UPDATE SET holder = excluded.holder, expires = excluded.expires, epoch = excluded.epoch`,
		set, l.Partition, l.Holder, codec.UnixNanos(l.Expires), int64(l.Epoch))
	if err != nil {
		return fmt.Errorf("lease %s/%d: %w", set, l.Partition, err)
	}
	return nil
}

// LeaseBeats reads the beats of a set's instances in instance order.
func (t *pgTx) LeaseBeats(set string) ([]storage.InstanceBeat, error) {
	if err := storage.CheckLeaseSet(set); err != nil {
		return nil, err
	}
	var out []storage.InstanceBeat
	err := t.Each(`SELECT instance, at FROM lease_beats WHERE lease_set = $1 ORDER BY instance`, []any{set},
		func(r pgx.Rows) error {
			var b storage.InstanceBeat
			var ns int64
			if err := r.Scan(&b.Instance, &ns); err != nil {
				return err
			}
			b.At = codec.FromUnixNanos(ns)
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
	if err := storage.CheckBeat(set, instance); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO lease_beats (lease_set, instance, at) VALUES ($1, $2, $3)
		ON CONFLICT (lease_set, instance) DO UPDATE SET at = excluded.at`, set, instance, codec.UnixNanos(at))
	if err != nil {
		return fmt.Errorf("lease beat of %s in %s: %w", instance, set, err)
	}
	return nil
}

// Heartbeats lists every instance's last heartbeat in instance order.
func (t *pgTx) Heartbeats() ([]storage.InstanceBeat, error) {
	var out []storage.InstanceBeat
	err := t.EachHeartbeat(func(instance string, at time.Time) error {
		out = append(out, storage.InstanceBeat{Instance: instance, At: at})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("heartbeats: %w", err)
	}
	return out, nil
}

// The PostgreSQL backend takes and renews leases in single statements.
var _ storage.AtomicLeases = (*DB)(nil)

// pgLeaseTx runs the lease statements: each is one statement that reads and writes
// one row under its row lock, atomic at READ COMMITTED (a concurrent writer of the row
// waits, and the statement's condition is checked again on the row it commits), so
// processes renewing their own partitions never fail to serialize with one another.
var pgLeaseTx = pgx.TxOptions{IsoLevel: pgx.ReadCommitted, AccessMode: pgx.ReadWrite}

// scanLease scans holder, expires and epoch into l.
func scanLease(l *lease.Lease) []any {
	return []any{&l.Holder, (*nanosScan)(&l.Expires), (*epochScan)(&l.Epoch)}
}

// nanosScan scans a bigint of unix nanoseconds (0: the zero instant) into a time.
type nanosScan time.Time

// ScanInt64 implements pgtype.Int64Scanner.
func (n *nanosScan) ScanInt64(v pgtype.Int8) error {
	*n = nanosScan(codec.FromUnixNanos(v.Int64))
	return nil
}

// epochScan scans a bigint into an epoch.
type epochScan uint64

// ScanInt64 implements pgtype.Int64Scanner.
func (e *epochScan) ScanInt64(v pgtype.Int8) error {
	*e = epochScan(v.Int64)
	return nil
}

// AcquireLease is LeaseTable's Acquire in one statement: the row is inserted, or
// updated where it is holder's or no longer held, with the next epoch unless holder
// still held it.
func (db *DB) AcquireLease(ctx context.Context, set string, partition int, holder string, now time.Time, ttl time.Duration) (lease.Lease, bool, error) {
	if err := storage.CheckLease(set, lease.Lease{Partition: partition, Holder: holder, Epoch: 1}); err != nil {
		return lease.Lease{}, false, err
	}
	if db.readOnly {
		return lease.Lease{}, false, storage.ErrReadOnly
	}
	var got lease.Lease
	var ok bool
	err := db.run(ctx, pgLeaseTx, func(tx storage.Tx) error {
		t := tx.(*pgTx)
		got = lease.Lease{Partition: partition}
		var err error
		ok, err = t.scanOne(`INSERT INTO leases AS l (lease_set, partition, holder, expires, epoch) VALUES ($1, $2, $3, $4, 1)
			ON CONFLICT (lease_set, partition) DO UPDATE SET holder = excluded.holder, expires = excluded.expires,
				epoch = CASE WHEN l.holder = excluded.holder AND l.expires > $5 THEN l.epoch ELSE l.epoch + 1 END
			WHERE l.holder = excluded.holder OR l.expires <= $5
			RETURNING holder, expires, epoch`,
			[]any{set, partition, holder, codec.UnixNanos(now.Add(ttl)), codec.UnixNanos(now)}, scanLease(&got)...)
		if err != nil || ok {
			return err
		}
		got, err = t.Lease(set, partition) // held by another: what it holds
		return err
	})
	if err != nil {
		return lease.Lease{}, false, err
	}
	return got, ok, nil
}

// RenewLease is LeaseTable's Renew in one statement.
func (db *DB) RenewLease(ctx context.Context, set string, partition int, holder string, epoch uint64, now time.Time, ttl time.Duration) (lease.Lease, bool, error) {
	if err := storage.CheckLeaseSet(set); err != nil {
		return lease.Lease{}, false, err
	}
	if db.readOnly {
		return lease.Lease{}, false, storage.ErrReadOnly
	}
	var got lease.Lease
	var ok bool
	err := db.run(ctx, pgLeaseTx, func(tx storage.Tx) error {
		t := tx.(*pgTx)
		got = lease.Lease{Partition: partition}
		var err error
		ok, err = t.scanOne(`UPDATE leases SET expires = $5
			WHERE lease_set = $1 AND partition = $2 AND holder = $3 AND epoch = $4 AND expires > $6
			RETURNING holder, expires, epoch`,
			[]any{set, partition, holder, int64(epoch), codec.UnixNanos(now.Add(ttl)), codec.UnixNanos(now)}, scanLease(&got)...)
		if err != nil || ok {
			return err
		}
		if got, err = t.Lease(set, partition); errors.Is(err, storage.ErrNotFound) {
			got, err = lease.Lease{Partition: partition}, nil
		}
		return err
	})
	if err != nil {
		return lease.Lease{}, false, err
	}
	return got, ok, nil
}

// ReleaseLease is LeaseTable's Release in one statement.
func (db *DB) ReleaseLease(ctx context.Context, set string, partition int, holder string, epoch uint64) error {
	if err := storage.CheckLeaseSet(set); err != nil {
		return err
	}
	if db.readOnly {
		return storage.ErrReadOnly
	}
	return db.run(ctx, pgLeaseTx, func(tx storage.Tx) error {
		_, err := tx.(*pgTx).exec(`UPDATE leases SET expires = 0
			WHERE lease_set = $1 AND partition = $2 AND holder = $3 AND epoch = $4`, set, partition, holder, int64(epoch))
		return err
	})
}

// LeaseBeat is LeaseTable's Beat: one upsert.
func (db *DB) LeaseBeat(ctx context.Context, set, holder string, now time.Time) error {
	if db.readOnly {
		return storage.ErrReadOnly
	}
	return db.run(ctx, pgLeaseTx, func(tx storage.Tx) error { return tx.PutLeaseBeat(set, holder, now) })
}
