// leases.go: the lease records (partition leases and the beats of the instances that
// hold them, by lease set) and their checks, shared by both backends.

package storage

import (
	"fmt"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
)

// Lease sets name what a set of partitions divides: LeaseSetGames the deadlines and
// other background work of the servers (64 partitions by server id), LeaseSetShards
// the gateway shards (a partition per shard), LeaseSetIdentify the gateway's identify
// buckets (a partition per bucket, each taken for the 5 s of one identify). Each set has
// its own leases and its own beats, so a process may withdraw from one set
// (lease.Manager.Close) and stay in the others.
const (
	LeaseSetGames    = "games"
	LeaseSetShards   = "shards"
	LeaseSetIdentify = "identify"
)

// MaxLeasePartitions bounds a lease's partition number (0 to MaxLeasePartitions-1):
// the bbolt key holds it in two bytes.
const MaxLeasePartitions = 1 << 16

// InstanceBeat is the last beat of one instance in a lease set.
type InstanceBeat struct {
	// Instance is the process's name (config `instance`).
	Instance string
	// At is the instant of its last beat; zero once it withdrew (lease.Manager.Close).
	At time.Time
}

// CheckLeaseSet refuses a lease set name the store cannot key.
func CheckLeaseSet(set string) error {
	if set == "" || len(set) > MaxIDLen {
		return fmt.Errorf("lease set %q: a name of 1 to %d bytes", set, MaxIDLen)
	}
	return nil
}

// CheckLease refuses a lease the store cannot keep.
func CheckLease(set string, l lease.Lease) error {
	if err := CheckLeaseSet(set); err != nil {
		return err
	}
	if l.Partition < 0 || l.Partition >= MaxLeasePartitions {
		return fmt.Errorf("lease %s/%d: partition out of range (0 to %d)", set, l.Partition, MaxLeasePartitions-1)
	}
	if l.Holder == "" || len(l.Holder) > MaxIDLen {
		return fmt.Errorf("lease %s/%d: holder %q: a name of 1 to %d bytes", set, l.Partition, l.Holder, MaxIDLen)
	}
	if l.Epoch == 0 || l.Epoch > 1<<63-1 {
		return fmt.Errorf("lease %s/%d: epoch %d out of range", set, l.Partition, l.Epoch)
	}
	return nil
}

// CheckBeat refuses an instance name the store cannot key.
func CheckBeat(set, instance string) error {
	if err := CheckLeaseSet(set); err != nil {
		return err
	}
	if instance == "" || len(instance) > MaxIDLen {
		return fmt.Errorf("beat of %q in %s: a name of 1 to %d bytes", instance, set, MaxIDLen)
	}
	return nil
}
