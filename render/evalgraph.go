// evalgraph.go: the evaluation graph of an analysed game: White's advantage up,
// clipped at a few pawns (and at mate), with the mistakes marked.

package render

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"github.com/fogleman/gg"
)

// EvalMark marks a move on the evaluation graph.
type EvalMark uint8

// The marks, by how much the move cost.
const (
	MarkNone EvalMark = iota
	MarkInaccuracy
	MarkMistake
	MarkMissedWin
	MarkBlunder
)

// EvalPoint is the evaluation after a ply (the first point is the start position):
// Pawns for White (positive: White is better), or a forced mate when Mate is set (the
// sign of Pawns says for whom). Mark is the judgement of the move that led here.
type EvalPoint struct {
	Pawns float64
	Mate  bool
	Mark  EvalMark
}

// EvalGraphOptions says how to draw an evaluation graph. The zero value is an 800×300
// graph clipped at ±6 pawns, the first point before White's first move.
type EvalGraphOptions struct {
	Width, Height int     // pixels, 200×120 to 2400×2400; 0 means 800×300
	Title         string  // drawn top left, e.g. "Game 12 · ana vs bo"
	Clip          float64 // the scale's bound in pawns (0: 6)
	// FirstMove is the move number of the first move (0: 1); BlackFirst says Black made
	// it (a game from a position with Black to move).
	FirstMove  int
	BlackFirst bool
}

// Graph colours.
var (
	evalWhite      = rgb(0xe8, 0xe4, 0xdc)
	evalBlack      = rgb(0x3a, 0x37, 0x33)
	evalLine       = rgb(0x9c, 0x96, 0x8e)
	markInaccuracy = rgb(0xf0, 0xc2, 0x3a)
	markMistake    = rgb(0xf0, 0x8a, 0x24)
	markMissedWin  = rgb(0xb4, 0x6a, 0xe6)
	markBlunder    = rgb(0xe0, 0x3c, 0x31)
)

func markColor(m EvalMark) color.RGBA {
	switch m {
	case MarkInaccuracy:
		return markInaccuracy
	case MarkMistake:
		return markMistake
	case MarkMissedWin:
		return markMissedWin
	}
	return markBlunder
}

// EvalGraph draws the evaluations as an area graph and writes it as a PNG: the light
// area is White's share, so the line rises when White gets better. Scores beyond the
// clip (and mates) are drawn at the clip. With fewer than two points the graph says
// there is nothing to draw.
func EvalGraph(w io.Writer, points []EvalPoint, opt EvalGraphOptions) error {
	width, height := opt.Width, opt.Height
	if width == 0 && height == 0 {
		width, height = 800, 300
	}
	if width < 200 || height < 120 || width > 2400 || height > 2400 {
		return fmt.Errorf("evaluation graph size %d×%d: want 200×120 to 2400×2400", width, height)
	}
	clip := opt.Clip
	if clip == 0 {
		clip = 6
	}
	if clip < 0.5 || clip > 100 || math.IsNaN(clip) {
		return fmt.Errorf("evaluation graph clip %v: want 0.5 to 100 pawns", opt.Clip)
	}
	for i, p := range points {
		if math.IsNaN(p.Pawns) || math.IsInf(p.Pawns, 0) && !p.Mate {
			return fmt.Errorf("evaluation point %d: %v pawns", i, p.Pawns)
		}
	}
	first := opt.FirstMove
	if first <= 0 {
		first = 1
	}

	u := math.Max(0.7, math.Min(float64(width)/800, float64(height)/300))
	dc := gg.NewContext(width, height)
	dc.SetColor(cardBack)
	dc.Clear()
	titleFace, err := face(bold, 18*u)
	if err != nil {
		return err
	}
	defer titleFace.Close()
	labelFace, err := face(regular, 12*u)
	if err != nil {
		return err
	}
	defer labelFace.Close()

	W, H := float64(width), float64(height)
	dc.SetFontFace(titleFace)
	dc.SetColor(cardText)
	dc.DrawStringAnchored(fitText(titleFace, cleanName(opt.Title), W*0.45), 20*u, 26*u, 0, 0)
	// The legend, top right.
	dc.SetFontFace(labelFace)
	lx := W - 20*u
	for _, l := range []struct {
		m    EvalMark
		text string
	}{{MarkBlunder, "blunder"}, {MarkMissedWin, "missed win"}, {MarkMistake, "mistake"}, {MarkInaccuracy, "inaccuracy"}} {
		tw, _ := dc.MeasureString(l.text)
		dc.SetColor(cardDim)
		dc.DrawStringAnchored(l.text, lx, 22*u, 1, 0.35)
		lx -= tw + 10*u
		dc.SetColor(markColor(l.m))
		dc.DrawCircle(lx, 22*u, 4.5*u)
		dc.Fill()
		lx -= 16 * u
	}
	if len(points) < 2 {
		dc.SetColor(cardDim)
		dc.DrawStringAnchored("No moves to show", W/2, H/2, 0.5, 0.5)
		return encodePNG(w, dc.Image())
	}

	left, right, top, bottom := 52*u, W-20*u, 44*u, H-30*u
	mid := (top + bottom) / 2
	y := func(p EvalPoint) float64 {
		v := p.Pawns
		if p.Mate {
			v = math.Copysign(clip, v)
		}
		v = math.Max(-clip, math.Min(clip, v))
		return mid - v/clip*(bottom-top)/2
	}
	n := len(points) - 1 // plies
	x := func(i int) float64 { return left + float64(i)/float64(n)*(right-left) }

	// Black's share is the plot's background; White's is the area under the line.
	dc.SetColor(evalBlack)
	dc.DrawRectangle(left, top, right-left, bottom-top)
	dc.Fill()
	dc.MoveTo(x(0), bottom)
	for i, p := range points {
		dc.LineTo(x(i), y(p))
	}
	dc.LineTo(x(n), bottom)
	dc.ClosePath()
	dc.SetColor(evalWhite)
	dc.Fill()

	// Scale: the clip, half of it and zero, each side.
	dc.SetLineWidth(math.Max(1, u))
	for _, v := range []float64{clip, clip / 2, 0, -clip / 2, -clip} {
		ly := mid - v/clip*(bottom-top)/2
		dc.SetColor(cardDim)
		label := fmt.Sprintf("%+g", v)
		if v == 0 {
			label = "0"
		}
		dc.DrawStringAnchored(label, left-8*u, ly, 1, 0.35)
		if v == 0 {
			dc.SetColor(color.NRGBA{evalLine.R, evalLine.G, evalLine.B, 0xc0})
			dc.SetDash(5*u, 4*u)
			dc.DrawLine(left, ly, right, ly)
			dc.Stroke()
			dc.SetDash()
		}
	}
	// Move numbers along the bottom, at a step that keeps them apart.
	moves := (n + 1) / 2
	step := int(niceStep(float64(moves) / math.Max(2, math.Floor((right-left)/(60*u)))))
	step = max(step, 1)
	blackOffset := 0
	if opt.BlackFirst {
		blackOffset = 1
	}
	dc.SetColor(cardDim)
	for m := first; ; m++ {
		if (m-first)%step != 0 && m != first {
			continue
		}
		ply := 2*(m-first) - blackOffset // the ply after which move m begins
		if ply < 0 {
			ply = 0
		}
		if ply > n {
			break
		}
		tx := x(ply)
		dc.DrawLine(tx, bottom, tx, bottom+4*u)
		dc.Stroke()
		dc.DrawStringAnchored(fmt.Sprint(m), tx, bottom+16*u, 0.5, 0.35)
	}

	// The line, then the marks on top.
	for i, p := range points {
		dc.LineTo(x(i), y(p))
	}
	dc.SetColor(evalLine)
	dc.SetLineWidth(1.5 * u)
	dc.SetLineJoin(gg.LineJoinRound)
	dc.Stroke()
	for i, p := range points {
		if p.Mark == MarkNone || i == 0 {
			continue
		}
		px, py := x(i), y(p)
		dc.DrawCircle(px, py, 4.5*u)
		dc.SetColor(markColor(p.Mark))
		dc.Fill()
		dc.DrawCircle(px, py, 4.5*u)
		dc.SetColor(cardBack)
		dc.SetLineWidth(1.2 * u)
		dc.Stroke()
	}
	dc.SetColor(cardGrid)
	dc.SetLineWidth(math.Max(1, u))
	dc.DrawRectangle(left, top, right-left, bottom-top)
	dc.Stroke()
	return encodePNG(w, dc.Image())
}
