package pg

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

// TestPostgresLeaseRenewalsNeverRetry: processes renewing their own partitions at once
// never fail to serialize with one another (each renewal is one statement under its
// row's lock), so a tick's renewals are never delayed by retries.
func TestPostgresLeaseRenewalsNeverRetry(t *testing.T) {
	dsn := pgtest.DSN(t)
	const procs, each, rounds = 4, 16, 5
	stores := make([]*DB, procs)
	for i := range stores {
		stores[i] = openPG(t, dsn)
	}
	var wg sync.WaitGroup
	for i, st := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tab := storage.LeaseTable(st, storage.LeaseSetGames)
			name := fmt.Sprintf("p%d", i)
			epochs := map[int]uint64{}
			for p := i * each; p < (i+1)*each; p++ {
				l, ok, err := tab.Acquire(p, name, testrecords.T0, 9*time.Second)
				if err != nil || !ok {
					t.Errorf("%s acquire %d: %v, %v", name, p, ok, err)
					return
				}
				epochs[p] = l.Epoch
			}
			for r := range rounds {
				now := testrecords.T0.Add(time.Duration(r+1) * 3 * time.Second)
				if err := tab.Beat(name, now); err != nil {
					t.Error(err)
					return
				}
				for p, e := range epochs {
					if _, ok, err := tab.Renew(p, name, e, now, 9*time.Second); err != nil || !ok {
						t.Errorf("%s renew %d: %v, %v", name, p, ok, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	for i, st := range stores {
		if n := st.Retries(); n != 0 {
			t.Errorf("process %d ran %d lease transactions again", i, n)
		}
	}
}
