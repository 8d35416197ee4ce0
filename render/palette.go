// palette.go: one 255-colour palette per theme, built from the theme and piece colours
// with blend ramps between every pair of colours that meet, so antialiased edges stay
// smooth in a paletted image.

package render

import (
	"image"
	"image/color"
	"math"
	"sync/atomic"
)

// maxColors is the palette budget: 255 opaque colours, leaving one GIF slot for
// the transparent colour of difference frames.
const maxColors = 255

// palette is a theme's colour table. The colours are immutable once built; memo is a
// lock-free cache of nearest-colour answers shared by every goroutine.
type palette struct {
	colors color.Palette
	rgba   []color.RGBA
	memo   [1 << 12]atomic.Uint64 // 1<<32 | rgb<<8 | index, in the slot of rgb's hash
}

// colorPairs lists the pairs of colours that meet at an antialiased edge somewhere in
// a board, a player bar or a material icon.
func colorPairs(t *theme) [][2]color.RGBA {
	var pairs [][2]color.RGBA
	for _, bg := range []color.RGBA{t.light, t.dark, t.lastLight, t.lastDark} {
		for _, fg := range []color.RGBA{pieceEdge, whiteFill, blackFill} {
			pairs = append(pairs, [2]color.RGBA{bg, fg})
		}
	}
	return append(pairs,
		[2]color.RGBA{whiteFill, pieceEdge}, [2]color.RGBA{blackFill, pieceEdge},
		[2]color.RGBA{blackFill, blackTrim}, [2]color.RGBA{blackTrim, pieceEdge},
		// Coordinates are written in the other square colour.
		[2]color.RGBA{t.light, t.dark}, [2]color.RGBA{t.lastLight, t.dark}, [2]color.RGBA{t.lastDark, t.light},
		// The check glow fades into the square.
		[2]color.RGBA{t.check, t.light}, [2]color.RGBA{t.check, t.dark},
		[2]color.RGBA{t.check, pieceEdge},
		// Player bars.
		[2]color.RGBA{barBack, barText}, [2]color.RGBA{barBack, barDim}, [2]color.RGBA{barBack, barBox},
		[2]color.RGBA{barBack, pieceEdge}, [2]color.RGBA{barBack, whiteFill}, [2]color.RGBA{barBack, blackFill},
		[2]color.RGBA{barText, pieceEdge}, [2]color.RGBA{barBox, barDim},
	)
}

// buildPalette makes the palette of a theme: the base colours first, then ramps whose
// number of steps grows with the distance between the two ends, as many as fit.
func buildPalette(t *theme) *palette {
	base := []color.RGBA{t.light, t.dark, t.lastLight, t.lastDark, t.check,
		whiteFill, pieceEdge, blackFill, blackTrim, barBack, barText, barDim, barBox}
	pairs := colorPairs(t)
	for step := 8.0; ; step++ {
		p := &palette{}
		seen := map[color.RGBA]bool{}
		add := func(c color.RGBA) {
			if !seen[c] {
				seen[c] = true
				p.rgba = append(p.rgba, c)
			}
		}
		for _, c := range base {
			add(c)
		}
		for _, pr := range pairs {
			n := int(math.Round(distance(pr[0], pr[1]) / step))
			n = max(1, min(n, 16))
			for i := 1; i <= n; i++ {
				add(mix(pr[0], pr[1], float64(i)/float64(n+1)))
			}
		}
		if len(p.rgba) <= maxColors {
			p.colors = make(color.Palette, len(p.rgba))
			for i, c := range p.rgba {
				p.colors[i] = c
			}
			return p
		}
	}
}

// distance is the Euclidean distance between two colours in RGB.
func distance(a, b color.RGBA) float64 {
	dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

// quantizer maps colours to the nearest palette entry. It is not safe for concurrent
// use: make one per goroutine (they share the palette's memo).
type quantizer struct {
	p *palette
	// The last answer: neighbouring pixels are mostly the same colour.
	last    color.RGBA
	lastIdx uint8
}

func (p *palette) quantizer() *quantizer {
	return &quantizer{p: p, last: p.rgba[0]}
}

// index returns the palette index nearest to the opaque colour c, weighting green most
// as the eye does.
func (q *quantizer) index(c color.RGBA) uint8 {
	if c == q.last {
		return q.lastIdx
	}
	rgb := uint64(c.R)<<16 | uint64(c.G)<<8 | uint64(c.B)
	slot := &q.p.memo[uint32(rgb)*0x9e3779b1>>20]
	var i uint8
	if e := slot.Load(); e>>8 == 1<<24|rgb {
		i = uint8(e)
	} else {
		i = q.nearest(c)
		slot.Store((1<<24|rgb)<<8 | uint64(i))
	}
	q.last, q.lastIdx = c, i
	return i
}

// nearest searches the palette.
func (q *quantizer) nearest(c color.RGBA) uint8 {
	best, bestD := 0, math.MaxInt
	for i, e := range q.p.rgba {
		dr, dg, db := int(c.R)-int(e.R), int(c.G)-int(e.G), int(c.B)-int(e.B)
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if d < bestD {
			best, bestD = i, d
			if d == 0 {
				break
			}
		}
	}
	return uint8(best)
}

// quantize writes the opaque image src into dst with its top-left corner at dst.Rect.Min+at.
func (q *quantizer) quantize(dst *image.Paletted, src *image.RGBA, at image.Point) {
	b := src.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		s := src.Pix[src.PixOffset(b.Min.X, y):]
		d := dst.Pix[dst.PixOffset(dst.Rect.Min.X+at.X, dst.Rect.Min.Y+at.Y+y-b.Min.Y):]
		for x := 0; x < b.Dx(); x++ {
			d[x] = q.index(color.RGBA{s[4*x], s[4*x+1], s[4*x+2], 0xff})
		}
	}
}
