// backends.go: the backends as the conformance suite sees them.

package storagetest

import (
	"path/filepath"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

// Backend is one backend for the conformance suite (Conformance).
type Backend struct {
	// Name names the backend ("bbolt", "postgres").
	Name string
	// MultiProcess is true when several processes may have the store open at once
	// (PostgreSQL): the suite then opens it more than once, as processes do.
	MultiProcess bool
	// New makes a new, empty store for test t and returns how to open it: every call
	// opens that same store (again), and the test's end closes what it opened.
	New func(t testing.TB) (open func(t testing.TB) storage.Store)
}

// Bolt is the bbolt backend: a file in the test's temporary directory, without fsync.
func Bolt() Backend {
	return Backend{Name: "bbolt", New: func(t testing.TB) func(t testing.TB) storage.Store {
		path := filepath.Join(t.TempDir(), "gambit.db")
		return func(t testing.TB) storage.Store {
			t.Helper()
			return OpenFile(t, path, &bolt.Options{NoSync: true})
		}
	}}
}

// Postgres is the PostgreSQL backend: a fresh schema of the test cluster. Without a
// cluster the test is skipped, or fails when GAMBIT_TEST_REQUIRE_POSTGRES is 1.
func Postgres() Backend {
	return Backend{Name: "postgres", MultiProcess: true, New: func(t testing.TB) func(t testing.TB) storage.Store {
		dsn := pgtest.DSN(t)
		return func(t testing.TB) storage.Store {
			t.Helper()
			return OpenPostgresDSN(t, dsn, nil)
		}
	}}
}

// backend is a store of one backend for one test: open opens it (the same file or
// schema each time), closed when the test ends.
type backend struct {
	name         string
	multiProcess bool
	open         func(t testing.TB) storage.Store
}

// eachBackend runs fn with a new store of be.
func eachBackend(t *testing.T, be Backend, fn func(t *testing.T, b backend)) {
	t.Helper()
	fn(t, backend{be.Name, be.MultiProcess, be.New(t)})
}

// forEachBackend runs fn with a new store of be, open.
func forEachBackend(t *testing.T, be Backend, fn func(t *testing.T, db storage.Store)) {
	t.Helper()
	fn(t, be.New(t)(t))
}
