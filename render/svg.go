// svg.go: the piece set and the themes as SVG and CSS colours, for the web's board: the
// same artist (pieces.go) draws each piece through an svgPen, so the web and the PNG
// boards show the same shapes in the same inks.

package render

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
)

// PieceSVG returns the SVG elements that draw pc in a 100×100 user-unit box (put them
// in an <svg viewBox="0 0 100 100"> or a <symbol> of that box), or "" for no piece.
// The markup holds only paths with fixed colours: no script, no reference to anything.
func PieceSVG(pc chesscore.Piece) string {
	if pc == chesscore.NoPiece {
		return ""
	}
	p := &svgPen{}
	p.out.WriteString(`<g stroke-linejoin="round" stroke-linecap="round">`)
	a := artist{dc: p, scale: 1, inks: pieceColor[pc.Color()], black: pc.Color() == chesscore.Black}
	switch pc.Type() {
	case chesscore.Pawn:
		a.pawn()
	case chesscore.Knight:
		a.knight()
	case chesscore.Bishop:
		a.bishop()
	case chesscore.Rook:
		a.rook()
	case chesscore.Queen:
		a.queen()
	case chesscore.King:
		a.king()
	}
	p.out.WriteString(`</g>`)
	return p.out.String()
}

// ThemeColors are a board theme's colours as CSS hex colours.
type ThemeColors struct {
	Name                string
	Light, Dark         string // the squares
	LastLight, LastDark string // the squares of the last move
	Check               string // the glow under a king in check
}

// Theme returns the colours of the theme called name ("" means DefaultTheme).
func Theme(name string) (ThemeColors, error) {
	t, err := lookupTheme(name)
	if err != nil {
		return ThemeColors{}, err
	}
	return ThemeColors{Name: t.name, Light: hexColor(t.light), Dark: hexColor(t.dark),
		LastLight: hexColor(t.lastLight), LastDark: hexColor(t.lastDark), Check: hexColor(t.check)}, nil
}

func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// svgPen records what the artist draws as SVG paths. It follows gg's model: a path is
// built, then filled (kept with FillPreserve) and stroked; Stroke and Fill end it.
type svgPen struct {
	out     strings.Builder
	d       strings.Builder // the path being built
	current bool            // the path has a current point
	color   string
	width   float64
	fill    string // the fill FillPreserve kept for the next Stroke
}

func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func (p *svgPen) cmd(c byte, vs ...float64) {
	p.d.WriteByte(c)
	for i, v := range vs {
		if i > 0 {
			p.d.WriteByte(' ')
		}
		p.d.WriteString(num(v))
	}
	p.current = true
}

func (p *svgPen) MoveTo(x, y float64)                    { p.cmd('M', x, y) }
func (p *svgPen) LineTo(x, y float64)                    { p.cmd('L', x, y) }
func (p *svgPen) CubicTo(x1, y1, x2, y2, x3, y3 float64) { p.cmd('C', x1, y1, x2, y2, x3, y3) }
func (p *svgPen) QuadraticTo(x1, y1, x2, y2 float64)     { p.cmd('Q', x1, y1, x2, y2) }
func (p *svgPen) ClosePath() {
	if p.current {
		p.d.WriteByte('Z')
	}
}
func (p *svgPen) ClearPath() {
	p.d.Reset()
	p.current = false
	p.fill = ""
}

// arc adds an elliptical arc from angle a1 to a2 (radians, clockwise on screen as in gg),
// joined to the current point by a line, or starting the path.
func (p *svgPen) arc(x, y, rx, ry, a1, a2 float64) {
	sx, sy := x+rx*math.Cos(a1), y+ry*math.Sin(a1)
	if p.current {
		p.cmd('L', sx, sy)
	} else {
		p.cmd('M', sx, sy)
	}
	ex, ey := x+rx*math.Cos(a2), y+ry*math.Sin(a2)
	large := 0.0
	if math.Abs(a2-a1) > math.Pi {
		large = 1
	}
	p.cmd('A', rx, ry, 0, large, 1, ex, ey)
}

func (p *svgPen) DrawEllipticalArc(x, y, rx, ry, a1, a2 float64) { p.arc(x, y, rx, ry, a1, a2) }

func (p *svgPen) DrawEllipse(x, y, rx, ry float64) {
	// Two half arcs as a new subpath: one arc cannot end where it starts.
	p.cmd('M', x+rx, y)
	p.cmd('A', rx, ry, 0, 0, 1, x-rx, y)
	p.cmd('A', rx, ry, 0, 0, 1, x+rx, y)
	p.d.WriteByte('Z')
}

func (p *svgPen) DrawCircle(x, y, r float64) { p.DrawEllipse(x, y, r, r) }

func (p *svgPen) DrawRoundedRectangle(x, y, w, h, r float64) {
	p.cmd('M', x+r, y)
	p.cmd('H', x+w-r)
	p.cmd('A', r, r, 0, 0, 1, x+w, y+r)
	p.cmd('V', y+h-r)
	p.cmd('A', r, r, 0, 0, 1, x+w-r, y+h)
	p.cmd('H', x+r)
	p.cmd('A', r, r, 0, 0, 1, x, y+h-r)
	p.cmd('V', y+r)
	p.cmd('A', r, r, 0, 0, 1, x+r, y)
	p.d.WriteByte('Z')
}

func (p *svgPen) SetColor(c color.Color) { p.color = hexColor(c) }
func (p *svgPen) SetLineWidth(w float64) { p.width = w }

func (p *svgPen) FillPreserve() { p.fill = p.color }

func (p *svgPen) Fill() {
	fmt.Fprintf(&p.out, `<path d="%s" fill="%s"/>`, p.d.String(), p.color)
	p.ClearPath()
}

func (p *svgPen) Stroke() {
	fill := p.fill
	if fill == "" {
		fill = "none"
	}
	fmt.Fprintf(&p.out, `<path d="%s" fill="%s" stroke="%s" stroke-width="%s"/>`, p.d.String(), fill, p.color, num(p.width))
	p.ClearPath()
}
