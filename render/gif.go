// gif.go: an animated replay of a game, one frame per ply; frames after the first hold
// only the squares that changed.

package render

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"io"
	"time"

	"github.com/gambitchess/gambit/chesscore"
)

// Frame is one picture of a replay: a position and the move that led to it.
type Frame struct {
	Position chesscore.Position
	// LastMove is highlighted; chesscore.NullMove for the first position.
	LastMove chesscore.Move
}

// FramesFromMoves returns the frames of a replay: start, then the position after each
// move. It fails on the first illegal move.
func FramesFromMoves(start chesscore.Position, moves []chesscore.Move) ([]Frame, error) {
	frames := make([]Frame, 0, len(moves)+1)
	frames = append(frames, Frame{Position: start})
	pos := start
	for i, m := range moves {
		if !pos.IsLegal(m) {
			return nil, fmt.Errorf("ply %d: move %v is illegal in %s", i+1, m, pos.FEN())
		}
		pos = pos.Play(m)
		frames = append(frames, Frame{Position: pos, LastMove: m})
	}
	return frames, nil
}

// GameFrames returns the frames of a replay of g: its start position, then the
// position after each move.
func GameFrames(g *chesscore.Game) []Frame {
	moves := g.Moves()
	frames := make([]Frame, 0, len(moves)+1)
	frames = append(frames, Frame{Position: g.Start()})
	for i, m := range moves {
		frames = append(frames, Frame{Position: g.PositionAt(i + 1), LastMove: m})
	}
	return frames
}

// GIFOptions says how to draw a replay. The zero value is a 512-pixel board in the
// default theme, one second a move and three seconds on the final position.
type GIFOptions struct {
	Size        int    // board side in pixels, as in BoardOptions
	Theme       string // as in BoardOptions
	Flip        bool   // Black at the bottom
	Coordinates bool   // letters and numbers on the edge squares
	NoCheck     bool   // no glow under a king in check
	// Delay is how long each frame shows, at least 20 ms, in steps of 10 ms; 0 means 1 s.
	Delay time.Duration
	// LastDelay is how long the last frame shows before the replay loops; 0 means 3 s.
	LastDelay time.Duration
}

// MaxFrames bounds the length of a replay.
const MaxFrames = 2000

// cell is what a square shows in a frame.
type cell struct {
	kind  squareKind
	piece chesscore.Piece
}

// GameGIF writes an animated GIF of the frames that loops forever.
func GameGIF(w io.Writer, frames []Frame, opt GIFOptions) error {
	if len(frames) == 0 || len(frames) > MaxFrames {
		return fmt.Errorf("replay of %d frames: want 1 to %d", len(frames), MaxFrames)
	}
	delay, err := centiseconds(opt.Delay, time.Second, "delay")
	if err != nil {
		return err
	}
	lastDelay, err := centiseconds(opt.LastDelay, 3*time.Second, "last delay")
	if err != nil {
		return err
	}
	b, err := prepare(&BoardOptions{Size: opt.Size, Theme: opt.Theme, Flip: opt.Flip, Coordinates: opt.Coordinates, NoCheck: opt.NoCheck})
	if err != nil {
		return err
	}
	s := b.set
	bases, err := s.base(opt.Flip, opt.Coordinates)
	if err != nil {
		return err
	}
	// The board palette plus a transparent colour for the squares a frame leaves alone.
	pal := append(s.pal.colors[:len(s.pal.colors):len(s.pal.colors)], color.RGBA{})
	clear := uint8(len(pal) - 1)
	gw := newGIFWriter(w, b.side, b.side, pal, int(clear))
	coder := lzwPool.Get().(*lzwCoder)
	defer lzwPool.Put(coder)
	buf := make([]byte, b.side*b.side)
	var prev [64]cell
	for i := range frames {
		f := &frames[i]
		kinds := squareKinds(&f.Position, f.LastMove, opt.NoCheck)
		var cur [64]cell
		for sq := range cur {
			cur[sq] = cell{kinds[sq], f.Position.PieceAt(chesscore.Square(sq))}
		}
		var img *image.Paletted
		if i == 0 {
			img = &image.Paletted{Pix: buf, Stride: b.side, Rect: image.Rect(0, 0, b.side, b.side), Palette: pal}
			bo := BoardOptions{Flip: opt.Flip, Coordinates: opt.Coordinates, LastMove: f.LastMove, NoCheck: opt.NoCheck}
			if err := s.drawBoard(img, 0, &f.Position, &bo); err != nil {
				return err
			}
		} else {
			img = s.diffFrame(buf, &prev, &cur, bases, opt.Flip, pal, clear)
		}
		prev = cur
		d := delay
		if i == len(frames)-1 {
			d = lastDelay
		}
		gw.frame(img, d, coder)
	}
	if err := gw.finish(); err != nil {
		return fmt.Errorf("write gif: %w", err)
	}
	return nil
}

// diffFrame returns a frame covering the bounding box of the squares that differ
// between prev and cur, transparent except on those squares.
// The frame's pixels live in buf.
func (s *boardSet) diffFrame(buf []byte, prev, cur *[64]cell, bases [numKinds]*image.Paletted, flip bool, pal color.Palette, clear uint8) *image.Paletted {
	var box image.Rectangle
	for sq := range cur {
		if cur[sq] != prev[sq] {
			x, y := squareOrigin(chesscore.Square(sq), s.sq, flip)
			box = box.Union(image.Rect(x, y, x+s.sq, y+s.sq))
		}
	}
	if box.Empty() {
		// Nothing moved (a repeated frame): one transparent pixel carries the delay.
		box = image.Rect(0, 0, 1, 1)
	}
	img := &image.Paletted{Pix: buf[:box.Dx()*box.Dy()], Stride: box.Dx(), Rect: box, Palette: pal}
	for i := range img.Pix {
		img.Pix[i] = clear
	}
	for sq := range cur {
		c := cur[sq]
		if c == prev[sq] {
			continue
		}
		x, y := squareOrigin(chesscore.Square(sq), s.sq, flip)
		s.copySquare(img, x, y, bases[c.kind], x, y)
		s.pastePiece(img, x, y, c.kind, isDark(chesscore.Square(sq)), c.piece)
	}
	return img
}

// centiseconds converts a frame delay to GIF units, using def for zero.
func centiseconds(d, def time.Duration, what string) (int, error) {
	if d == 0 {
		d = def
	}
	if d < 20*time.Millisecond || d > 10*time.Minute {
		return 0, fmt.Errorf("%s %v: want 20ms to 10m", what, d)
	}
	return int((d + 5*time.Millisecond) / (10 * time.Millisecond)), nil
}

// gifWriter writes an animated GIF with one global palette, frame by frame.
type gifWriter struct {
	w           *bufio.Writer
	transparent int
	err         error
}

// newGIFWriter writes the header, the global palette and the loop-forever extension.
func newGIFWriter(w io.Writer, width, height int, pal color.Palette, transparent int) *gifWriter {
	g := &gifWriter{w: bufio.NewWriterSize(w, 32<<10), transparent: transparent}
	bits := 1 // the table holds 2^bits colours
	for 1<<bits < len(pal) {
		bits++
	}
	g.write([]byte("GIF89a"))
	g.write([]byte{byte(width), byte(width >> 8), byte(height), byte(height >> 8),
		0x80 | byte(bits-1)<<4 | byte(bits-1), 0, 0})
	table := make([]byte, 3<<bits)
	for i, c := range pal {
		r, gr, b, _ := c.RGBA()
		table[3*i], table[3*i+1], table[3*i+2] = byte(r>>8), byte(gr>>8), byte(b>>8)
	}
	g.write(table)
	g.write([]byte{0x21, 0xff, 11})
	g.write([]byte("NETSCAPE2.0"))
	g.write([]byte{3, 1, 0, 0, 0}) // loop count 0: forever
	return g
}

func (g *gifWriter) write(p []byte) {
	if g.err == nil {
		_, g.err = g.w.Write(p)
	}
}

// frame writes one image, shown for delay hundredths of a second and left in place.
func (g *gifWriter) frame(img *image.Paletted, delay int, coder *lzwCoder) {
	r := img.Rect
	const leaveInPlace = 1 << 2
	g.write([]byte{0x21, 0xf9, 4, leaveInPlace | 1, byte(delay), byte(delay >> 8), byte(g.transparent), 0})
	g.write([]byte{0x2c, byte(r.Min.X), byte(r.Min.X >> 8), byte(r.Min.Y), byte(r.Min.Y >> 8),
		byte(r.Dx()), byte(r.Dx() >> 8), byte(r.Dy()), byte(r.Dy() >> 8), 0})
	if g.err == nil {
		g.err = coder.encode(g.w, img.Pix)
	}
}

// finish writes the trailer and flushes.
func (g *gifWriter) finish() error {
	g.write([]byte{0x3b})
	if g.err == nil {
		g.err = g.w.Flush()
	}
	return g.err
}
