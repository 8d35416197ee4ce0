// chart.go: the line charts of the pages (rating histories, a game's evaluation),
// drawn on the server as SVG: no script, no library, nothing fetched.

package web

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"
)

// series is one line of a chart: its label and its points (x any increasing scale,
// such as Unix seconds or plies; y the value).
type series struct {
	Label  string
	Points []chartPoint
}

type chartPoint struct{ X, Y float64 }

// chartSpec is what a chart shows around its lines.
type chartSpec struct {
	// Title is the chart's accessible name.
	Title string
	// YMin and YMax bound the y axis when Fixed (an evaluation's -10..+10); otherwise
	// the axis spans the data with a margin.
	Fixed      bool
	YMin, YMax float64
	// Zero draws the y = 0 line (the evaluation's balance).
	Zero bool
	// XLabels are the labels under the x axis's two ends ("" for none).
	XFirst, XLast string
}

// chart dimensions in the SVG's user units.
const (
	chartW, chartH       = 640.0, 220.0
	chartLeft, chartBot  = 48.0, 22.0
	chartTop, chartRight = 10.0, 10.0
)

// lineChart returns the SVG of lines under spec: one polyline per series (class
// line-<i>, coloured by the style sheet), a labelled y axis, a legend. Without points it
// says so in a text.
func lineChart(spec chartSpec, lines []series) template.HTML {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`,
		chartW, chartH, html.EscapeString(spec.Title))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(spec.Title))
	minX, maxX := math.Inf(1), math.Inf(-1)
	minY, maxY := math.Inf(1), math.Inf(-1)
	n := 0
	for _, l := range lines {
		for _, p := range l.Points {
			minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
			minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
			n++
		}
	}
	if n == 0 {
		b.WriteString(`<text class="chart-empty" x="320" y="110" text-anchor="middle">No data yet</text></svg>`)
		return template.HTML(b.String())
	}
	if spec.Fixed {
		minY, maxY = spec.YMin, spec.YMax
	} else {
		pad := math.Max(10, (maxY-minY)*0.08)
		minY, maxY = math.Floor((minY-pad)/10)*10, math.Ceil((maxY+pad)/10)*10
	}
	if maxX == minX {
		minX, maxX = minX-1, maxX+1
	}
	plotW, plotH := chartW-chartLeft-chartRight, chartH-chartTop-chartBot
	px := func(x float64) float64 { return chartLeft + (x-minX)/(maxX-minX)*plotW }
	py := func(y float64) float64 {
		y = math.Max(minY, math.Min(maxY, y))
		return chartTop + (maxY-y)/(maxY-minY)*plotH
	}
	fmt.Fprintf(&b, `<rect class="chart-frame" x="%g" y="%g" width="%g" height="%g"/>`, chartLeft, chartTop, plotW, plotH)
	for _, v := range []float64{maxY, (minY + maxY) / 2, minY} {
		fmt.Fprintf(&b, `<line class="chart-grid" x1="%g" y1="%.1f" x2="%g" y2="%.1f"/><text class="chart-label" x="%g" y="%.1f" text-anchor="end">%s</text>`,
			chartLeft, py(v), chartW-chartRight, py(v), chartLeft-4, py(v)+4, axisLabel(v, spec.Fixed))
	}
	if spec.Zero && minY < 0 && maxY > 0 {
		fmt.Fprintf(&b, `<line class="chart-zero" x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, chartLeft, py(0), chartW-chartRight, py(0))
	}
	if spec.XFirst != "" {
		fmt.Fprintf(&b, `<text class="chart-label" x="%g" y="%g">%s</text>`, chartLeft, chartH-6, html.EscapeString(spec.XFirst))
	}
	if spec.XLast != "" {
		fmt.Fprintf(&b, `<text class="chart-label" x="%g" y="%g" text-anchor="end">%s</text>`, chartW-chartRight, chartH-6, html.EscapeString(spec.XLast))
	}
	for i, l := range lines {
		if len(l.Points) == 0 {
			continue
		}
		fmt.Fprintf(&b, `<polyline class="chart-line line-%d" data-series="%s" points="`, i%6, html.EscapeString(l.Label))
		for j, p := range l.Points {
			if j > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%.1f,%.1f", px(p.X), py(p.Y))
		}
		b.WriteString(`"/>`)
		if len(l.Points) == 1 {
			fmt.Fprintf(&b, `<circle class="chart-dot line-%d" cx="%.1f" cy="%.1f" r="3"/>`, i%6, px(l.Points[0].X), py(l.Points[0].Y))
		}
	}
	if len(lines) > 1 {
		for i, l := range lines {
			x := chartLeft + 8 + float64(i%3)*190
			y := chartTop + 14 + float64(i/3)*16
			fmt.Fprintf(&b, `<line class="chart-line line-%d" x1="%g" y1="%g" x2="%g" y2="%g"/><text class="chart-legend" x="%g" y="%g">%s</text>`,
				i%6, x, y-4, x+16, y-4, x+20, y, html.EscapeString(l.Label))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text above is escaped
}

// axisLabel writes a y value: a rating whole, an evaluation in pawns with its sign.
func axisLabel(v float64, signed bool) string {
	if signed && math.Round(v) != 0 {
		return fmt.Sprintf("%+.0f", v)
	}
	return fmt.Sprintf("%.0f", v)
}
