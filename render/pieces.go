// pieces.go: Gambit's own piece set, drawn as vector shapes in a 100×100 unit square.

package render

import (
	"image/color"

	"github.com/fogleman/gg"

	"github.com/gambitchess/gambit/chesscore"
)

// pieceInks are the colours one side's pieces are painted with.
type pieceInks struct {
	fill   color.Color // body of the piece
	edge   color.Color // outline of every part
	detail color.Color // inner lines (slits, bands, the knight's mane and eye)
}

// pen is what the artist draws with: a gg context for the PNG boards, an svgPen
// (svg.go) for the web's vector pieces, so both show the same shapes.
type pen interface {
	MoveTo(x, y float64)
	LineTo(x, y float64)
	CubicTo(x1, y1, x2, y2, x3, y3 float64)
	QuadraticTo(x1, y1, x2, y2 float64)
	ClosePath()
	ClearPath()
	DrawCircle(x, y, r float64)
	DrawEllipse(x, y, rx, ry float64)
	DrawEllipticalArc(x, y, rx, ry, angle1, angle2 float64)
	DrawRoundedRectangle(x, y, w, h, r float64)
	SetColor(c color.Color)
	SetLineWidth(w float64)
	Fill()
	FillPreserve()
	Stroke()
}

// artist draws the pieces of one set in a 100×100 unit box. The line widths given in
// units are scaled by hand because gg strokes in device pixels.
type artist struct {
	dc    pen
	scale float64 // device pixels per unit
	inks  pieceInks
	black bool // black pieces get light trim lines where parts meet
}

// outlineUnits is the width of a piece outline in units of the 100-unit box.
const outlineUnits = 3.2

// drawPiece draws pc with its 100-unit box placed at (x, y) with side size pixels.
func drawPiece(dc *gg.Context, pc chesscore.Piece, x, y, size float64, inks [2]pieceInks) {
	if pc == chesscore.NoPiece {
		return
	}
	a := artist{dc: dc, scale: size / 100, inks: inks[pc.Color()], black: pc.Color() == chesscore.Black}
	dc.Push()
	defer dc.Pop()
	dc.Translate(x, y)
	dc.Scale(a.scale, a.scale)
	dc.SetLineJoin(gg.LineJoinRound)
	dc.SetLineCap(gg.LineCapRound)
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
}

// part fills the current path with the body colour and outlines it.
func (a artist) part() {
	a.dc.SetColor(a.inks.fill)
	a.dc.FillPreserve()
	a.dc.SetColor(a.inks.edge)
	a.dc.SetLineWidth(outlineUnits * a.scale)
	a.dc.Stroke()
}

// line strokes the current path as an inner detail line of the given width in units.
func (a artist) line(width float64) {
	a.dc.SetColor(a.inks.detail)
	a.dc.SetLineWidth(width * a.scale)
	a.dc.Stroke()
}

// trim strokes the current path as a thin light line on black pieces only, so that the
// parts of a dark piece stay apart; on white pieces the outlines already do that.
func (a artist) trim() {
	if !a.black {
		a.dc.ClearPath()
		return
	}
	a.line(1.5)
}

// dot fills the current path with the detail colour.
func (a artist) dot() {
	a.dc.SetColor(a.inks.detail)
	a.dc.Fill()
}

// plinth draws the two-step base every piece stands on, between x0 and x1.
func (a artist) plinth(x0, x1 float64) {
	dc := a.dc
	dc.DrawRoundedRectangle(x0, 80, x1-x0, 9, 3)
	a.part()
	dc.MoveTo(x0+4, 83.2)
	dc.LineTo(x1-4, 83.2)
	a.trim()
}

func (a artist) pawn() {
	dc := a.dc
	// Body: a flared skirt from the collar to the base.
	dc.MoveTo(40, 50)
	dc.CubicTo(40, 62, 33, 70, 29, 81)
	dc.LineTo(71, 81)
	dc.CubicTo(67, 70, 60, 62, 60, 50)
	dc.ClosePath()
	a.part()
	a.plinth(25, 75)
	// Collar.
	dc.DrawEllipse(50, 49, 14.5, 4.5)
	a.part()
	dc.DrawEllipticalArc(50, 49, 10.5, 1.6, 0.15, 3.0)
	a.trim()
	// Head.
	dc.DrawCircle(50, 32, 12.5)
	a.part()
}

func (a artist) rook() {
	dc := a.dc
	// Tower.
	dc.MoveTo(34, 37)
	dc.LineTo(66, 37)
	dc.LineTo(68, 72)
	dc.LineTo(32, 72)
	dc.ClosePath()
	a.part()
	// Lower ring.
	dc.MoveTo(30, 72)
	dc.LineTo(70, 72)
	dc.LineTo(73, 81)
	dc.LineTo(27, 81)
	dc.ClosePath()
	a.part()
	dc.MoveTo(34, 76.5)
	dc.LineTo(66, 76.5)
	a.trim()
	a.plinth(21, 79)
	// Top ring under the battlements.
	dc.MoveTo(27, 31)
	dc.LineTo(73, 31)
	dc.LineTo(67, 38)
	dc.LineTo(33, 38)
	dc.ClosePath()
	a.part()
	dc.MoveTo(33, 34.5)
	dc.LineTo(67, 34.5)
	a.trim()
	// Battlements: three merlons.
	dc.MoveTo(26, 31)
	dc.LineTo(26, 13)
	dc.LineTo(35, 13)
	dc.LineTo(35, 19)
	dc.LineTo(45, 19)
	dc.LineTo(45, 13)
	dc.LineTo(55, 13)
	dc.LineTo(55, 19)
	dc.LineTo(65, 19)
	dc.LineTo(65, 13)
	dc.LineTo(74, 13)
	dc.LineTo(74, 31)
	dc.ClosePath()
	a.part()
}

func (a artist) bishop() {
	dc := a.dc
	// Skirt.
	dc.MoveTo(41, 66)
	dc.CubicTo(41, 72, 34, 76, 31, 81)
	dc.LineTo(69, 81)
	dc.CubicTo(66, 76, 59, 72, 59, 66)
	dc.ClosePath()
	a.part()
	a.plinth(24, 76)
	// Mitre.
	dc.MoveTo(50, 17)
	dc.CubicTo(62, 25, 70, 37, 68, 49)
	dc.CubicTo(67, 56, 62, 60, 59, 62)
	dc.LineTo(41, 62)
	dc.CubicTo(38, 60, 33, 56, 32, 49)
	dc.CubicTo(30, 37, 38, 25, 50, 17)
	dc.ClosePath()
	a.part()
	// Slit.
	dc.MoveTo(59, 31)
	dc.LineTo(48, 44)
	a.line(3.4)
	// Collar.
	dc.DrawEllipse(50, 64, 15, 4.5)
	a.part()
	dc.DrawEllipticalArc(50, 64, 11, 1.6, 0.15, 3.0)
	a.trim()
	// Knob.
	dc.DrawCircle(50, 13.5, 5.5)
	a.part()
}

func (a artist) queen() {
	dc := a.dc
	// Coronet: five points joined by valleys.
	dc.MoveTo(30, 70)
	dc.LineTo(17, 31)
	dc.LineTo(35, 52)
	dc.LineTo(34, 24)
	dc.LineTo(46, 49)
	dc.LineTo(50, 19)
	dc.LineTo(54, 49)
	dc.LineTo(66, 24)
	dc.LineTo(65, 52)
	dc.LineTo(83, 31)
	dc.LineTo(70, 70)
	dc.ClosePath()
	a.part()
	// Pearls on the points.
	for _, p := range [][2]float64{{17, 29}, {34, 22}, {50, 16}, {66, 22}, {83, 29}} {
		dc.DrawCircle(p[0], p[1], 5)
		a.part()
	}
	// Band and skirt.
	dc.MoveTo(29, 68)
	dc.QuadraticTo(50, 62, 71, 68)
	dc.LineTo(74, 81)
	dc.LineTo(26, 81)
	dc.ClosePath()
	a.part()
	dc.MoveTo(29.5, 74)
	dc.QuadraticTo(50, 68, 70.5, 74)
	a.line(2.4)
	a.plinth(21, 79)
}

func (a artist) king() {
	dc := a.dc
	// Cross.
	dc.MoveTo(46.8, 5.2)
	dc.LineTo(53.2, 5.2)
	dc.LineTo(53.2, 10)
	dc.LineTo(60, 10)
	dc.LineTo(60, 16.2)
	dc.LineTo(53.2, 16.2)
	dc.LineTo(53.2, 24)
	dc.LineTo(46.8, 24)
	dc.LineTo(46.8, 16.2)
	dc.LineTo(40, 16.2)
	dc.LineTo(40, 10)
	dc.LineTo(46.8, 10)
	dc.ClosePath()
	a.part()
	// Body: concave sides from the crown down to the band.
	dc.MoveTo(36, 40)
	dc.CubicTo(39, 52, 33, 62, 29, 71)
	dc.LineTo(71, 71)
	dc.CubicTo(67, 62, 61, 52, 64, 40)
	dc.ClosePath()
	a.part()
	// Band and skirt.
	dc.MoveTo(29, 68)
	dc.QuadraticTo(50, 62, 71, 68)
	dc.LineTo(74, 81)
	dc.LineTo(26, 81)
	dc.ClosePath()
	a.part()
	dc.MoveTo(29.5, 74)
	dc.QuadraticTo(50, 68, 70.5, 74)
	a.line(2.4)
	a.plinth(21, 79)
	// Dome.
	dc.MoveTo(32, 34)
	dc.CubicTo(32, 19, 68, 19, 68, 34)
	dc.ClosePath()
	a.part()
	// Crown rim, flaring outwards.
	dc.MoveTo(25, 31)
	dc.QuadraticTo(50, 37, 75, 31)
	dc.LineTo(67, 42)
	dc.QuadraticTo(50, 45, 33, 42)
	dc.ClosePath()
	a.part()
	dc.MoveTo(33, 36.5)
	dc.QuadraticTo(50, 40.5, 67, 36.5)
	a.trim()
}

func (a artist) knight() {
	dc := a.dc
	a.plinth(22, 78)
	// Head and neck, facing left.
	dc.MoveTo(75, 81)
	dc.CubicTo(78, 62, 76, 40, 65, 26)
	dc.CubicTo(63, 23, 61, 20, 59, 18)
	dc.LineTo(61, 7)
	dc.LineTo(52, 14)
	dc.CubicTo(43, 14, 34, 20, 28, 30)
	dc.CubicTo(24, 38, 18, 45, 15, 53)
	dc.CubicTo(13, 58, 15, 63, 20, 64)
	dc.CubicTo(25, 65, 29, 62, 33, 60)
	dc.CubicTo(37, 58, 41, 57, 46, 55)
	dc.CubicTo(40, 63, 33, 71, 31, 81)
	dc.ClosePath()
	a.part()
	// Mane: a scalloped line along the back of the neck.
	dc.MoveTo(60, 24)
	dc.QuadraticTo(67, 27, 64, 33)
	dc.QuadraticTo(71, 37, 67, 43)
	dc.QuadraticTo(74, 48, 69, 54)
	dc.QuadraticTo(75, 60, 70, 66)
	dc.QuadraticTo(75, 71, 71, 77)
	a.line(2.4)
	// Eye and nostril.
	dc.DrawEllipse(41, 30, 3.4, 2.4)
	a.dot()
	dc.DrawCircle(21, 56, 1.9)
	a.dot()
	// Mouth.
	dc.MoveTo(19, 61)
	dc.LineTo(26, 60)
	a.line(1.6)
}
