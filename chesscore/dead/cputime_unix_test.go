//go:build linux || darwin || freebsd || openbsd

package dead

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPUTime returns the processor time the calling thread has used. A benchmark that
// locks its goroutine to its thread (runtime.LockOSThread) reads, between two calls, what
// the code between them cost the processor: on a loaded machine the wall time between
// them also counts the time the thread waited for a core.
func threadCPUTime() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
