// chart.go: the rating-history line chart.

package render

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"time"

	"github.com/fogleman/gg"
)

// RatingPoint is a player's rating at one moment, typically after a rated game.
type RatingPoint struct {
	Time   time.Time
	Rating float64
}

// ChartOptions says how to draw a rating chart. The zero value is an 800×400 chart
// without a title.
type ChartOptions struct {
	Width, Height int    // pixels, 200×120 to 2400×2400; 0 means 800×400
	Title         string // drawn top left, e.g. the player's name and the ladder
}

// Card colours shared by the charts and the leaderboard.
var (
	cardBack   = barBack
	cardGrid   = rgb(0x3c, 0x39, 0x35)
	cardText   = barText
	cardDim    = barDim
	cardLine   = rgb(0x5a, 0xa9, 0xe6)
	cardStripe = rgb(0x2e, 0x2b, 0x28)
)

// RatingChart draws the rating history as a line chart and writes it as a PNG. Points
// are sorted by time; with no points the chart says so.
func RatingChart(w io.Writer, points []RatingPoint, opt ChartOptions) error {
	width, height := opt.Width, opt.Height
	if width == 0 && height == 0 {
		width, height = 800, 400
	}
	if width < 200 || height < 120 || width > 2400 || height > 2400 {
		return fmt.Errorf("chart size %d×%d: want 200×120 to 2400×2400", width, height)
	}
	for _, p := range points {
		if math.IsNaN(p.Rating) || math.IsInf(p.Rating, 0) {
			return fmt.Errorf("rating point at %v: rating is %v", p.Time, p.Rating)
		}
	}
	pts := slices.Clone(points)
	slices.SortStableFunc(pts, func(a, b RatingPoint) int { return a.Time.Compare(b.Time) })

	// One unit of the 800×400 layout; small charts keep their text readable.
	u := math.Max(0.7, math.Min(float64(width)/800, float64(height)/400))
	dc := gg.NewContext(width, height)
	dc.SetColor(cardBack)
	dc.Clear()
	titleFace, err := face(bold, 22*u)
	if err != nil {
		return err
	}
	defer titleFace.Close()
	labelFace, err := face(regular, 13*u)
	if err != nil {
		return err
	}
	defer labelFace.Close()
	bigFace, err := face(monoBold, 26*u)
	if err != nil {
		return err
	}
	defer bigFace.Close()

	W, H := float64(width), float64(height)
	dc.SetFontFace(titleFace)
	dc.SetColor(cardText)
	dc.DrawStringAnchored(fitText(titleFace, cleanName(opt.Title), W*0.6), 24*u, 34*u, 0, 0)
	if len(pts) == 0 {
		dc.SetFontFace(labelFace)
		dc.SetColor(cardDim)
		dc.DrawStringAnchored("No rated games yet", W/2, H/2, 0.5, 0.5)
		return encodePNG(w, dc.Image())
	}

	lo, hi, peak := pts[0].Rating, pts[0].Rating, pts[0].Rating
	for _, p := range pts {
		lo, hi, peak = math.Min(lo, p.Rating), math.Max(hi, p.Rating), math.Max(peak, p.Rating)
	}
	last := pts[len(pts)-1]
	dc.SetFontFace(bigFace)
	dc.SetColor(cardText)
	dc.DrawStringAnchored(fmt.Sprintf("%.0f", last.Rating), W-24*u, 36*u, 1, 0)
	dc.SetFontFace(labelFace)
	dc.SetColor(cardDim)
	games := "1 game"
	if len(pts) != 1 {
		games = fmt.Sprintf("%d games", len(pts))
	}
	dc.DrawStringAnchored(fmt.Sprintf("peak %.0f · %s", peak, games), 24*u, 56*u, 0, 0)

	// Vertical scale: nice steps around the range, at least 100 points tall.
	if hi-lo < 100 {
		mid := (hi + lo) / 2
		lo, hi = mid-50, mid+50
	}
	step := niceStep((hi - lo) / 4)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	left, right, top, bottom := 70*u, W-28*u, 76*u, H-40*u
	y := func(r float64) float64 { return bottom - (r-lo)/(hi-lo)*(bottom-top) }
	t0, t1 := pts[0].Time, last.Time
	span := t1.Sub(t0)
	x := func(i int) float64 {
		if len(pts) == 1 {
			return (left + right) / 2
		}
		if span <= 0 {
			return left + float64(i)/float64(len(pts)-1)*(right-left)
		}
		return left + float64(pts[i].Time.Sub(t0))/float64(span)*(right-left)
	}

	dc.SetLineWidth(math.Max(1, u))
	for r := lo; r <= hi+step/2; r += step {
		dc.SetColor(cardGrid)
		dc.DrawLine(left, y(r), right, y(r))
		dc.Stroke()
		dc.SetColor(cardDim)
		dc.DrawStringAnchored(fmt.Sprintf("%.0f", r), left-10*u, y(r), 1, 0.35)
	}
	if span > 0 {
		const ticks = 4
		for i := 0; i <= ticks; i++ {
			t := t0.Add(time.Duration(float64(span) * float64(i) / ticks))
			tx := left + float64(i)/ticks*(right-left)
			dc.DrawStringAnchored(dateLabel(t, span), tx, bottom+22*u, []float64{0, 0.5, 0.5, 0.5, 1}[i], 0)
		}
	}

	// The area under the line, then the line, then the latest point.
	dc.MoveTo(x(0), bottom)
	for i := range pts {
		dc.LineTo(x(i), y(pts[i].Rating))
	}
	dc.LineTo(x(len(pts)-1), bottom)
	dc.ClosePath()
	dc.SetColor(color.NRGBA{cardLine.R, cardLine.G, cardLine.B, 0x30})
	dc.Fill()
	for i := range pts {
		dc.LineTo(x(i), y(pts[i].Rating))
	}
	dc.SetColor(cardLine)
	dc.SetLineWidth(2.5 * u)
	dc.SetLineJoin(gg.LineJoinRound)
	dc.SetLineCap(gg.LineCapRound)
	dc.Stroke()
	lx, ly := x(len(pts)-1), y(last.Rating)
	dc.DrawCircle(lx, ly, 5*u)
	dc.SetColor(cardLine)
	dc.Fill()
	dc.DrawCircle(lx, ly, 5*u)
	dc.SetColor(cardBack)
	dc.SetLineWidth(2 * u)
	dc.Stroke()
	return encodePNG(w, dc.Image())
}

// niceStep rounds a raw step up to 1, 2, 2.5 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// dateLabel formats a tick of a time axis spanning span.
func dateLabel(t time.Time, span time.Duration) string {
	switch {
	case span < 48*time.Hour:
		return t.Format("15:04")
	case span < 300*24*time.Hour:
		return t.Format("2 Jan")
	}
	return t.Format("Jan 2006")
}
