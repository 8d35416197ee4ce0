// leases.go: the leases of partitions and the beats of their holders in the bbolt
// backend, and the list of every instance's heartbeat.
//
//	leases       len·set · 2-byte partition → 8-byte epoch · 8-byte expiry (unix ns, 0 =
//	             released) · holder
//	lease_beats  len·set · instance → 8-byte unix ns (0 = withdrawn)

package bolt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

func leaseKey(set string, partition int) []byte {
	return binary.BigEndian.AppendUint16(guildPrefix(set), uint16(partition))
}

func encodeLease(l lease.Lease) []byte {
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 16+len(l.Holder)), l.Epoch)
	v = binary.BigEndian.AppendUint64(v, uint64(codec.UnixNanos(l.Expires)))
	return append(v, l.Holder...)
}

// decodeLease reads a lease record of the leases bucket.
func decodeLease(k, v []byte) (lease.Lease, error) {
	if len(k) < 1 || int(k[0])+1+2 != len(k) {
		return lease.Lease{}, fmt.Errorf("%w: lease key %x", storage.ErrCorrupt, k)
	}
	if len(v) < 17 {
		return lease.Lease{}, fmt.Errorf("%w: lease %x is %d bytes", storage.ErrCorrupt, k, len(v))
	}
	l := lease.Lease{
		Partition: int(binary.BigEndian.Uint16(k[len(k)-2:])),
		Epoch:     binary.BigEndian.Uint64(v),
		Expires:   codec.FromUnixNanos(int64(binary.BigEndian.Uint64(v[8:]))),
		Holder:    string(v[16:]),
	}
	if l.Epoch == 0 {
		return lease.Lease{}, fmt.Errorf("%w: lease %x has epoch 0", storage.ErrCorrupt, k)
	}
	return l, nil
}

// decodeLeaseBeat reads a record of the lease_beats bucket.
func decodeLeaseBeat(k, v []byte) (storage.InstanceBeat, error) {
	if len(k) < 2 || int(k[0])+1 >= len(k) {
		return storage.InstanceBeat{}, fmt.Errorf("%w: lease beat key %x", storage.ErrCorrupt, k)
	}
	if len(v) != 8 {
		return storage.InstanceBeat{}, fmt.Errorf("%w: lease beat %x is %d bytes", storage.ErrCorrupt, k, len(v))
	}
	return storage.InstanceBeat{Instance: string(k[1+int(k[0]):]), At: codec.FromUnixNanos(int64(binary.BigEndian.Uint64(v)))}, nil
}

// Lease reads a set's lease of a partition.
func (t boltTx) Lease(set string, partition int) (lease.Lease, error) {
	if err := storage.CheckLeaseSet(set); err != nil {
		return lease.Lease{}, err
	}
	if partition < 0 || partition >= storage.MaxLeasePartitions {
		return lease.Lease{}, fmt.Errorf("lease %s/%d: %w", set, partition, storage.ErrNotFound)
	}
	k := leaseKey(set, partition)
	v := t.tx.Bucket([]byte(bucketLeases)).Get(k)
	if v == nil {
		return lease.Lease{}, fmt.Errorf("lease %s/%d: %w", set, partition, storage.ErrNotFound)
	}
	return decodeLease(k, v)
}

// Leases reads a set's leases in partition order.
func (t boltTx) Leases(set string) ([]lease.Lease, error) {
	if err := storage.CheckLeaseSet(set); err != nil {
		return nil, err
	}
	var out []lease.Lease
	prefix := guildPrefix(set)
	c := t.tx.Bucket([]byte(bucketLeases)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		l, err := decodeLease(k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// PutLease writes a set's lease.
func (t boltTx) PutLease(set string, l lease.Lease) error {
	if err := storage.CheckLease(set, l); err != nil {
		return err
	}
	return t.tx.Bucket([]byte(bucketLeases)).Put(leaseKey(set, l.Partition), encodeLease(l))
}

// LeaseBeats reads the beats of a set's instances in instance order.
func (t boltTx) LeaseBeats(set string) ([]storage.InstanceBeat, error) {
	if err := storage.CheckLeaseSet(set); err != nil {
		return nil, err
	}
	var out []storage.InstanceBeat
	prefix := guildPrefix(set)
	c := t.tx.Bucket([]byte(bucketLeaseBeats)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		b, err := decodeLeaseBeat(k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// PutLeaseBeat records an instance's beat in a set.
func (t boltTx) PutLeaseBeat(set, instance string, at time.Time) error {
	if err := storage.CheckBeat(set, instance); err != nil {
		return err
	}
	k := append(guildPrefix(set), instance...)
	return t.tx.Bucket([]byte(bucketLeaseBeats)).Put(k, binary.BigEndian.AppendUint64(nil, uint64(codec.UnixNanos(at))))
}

// Heartbeats lists every instance's last heartbeat in instance order.
func (t boltTx) Heartbeats() ([]storage.InstanceBeat, error) {
	var out []storage.InstanceBeat
	err := t.EachHeartbeat(func(instance string, at time.Time) error {
		out = append(out, storage.InstanceBeat{Instance: instance, At: at})
		return nil
	})
	return out, err
}
