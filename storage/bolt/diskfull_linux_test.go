package bolt

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

// smallDisk mounts a tmpfs of size bytes on a fresh directory for the test (unmounted
// when it ends). Mounting needs root, as CI has; elsewhere the test is skipped, but in
// CI (CI=true) it fails, so the fault is always tested there.
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+strconv.Itoa(size), "gambit-test", dir).CombinedOutput()
	if err != nil {
		msg := "cannot mount a small tmpfs (needs root): " + err.Error() + ": " + string(out)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fillDisk takes all but about free bytes of dir's file system with a file, and
// returns its path.
func fillDisk(t *testing.T, dir string, free int64) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		var st syscall.Statfs_t
		if err := syscall.Statfs(dir, &st); err != nil {
			t.Fatal(err)
		}
		if int64(st.Bavail)*st.Bsize <= free+int64(len(chunk)) {
			return path
		}
		if _, err := f.Write(chunk); err != nil {
			t.Fatalf("fill the disk: %v", err)
		}
	}
}

// TestDiskFullIsAnErrorAndRecovers: on a disk that fills up, a commit fails with
// ErrDiskFull (and writes nothing of itself), the store stays readable and consistent
// with every commit that succeeded, and once space is freed commits work again, in the
// same process and after a reopen.
func TestDiskFullIsAnErrorAndRecovers(t *testing.T) {
	dir := smallDisk(t, 16<<20)
	path := filepath.Join(dir, "gambit.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	filler := fillDisk(t, dir, 512<<10)

	committed := 0
	var full error
	for range 10000 {
		batch := make([]*storage.Change, 100)
		for i := range batch {
			batch[i] = &storage.Change{Game: testrecords.NewGame("white", "black", "c"+strconv.Itoa(committed+i))}
		}
		if full = db.CommitAll(t.Context(), batch); full != nil {
			break
		}
		committed += len(batch)
	}
	if !errors.Is(full, storage.ErrDiskFull) {
		t.Fatalf("after %d games the commit failed with %v, want ErrDiskFull", committed, full)
	}
	if committed == 0 {
		t.Fatal("the disk was full before the first commit: the test proves nothing")
	}
	// Small commits may still fit in pages the file already has; they go on until
	// one fails too.
	var one *storage.Change
	for range 100000 {
		one = &storage.Change{Game: testrecords.NewGame("white", "black", "single"+strconv.Itoa(committed))}
		if err = db.Commit(t.Context(), one); err != nil {
			break
		}
		committed++
	}
	if !errors.Is(err, storage.ErrDiskFull) {
		t.Fatalf("single commits on the full disk end with %v, want ErrDiskFull", err)
	}
	if one.Game.ID != 0 {
		t.Errorf("the failed commit kept its game id %d", one.Game.ID)
	}
	if n, _, err := testrecords.CountGames(t.Context(), db); err != nil || n != committed {
		t.Errorf("the full store reads %d games (%v), want the %d committed", n, err, committed)
	}
	if err := db.Check(t.Context()); err != nil {
		t.Errorf("the store after the failed commits: %v", err)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := db.Commit(t.Context(), one); err != nil {
		t.Fatalf("a commit once space is freed: %v", err)
	}
	committed++
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, nil)
	if err != nil {
		t.Fatalf("reopen after the disk was full: %v", err)
	}
	if n, _, err := testrecords.CountGames(t.Context(), db); err != nil || n != committed {
		t.Errorf("reopened, the store holds %d games (%v), want %d", n, err, committed)
	}
	if err := db.Check(t.Context()); err != nil {
		t.Errorf("the reopened store: %v", err)
	}
}
