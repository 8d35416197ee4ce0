// Package leaktest finds the goroutines a test binary left running: the TestMain of a
// package whose tests start servers, sessions and timers fails the run when any of
// theirs outlive the tests.
package leaktest

import (
	"runtime"
	"strings"
	"time"
)

// Lingering waits up to timeout for the goroutines whose stacks name one of pkgs (a
// substring of a function's qualified name, such as "gambit/bot.") to end, and returns
// the stacks of those still running then ("" when none is left). The test binary's own
// goroutines, and the one running TestMain (whose stack names testing.(*M) or skip, a
// substring such as "bot.TestMain"), are not counted.
func Lingering(timeout time.Duration, skip string, pkgs ...string) string {
	deadline := time.Now().Add(timeout)
	for {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var left []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "testing.(*M)") || strings.Contains(g, skip) {
				continue
			}
			for _, pkg := range pkgs {
				if strings.Contains(g, pkg) {
					left = append(left, g)
					break
				}
			}
		}
		if len(left) == 0 {
			return ""
		}
		if time.Now().After(deadline) {
			return strings.Join(left, "\n\n")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
