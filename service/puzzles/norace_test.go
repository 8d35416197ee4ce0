//go:build !race

package puzzles

const raceEnabled = false
