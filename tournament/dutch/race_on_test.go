//go:build race

package dutch

// raceEnabled shrinks the random-event tests under the race detector, which
// slows the matching down about tenfold.
const raceEnabled = true
