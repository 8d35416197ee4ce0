//go:build !race

package dutch

const raceEnabled = false
