// cache.go: pieces, square tiles and empty boards, rendered once per theme and size
// and kept in small bounded caches that are safe for concurrent use.

package render

import (
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/fogleman/gg"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/lru"
)

// squareKind is what lies under a piece: the plain square, the last-move highlight or
// the glow of a king in check.
type squareKind uint8

const (
	plainSquare squareKind = iota
	lastMoveSquare
	checkSquare
	numKinds
)

// span is a run of pixels [x0, x1) in one row of a tile.
type span struct{ x0, x1 int32 }

// allPieces lists the twelve pieces.
var allPieces = [...]chesscore.Piece{
	chesscore.WhitePawn, chesscore.WhiteKnight, chesscore.WhiteBishop,
	chesscore.WhiteRook, chesscore.WhiteQueen, chesscore.WhiteKing,
	chesscore.BlackPawn, chesscore.BlackKnight, chesscore.BlackBishop,
	chesscore.BlackRook, chesscore.BlackQueen, chesscore.BlackKing,
}

// pieceArt is every piece drawn once at one tile size on a transparent background.
type pieceArt struct {
	size int
	img  [16]*image.RGBA  // by chesscore.Piece; nil for values that are not pieces
	mask [16]*image.Alpha // the coverage of each piece, for silhouettes
	runs [16][][]span     // by piece, then row: the runs of pixels the piece covers
}

func newPieceArt(size int) *pieceArt {
	a := &pieceArt{size: size}
	for _, pc := range allPieces {
		dc := gg.NewContext(size, size)
		drawPiece(dc, pc, 0, 0, float64(size), pieceColor)
		img := dc.Image().(*image.RGBA)
		a.img[pc] = img
		a.mask[pc] = image.NewAlpha(img.Rect)
		for i := range a.mask[pc].Pix {
			a.mask[pc].Pix[i] = img.Pix[4*i+3]
		}
		a.runs[pc] = coverRuns(img)
	}
	return a
}

// coverRuns returns, row by row, the runs of pixels that are not fully transparent.
func coverRuns(img *image.RGBA) [][]span {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	runs := make([][]span, h)
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < w; {
			if row[4*x+3] == 0 {
				x++
				continue
			}
			x0 := x
			for x < w && row[4*x+3] != 0 {
				x++
			}
			runs[y] = append(runs[y], span{int32(x0), int32(x)})
		}
	}
	return runs
}

// over composites the premultiplied image fg onto the opaque image dst in place.
func over(dst, fg *image.RGBA) {
	for i := 0; i+3 < len(fg.Pix) && i+3 < len(dst.Pix); i += 4 {
		a := uint32(fg.Pix[i+3])
		if a == 0 {
			continue
		}
		for c := 0; c < 3; c++ {
			dst.Pix[i+c] = uint8(uint32(fg.Pix[i+c]) + (uint32(dst.Pix[i+c])*(255-a)+127)/255)
		}
	}
}

// boardSet holds everything needed to compose boards of one theme and square size.
type boardSet struct {
	theme *theme
	pal   *palette
	sq    int
	art   *pieceArt
	// bg[k][c] is the background of a square of kind k and colour c (0 light, 1 dark).
	bg [numKinds][2]*image.RGBA
	// tiles[k][c][pc] is piece pc on that background as palette indices, sq×sq;
	// tiles[k][c][NoPiece] is the bare background.
	tiles [numKinds][2][16][]uint8
	bases [2][2]lazyBase // by flip, then coordinates
}

// lazyBase is an empty board of each square kind, built on first use.
type lazyBase struct {
	once sync.Once
	img  [numKinds]*image.Paletted
	err  error
}

func newBoardSet(t *theme, sq int) *boardSet {
	s := &boardSet{theme: t, pal: palettes.GetOrBuild(t.name, func() *palette { return buildPalette(t) }), sq: sq}
	s.art = arts.GetOrBuild(sq, func() *pieceArt { return newPieceArt(sq) })
	q := s.pal.quantizer()
	for k := range numKinds {
		for c := range 2 {
			bg := s.squareBackground(squareKind(k), c)
			s.bg[k][c] = bg
			idx := image.NewPaletted(bg.Rect, s.pal.colors)
			q.quantize(idx, bg, image.Point{})
			s.tiles[k][c][chesscore.NoPiece] = idx.Pix
			for _, pc := range allPieces {
				img := image.NewRGBA(bg.Rect)
				copy(img.Pix, bg.Pix)
				over(img, s.art.img[pc])
				idx := image.NewPaletted(bg.Rect, s.pal.colors)
				q.quantize(idx, img, image.Point{})
				s.tiles[k][c][pc] = idx.Pix
			}
		}
	}
	return s
}

// squareColor returns the plain colour of a light (c = 0) or dark (c = 1) square of kind k;
// for checkSquare it is the colour the glow fades into.
func (s *boardSet) squareColor(k squareKind, c int) color.RGBA {
	t := s.theme
	if k == lastMoveSquare {
		return [2]color.RGBA{t.lastLight, t.lastDark}[c]
	}
	return [2]color.RGBA{t.light, t.dark}[c]
}

// squareBackground paints one empty square of kind k and colour c.
func (s *boardSet) squareBackground(k squareKind, c int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, s.sq, s.sq))
	base := s.squareColor(k, c)
	if k == checkSquare {
		paintCheckGlow(img, img.Rect, s.theme.check, base)
		return img
	}
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = base.R, base.G, base.B, 0xff
	}
	return img
}

// paintCheckGlow fills r with a radial glow: the check colour in the middle fading into
// the square colour before the edges.
func paintCheckGlow(img *image.RGBA, r image.Rectangle, centre, edge color.RGBA) {
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	half := float64(r.Dx()) / 2
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) / half
			t := math.Max(0, math.Min(1, (d-0.15)/0.9))
			t = t * t * (3 - 2*t)
			c := mix(centre, edge, t)
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 0xff
		}
	}
}

// isDark reports whether sq is a dark square (a1 is dark).
func isDark(sq chesscore.Square) int {
	return 1 - (sq.File()+sq.Rank())&1
}

// squareOrigin returns the top-left pixel of sq on a board of squares size pixels wide.
func squareOrigin(sq chesscore.Square, size int, flip bool) (x, y int) {
	f, r := sq.File(), sq.Rank()
	if flip {
		f, r = 7-f, 7-r
	}
	return f * size, (7 - r) * size
}

// base returns the empty boards of every square kind for an orientation, with or
// without coordinates.
func (s *boardSet) base(flip, coords bool) ([numKinds]*image.Paletted, error) {
	b := &s.bases[b2i(flip)][b2i(coords)]
	b.once.Do(func() { b.img, b.err = s.buildBase(flip, coords) })
	return b.img, b.err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *boardSet) buildBase(flip, coords bool) ([numKinds]*image.Paletted, error) {
	var out [numKinds]*image.Paletted
	n := 8 * s.sq
	q := s.pal.quantizer()
	for k := range numKinds {
		img := image.NewPaletted(image.Rect(0, 0, n, n), s.pal.colors)
		for sq := chesscore.A1; sq <= chesscore.H8; sq++ {
			x, y := squareOrigin(sq, s.sq, flip)
			tile := s.tiles[k][isDark(sq)][chesscore.NoPiece]
			for row := 0; row < s.sq; row++ {
				copy(img.Pix[(y+row)*n+x:(y+row)*n+x+s.sq], tile[row*s.sq:(row+1)*s.sq])
			}
		}
		if coords {
			if err := s.drawCoordinates(img, squareKind(k), flip, q); err != nil {
				return out, err
			}
		}
		out[k] = img
	}
	return out, nil
}

// drawCoordinates writes the file letters along the bottom edge and the rank numbers
// along the left edge, in the colour of the other kind of square.
func (s *boardSet) drawCoordinates(img *image.Paletted, k squareKind, flip bool, q *quantizer) error {
	f, err := face(bold, labelSize(s.sq))
	if err != nil {
		return err
	}
	defer f.Close()
	bottom, left := 0, 0 // rank and file along the bottom and left edges
	if flip {
		bottom, left = 7, 7
	}
	for sq := chesscore.A1; sq <= chesscore.H8; sq++ {
		onBottom, onLeft := sq.Rank() == bottom, sq.File() == left
		if !onBottom && !onLeft {
			continue
		}
		c := isDark(sq)
		dc := gg.NewContext(s.sq, s.sq)
		dc.DrawImage(s.bg[k][c], 0, 0)
		dc.SetFontFace(f)
		dc.SetColor(s.squareColor(plainSquare, 1-c))
		drawLabels(dc, sq, 0, 0, s.sq, onLeft, onBottom)
		x, y := squareOrigin(sq, s.sq, flip)
		q.quantize(img, dc.Image().(*image.RGBA), image.Pt(x, y))
	}
	return nil
}

// labelSize is the pixel height of the coordinate labels on squares sq pixels wide:
// small enough that a file letter stays clear of a piece's base.
func labelSize(sq int) float64 { return math.Max(8, float64(sq)*0.21) }

// drawLabels writes the rank number (top left) and the file letter (bottom right) of
// square s, whose top-left corner is at (x, y), in the current face and colour.
func drawLabels(dc *gg.Context, s chesscore.Square, x, y, sq int, rank, file bool) {
	pad := float64(sq) * 0.045
	if rank {
		dc.DrawStringAnchored(string(rune('1'+s.Rank())), float64(x)+pad, float64(y)+pad*0.6, 0, 1)
	}
	if file {
		dc.DrawStringAnchored(string(rune('a'+s.File())), float64(x+sq)-pad, float64(y+sq)-pad*1.2, 1, 0)
	}
}

// setKey identifies a boardSet.
type setKey struct {
	theme string
	sq    int
}

// The process-wide caches.
var (
	palettes = lru.New[string, *palette](16)
	arts     = lru.New[int, *pieceArt](24)
	sets     = lru.New[setKey, *boardSet](16)
)

// boardSetFor returns the cached boardSet of a theme and square size.
func boardSetFor(t *theme, sq int) *boardSet {
	return sets.GetOrBuild(setKey{t.name, sq}, func() *boardSet { return newBoardSet(t, sq) })
}
