package pg

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

// TestPostgresBackupStagesBesideItsFile: the shipped container image has no system
// temporary directory, so a backup into a file builds its copy beside that file; it
// works with TMPDIR naming nothing, and leaves only the backup behind.
func TestPostgresBackupStagesBesideItsFile(t *testing.T) {
	db := openPG(t, pgtest.DSN(t))
	if err := db.Commit(t.Context(), &storage.Change{Game: testrecords.NewGame("a", "b", "c")}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Setenv("TMPDIR", filepath.Join(dir, "no-such-directory"))
	out := filepath.Join(dir, "backup.db")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	n, err := db.Backup(t.Context(), f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || n == 0 {
		t.Fatalf("backup with no system temporary directory: %d bytes, %v", n, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "backup.db" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the backup directory holds %v, want only backup.db", names)
	}
	bk, err := bolt.Open(out, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	if total, _, err := testrecords.CountGames(t.Context(), bk); err != nil || total != 1 {
		t.Errorf("the backup holds %d games (%v), want 1", total, err)
	}
}
