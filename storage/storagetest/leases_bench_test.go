package storagetest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
	"github.com/gambitchess/gambit/storage/pg"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

// BenchmarkLeaseTick measures one lease manager's tick holding all 64 partitions (a
// beat, 64 renewals, the live instances) on each backend with durable writes: the
// work a process does every 3 s, and how long its leases go unrenewed meanwhile.
func BenchmarkLeaseTick(b *testing.B) {
	run := func(b *testing.B, st storage.Store) {
		m := lease.New(storage.LeaseTable(st, storage.LeaseSetGames), lease.Options{Instance: "bench"})
		now := testrecords.T0
		if err := m.Tick(now); err != nil || len(m.Held()) != lease.DefaultPartitions {
			b.Fatalf("first tick: %d held, %v", len(m.Held()), err)
		}
		b.ResetTimer()
		start := time.Now()
		for b.Loop() {
			now = now.Add(time.Second)
			if err := m.Tick(now); err != nil {
				b.Fatal(err)
			}
		}
		elapsed := time.Since(start)
		b.ReportMetric(float64(elapsed)/float64(time.Millisecond)/float64(b.N), "ms/tick")
		b.ReportMetric(float64(b.N*lease.DefaultPartitions)/elapsed.Seconds(), "renewals/s")
	}
	b.Run("bbolt", func(b *testing.B) {
		db, err := bolt.Open(filepath.Join(b.TempDir(), "gambit.db"), nil) // fsync on
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		run(b, db)
	})
	b.Run("postgres", func(b *testing.B) {
		db, err := pg.Open(pgtest.DSN(b), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		run(b, db)
	})
}
