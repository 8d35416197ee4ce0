// Package leaktest finds the goroutines a test binary left running: the TestMain of a
// package whose tests start servers, sessions and timers fails the run when any of
// theirs outlive the tests.
package leaktest

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Main is the body of such a TestMain: it runs the tests and, when they pass, fails the
// run if goroutines of pkgs are still running 10 s later (Lingering, skip as there),
// printing their stacks; it exits with the run's code.
func Main(m *testing.M, skip string, pkgs ...string) {
	code := m.Run()
	if code == 0 {
		if left := Lingering(10*time.Second, skip, pkgs...); left != "" {
			fmt.Fprintf(os.Stderr, "goroutines left running after the tests:\n%s\n", left)
			code = 1
		}
	}
	os.Exit(code)
}

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
