package bolt

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func OpenTemp(t testing.TB, opts *Options) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "gambit.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// schemaVersion reads the schema version of the open file.
func schemaVersion(db *DB) (v int, err error) {
	err = db.bbolt.View(func(tx *bbolt.Tx) (err error) {
		v, err = readVersion(tx)
		return err
	})
	return v, err
}

func TestSecondOpenFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	_, err = Open(path, &Options{LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, storage.ErrLocked) {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("second open took %v", d)
	}
	if want := "in use by another process"; !bytes.Contains([]byte(err.Error()), []byte(want)) {
		t.Errorf("message %q does not say %q", err, want)
	}
}

// writeV1 writes a file in schema version 1: record buckets, no indexes.
func writeV1(t *testing.T, path string, games []*storage.Game, challenges []*storage.Challenge) {
	t.Helper()
	b, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	err = b.Update(func(tx *bbolt.Tx) error {
		if err := migrations[0].up(tx); err != nil {
			return err
		}
		for i, g := range games {
			g.ID = uint64(i + 1)
			if err := tx.Bucket([]byte(bucketGames)).Put(codec.IDKey(g.ID), codec.EncodeGame(g)); err != nil {
				return err
			}
		}
		tx.Bucket([]byte(bucketGames)).SetSequence(uint64(len(games)))
		for i, c := range challenges {
			c.ID = uint64(i + 1)
			v, _ := codec.EncodeJSON(c)
			tx.Bucket([]byte(bucketChallenges)).Put(codec.IDKey(c.ID), v)
		}
		tx.Bucket([]byte(bucketChallenges)).SetSequence(uint64(len(challenges)))
		r, _ := codec.EncodeJSON(&storage.Receipt{At: testrecords.T0, Effect: "moved"})
		tx.Bucket([]byte(bucketRequests)).Put([]byte("old"), r)
		return writeVersion(tx, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMigrateFromV0(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v0.db")
	b, err := bbolt.Open(path, 0o600, nil) // an empty bbolt file: version 0
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, err := schemaVersion(db); err != nil || v != SchemaVersion {
		t.Fatalf("version %d, %v", v, err)
	}
	if err := db.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")}); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	finished := testrecords.NewGame("a", "b", "c1")
	finished.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Checkmate}
	writeV1(t, path, []*storage.Game{testrecords.NewGame("a", "b", "c1"), finished, testrecords.NewGame("b", "c", "c2")},
		[]*storage.Challenge{
			{From: storage.Player{ID: "a", Name: "A"}, Control: testrecords.MustTC(t, "5+0"), Status: storage.ChallengePending, Created: testrecords.T0},
			{From: storage.Player{ID: "a", Name: "A"}, Control: testrecords.MustTC(t, "5+0"), Status: storage.ChallengeDeclined, Created: testrecords.T0},
		})

	// A read-only open refuses to run migrations.
	if _, err := Open(path, &Options{ReadOnly: true}); err == nil {
		t.Fatal("read-only open of a version 1 file succeeded")
	}
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := schemaVersion(db); v != SchemaVersion {
		t.Fatalf("version %d after migration", v)
	}
	open, _ := storage.Read(t.Context(), db, storage.Tx.OpenGames)
	if got := testrecords.IDs(open); !reflect.DeepEqual(got, []uint64{1, 3}) {
		t.Errorf("open games %v, want [1 3]", got)
	}
	byA, _ := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("a", storage.Query{}) })
	if got := testrecords.IDs(byA); !reflect.DeepEqual(got, []uint64{2, 1}) {
		t.Errorf("games of a %v, want [2 1]", got)
	}
	inC2, _ := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesInChannel("c2", storage.Query{}) })
	if got := testrecords.IDs(inC2); !reflect.DeepEqual(got, []uint64{3}) {
		t.Errorf("games in c2 %v", got)
	}
	pend, _ := storage.Read(t.Context(), db, storage.Tx.PendingChallenges)
	if len(pend) != 1 || pend[0].ID != 1 {
		t.Errorf("pending challenges %+v", pend)
	}
	if n, err := storage.Write(t.Context(), db, func(tx storage.Tx) (int, error) { return tx.PruneReceipts(testrecords.T0.Add(time.Second)) }); n != 1 || err != nil {
		t.Errorf("pruned %d old receipts, %v: the by-time index was not built", n, err)
	}
	// New ids continue after the old ones.
	g := testrecords.NewGame("a", "z", "c1")
	if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil || g.ID != 4 {
		t.Errorf("new game id %d, %v", g.ID, err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "future.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.bbolt.Update(func(tx *bbolt.Tx) error { return writeVersion(tx, SchemaVersion+1) })
	db.Close()
	if _, err := Open(path, nil); !errors.Is(err, storage.ErrNewerSchema) {
		t.Fatalf("err = %v, want ErrNewerSchema", err)
	}
}

func TestBackupWhileWriting(t *testing.T) {
	dir := t.TempDir()
	db := OpenTemp(t, nil)
	for range 50 {
		db.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")})
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // writers go on during the backup
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				db.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")})
			}
		}
	}()
	out := filepath.Join(dir, "backup.db")
	n, err := db.BackupFile(t.Context(), out)
	close(stop)
	wg.Wait()
	if err != nil || n == 0 {
		t.Fatalf("backup: %d bytes, %v", n, err)
	}
	if _, err := db.BackupFile(t.Context(), db.path); err == nil {
		t.Error("backed up over the database itself")
	}
	bk, err := Open(out, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	if err := bk.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
	total, _, _ := testrecords.CountGames(t.Context(), bk)
	if total < 50 {
		t.Errorf("backup has %d games, want at least 50", total)
	}
	if err := bk.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")}); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("write to a read-only store: %v", err)
	}
}

func TestCheckFindsCorruptRecord(t *testing.T) {
	db := OpenTemp(t, nil)
	db.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")})
	db.bbolt.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket([]byte(bucketGames)).Put(codec.IDKey(1), []byte{1, 2, 3})
	})
	if err := db.Check(t.Context()); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("Check = %v, want ErrCorrupt", err)
	}
	if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(1) }); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("Game = %v, want ErrCorrupt", err)
	}
}

func TestGroupCommitIsolatesFailures(t *testing.T) {
	for _, mode := range []Options{{}, {BoltBatch: true}} {
		db := OpenTemp(t, &mode)
		const n = 60
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := &storage.Change{Game: testrecords.NewGame(fmt.Sprint("u", i), "x", "c")}
				switch i % 10 {
				case 3:
					c.After = func(storage.Tx) error { return errors.New("refused") }
				case 7:
					c.After = func(storage.Tx) error { panic("bad hook") }
				}
				errs[i] = db.Commit(t.Context(), c)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if bad := i%10 == 3 || i%10 == 7; (err != nil) != bad {
				t.Errorf("BoltBatch %v: change %d: err %v", mode.BoltBatch, i, err)
			}
		}
		gs, _ := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("x", storage.Query{}) })
		if len(gs) != n-n/5 {
			t.Errorf("BoltBatch %v: %d games committed, want %d", mode.BoltBatch, len(gs), n-n/5)
		}
	}
}
