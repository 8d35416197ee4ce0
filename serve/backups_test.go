package serve

// Tests of the scheduled backups: the schedule, the files (names, permissions, whole
// copies), the pruning, and the clean-up after a crash.

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// backupStore opens a store in a temporary directory with n games in it.
func backupStore(t *testing.T, n int) *bolt.DB {
	t.Helper()
	db := storagetest.Open(t)
	for range n {
		g := &storage.Game{White: storage.Player{ID: "a"}, Black: storage.Player{ID: "b"}, Control: clock.TimeControl{Untimed: true}, Created: epoch}
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestScheduledBackups(t *testing.T) {
	db := backupStore(t, 3)
	dir := filepath.Join(t.TempDir(), "backups")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// Left by a crash in the middle of a copy; and files that are not backups.
	partial := filepath.Join(dir, "gambit-20260301T110000.000Z.db"+partialSuffix)
	others := []string{"notes.txt", "gambit-old.db", "gambit.db"}
	for _, name := range append([]string{filepath.Base(partial)}, others...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const keep, every = 3, 40 * time.Millisecond
	b := newBackups(dir, every, keep, db.Backup, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	deadline := time.Now().Add(20 * time.Second)
	for b.made.Load() < 2*keep && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
	made := int(b.made.Load())
	if made < 2*keep {
		t.Fatalf("%d backups made in 20 s at one every %v", made, every)
	}

	if _, err := os.Stat(partial); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the interrupted copy is still there: %v", err)
	}
	for _, name := range others {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s, not a backup, was touched: %v", name, err)
		}
	}
	names, err := b.list()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != keep {
		t.Fatalf("%d backups kept after %d made: %v, want %d", len(names), made, names, keep)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), partialSuffix) {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	var times []time.Time
	for _, name := range names {
		path := filepath.Join(dir, name)
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", name, fi.Mode(), err)
		}
		checkBackup(t, path, 3)
		tm, _ := backupTime(name)
		times = append(times, tm)
	}
	// The newest are kept: they are the last ones made, an interval or so apart.
	if !slices.IsSortedFunc(times, func(a, b time.Time) int { return a.Compare(b) }) {
		t.Errorf("kept %v", names)
	}
	if gap := times[len(times)-1].Sub(times[0]); gap < time.Duration(keep-1)*every {
		t.Errorf("the kept copies span %v, want at least %v (one every %v)", gap, time.Duration(keep-1)*every, every)
	}
	if age := time.Since(times[len(times)-1]); age > 10*time.Second {
		t.Errorf("the newest copy is %v old", age)
	}
}

func TestNextBackup(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	name := func(t time.Time) string { return backupPrefix + t.Format(backupLayout) + backupSuffix }
	for _, c := range []struct {
		what  string
		names []string
		want  time.Time
	}{
		{"no backup yet: at once", nil, now},
		{"only other files: at once", []string{"gambit.db", "gambit-x.db", "notes.txt"}, now},
		{"a day after the newest", []string{name(now.Add(-30 * time.Hour)), name(now.Add(-3 * time.Hour))}, now.Add(21 * time.Hour)},
		{"overdue: at once (in the past)", []string{name(now.Add(-25 * time.Hour))}, now.Add(-time.Hour)},
		{"a newest in the future (clock set back): a day from now", []string{name(now.Add(48 * time.Hour))}, now.Add(24 * time.Hour)},
	} {
		if got := nextBackup(c.names, now, 24*time.Hour); !got.Equal(c.want) {
			t.Errorf("%s: %v, want %v", c.what, got, c.want)
		}
	}
}

func TestBackupNames(t *testing.T) {
	at := time.Date(2026, 3, 1, 7, 5, 9, 123e6, time.UTC)
	name := backupPrefix + at.Format(backupLayout) + backupSuffix
	if name != "gambit-20260301T070509.123Z.db" {
		t.Errorf("name %q", name)
	}
	if got, ok := backupTime(name); !ok || !got.Equal(at) {
		t.Errorf("backupTime(%q) = %v, %v", name, got, ok)
	}
	for _, bad := range []string{"gambit.db", "gambit-20260301T070509.123Z.db.partial", "x-20260301T070509.123Z.db", "gambit-2026.db"} {
		if _, ok := backupTime(bad); ok {
			t.Errorf("%q read as a backup", bad)
		}
	}
}

// TestBackupFailureKeepsNothingPartial: a copy that fails leaves no file behind and is
// not counted.
func TestBackupFailureKeepsNothingPartial(t *testing.T) {
	dir := t.TempDir()
	failing := func(ctx context.Context, w io.Writer) (int64, error) {
		w.Write([]byte("half a copy"))
		return 11, errors.New("disk on fire")
	}
	b := newBackups(dir, time.Hour, 3, failing, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if _, _, err := b.once(t.Context()); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("once: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("a failed copy left %v", entries)
	}
	if b.made.Load() != 0 {
		t.Error("a failed copy was counted")
	}
}
