// theme.go: board themes (square and highlight colours) and the piece inks they share.

package render

import (
	"fmt"
	"image/color"
	"sort"
	"strings"
)

// DefaultTheme is the theme used when BoardOptions.Theme is empty.
const DefaultTheme = "brown"

// theme is one board colour scheme. Highlight colours are precomputed blends so that
// every colour a board can show is known when its palette is built.
type theme struct {
	name      string
	light     color.RGBA // light squares
	dark      color.RGBA // dark squares
	lastLight color.RGBA // light square of the last move
	lastDark  color.RGBA // dark square of the last move
	check     color.RGBA // centre of the glow under a king in check
}

// newTheme derives the highlight colours from the two square colours and a highlight tint.
func newTheme(name string, light, dark, tint color.RGBA, amount float64) *theme {
	return &theme{
		name:      name,
		light:     light,
		dark:      dark,
		lastLight: mix(light, tint, amount),
		lastDark:  mix(dark, tint, amount),
		check:     color.RGBA{0xe0, 0x1e, 0x1e, 0xff},
	}
}

// themes holds every theme by name. Colours are Gambit's own picks.
var themes = map[string]*theme{
	"brown":  newTheme("brown", rgb(0xee, 0xd8, 0xb4), rgb(0xb0, 0x84, 0x62), rgb(0xf2, 0xd8, 0x3a), 0.5),
	"blue":   newTheme("blue", rgb(0xdf, 0xe6, 0xea), rgb(0x7e, 0x9c, 0xb4), rgb(0xd4, 0xe0, 0x4a), 0.5),
	"green":  newTheme("green", rgb(0xe9, 0xec, 0xcf), rgb(0x6f, 0x98, 0x58), rgb(0xf4, 0xe2, 0x42), 0.5),
	"purple": newTheme("purple", rgb(0xe8, 0xe0, 0xf0), rgb(0x8e, 0x76, 0xaa), rgb(0xf0, 0xc8, 0x5a), 0.5),
}

// Themes returns the names of the board themes, sorted.
func Themes() []string {
	names := make([]string, 0, len(themes))
	for n := range themes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// lookupTheme returns the theme called name ("" means DefaultTheme).
func lookupTheme(name string) (*theme, error) {
	if name == "" {
		name = DefaultTheme
	}
	t, ok := themes[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown theme %q (have %s)", name, strings.Join(Themes(), ", "))
	}
	return t, nil
}

// Colours shared by every theme: the pieces and the player bars.
var (
	whiteFill  = rgb(0xfb, 0xf8, 0xf1) // body of White's pieces
	pieceEdge  = rgb(0x1d, 0x1a, 0x17) // outline of every piece
	blackFill  = rgb(0x3b, 0x36, 0x32) // body of Black's pieces
	blackTrim  = rgb(0xdc, 0xd6, 0xcc) // inner lines of Black's pieces
	barBack    = rgb(0x26, 0x24, 0x21) // player bar background
	barText    = rgb(0xf3, 0xf1, 0xee) // player names, the active clock box
	barDim     = rgb(0xa9, 0xa4, 0x9d) // ratings, material, the idle clock
	barBox     = rgb(0x3c, 0x39, 0x35) // idle clock box
	pieceColor = [2]pieceInks{
		{fill: whiteFill, edge: pieceEdge, detail: pieceEdge},
		{fill: blackFill, edge: pieceEdge, detail: blackTrim},
	}
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// mix returns a blended toward b by t (0 = a, 1 = b).
func mix(a, b color.RGBA, t float64) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 0xff}
}
