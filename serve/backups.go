// backups.go: the bot's scheduled backups of its store (backups.dir, backups.every, backups.keep).

package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Backup file names: backupPrefix, the UTC time of the copy in backupLayout (fixed width,
// so names sort in time order), backupSuffix. Only files named so are ever pruned.
const (
	backupPrefix = "gambit-"
	backupLayout = "20060102T150405.000Z"
	backupSuffix = ".db"
	// partialSuffix marks a copy being written; one left by a crash is removed at start.
	partialSuffix = ".partial"
)

// backupRetry is the most the scheduler waits before trying again after a failed copy.
const backupRetry = time.Minute

// backups writes a copy of the store into dir every so often and keeps the newest keep.
// Each copy is written to a temporary file, synced and renamed into place (then the
// directory is synced), so a file named like a backup is always a whole copy; files
// are readable by the bot's user only (0600).
type backups struct {
	dir   string
	every time.Duration
	keep  int
	// copy writes a consistent copy of the store to w (bolt.DB.Backup).
	copy func(ctx context.Context, w io.Writer) (int64, error)
	now  func() time.Time
	log  *slog.Logger
	// made counts the copies written, for tests.
	made atomic.Int64
}

// newBackups returns the scheduler; copyTo is the store's hot backup.
func newBackups(dir string, every time.Duration, keep int, copyTo func(context.Context, io.Writer) (int64, error), log *slog.Logger) *backups {
	return &backups{dir: dir, every: every, keep: keep, copy: copyTo, now: time.Now, log: log}
}

// Run makes the copies until ctx ends. The first is due every after the newest copy
// already in dir (at once when there is none), so restarts neither skip nor multiply
// copies.
func (b *backups) Run(ctx context.Context) error {
	if err := os.MkdirAll(b.dir, 0o700); err != nil {
		return fmt.Errorf("backups.dir: %w", err)
	}
	b.removePartial()
	var retryAt time.Time
	for {
		names, err := b.list()
		if err != nil {
			b.log.Error("scheduled backup: read the directory", "dir", b.dir, "err", err)
		}
		now := b.now()
		due := nextBackup(names, now, b.every)
		if retryAt.After(due) {
			due = retryAt
		}
		t := time.NewTimer(due.Sub(now))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		path, n, err := b.once(ctx)
		if err != nil {
			retryAt = b.now().Add(min(b.every, backupRetry))
			b.log.Error("scheduled backup failed", "dir", b.dir, "err", err, "retry_at", retryAt)
			continue
		}
		retryAt = time.Time{}
		b.log.Info("scheduled backup written", "path", path, "bytes", n)
	}
}

// nextBackup returns when the next copy is due: every after the newest of names (backup
// file names), now when there is none, and never later than every from now (a clock set
// back does not stop the backups).
func nextBackup(names []string, now time.Time, every time.Duration) time.Time {
	var newest time.Time
	for _, n := range names {
		if t, ok := backupTime(n); ok && t.After(newest) {
			newest = t
		}
	}
	if newest.IsZero() {
		return now
	}
	next := newest.Add(every)
	if latest := now.Add(every); next.After(latest) {
		next = latest
	}
	return next
}

// backupTime reads the time in a backup file's name; ok is false for any other name.
func backupTime(name string) (time.Time, bool) {
	s, ok := strings.CutPrefix(name, backupPrefix)
	if !ok {
		return time.Time{}, false
	}
	s, ok = strings.CutSuffix(s, backupSuffix)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(backupLayout, s)
	return t, err == nil
}

// list returns the names of the backups in dir, oldest first.
func (b *backups) list() ([]string, error) {
	entries, err := os.ReadDir(b.dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if _, ok := backupTime(e.Name()); ok && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// once writes one copy and prunes the old ones, returning the copy's path and size.
func (b *backups) once(ctx context.Context) (string, int64, error) {
	name := backupPrefix + b.now().UTC().Format(backupLayout) + backupSuffix
	path := filepath.Join(b.dir, name)
	n, err := b.write(ctx, path)
	if err != nil {
		return "", 0, err
	}
	b.made.Add(1)
	if err := b.prune(); err != nil {
		return path, n, fmt.Errorf("prune old backups: %w", err)
	}
	return path, n, nil
}

// write copies the store into path atomically: a 0600 temporary file beside it, synced,
// renamed over path, and the directory synced so the rename survives a crash.
func (b *backups) write(ctx context.Context, path string) (n int64, err error) {
	tmp := path + partialSuffix
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, fmt.Errorf("back up to %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if n, err = b.copy(ctx, f); err != nil {
		return 0, fmt.Errorf("back up to %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return 0, fmt.Errorf("back up to %s: sync: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return 0, fmt.Errorf("back up to %s: close: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return 0, fmt.Errorf("back up to %s: %w", path, err)
	}
	if err := syncDir(b.dir); err != nil {
		return n, fmt.Errorf("back up to %s: sync the directory: %w", path, err)
	}
	return n, nil
}

// prune deletes the oldest backups beyond keep.
func (b *backups) prune() error {
	names, err := b.list()
	if err != nil {
		return err
	}
	var errs []error
	for len(names) > b.keep {
		if err := os.Remove(filepath.Join(b.dir, names[0])); err != nil {
			errs = append(errs, err)
		}
		names = names[1:]
	}
	return errors.Join(errs...)
}

// removePartial deletes the temporary files of copies a crash interrupted.
func (b *backups) removePartial() {
	entries, err := os.ReadDir(b.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), partialSuffix); ok && e.Type().IsRegular() {
			if _, ok := backupTime(name); ok {
				if err := os.Remove(filepath.Join(b.dir, e.Name())); err == nil {
					b.log.Warn("removed an interrupted backup", "path", filepath.Join(b.dir, e.Name()))
				}
			}
		}
	}
}

// syncDir flushes a directory's entries (a rename in it) to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
