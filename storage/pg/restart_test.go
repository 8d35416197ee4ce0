package pg

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

// TestPostgresRestartUnderLoad: writers commit games while the server restarts
// (pg_ctl restart -m fast). Every commit acknowledged before, during or after the
// restart is in the database afterwards, and the same store, never reopened, commits
// again within a few seconds of the server's return.
func TestPostgresRestartUnderLoad(t *testing.T) {
	c := pgtest.StartCluster(t)
	db, err := Open(c.DSN, &Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	var (
		mu    sync.Mutex
		acked []uint64
		fails atomic.Int64
		stop  = make(chan struct{})
		wg    sync.WaitGroup
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				ch := &storage.Change{Game: testrecords.NewGame("a", "b", "c")}
				err := db.Commit(ctx, ch)
				cancel()
				if err != nil {
					fails.Add(1)
					time.Sleep(10 * time.Millisecond)
					continue
				}
				mu.Lock()
				acked = append(acked, ch.Game.ID)
				mu.Unlock()
			}
		}()
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(acked) }
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for !cond() {
			if time.Now().After(deadline) {
				close(stop)
				wg.Wait()
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("commits before the restart", func() bool { return count() >= 50 })
	c.Restart()
	back := time.Now()
	before := count()
	waitFor("a commit after the restart", func() bool { return count() > before })
	recovered := time.Since(back)
	waitFor("more commits after the restart", func() bool { return count() >= before+50 })
	close(stop)
	wg.Wait()
	t.Logf("%d commits acknowledged, %d failed around the restart; the first commit after it took %v", count(), fails.Load(), recovered)
	if recovered > 10*time.Second {
		t.Errorf("the store took %v after the server was back to commit again", recovered)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stored, err := storage.Read(ctx, db, storage.Tx.OpenGames)
	if err != nil {
		t.Fatal(err)
	}
	have := make(map[uint64]bool, len(stored))
	for _, g := range stored {
		have[g.ID] = true
	}
	lost := 0
	for _, id := range acked {
		if !have[id] {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d acknowledged commits are missing after the restart", lost, len(acked))
	}
}
