// book.go: the built-in opening book of balanced positions.

package match

import (
	_ "embed"
	"fmt"
	"strings"
)

// balancedBook is the EPD of the built-in book, made by tools/bookgen: short openings
// each scored within ±50 cp by Stockfish at a fixed depth.
//
//go:embed testdata/balanced.epd
var balancedBook string

// Book returns the built-in book of balanced openings (`gambit match --book`), in the
// order of the file: play them in turn, each with both colours.
func Book() ([]Opening, error) {
	ops, err := ReadOpenings(strings.NewReader(balancedBook))
	if err != nil {
		return nil, fmt.Errorf("built-in book: %w", err)
	}
	return ops, nil
}
