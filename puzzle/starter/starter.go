// Package starter embeds Gambit's starter set of puzzles: puzzles the generator mined
// from the built-in engine's self-play games, in the lichess CSV layout, so that a
// fresh install has a year of daily puzzles without importing anything. README.md says
// how the set was made.
package starter

import _ "embed"

// CSV is the starter set, in the lichess puzzle CSV layout (with a header line).
//
//go:embed starter.csv
var CSV []byte
