// Package storagetest opens throwaway stores for tests: one helper instead of a copy in
// every test file. ForEachBackend runs a test on each backend: a bbolt file and a
// schema of the PostgreSQL test cluster (GAMBIT_TEST_POSTGRES_DSN; without it the
// PostgreSQL subtest is skipped, or fails when GAMBIT_TEST_REQUIRE_POSTGRES is 1).
//
// It also holds the conformance suite, what every backend must do whatever its database
// (Conformance, conformance.go and the files it runs): the tests of storage/bolt and
// storage/pg run it on their backend (Bolt, Postgres).
package storagetest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/pg"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

// Open opens a store in a new file of the test's temporary directory, without fsync
// (tests that measure durability open their own with OpenFile), closed when the test
// ends.
func Open(t testing.TB) *bolt.DB {
	t.Helper()
	return OpenFile(t, filepath.Join(t.TempDir(), "gambit.db"), &bolt.Options{NoSync: true})
}

// OpenFile opens (creating it if needed) the store in the file at path with opts (nil:
// the production settings) and closes it when the test ends; a test that reopens the
// file, to restart its services, may close it before (closing twice is harmless). An
// error fails the test.
func OpenFile(t testing.TB, path string, opts *bolt.Options) *bolt.DB {
	t.Helper()
	db, err := bolt.Open(path, opts)
	if err != nil {
		t.Fatalf("open the test store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// CountGames returns the number of games in st and how many of them are live; an error
// fails the test.
func CountGames(t testing.TB, st storage.Store) (total, live int) {
	t.Helper()
	err := st.View(t.Context(), func(tx storage.Tx) (err error) {
		total, live, err = tx.CountGames()
		return err
	})
	if err != nil {
		t.Fatalf("count the games: %v", err)
	}
	return total, live
}

// OpenPostgres opens a store in a new, empty schema of the PostgreSQL test cluster,
// closed (and the schema dropped) when the test ends. Without a cluster the test is
// skipped, or fails when GAMBIT_TEST_REQUIRE_POSTGRES is 1.
func OpenPostgres(t testing.TB) *pg.DB {
	t.Helper()
	return OpenPostgresDSN(t, PostgresDSN(t), nil)
}

// PostgresDSN returns the DSN of a new, empty schema of the PostgreSQL test cluster,
// dropped when the test ends: for tests that open it more than once (two processes, a
// restart). Without a cluster the test is skipped, or fails when
// GAMBIT_TEST_REQUIRE_POSTGRES is 1.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	return pgtest.DSN(t)
}

// OpenPostgresDSN opens the store of dsn with opts, closed when the test ends; an
// error fails the test.
func OpenPostgresDSN(t testing.TB, dsn string, opts *pg.Options) *pg.DB {
	t.Helper()
	db, err := pg.Open(dsn, opts)
	if err != nil {
		t.Fatalf("open the PostgreSQL test store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// ForEachBackend runs fn as one subtest per backend ("bbolt", "postgres"), each with a
// fresh store (bbolt without fsync).
func ForEachBackend(t *testing.T, fn func(t *testing.T, st storage.Store)) {
	t.Helper()
	t.Run("bbolt", func(t *testing.T) { fn(t, Open(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, OpenPostgres(t)) })
}

// LeaseHolders counts the unexpired leases of the lease set (storage.LeaseSetShards, ...)
// that each holder has in db. It stops the test if the leases cannot be read.
func LeaseHolders(t testing.TB, db storage.Store, set string) map[string]int {
	t.Helper()
	leases, err := storage.LeaseTable(db, set).Leases()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, l := range leases {
		if time.Now().Before(l.Expires) {
			out[l.Holder]++
		}
	}
	return out
}
