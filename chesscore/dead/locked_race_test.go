//go:build race

package dead

// lockedRace tells the locked-structure tests that the race detector slows them down.
const lockedRace = true
