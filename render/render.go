// Package render draws Gambit's pictures: board PNGs, game GIFs, rating charts and
// leaderboard cards.
//
// Boards are fast because almost nothing is drawn per call. Each theme and size is
// rendered once, lazily, into palette-indexed square tiles (cache.go): the pieces are
// Gambit's own vector artwork (pieces.go) and the palette holds the theme's colours
// with blend ramps between every pair that meets at an edge (palette.go), so
// antialiasing survives quantisation. A board is the cached empty board with the tiles
// of its pieces copied in (board.go), written straight into the scanlines of a PNG coder
// made for boards (pngenc.go: it only looks for runs and for the row above). Player
// bars are drawn per call and quantised to the same palette; arrows and marks make the
// picture full colour. A replay GIF (gif.go) sends only the squares that changed after
// the first frame, coded by an LZW coder that matches runs in one step (lzw.go).
//
// Everything here is safe for concurrent use.
package render

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"sync"

	"github.com/gambitchess/gambit/chesscore"
)

// Board sizes in pixels.
const (
	DefaultSize = 512
	MinSize     = 128
	MaxSize     = 2048
)

// BoardOptions says how to draw a board. The zero value is a 512-pixel board in the
// default theme, White at the bottom, no coordinates.
type BoardOptions struct {
	// Size is the side of the board in pixels, MinSize to MaxSize, rounded down to a
	// multiple of 8; 0 means DefaultSize. Player bars add to the height.
	Size int
	// Theme names the board colours (see Themes); "" means DefaultTheme.
	Theme string
	// Flip puts Black at the bottom.
	Flip bool
	// Coordinates writes the file letters and rank numbers on the edge squares.
	Coordinates bool
	// LastMove highlights its from and to squares; chesscore.NullMove for none.
	LastMove chesscore.Move
	// NoCheck turns off the glow under a king in check.
	NoCheck bool
	// Arrows and Marks annotate the board for analysis and puzzles.
	Arrows []Arrow
	Marks  []Mark
	// White and Black, when set, add player bars above and below the board (the
	// bottom bar is the side at the bottom).
	White, Black *PlayerBar
}

// Arrow is an arrow from the centre of one square to another.
type Arrow struct {
	From, To chesscore.Square
	// Color is the arrow's colour, drawn translucent; nil means Green.
	Color color.Color
}

// MarkShape is the shape of a Mark.
type MarkShape uint8

// The mark shapes.
const (
	Ring  MarkShape = iota // a circle around the square
	Dot                    // a dot in the middle, as for a possible move
	Cross                  // an X, as for a wrong move
)

// Mark is a shape drawn on one square.
type Mark struct {
	Square chesscore.Square
	Shape  MarkShape
	// Color is the mark's colour, drawn translucent; nil means Green.
	Color color.Color
}

// Colours for arrows and marks.
var (
	Green  color.Color = color.RGBA{0x15, 0x78, 0x1b, 0xff}
	Red    color.Color = color.RGBA{0xc8, 0x22, 0x22, 0xff}
	Blue   color.Color = color.RGBA{0x1f, 0x5f, 0xc8, 0xff}
	Yellow color.Color = color.RGBA{0xe6, 0xa8, 0x10, 0xff}
)

// board is the validated form of BoardOptions.
type board struct {
	set    *boardSet
	opt    *BoardOptions
	side   int // board side in pixels
	barH   int // height of one player bar, 0 without bars
	top    *PlayerBar
	bottom *PlayerBar
	topC   chesscore.Color // side of the top bar
}

func prepare(opt *BoardOptions) (*board, error) {
	size := opt.Size
	if size == 0 {
		size = DefaultSize
	}
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("board size %d: want %d to %d pixels", size, MinSize, MaxSize)
	}
	t, err := lookupTheme(opt.Theme)
	if err != nil {
		return nil, err
	}
	if m := opt.LastMove; m != chesscore.NullMove && (m.From() > chesscore.H8 || m.To() > chesscore.H8) {
		return nil, fmt.Errorf("last move %v: square off the board", m)
	}
	for _, a := range opt.Arrows {
		if a.From > chesscore.H8 || a.To > chesscore.H8 || a.From == a.To {
			return nil, fmt.Errorf("arrow %v-%v: want two different squares on the board", a.From, a.To)
		}
	}
	for _, m := range opt.Marks {
		if m.Square > chesscore.H8 || m.Shape > Cross {
			return nil, fmt.Errorf("mark on %v: bad square or shape %d", m.Square, m.Shape)
		}
	}
	sq := size / 8
	b := &board{set: boardSetFor(t, sq), opt: opt, side: 8 * sq}
	b.top, b.bottom, b.topC = opt.Black, opt.White, chesscore.Black
	if opt.Flip {
		b.top, b.bottom, b.topC = opt.White, opt.Black, chesscore.White
	}
	if opt.White != nil || opt.Black != nil {
		b.barH = barHeight(b.side)
	}
	return b, nil
}

// height is the height of the whole picture.
func (b *board) height() int {
	if b.barH == 0 {
		return b.side
	}
	return b.side + 2*b.barH
}

// Image draws the position. Without arrows and marks the result is an *image.Paletted
// in the theme's palette; with them it is an *image.RGBA.
func Image(pos *chesscore.Position, opt BoardOptions) (image.Image, error) {
	b, err := prepare(&opt)
	if err != nil {
		return nil, err
	}
	return b.draw(pos)
}

func (b *board) draw(pos *chesscore.Position) (image.Image, error) {
	img := image.NewPaletted(image.Rect(0, 0, b.side, b.height()), b.set.pal.colors)
	if err := b.drawPaletted(img, pos); err != nil {
		return nil, err
	}
	if !b.annotated() {
		return img, nil
	}
	rgba := toRGBA(img)
	b.drawAnnotations(rgba)
	return rgba, nil
}

// annotated reports whether arrows or marks make the picture full colour.
func (b *board) annotated() bool { return len(b.opt.Arrows) > 0 || len(b.opt.Marks) > 0 }

// drawPaletted draws the board and the player bars into img.
func (b *board) drawPaletted(img *image.Paletted, pos *chesscore.Position) error {
	if err := b.set.drawBoard(img, b.barH, pos, b.opt); err != nil {
		return err
	}
	if b.barH > 0 {
		return b.drawBars(img, pos)
	}
	return nil
}

// PNG draws the position and writes it to w as a PNG. A paletted picture is drawn
// straight into the encoder's buffer.
func PNG(w io.Writer, pos *chesscore.Position, opt BoardOptions) error {
	b, err := prepare(&opt)
	if err != nil {
		return err
	}
	if b.annotated() {
		img, err := b.draw(pos)
		if err != nil {
			return err
		}
		return encodePNG(w, img)
	}
	c := pngCoders.Get().(*pngCoder)
	defer pngCoders.Put(c)
	img := c.canvas(b.side, b.height(), b.set.pal.colors)
	if err := b.drawPaletted(img, pos); err != nil {
		return err
	}
	return c.encode(w, img)
}

// encoder writes PNGs at the fastest level, reusing its compression buffers.
var encoder = &png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderPool{}}

type encoderPool struct{ p sync.Pool }

func (e *encoderPool) Get() *png.EncoderBuffer {
	b, _ := e.p.Get().(*png.EncoderBuffer)
	return b
}

func (e *encoderPool) Put(b *png.EncoderBuffer) { e.p.Put(b) }

// encodePNG writes img as a PNG: paletted pictures with the board coder, others with
// the standard encoder at its fastest level.
func encodePNG(w io.Writer, img image.Image) error {
	if p, ok := img.(*image.Paletted); ok {
		return writePalettedPNG(w, p)
	}
	if err := encoder.Encode(w, img); err != nil {
		return fmt.Errorf("encode png: %w", err)
	}
	return nil
}

// toRGBA converts a paletted picture to RGBA for drawing in full colour.
func toRGBA(src *image.Paletted) *image.RGBA {
	dst := image.NewRGBA(src.Rect)
	var lut [256][4]uint8
	for i, c := range src.Palette {
		r, g, b, a := c.RGBA()
		lut[i] = [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	for i, p := range src.Pix {
		copy(dst.Pix[4*i:4*i+4], lut[p][:])
	}
	return dst
}
