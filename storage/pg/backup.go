// backup.go: backups of the PostgreSQL backend: a bbolt file of the same records,
// so /backup and the scheduled copies work whatever the backend (pg_dump remains the
// tool for the database itself).

package pg

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/transfer"
)

// Backup writes a bbolt file holding every record of the database, as of one snapshot
// (writers go on meanwhile), and returns the bytes written: the file a bbolt backend
// opens, and gambit migrate copies back. It is built in a temporary directory first,
// beside w when w is a file (a backup's directory has room for a copy, while the
// shipped container image has no system temporary directory at all), else in the
// system's.
func (db *DB) Backup(ctx context.Context, w io.Writer) (int64, error) {
	dir, err := os.MkdirTemp(stageDir(w), ".gambit-backup-")
	if err != nil {
		return 0, fmt.Errorf("back up %s: stage the copy: %w", db.name, err)
	}
	defer os.RemoveAll(dir)
	ctx = storage.LongRunning(ctx)
	path := filepath.Join(dir, "gambit.db")
	file, err := bolt.Open(path, &bolt.Options{NoSync: true, SoloCommits: true})
	if err != nil {
		return 0, fmt.Errorf("back up %s: %w", db.name, err)
	}
	_, err = transfer.Copy(ctx, file, db)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("back up %s: %w", db.name, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("back up %s: %w", db.name, err)
	}
	defer f.Close()
	n, err := io.Copy(w, f)
	if err != nil {
		return n, fmt.Errorf("back up %s: %w", db.name, err)
	}
	return n, nil
}

// stageDir is where Backup builds its copy: the directory of w when w is a named file,
// else "" (the system's temporary directory).
func stageDir(w io.Writer) string {
	f, ok := w.(interface{ Name() string })
	if !ok || f.Name() == "" {
		return ""
	}
	return filepath.Dir(f.Name())
}
