package render

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"
	"time"

	"github.com/fogleman/gg"

	"github.com/gambitchess/gambit/chesscore"
)

// renderNaive is the redraw-everything path the tiles replace: squares, highlights,
// coordinates and every piece drawn with gg in full colour on each call. It is the
// yardstick of BenchmarkRenderNaive and the reference of TestFastMatchesNaive.
func renderNaive(pos *chesscore.Position, opt BoardOptions) (*image.RGBA, error) {
	t, err := lookupTheme(opt.Theme)
	if err != nil {
		return nil, err
	}
	size := opt.Size
	if size == 0 {
		size = DefaultSize
	}
	sq := size / 8
	dc := gg.NewContext(8*sq, 8*sq)
	img := dc.Image().(*image.RGBA)
	kinds := squareKinds(pos, opt.LastMove, opt.NoCheck)
	for s := chesscore.A1; s <= chesscore.H8; s++ {
		x, y := squareOrigin(s, sq, opt.Flip)
		c := isDark(s)
		switch kinds[s] {
		case checkSquare:
			paintCheckGlow(img, image.Rect(x, y, x+sq, y+sq), t.check, [2]color.RGBA{t.light, t.dark}[c])
			continue
		case lastMoveSquare:
			dc.SetColor([2]color.RGBA{t.lastLight, t.lastDark}[c])
		default:
			dc.SetColor([2]color.RGBA{t.light, t.dark}[c])
		}
		dc.DrawRectangle(float64(x), float64(y), float64(sq), float64(sq))
		dc.Fill()
	}
	if opt.Coordinates {
		f, err := face(bold, labelSize(sq))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		dc.SetFontFace(f)
		bottom, left := 0, 0
		if opt.Flip {
			bottom, left = 7, 7
		}
		for s := chesscore.A1; s <= chesscore.H8; s++ {
			x, y := squareOrigin(s, sq, opt.Flip)
			dc.SetColor([2]color.RGBA{t.light, t.dark}[1-isDark(s)])
			drawLabels(dc, s, x, y, sq, s.File() == left, s.Rank() == bottom)
		}
	}
	board := pos.Board()
	for s := chesscore.A1; s <= chesscore.H8; s++ {
		x, y := squareOrigin(s, sq, opt.Flip)
		drawPiece(dc, board[s], float64(x), float64(y), float64(sq), pieceColor)
	}
	return img, nil
}

// benchPosition is a middlegame with a last move and a check, the common case.
func benchPosition(b *testing.B) (chesscore.Position, BoardOptions) {
	prev := mustFEN(b, "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	m := mustMove(b, &prev, "c4f7")
	return prev.Play(m), BoardOptions{Size: 512, Coordinates: true, LastMove: m}
}

// BenchmarkRenderBoard renders a 512-pixel board to PNG from the cached tiles.
func BenchmarkRenderBoard(b *testing.B) {
	pos, opt := benchPosition(b)
	var buf bytes.Buffer
	if err := PNG(&buf, &pos, opt); err != nil { // warm the tile cache, as a running bot has
		b.Fatal(err)
	}
	for b.Loop() {
		buf.Reset()
		if err := PNG(&buf, &pos, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/board")
}

// BenchmarkRenderNaive renders the same board by drawing everything with gg and
// encoding a full-colour PNG, the way the tiles avoid.
func BenchmarkRenderNaive(b *testing.B) {
	pos, opt := benchPosition(b)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		img, err := renderNaive(&pos, opt)
		if err != nil {
			b.Fatal(err)
		}
		if err := png.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/board")
}

// BenchmarkRenderBoardWithBars adds both player bars, drawn per call.
func BenchmarkRenderBoardWithBars(b *testing.B) {
	pos, opt := benchPosition(b)
	opt.White = &PlayerBar{Name: "Ada Lovelace", Rating: 1832, Clock: 4 * time.Minute, HasClock: true}
	opt.Black = &PlayerBar{Name: "Bobby", Rating: 1200, Clock: 3 * time.Minute, HasClock: true}
	var buf bytes.Buffer
	if err := PNG(&buf, &pos, opt); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		buf.Reset()
		if err := PNG(&buf, &pos, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/board")
}

// game80 is an 80-ply game: a Ruy Lopez with a long middlegame and an endgame.
func game80(b testing.TB) []Frame {
	b.Helper()
	pos := chesscore.StartPosition()
	var moves []chesscore.Move
	for _, uci := range game80UCI {
		m := mustMove(b, &pos, uci)
		moves = append(moves, m)
		pos = pos.Play(m)
	}
	frames, err := FramesFromMoves(chesscore.StartPosition(), moves)
	if err != nil {
		b.Fatal(err)
	}
	return frames
}

// BenchmarkRenderGameGIF renders an 80-ply game as a 512-pixel GIF with difference frames.
func BenchmarkRenderGameGIF(b *testing.B) {
	frames := game80(b)
	if len(frames) != 81 {
		b.Fatalf("%d frames, want 81", len(frames))
	}
	opt := GIFOptions{Size: 512, Coordinates: true}
	var buf bytes.Buffer
	if err := GameGIF(&buf, frames, opt); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		buf.Reset()
		if err := GameGIF(&buf, frames, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/gif")
}

// BenchmarkRenderGameGIFFullFrames is the same game with every frame a whole board,
// encoded by image/gif: the cost the difference frames and the run-aware coder avoid.
func BenchmarkRenderGameGIFFullFrames(b *testing.B) {
	frames := game80(b)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		g := &gif.GIF{}
		for i := range frames {
			img, err := Image(&frames[i].Position, BoardOptions{Size: 512, Coordinates: true, LastMove: frames[i].LastMove})
			if err != nil {
				b.Fatal(err)
			}
			g.Image = append(g.Image, img.(*image.Paletted))
			g.Delay = append(g.Delay, 100)
		}
		if err := gif.EncodeAll(&buf, g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/gif")
}

// game80UCI: 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O
// 9.h3 Nb8 10.d4 Nbd7 ... and a scrappy middlegame of queen and minor pieces.
var game80UCI = []string{
	"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
	"f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7",
	"b1d2", "c8b7", "b3c2", "f8e8", "d2f1", "e7f8", "f1g3", "g7g6", "a2a4", "c7c5",
	"d4d5", "c5c4", "c1g5", "h7h6", "g5e3", "d7c5", "d1d2", "h6h5", "e3g5", "f8e7",
	"a4b5", "a6b5", "a1a8", "d8a8", "g5f6", "e7f6", "f3h2", "f6g5", "d2e2", "e8b8",
	"h2g4", "b7c8", "g4e3", "g5e3", "e2e3", "a8a2", "e1b1", "c8d7", "g3f1", "g8g7",
	"f1d2", "c5d3", "c2d3", "c4d3", "e3d3", "a2a5", "d3e3", "b5b4", "c3b4", "a5b4",
	"d2f3", "b4b2", "b1b2", "b8b2", "e3a7", "b2b1", "g1h2", "d7b5", "f3g5", "b5f1",
}
