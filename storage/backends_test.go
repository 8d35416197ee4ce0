package storage

import (
	"path/filepath"
	"testing"

	"github.com/gambitchess/gambit/storage/internal/pgtest"
)

// backend is a store of one backend for one test: open opens it (the same file or
// schema each time), closed when the test ends.
type backend struct {
	name string
	open func(t testing.TB) Store
}

// eachBackend runs fn as a subtest per backend: bbolt in a temporary file, PostgreSQL
// in a fresh schema of the test cluster (skipped without one, unless required).
func eachBackend(t *testing.T, fn func(t *testing.T, b backend)) {
	t.Run("bbolt", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "gambit.db")
		fn(t, backend{"bbolt", func(t testing.TB) Store {
			t.Helper()
			db, err := Open(path, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}})
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.DSN(t)
		fn(t, backend{"postgres", func(t testing.TB) Store {
			t.Helper()
			return openPG(t, dsn)
		}})
	})
}

// openPG opens the PostgreSQL store of dsn, closed when the test ends.
func openPG(t testing.TB, dsn string) *Postgres {
	t.Helper()
	db, err := OpenPostgres(dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// forEachBackend runs fn as a subtest per backend with a fresh store.
func forEachBackend(t *testing.T, fn func(t *testing.T, db Store)) {
	eachBackend(t, func(t *testing.T, b backend) { fn(t, b.open(t)) })
}

// checkStore runs the backend's consistency check.
func checkStore(t testing.TB, db Store) {
	t.Helper()
	c, ok := db.(interface{ Check() error })
	if !ok {
		t.Fatalf("%T has no Check", db)
	}
	if err := c.Check(); err != nil {
		t.Error(err)
	}
}
