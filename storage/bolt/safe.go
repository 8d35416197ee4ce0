// safe.go: a damaged bbolt file is an error, not a crash. bbolt panics on a page it
// cannot make sense of (a bad page type, an id past the end, a broken freelist), and a
// read past the mapped file faults: under systemd that is a crash loop. Every entry into
// bbolt (Open, View, Update, Bulk, the group commit, Check) goes through recoverDamage,
// which turns both into an error wrapping ErrCorrupt.

package bolt

import (
	"errors"
	"fmt"
	"runtime/debug"
	"syscall"

	"github.com/gambitchess/gambit/storage"
)

// recoverDamage is deferred around a call into bbolt, after faults on the mapped file
// have been made panics (debug.SetPanicOnFault, see guardFaults): a panic becomes *err,
// an error naming what was being done and wrapping ErrCorrupt. A panic of the caller's
// own code is reported the same way: it cannot be told apart, and the process lives.
func recoverDamage(err *error, what, path string) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s %s: %w: bbolt could not read the file (damaged page?): %v; run gambit check --db %s", what, path, storage.ErrCorrupt, p, path)
	}
}

// guardFaults makes a memory fault on this goroutine (a read of the mapped file beyond
// its end) a panic that recoverDamage can catch, and returns the setting to restore.
func guardFaults() bool { return debug.SetPanicOnFault(true) }

// restoreFaults puts back the setting guardFaults replaced.
func restoreFaults(old bool) { debug.SetPanicOnFault(old) }

// diskFull marks a write that failed for want of space (ENOSPC, or EDQUOT for a
// quota) with storage.ErrDiskFull.
func diskFull(err error) error {
	if err != nil && !errors.Is(err, storage.ErrDiskFull) && (errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)) {
		return fmt.Errorf("%w: %w", storage.ErrDiskFull, err)
	}
	return err
}
