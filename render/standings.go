// standings.go: the standings card of a tournament: rank, name, points and the
// tie-break columns.

package render

import (
	"fmt"
	"io"
	"math"

	"github.com/fogleman/gg"
)

// StandingsRow is one player's line of a tournament's standings.
type StandingsRow struct {
	Rank   int
	Name   string
	Points string   // "3.5"
	Values []string // one per column of StandingsOptions.Columns
	Note   string   // drawn dim after the name ("withdrawn")
}

// StandingsOptions says how to draw a standings card.
type StandingsOptions struct {
	Title    string   // the event's name
	Subtitle string   // e.g. "Swiss · 5+3 · final, 5 rounds"
	Columns  []string // the tie-break columns' headings ("BH/C1", "SB")
	Width    int      // pixels, 400 to 2000; 0 means 720. The height follows the rows.
}

// Limits of a standings card.
const (
	MaxStandingsRows    = 64
	MaxStandingsColumns = 6
)

// StandingsCard draws the rows, in the order given, and writes the card as a PNG.
func StandingsCard(w io.Writer, rows []StandingsRow, opt StandingsOptions) error {
	width := opt.Width
	if width == 0 {
		width = 720
	}
	if width < 400 || width > 2000 {
		return fmt.Errorf("standings width %d: want 400 to 2000", width)
	}
	if len(rows) > MaxStandingsRows {
		return fmt.Errorf("standings of %d rows: at most %d fit on a card", len(rows), MaxStandingsRows)
	}
	if len(opt.Columns) > MaxStandingsColumns {
		return fmt.Errorf("standings with %d tie-break columns: at most %d fit", len(opt.Columns), MaxStandingsColumns)
	}
	for i, r := range rows {
		if len(r.Values) != len(opt.Columns) {
			return fmt.Errorf("standings row %d has %d values for %d columns", i+1, len(r.Values), len(opt.Columns))
		}
	}
	u := float64(width) / 720
	rowH, headH := 38*u, 104*u
	n := max(1, len(rows))
	height := int(math.Ceil(headH + float64(n)*rowH + 16*u))
	dc := gg.NewContext(width, height)
	dc.SetColor(cardBack)
	dc.Clear()
	fs, err := newFaces(map[string]faceSpec{
		"title": {bold, 26 * u}, "sub": {regular, 14 * u}, "name": {bold, 16 * u}, "note": {regular, 13 * u},
		"num": {monoBold, 16 * u}, "val": {regular, 14 * u}, "head": {regular, 13 * u}, "rank": {bold, 14 * u},
	})
	if err != nil {
		return err
	}
	defer fs.close()
	use := func(name string) { dc.SetFontFace(fs[name]) }
	W := float64(width)
	pad := 24 * u
	use("title")
	dc.SetColor(cardText)
	dc.DrawStringAnchored(fitText(fs["title"], cleanName(opt.Title), W-2*pad), pad, 42*u, 0, 0)
	use("sub")
	dc.SetColor(cardDim)
	dc.DrawStringAnchored(fitText(fs["sub"], cleanName(opt.Subtitle), W-2*pad), pad, 66*u, 0, 0)
	if len(rows) == 0 {
		dc.DrawStringAnchored("No players yet", W/2, headH+rowH/2, 0.5, 0.35)
		return encodePNG(w, dc.Image())
	}
	// Columns from the right: the tie-breaks, then the points.
	colW := 74 * u
	xs := make([]float64, len(opt.Columns))
	for i := range opt.Columns {
		xs[i] = W - pad - float64(len(opt.Columns)-1-i)*colW
	}
	pointsX := W - pad - float64(len(opt.Columns))*colW - 8*u
	use("head")
	dc.SetColor(cardDim)
	dc.DrawStringAnchored("Pts", pointsX, 92*u, 1, 0)
	for i, c := range opt.Columns {
		dc.DrawStringAnchored(fitText(fs["head"], cleanName(c), colW-6*u), xs[i], 92*u, 1, 0)
	}
	nameX := pad + 44*u
	nameW := pointsX - 56*u - nameX
	for i, r := range rows {
		top := headH + float64(i)*rowH
		use("rank")
		mid := drawRankCell(dc, i, r.Rank, top, rowH, W, pad, u, 13*u)
		use("name")
		dc.SetColor(cardText)
		name := fitText(fs["name"], cleanName(r.Name), nameW)
		dc.DrawStringAnchored(name, nameX, mid, 0, 0.35)
		if r.Note != "" {
			nw, _ := dc.MeasureString(name)
			use("note")
			dc.SetColor(cardDim)
			dc.DrawStringAnchored(fitText(fs["note"], "("+cleanName(r.Note)+")", math.Max(0, nameW-nw-8*u)), nameX+nw+8*u, mid, 0, 0.35)
		}
		use("num")
		dc.SetColor(cardText)
		dc.DrawStringAnchored(r.Points, pointsX, mid, 1, 0.35)
		use("val")
		dc.SetColor(cardDim)
		for k, v := range r.Values {
			dc.DrawStringAnchored(fitText(fs["val"], v, colW-6*u), xs[k], mid, 1, 0.35)
		}
	}
	return encodePNG(w, dc.Image())
}
