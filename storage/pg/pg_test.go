package pg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/internal/codec"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
	"github.com/gambitchess/gambit/storage/transfer"
)

// pgExec runs statements on the database of dsn outside any store.
func pgExec(t testing.TB, dsn string, sqls ...string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, s := range sqls {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// pgSchemaVersion reads the schema version of the database of dsn.
func pgSchemaVersion(t testing.TB, dsn string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	v, err := pgVersion(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPostgresMigratesFromAnOlderVersion(t *testing.T) {
	dsn := pgtest.DSN(t)
	// A database at version 2 (games and their indexes, nothing after), with a game.
	stmts := []string{pgSchemaTable}
	for _, m := range pgMigrations[:2] {
		stmts = append(stmts, m.sql...)
		stmts = append(stmts, fmt.Sprintf("INSERT INTO schema_migrations (version, name) VALUES (%d, 'old')", m.version))
	}
	g := testrecords.NewGame("a", "b", "c1")
	g.ID = 1
	stmts = append(stmts, fmt.Sprintf(`INSERT INTO games (id, guild_id, channel_id, white_id, black_id, live, version, record)
		VALUES (1, 'g1', 'c1', 'a', 'b', true, 0, '\x%x')`, codec.EncodeGame(g)))
	stmts = append(stmts, `SELECT setval('games_id_seq', 1)`)
	pgExec(t, dsn, stmts...)

	if _, err := Open(dsn, &Options{ReadOnly: true}); err == nil {
		t.Fatal("a read-only open of a version 2 database succeeded")
	}
	db := openPG(t, dsn)
	if v := pgSchemaVersion(t, dsn); v != bolt.SchemaVersion {
		t.Fatalf("version %d after opening, want %d", v, bolt.SchemaVersion)
	}
	if gs, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser("a", storage.Query{}) }); err != nil || len(gs) != 1 {
		t.Fatalf("the old game: %d games, %v", len(gs), err)
	}
	// The tables of later versions are there.
	if err := db.Update(t.Context(), func(tx storage.Tx) error {
		return tx.PutLadderPlayer(testrecords.LadderPlayer("g1", 3, "a", 1500, 0, 0, 0))
	}); err != nil {
		t.Fatal(err)
	}
	next := testrecords.NewGame("a", "z", "c1")
	if err := db.Commit(t.Context(), &storage.Change{Game: next}); err != nil || next.ID != 2 {
		t.Errorf("new game id %d, %v; want 2", next.ID, err)
	}
	// Opening again changes nothing.
	openPG(t, dsn)
	if v := pgSchemaVersion(t, dsn); v != bolt.SchemaVersion {
		t.Errorf("version %d after a second open", v)
	}
}

func TestPostgresRefusesANewerSchema(t *testing.T) {
	dsn := pgtest.DSN(t)
	openPG(t, dsn).Close()
	pgExec(t, dsn, fmt.Sprintf("INSERT INTO schema_migrations (version, name) VALUES (%d, 'from the future')", bolt.SchemaVersion+1))
	for _, ro := range []bool{false, true} {
		if _, err := Open(dsn, &Options{ReadOnly: ro}); !errors.Is(err, storage.ErrNewerSchema) {
			t.Errorf("read-only %v: %v, want ErrNewerSchema", ro, err)
		}
	}
}

func TestPostgresProcessesMigrateOnce(t *testing.T) {
	dsn := pgtest.DSN(t)
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := Open(dsn, nil)
			if err == nil {
				db.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("open %d: %v", i, err)
		}
	}
	if v := pgSchemaVersion(t, dsn); v != bolt.SchemaVersion {
		t.Errorf("version %d", v)
	}
}

func TestPostgresReadOnly(t *testing.T) {
	dsn := pgtest.DSN(t)
	openPG(t, dsn).Close()
	ro, err := Open(dsn, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := ro.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")}); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("commit to a read-only store: %v", err)
	}
	// A write inside a View fails too.
	if err := ro.View(t.Context(), func(tx storage.Tx) error { return tx.PutUser(storage.User{ID: "u"}) }); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("a write in a View: %v, want ErrReadOnly", err)
	}
}

func TestPostgresCheckFindsCorruptRecord(t *testing.T) {
	dsn := pgtest.DSN(t)
	db := openPG(t, dsn)
	if err := db.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")}); err != nil {
		t.Fatal(err)
	}
	if err := db.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
	pgExec(t, dsn, `UPDATE games SET record = '\x010203' WHERE id = 1`)
	if err := db.Check(t.Context()); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("Check = %v, want ErrCorrupt", err)
	}
	if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(1) }); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("Game = %v, want ErrCorrupt", err)
	}
	pgExec(t, dsn, fmt.Sprintf(`UPDATE games SET record = '\x%x', live = false WHERE id = 1`, codec.EncodeGame(testrecords.NewGame("a", "b", "c"))))
	if err := db.Check(t.Context()); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("Check of a game whose live column disagrees = %v, want ErrCorrupt", err)
	}
}

// Two stores on one database are two processes: their transactions serialize.
func TestPostgresTwoProcessesLoseNoUpdate(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := openPG(t, dsn), openPG(t, dsn)
	g := testrecords.NewGame("a", "b", "c")
	if err := a.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
		t.Fatal(err)
	}
	// 200 read-modify-write updates of one game, half from each process: each reads
	// the game and adds a draw offer to White's count.
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		st := storage.Store(a)
		if i%2 == 1 {
			st = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- st.Update(t.Context(), func(tx storage.Tx) error {
				x, err := tx.Game(g.ID)
				if err != nil {
					return err
				}
				x.DrawOffers[0]++
				return tx.PutGame(x)
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := storage.Read(t.Context(), b, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if err != nil || got.DrawOffers[0] != n || got.Version != n+1 {
		t.Fatalf("after %d increments: count %d, version %d, %v", n, got.DrawOffers[0], got.Version, err)
	}
	t.Logf("retries after serialization failures: %d and %d", a.Retries(), b.Retries())
}

func TestPostgresTwoProcessesActOncePerRequest(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := openPG(t, dsn), openPG(t, dsn)
	// The same 50 requests reach both processes at once; each creates a challenge.
	const n = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	done, repeated := 0, 0
	for i := range n {
		for _, st := range []storage.Store{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := &storage.Challenge{From: storage.Player{ID: fmt.Sprint("u", i), Name: "U"}, Status: storage.ChallengePending, Created: testrecords.T0}
				err := st.Commit(t.Context(), &storage.Change{Challenge: c, Receipt: &storage.Receipt{RequestID: fmt.Sprint("req", i), At: testrecords.T0, Effect: "challenged"}})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					done++
				case errors.Is(err, storage.ErrRepeatedRequest):
					repeated++
				default:
					t.Error(err)
				}
			}()
		}
	}
	wg.Wait()
	if done != n || repeated != n {
		t.Errorf("%d requests acted and %d were refused as repeated; want %d and %d", done, repeated, n, n)
	}
	pending, err := storage.Read(t.Context(), a, storage.Tx.PendingChallenges)
	if err != nil || len(pending) != n {
		t.Errorf("%d challenges, %v; want %d", len(pending), err, n)
	}
}

func TestPostgresTwoProcessesGetUniqueIDs(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := openPG(t, dsn), openPG(t, dsn)
	const n = 100
	ids := make([]uint64, 2*n)
	var wg sync.WaitGroup
	for i := range 2 * n {
		st := storage.Store(a)
		if i%2 == 1 {
			st = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := testrecords.NewGame(fmt.Sprint("u", i), "x", "c")
			if err := st.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
				t.Error(err)
			}
			ids[i] = g.ID
		}()
	}
	wg.Wait()
	seen := map[uint64]bool{}
	for _, id := range ids {
		if id == 0 || seen[id] {
			t.Fatalf("id %d given twice (or not at all)", id)
		}
		seen[id] = true
	}
	if total, _, _ := testrecords.CountGames(t.Context(), a); total != 2*n {
		t.Errorf("%d games, want %d", total, 2*n)
	}
}

// A game moved by one process cannot be overwritten by another's stale copy: the
// version is checked on write.
func TestPostgresStaleCopyAcrossProcesses(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := openPG(t, dsn), openPG(t, dsn)
	g := testrecords.NewGame("a", "b", "c")
	if err := a.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
		t.Fatal(err)
	}
	inB, err := storage.Read(t.Context(), b, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if err != nil {
		t.Fatal(err)
	}
	g.Moves = append(g.Moves, chesscore.NewMove(chesscore.E2, chesscore.E4))
	if err := a.Commit(t.Context(), &storage.Change{Game: g, Receipt: &storage.Receipt{RequestID: "m1", At: testrecords.T0}}); err != nil {
		t.Fatal(err)
	}
	inB.Moves = append(inB.Moves, chesscore.NewMove(chesscore.D2, chesscore.D4))
	if err := b.Commit(t.Context(), &storage.Change{Game: inB, Receipt: &storage.Receipt{RequestID: "m2", At: testrecords.T0}}); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("a move from a stale copy in the other process: %v, want ErrConflict", err)
	}
	got, _ := storage.Read(t.Context(), b, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if got.Ply() != 1 || got.Moves[0] != chesscore.NewMove(chesscore.E2, chesscore.E4) {
		t.Errorf("stored moves %v", got.Moves)
	}
}

func TestPostgresBackupWhileWriting(t *testing.T) {
	db := openPG(t, pgtest.DSN(t))
	testrecords.FillStore(t.Context(), t, db)
	for range 30 {
		if err := db.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")}); err != nil {
			t.Fatal(err)
		}
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
				if err := db.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")}); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	var buf bytes.Buffer
	n, err := db.Backup(t.Context(), &buf)
	close(stop)
	wg.Wait()
	if err != nil || n == 0 || int64(buf.Len()) != n {
		t.Fatalf("backup: %d bytes (%d written), %v", n, buf.Len(), err)
	}
	path := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	bk, err := bolt.Open(path, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	if err := bk.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
	total, _, _ := testrecords.CountGames(t.Context(), bk)
	if total < 30+len(testrecords.FillGames) {
		t.Errorf("the backup has %d games, want at least %d", total, 30+len(testrecords.FillGames))
	}
	// Every family made it: the backup's counts are the database's, but for the games
	// written after the backup's snapshot.
	want, err := transfer.CountRecords(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	got, err := transfer.CountRecords(t.Context(), bk)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if want[i].Family != "games" && want[i] != got[i] {
			t.Errorf("%s: %d in the backup, %d in the database", want[i].Family, got[i].N, want[i].N)
		}
	}
}

// openPG opens the PostgreSQL store of dsn, closed when the test ends.
func openPG(t testing.TB, dsn string) *DB {
	t.Helper()
	db, err := Open(dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
