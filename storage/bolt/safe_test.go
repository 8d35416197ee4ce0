// Tests that a damaged bbolt file is an error, never a panic: opening, reading, writing
// and checking it.

package bolt

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// damagedStore writes a store with n games, then overwrites the header of the page
// that pick chooses (given the raw bbolt file, open read-only; nil: none), and returns
// the path.
func damagedStore(t *testing.T, n int, pick func(tx *bbolt.Tx) uint64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damaged.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		g := &storage.Game{White: storage.Player{ID: "a", Name: strings.Repeat("w", 120)}, Black: storage.Player{ID: "b"}, Control: clock.TimeControl{Untimed: true}}
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if pick == nil {
		return path
	}
	raw, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var page uint64
	pageSize := raw.Info().PageSize
	raw.View(func(tx *bbolt.Tx) error { page = pick(tx); return nil })
	raw.Close()
	if page < 2 {
		t.Fatalf("picked page %d", page)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A page header: id (8 bytes), flags (2), count (2), overflow (4). Garbage flags and
	// a huge count: what a torn write or a bad sector leaves.
	hdr := make([]byte, 16)
	binary.LittleEndian.PutUint64(hdr, page)
	binary.LittleEndian.PutUint16(hdr[8:], 0x7777)
	binary.LittleEndian.PutUint16(hdr[10:], 0xffff)
	if _, err := f.WriteAt(hdr, int64(page)*int64(pageSize)); err != nil {
		t.Fatal(err)
	}
	return path
}

// gamesRoot is the root page of the games bucket.
func gamesRoot(tx *bbolt.Tx) uint64 { return uint64(tx.Bucket([]byte(bucketGames)).Root()) }

// rootPage is the page of the root bucket, which names every bucket.
func rootPage(tx *bbolt.Tx) uint64 { return uint64(tx.Cursor().Bucket().Root()) }

func TestDamagedPageIsAnErrorNotAPanic(t *testing.T) {
	path := damagedStore(t, 300, gamesRoot)
	db, err := Open(path, nil)
	if err != nil {
		t.Fatalf("the games' page is damaged, not the schema: Open = %v", err)
	}
	defer db.Close()
	err = db.View(t.Context(), func(tx storage.Tx) error { _, err := tx.Game(1); return err })
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "gambit check") {
		t.Errorf("reading a game on a damaged page = %v, want ErrCorrupt naming gambit check", err)
	}
	err = db.Commit(t.Context(), &storage.Change{Game: &storage.Game{White: storage.Player{ID: "a"}, Black: storage.Player{ID: "b"}, Control: clock.TimeControl{Untimed: true}}})
	if !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("writing a game beside a damaged page = %v, want ErrCorrupt", err)
	}
	// The store still answers what does not touch the page.
	if err := db.View(t.Context(), func(tx storage.Tx) error { _, err := tx.Guilds(); return err }); err != nil {
		t.Errorf("reading the guilds: %v", err)
	}
	res, err := db.CheckFile()
	if err != nil {
		t.Fatal(err)
	}
	if res.OK() || !strings.Contains(strings.Join(res.Problems, "\n"), "bucket games") {
		t.Errorf("check found %q", res.Problems)
	}
	if err := db.Check(t.Context()); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("Check = %v, want ErrCorrupt", err)
	}
}

func TestDamagedRootIsAnOpenError(t *testing.T) {
	path := damagedStore(t, 10, rootPage)
	for _, ro := range []bool{false, true} {
		db, err := Open(path, &Options{ReadOnly: ro})
		if err == nil {
			db.Close()
			t.Fatalf("read-only %t: Open of a store whose root page is damaged succeeded", ro)
		}
		if !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("read-only %t: Open = %v, want ErrCorrupt", ro, err)
		}
	}
}

func TestCheckOfAHealthyStore(t *testing.T) {
	path := damagedStore(t, 5, nil)
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.CheckFile()
	if err != nil || !res.OK() {
		t.Fatalf("CheckFile = %+v, %v", res, err)
	}
	if res.Records[bucketGames] != 5 || res.Records[bucketLiveGames] != 5 {
		t.Errorf("records %v", res.Records)
	}
}
