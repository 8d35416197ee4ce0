//go:build !unix

package engine

import "time"

var processStart = time.Now()

// cpuTime stands in with the wall time where the processor time is not at hand.
func cpuTime() time.Duration { return time.Since(processStart) }
