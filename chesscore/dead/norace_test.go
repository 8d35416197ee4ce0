//go:build !race

package dead

// raceEnabled is true under the race detector (race_test.go).
const raceEnabled = false
