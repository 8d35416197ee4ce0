package bolt

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

// TestCommitAbandonedInTheQueueIsNeverWritten: a commit whose context ends while it
// waits behind a running group transaction returns the context's error at once, and
// its change is not written when the queue moves on: its caller was told it failed.
func TestCommitAbandonedInTheQueueIsNeverWritten(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "gambit.db"), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	inside, release := make(chan struct{}), make(chan struct{})
	holder := make(chan error, 1)
	go func() { // holds the committer inside its transaction
		holder <- db.Update(context.Background(), func(storage.Tx) error {
			close(inside)
			<-release
			return nil
		})
	}()
	<-inside
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	late := &storage.Change{Game: testrecords.NewGame("a", "b", "late")}
	if err := db.Commit(ctx, late); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a commit queued past its deadline returned %v", err)
	}
	if late.Game.ID != 0 {
		t.Errorf("the abandoned commit kept the id %d", late.Game.ID)
	}
	close(release)
	if err := <-holder; err != nil {
		t.Fatal(err)
	}
	if err := db.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "next")}); err != nil {
		t.Fatal(err)
	}
	games, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) {
		return tx.GamesInChannel("late", storage.Query{})
	})
	if err != nil || len(games) != 0 {
		t.Errorf("the abandoned commit was written: %d games, %v", len(games), err)
	}
	if err := db.View(ctx, func(storage.Tx) error { return nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a read with an ended context: %v", err)
	}
}
