//go:build !race

package starter_test

const raceEnabled = false
