// backup.go: consistent hot copies of the bbolt file.

package bolt

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	bbolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the whole file to w from one read transaction:
// writers go on committing meanwhile, and the copy is the store as of the moment the
// backup began. It returns the number of bytes written.
func (db *DB) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("back up %s: %w", db.path, err)
	}
	var n int64
	err := db.bbolt.View(func(tx *bbolt.Tx) (err error) {
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("back up %s: %w", db.path, err)
	}
	return n, nil
}

// BackupFile writes a consistent copy of the store to path: into a temporary file in the
// same directory, synced, then renamed over path, so path is never a partial copy. It
// refuses to overwrite the store's own file.
func (db *DB) BackupFile(ctx context.Context, path string) (int64, error) {
	if same, _ := sameFile(path, db.path); same {
		return 0, fmt.Errorf("back up %s: the output is the database itself", db.path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return 0, fmt.Errorf("back up %s: %w", db.path, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	n, err := db.Backup(ctx, tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return 0, fmt.Errorf("back up %s to %s: %w", db.path, path, err)
	}
	return n, nil
}

func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}
