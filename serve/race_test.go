//go:build race

package bot

const raceEnabled = true
