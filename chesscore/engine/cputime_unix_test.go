//go:build unix

package engine

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time this process has used, user and system: on a busy
// machine a benchmark's speed in nodes per processor second is steadier than per wall
// second.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
