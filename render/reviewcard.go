// reviewcard.go: the summary card of a game review: each side's accuracy and how many
// of its moves fell in each class, under the game's opening.

package render

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"github.com/fogleman/gg"
)

// ReviewClass is a class of moves on the review card, from the best to the worst.
type ReviewClass uint8

// The classes, in the order of the card's rows.
const (
	ClassBest ReviewClass = iota
	ClassExcellent
	ClassGood
	ClassInaccuracy
	ClassMistake
	ClassMissedWin
	ClassBlunder
	reviewClasses // the number of classes
)

// reviewRows are the classes' labels and colours on the card.
var reviewRows = [reviewClasses]struct {
	label string
	color color.RGBA
}{
	ClassBest:       {"Best", rgb(0x5c, 0xb8, 0x5c)},
	ClassExcellent:  {"Excellent", rgb(0x96, 0xc9, 0x5a)},
	ClassGood:       {"Good", rgb(0x8f, 0xa8, 0x9c)},
	ClassInaccuracy: {"Inaccuracy", markInaccuracy},
	ClassMistake:    {"Mistake", markMistake},
	ClassMissedWin:  {"Missed win", markMissedWin},
	ClassBlunder:    {"Blunder", markBlunder},
}

// ReviewSide is one side's column on the review card.
type ReviewSide struct {
	Name string
	// Accuracy is in percent, 0 to 100; HasAccuracy is false for a side that made no
	// move (the card shows a dash).
	Accuracy    float64
	HasAccuracy bool
	// Counts holds the number of moves of each class, indexed by ReviewClass.
	Counts [reviewClasses]int
}

// ReviewCardOptions says what heads a review card and how wide it is.
type ReviewCardOptions struct {
	Title   string // e.g. "Game 12 · review"
	Opening string // e.g. "B90 Sicilian Defense: Najdorf Variation"; empty: not named
	Result  string // e.g. "1-0 · White wins by checkmate"
	Width   int    // pixels, 400 to 2000; 0 means 640. The height follows (3:4 or so).
}

// ReviewCard draws the review's summary card, White's column then Black's, and writes
// it as a PNG.
func ReviewCard(w io.Writer, white, black ReviewSide, opt ReviewCardOptions) error {
	width := opt.Width
	if width == 0 {
		width = 640
	}
	if width < 400 || width > 2000 {
		return fmt.Errorf("review card width %d: want 400 to 2000", width)
	}
	for _, s := range []ReviewSide{white, black} {
		if s.HasAccuracy && (math.IsNaN(s.Accuracy) || s.Accuracy < 0 || s.Accuracy > 100) {
			return fmt.Errorf("review card: %s's accuracy %v: want 0 to 100", s.Name, s.Accuracy)
		}
		for c, n := range s.Counts {
			if n < 0 {
				return fmt.Errorf("review card: %s's count of %s moves is %d", s.Name, reviewRows[c].label, n)
			}
		}
	}
	u := float64(width) / 640
	headH, nameH, accH, rowH := 104*u, 40*u, 70*u, 36*u
	height := int(math.Ceil(headH + nameH + accH + float64(reviewClasses)*rowH + 18*u))
	dc := gg.NewContext(width, height)
	dc.SetColor(cardBack)
	dc.Clear()
	fs, err := newFaces(map[string]faceSpec{
		"title": {bold, 26 * u}, "sub": {regular, 15 * u}, "name": {bold, 17 * u},
		"acc": {bold, 36 * u}, "num": {monoBold, 18 * u}, "label": {regular, 16 * u},
	})
	if err != nil {
		return err
	}
	defer fs.close()
	use := func(name string) { dc.SetFontFace(fs[name]) }
	W := float64(width)
	pad := 24 * u
	colW := 150 * u
	cols := [2]float64{W - pad - colW*1.5, W - pad - colW/2} // the columns' centres

	use("title")
	dc.SetColor(cardText)
	dc.DrawStringAnchored(fitText(fs["title"], cleanName(opt.Title), W-2*pad), pad, 40*u, 0, 0)
	use("sub")
	opening := opt.Opening
	if opening == "" {
		opening = "Opening not named"
	}
	dc.SetColor(cardLine)
	dc.DrawStringAnchored(fitText(fs["sub"], cleanName(opening), W-2*pad), pad, 66*u, 0, 0)
	dc.SetColor(cardDim)
	dc.DrawStringAnchored(fitText(fs["sub"], cleanName(opt.Result), W-2*pad), pad, 90*u, 0, 0)

	// The players over their columns, White's on a light chip and Black's on a dark one.
	top := headH
	for i, s := range []ReviewSide{white, black} {
		cx := cols[i]
		chip, text := evalWhite, cardBack
		if i == 1 {
			chip, text = evalBlack, cardText
		}
		dc.SetColor(chip)
		dc.DrawRoundedRectangle(cx-colW/2+6*u, top+4*u, colW-12*u, nameH-8*u, 8*u)
		dc.Fill()
		use("name")
		dc.SetColor(text)
		dc.DrawStringAnchored(fitText(fs["name"], cleanName(s.Name), colW-28*u), cx, top+nameH/2, 0.5, 0.35)
	}
	// Accuracy, large, with its label on the left.
	top += nameH
	use("label")
	dc.SetColor(cardDim)
	dc.DrawStringAnchored("Accuracy", pad, top+accH/2, 0, 0.35)
	use("acc")
	dc.SetColor(cardText)
	for i, s := range []ReviewSide{white, black} {
		text := "–"
		if s.HasAccuracy {
			text = fmt.Sprintf("%.1f", s.Accuracy)
		}
		dc.DrawStringAnchored(text, cols[i], top+accH/2, 0.5, 0.35)
	}
	dc.SetColor(cardGrid)
	dc.SetLineWidth(math.Max(1, u))
	dc.DrawLine(pad/2, top+accH-2*u, W-pad/2, top+accH-2*u)
	dc.Stroke()
	// One row per class: its dot and name, then each side's count.
	top += accH
	for c := range reviewClasses {
		rowTop := top + float64(c)*rowH
		mid := rowTop + rowH/2
		if c%2 == 0 {
			dc.SetColor(cardStripe)
			dc.DrawRoundedRectangle(pad/2, rowTop+2*u, W-pad, rowH-4*u, 6*u)
			dc.Fill()
		}
		row := reviewRows[c]
		dc.SetColor(row.color)
		dc.DrawCircle(pad+8*u, mid, 7*u)
		dc.Fill()
		use("label")
		dc.SetColor(cardText)
		dc.DrawStringAnchored(row.label, pad+26*u, mid, 0, 0.35)
		use("num")
		for i, s := range []ReviewSide{white, black} {
			n := s.Counts[c]
			dc.SetColor(cardText)
			if n == 0 {
				dc.SetColor(cardDim)
			}
			dc.DrawStringAnchored(fmt.Sprint(n), cols[i], mid, 0.5, 0.35)
		}
	}
	return encodePNG(w, dc.Image())
}
