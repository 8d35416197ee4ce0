package storagetest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

func TestOpenGivesAFreshStoreClosedAtTheEnd(t *testing.T) {
	var db *bolt.DB
	t.Run("use", func(t *testing.T) {
		db = Open(t)
		g := &storage.Game{White: storage.Player{ID: "a"}, Black: storage.Player{ID: "b"}}
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil || g.ID != 1 {
			t.Fatalf("commit to a fresh store: id %d, %v", g.ID, err)
		}
	})
	// The subtest's cleanup closed the store.
	if err := db.View(t.Context(), func(storage.Tx) error { return nil }); err == nil {
		t.Error("the store is still open after its test ended")
	}
}

func TestOpenFileReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	db := OpenFile(t, path, nil)
	g := &storage.Game{White: storage.Player{ID: "a"}, Black: storage.Player{ID: "b"}}
	if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	again := OpenFile(t, path, &bolt.Options{ReadOnly: true})
	got, err := storage.Read(t.Context(), again, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if err != nil || got.White.ID != "a" {
		t.Errorf("reopened: %+v, %v", got, err)
	}
	if err := again.Commit(t.Context(), &storage.Change{Game: g}); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("write to a read-only reopen: %v, want ErrReadOnly", err)
	}
}

func TestForEachBackendGivesFreshStores(t *testing.T) {
	var names []string
	ForEachBackend(t, func(t *testing.T, st storage.Store) {
		names = append(names, t.Name())
		if total, _ := CountGames(t, st); total != 0 {
			t.Fatalf("a fresh store holds %d games", total)
		}
		g := &storage.Game{White: storage.Player{ID: "a"}, Black: storage.Player{ID: "b"}}
		if err := st.Commit(t.Context(), &storage.Change{Game: g}); err != nil || g.ID != 1 {
			t.Fatalf("commit: id %d, %v", g.ID, err)
		}
	})
	want := 1 // bbolt; PostgreSQL too when a test cluster is there (else its subtest skips)
	if os.Getenv(pgtest.EnvDSN) != "" {
		want = 2
	}
	if len(names) != want {
		t.Errorf("ran %v, want %d backends", names, want)
	}
}

func TestPostgresDSNOpensTheSameStoreTwice(t *testing.T) {
	dsn := PostgresDSN(t)
	a := OpenPostgresDSN(t, dsn, nil)
	b := OpenPostgresDSN(t, dsn, nil)
	g := &storage.Game{White: storage.Player{ID: "a"}, Black: storage.Player{ID: "b"}}
	if err := a.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
		t.Fatal(err)
	}
	if total, _ := CountGames(t, b); total != 1 {
		t.Errorf("the second store sees %d games, want 1", total)
	}
}
