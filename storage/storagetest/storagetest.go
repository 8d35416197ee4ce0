// Package storagetest opens throwaway stores for tests: one helper instead of a copy in
// every test file.
package storagetest

import (
	"path/filepath"
	"testing"

	"github.com/gambitchess/gambit/storage"
)

// Open opens a store in a new file of the test's temporary directory, without fsync
// (tests that measure durability open their own with OpenFile), closed when the test
// ends.
func Open(t testing.TB) *storage.DB {
	t.Helper()
	return OpenFile(t, filepath.Join(t.TempDir(), "gambit.db"), &storage.Options{NoSync: true})
}

// OpenFile opens (creating it if needed) the store in the file at path with opts (nil:
// the production settings) and closes it when the test ends; a test that reopens the
// file, to restart its services, may close it before (closing twice is harmless). An
// error fails the test.
func OpenFile(t testing.TB, path string, opts *storage.Options) *storage.DB {
	t.Helper()
	db, err := storage.Open(path, opts)
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
	err := st.View(func(tx storage.Tx) (err error) {
		total, live, err = tx.CountGames()
		return err
	})
	if err != nil {
		t.Fatalf("count the games: %v", err)
	}
	return total, live
}
