// board.go: composing a board from cached tiles, and arrows and marks over it.

package render

import (
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"

	"github.com/gambitchess/gambit/chesscore"
)

// squareKinds returns what lies under each square: the last move's squares and the
// king in check are highlighted.
func squareKinds(pos *chesscore.Position, last chesscore.Move, noCheck bool) [64]squareKind {
	var k [64]squareKind
	if last != chesscore.NullMove {
		k[last.From()&63] = lastMoveSquare
		k[last.To()&63] = lastMoveSquare
	}
	if !noCheck && pos.InCheck() {
		if ksq := pos.KingSquare(pos.Turn()); ksq <= chesscore.H8 {
			k[ksq] = checkSquare
		}
	}
	return k
}

// drawBoard composes the board into dst, top pixels from its top edge. dst must be
// exactly as wide as the board.
func (s *boardSet) drawBoard(dst *image.Paletted, top int, pos *chesscore.Position, opt *BoardOptions) error {
	bases, err := s.base(opt.Flip, opt.Coordinates)
	if err != nil {
		return err
	}
	n := 8 * s.sq
	base := bases[plainSquare]
	for row := 0; row < n; row++ {
		d := dst.PixOffset(0, top+row)
		copy(dst.Pix[d:d+n], base.Pix[row*n:(row+1)*n])
	}
	kinds := squareKinds(pos, opt.LastMove, opt.NoCheck)
	board := pos.Board()
	for sq := chesscore.A1; sq <= chesscore.H8; sq++ {
		k, pc := kinds[sq], board[sq]
		if k == plainSquare && pc == chesscore.NoPiece {
			continue
		}
		x, y := squareOrigin(sq, s.sq, opt.Flip)
		if k != plainSquare {
			s.copySquare(dst, x, y+top, bases[k], x, y)
		}
		s.pastePiece(dst, x, y+top, k, isDark(sq), pc)
	}
	return nil
}

// copySquare copies the square at (bx, by) of base to (x, y) of dst.
func (s *boardSet) copySquare(dst *image.Paletted, x, y int, base *image.Paletted, bx, by int) {
	for row := 0; row < s.sq; row++ {
		d := dst.PixOffset(x, y+row)
		b := base.PixOffset(bx, by+row)
		copy(dst.Pix[d:d+s.sq], base.Pix[b:b+s.sq])
	}
}

// pastePiece writes the pixels piece pc covers, from its tile on a square of kind k and
// colour dark, to the square at (x, y) of dst.
func (s *boardSet) pastePiece(dst *image.Paletted, x, y int, k squareKind, dark int, pc chesscore.Piece) {
	if pc == chesscore.NoPiece {
		return
	}
	tile := s.tiles[k][dark][pc]
	for row, runs := range s.art.runs[pc] {
		d := dst.PixOffset(x, y+row)
		t := row * s.sq
		for _, r := range runs {
			copy(dst.Pix[d+int(r.x0):d+int(r.x1)], tile[t+int(r.x0):t+int(r.x1)])
		}
	}
}

// drawAnnotations draws the marks, then the arrows, over the board in img.
func (b *board) drawAnnotations(img *image.RGBA) {
	dc := gg.NewContextForRGBA(img)
	sq := float64(b.set.sq)
	centre := func(s chesscore.Square) (float64, float64) {
		x, y := squareOrigin(s, b.set.sq, b.opt.Flip)
		return float64(x) + sq/2, float64(y+b.barH) + sq/2
	}
	for _, m := range b.opt.Marks {
		x, y := centre(m.Square)
		dc.SetColor(translucent(m.Color, 0.8))
		switch m.Shape {
		case Ring:
			dc.SetLineWidth(sq * 0.08)
			dc.DrawCircle(x, y, sq*0.44)
			dc.Stroke()
		case Dot:
			dc.DrawCircle(x, y, sq*0.15)
			dc.Fill()
		case Cross:
			d := sq * 0.3
			dc.SetLineWidth(sq * 0.1)
			dc.SetLineCap(gg.LineCapRound)
			dc.MoveTo(x-d, y-d)
			dc.LineTo(x+d, y+d)
			dc.MoveTo(x+d, y-d)
			dc.LineTo(x-d, y+d)
			dc.Stroke()
		}
	}
	for _, a := range b.opt.Arrows {
		x0, y0 := centre(a.From)
		x1, y1 := centre(a.To)
		arrowPath(dc, x0, y0, x1, y1, sq)
		dc.SetColor(translucent(a.Color, 0.8))
		dc.Fill()
	}
}

// arrowPath adds an arrow outline from (x0, y0) to (x1, y1) as one polygon, so a
// translucent fill never doubles where the shaft meets the head.
func arrowPath(dc *gg.Context, x0, y0, x1, y1, sq float64) {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	ux, uy := dx/l, dy/l // along the arrow
	px, py := -uy, ux    // across it
	shaft, head, headLen := sq*0.085, sq*0.2, sq*0.42
	start := sq * 0.18 // leave the piece on the from square visible
	tipX, tipY := x1-ux*sq*0.12, y1-uy*sq*0.12
	bx, by := tipX-ux*headLen, tipY-uy*headLen
	sx, sy := x0+ux*start, y0+uy*start
	dc.NewSubPath()
	dc.MoveTo(sx+px*shaft, sy+py*shaft)
	dc.LineTo(bx+px*shaft, by+py*shaft)
	dc.LineTo(bx+px*head, by+py*head)
	dc.LineTo(tipX, tipY)
	dc.LineTo(bx-px*head, by-py*head)
	dc.LineTo(bx-px*shaft, by-py*shaft)
	dc.LineTo(sx-px*shaft, sy-py*shaft)
	dc.ClosePath()
}

// translucent returns c (Green when nil) with its opacity scaled by alpha.
func translucent(c color.Color, alpha float64) color.Color {
	if c == nil {
		c = Green
	}
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = uint8(float64(n.A)*alpha + 0.5)
	return n
}
