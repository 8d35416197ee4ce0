// bars.go: player bars above and below the board: name, rating, material and clock.

package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
	"time"
	"unicode"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"github.com/gambitchess/gambit/chesscore"
)

// PlayerBar is what a player bar shows about one side.
type PlayerBar struct {
	Name string
	// Rating is shown after the name; 0 hides it.
	Rating int
	// Provisional marks the rating with a question mark.
	Provisional bool
	// Clock is the time left, shown when HasClock is set. The clock of the side to
	// move is lit.
	Clock    time.Duration
	HasClock bool
	// HideMaterial hides the material difference (the pieces this side is up).
	HideMaterial bool
}

// barHeight returns the height of a player bar for a board side pixels wide.
func barHeight(side int) int { return max(24, side*11/128) }

// drawBars draws both bars into img, above and below the board.
func (b *board) drawBars(img *image.Paletted, pos *chesscore.Position) error {
	q := b.set.pal.quantizer()
	for i, bar := range []*PlayerBar{b.top, b.bottom} {
		c := b.topC
		y := 0
		if i == 1 {
			c, y = c.Other(), b.barH+b.side
		}
		rgba, err := b.barImage(bar, c, pos)
		if err != nil {
			return err
		}
		q.quantize(img, rgba, image.Pt(0, y))
	}
	return nil
}

// barImage draws the bar of side c in full colour; a nil bar is an empty strip. Text
// goes straight onto the image through font.Drawer, which is much cheaper than gg's
// transformed glyphs.
func (b *board) barImage(bar *PlayerBar, c chesscore.Color, pos *chesscore.Position) (*image.RGBA, error) {
	w, h := float64(b.side), float64(b.barH)
	dc := gg.NewContext(b.side, b.barH)
	dc.SetColor(barBack)
	dc.Clear()
	img := dc.Image().(*image.RGBA)
	if bar == nil {
		return img, nil
	}
	fs, err := newFaces(map[string]faceSpec{"name": {bold, h * 0.4}, "small": {regular, h * 0.36}, "clock": {monoBold, h * 0.46}})
	if err != nil {
		return nil, err
	}
	defer fs.close()

	pad := h * 0.3
	right := w - pad*0.6 // left edge of what is drawn at the right end
	if bar.HasClock {
		text := FormatClock(bar.Clock)
		bw, bh := textWidth(fs["clock"], text)+h*0.5, h*0.72
		bx := w - bw - h*0.14
		box, ink := barBox, barDim
		if pos.Turn() == c {
			box, ink = barText, pieceEdge
		}
		dc.SetColor(box)
		dc.DrawRoundedRectangle(bx, (h-bh)/2, bw, bh, h*0.1)
		dc.Fill()
		drawText(img, fs["clock"], ink, text, bx+bw/2, h/2, 0.5, 0.35)
		right = bx - pad*0.6
	}

	x := pad
	name := fitText(fs["name"], cleanName(bar.Name), right-x-h*2)
	x += drawText(img, fs["name"], barText, name, x, h/2, 0, 0.35) + h*0.22
	if bar.Rating != 0 {
		r := fmt.Sprint(bar.Rating)
		if bar.Provisional {
			r += "?"
		}
		if rw := textWidth(fs["small"], r); x+rw < right {
			drawText(img, fs["small"], barDim, r, x, h/2, 0, 0.35)
			x += rw + h*0.3
		}
	}
	if !bar.HideMaterial {
		b.drawMaterial(img, fs["small"], pos, c, x, right)
	}
	return img, nil
}

// textWidth is the advance width of s in pixels.
func textWidth(f font.Face, s string) float64 {
	return float64(font.MeasureString(f, s)) / 64
}

// drawText draws s onto img with its left edge at x minus ax times its width and its
// baseline at y plus ay times the face's line height, and returns its width.
func drawText(img *image.RGBA, f font.Face, col color.Color, s string, x, y, ax, ay float64) float64 {
	tw := textWidth(f, s)
	x -= ax * tw
	y += ay * float64(f.Metrics().Height) / 64
	d := font.Drawer{Dst: img, Src: image.NewUniform(col), Face: f,
		Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
	return tw
}

// pieceValues are the usual material points, used for the "+N" of a bar.
var pieceValues = [...]int{chesscore.Pawn: 1, chesscore.Knight: 3, chesscore.Bishop: 3, chesscore.Rook: 5, chesscore.Queen: 9}

// Material returns, for side c, how many more pieces of each type it has than the
// other side (indexed by chesscore.PieceType, only positive counts) and its lead in
// points (pawn 1, knight and bishop 3, rook 5, queen 9; 0 when not ahead).
func Material(pos *chesscore.Position, c chesscore.Color) (up [7]int, points int) {
	total := 0
	for t := chesscore.Pawn; t <= chesscore.Queen; t++ {
		d := pos.Pieces(c, t).Count() - pos.Pieces(c.Other(), t).Count()
		total += d * pieceValues[t]
		if d > 0 {
			up[t] = d
		}
	}
	return up, max(0, total)
}

// drawMaterial draws silhouettes of the opponent's pieces that side c is up, then its lead in points,
// between x and right, the points in face f.
func (b *board) drawMaterial(img *image.RGBA, f font.Face, pos *chesscore.Position, c chesscore.Color, x, right float64) {
	up, points := Material(pos, c)
	h := float64(b.barH)
	icon := int(math.Round(h * 0.62))
	art := arts.GetOrBuild(icon, func() *pieceArt { return newPieceArt(icon) })
	step := float64(icon) * 0.5
	for t := chesscore.Queen; t >= chesscore.Pawn; t-- {
		for range up[t] {
			if x+float64(icon) > right {
				return
			}
			pc := chesscore.MakePiece(c.Other(), t)
			at := image.Pt(int(x), (b.barH-icon)/2)
			// A silhouette in the dim colour reads on the dark bar whatever the piece colour.
			draw.DrawMask(img, art.mask[pc].Rect.Add(at), image.NewUniform(barDim), image.Point{}, art.mask[pc], image.Point{}, draw.Over)
			x += step
		}
		if up[t] > 0 {
			x += step * 0.6
		}
	}
	if points == 0 {
		return
	}
	x += step * 0.7
	text := fmt.Sprintf("+%d", points)
	if x+textWidth(f, text) <= right {
		drawText(img, f, barDim, text, x, h/2, 0, 0.35)
	}
}

// cleanName drops control characters from a name and trims it.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// fitText shortens s with an ellipsis until it fits in width pixels in face f.
func fitText(f font.Face, s string, width float64) string {
	if textWidth(f, s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 {
		r = r[:len(r)-1]
		t := strings.TrimSpace(string(r)) + "…"
		if textWidth(f, t) <= width {
			return t
		}
	}
	return ""
}

// FormatClock formats time left the way a chess clock shows it: "1:02:03", "4:05",
// "0:07.3" under ten seconds, "2d 03h" for a day or more. Time is rounded down and a
// negative duration shows as zero.
func FormatClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd %02dh", d/(24*time.Hour), d%(24*time.Hour)/time.Hour)
	case d >= time.Hour:
		return fmt.Sprintf("%d:%02d:%02d", d/time.Hour, d%time.Hour/time.Minute, d%time.Minute/time.Second)
	case d < 10*time.Second:
		return fmt.Sprintf("0:%02d.%d", d/time.Second, d%time.Second/(100*time.Millisecond))
	}
	return fmt.Sprintf("%d:%02d", d/time.Minute, d%time.Minute/time.Second)
}
