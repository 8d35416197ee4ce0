package render

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
)

// playGIF decodes a GIF and returns the picture shown after each frame, applying the
// frames' transparency and disposal as a viewer does.
func playGIF(t *testing.T, data []byte) (*gif.GIF, []*image.RGBA) {
	t.Helper()
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode gif: %v", err)
	}
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	var shown []*image.RGBA
	for i, fr := range g.Image {
		if g.Disposal[i] != gif.DisposalNone {
			t.Fatalf("frame %d: disposal %d, want none", i, g.Disposal[i])
		}
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
		shown = append(shown, image.NewRGBA(canvas.Rect))
		copy(shown[i].Pix, canvas.Pix)
	}
	return g, shown
}

// Every frame of a replay, as a viewer shows it, is exactly the board PNG of its position.
func TestGameGIFShowsEveryPosition(t *testing.T) {
	frames := game80(t)
	for _, opt := range []GIFOptions{
		{Size: 256, Coordinates: true, Delay: 700 * time.Millisecond, LastDelay: 5 * time.Second},
		{Size: 200, Theme: "green", Flip: true},
	} {
		var buf bytes.Buffer
		if err := GameGIF(&buf, frames, opt); err != nil {
			t.Fatal(err)
		}
		g, shown := playGIF(t, buf.Bytes())
		if len(shown) != len(frames) {
			t.Fatalf("%d frames decoded, want %d", len(shown), len(frames))
		}
		delay, last := 100, 300
		if opt.Delay != 0 {
			delay, last = int(opt.Delay/(10*time.Millisecond)), int(opt.LastDelay/(10*time.Millisecond))
		}
		for i := range frames {
			want := delay
			if i == len(frames)-1 {
				want = last
			}
			if g.Delay[i] != want {
				t.Errorf("frame %d: delay %d, want %d", i, g.Delay[i], want)
			}
		}
		if g.LoopCount != 0 {
			t.Errorf("loop count %d, want 0 (forever)", g.LoopCount)
		}
		full := 0
		for i, f := range frames {
			img, err := Image(&f.Position, BoardOptions{Size: opt.Size, Theme: opt.Theme, Flip: opt.Flip, Coordinates: opt.Coordinates, LastMove: f.LastMove})
			if err != nil {
				t.Fatal(err)
			}
			if bad, _ := compareImages(img, shown[i]); bad != 0 {
				t.Fatalf("frame %d (%v): %d pixels differ from the board picture", i, f.LastMove, bad)
			}
			if g.Image[i].Bounds().Dx()*g.Image[i].Bounds().Dy() == shown[i].Bounds().Dx()*shown[i].Bounds().Dy() {
				full++
			}
		}
		if full > len(frames)/4 {
			t.Errorf("%d of %d frames cover the whole board; difference frames should be smaller", full, len(frames))
		}
	}
}

func TestGameGIFRepeatedFrame(t *testing.T) {
	start := chesscore.StartPosition()
	frames := []Frame{{Position: start}, {Position: start}}
	var buf bytes.Buffer
	if err := GameGIF(&buf, frames, GIFOptions{Size: 128}); err != nil {
		t.Fatal(err)
	}
	g, shown := playGIF(t, buf.Bytes())
	if got := g.Image[1].Bounds(); got.Dx()*got.Dy() != 1 {
		t.Errorf("unchanged frame covers %v, want one pixel", got)
	}
	if bad, _ := compareImages(shown[0], shown[1]); bad != 0 {
		t.Errorf("unchanged frame changed %d pixels", bad)
	}
	if _, _, _, a := g.Image[1].At(0, 0).RGBA(); a != 0 {
		t.Errorf("the pixel of an unchanged frame is not transparent")
	}
}

func TestGameGIFErrors(t *testing.T) {
	one := []Frame{{Position: chesscore.StartPosition()}}
	for _, c := range []struct {
		name   string
		frames []Frame
		opt    GIFOptions
		want   string
	}{
		{"no frames", nil, GIFOptions{}, "replay of 0 frames"},
		{"too many", make([]Frame, MaxFrames+1), GIFOptions{}, "replay of 2001 frames"},
		{"short delay", one, GIFOptions{Delay: 10 * time.Millisecond}, "delay 10ms"},
		{"long last delay", one, GIFOptions{LastDelay: time.Hour}, "last delay 1h0m0s"},
		{"theme", one, GIFOptions{Theme: "nope"}, `unknown theme "nope"`},
		{"size", one, GIFOptions{Size: 64}, "board size 64"},
	} {
		var buf bytes.Buffer
		err := GameGIF(&buf, c.frames, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestFramesFromMoves(t *testing.T) {
	start := chesscore.StartPosition()
	e4 := mustMove(t, &start, "e2e4")
	frames, err := FramesFromMoves(start, []chesscore.Move{e4})
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 2 || frames[0].LastMove != chesscore.NullMove || frames[1].LastMove != e4 ||
		frames[1].Position.PieceAt(chesscore.E4) != chesscore.WhitePawn {
		t.Errorf("frames = %+v", frames)
	}
	_, err = FramesFromMoves(start, []chesscore.Move{e4, e4})
	if err == nil || !strings.Contains(err.Error(), "ply 2: move e2e4 is illegal") {
		t.Errorf("illegal second move: error %v", err)
	}
}

func TestGameFrames(t *testing.T) {
	g := chesscore.NewGame(chesscore.StartPosition(), dead.Decider{})
	for _, san := range []string{"e4", "e5", "Nf3", "Nc6"} {
		if _, err := g.PlaySAN(san); err != nil {
			t.Fatal(err)
		}
	}
	frames := GameFrames(g)
	want, err := FramesFromMoves(g.Start(), g.Moves())
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != len(want) {
		t.Fatalf("%d frames, want %d", len(frames), len(want))
	}
	for i := range frames {
		if frames[i].LastMove != want[i].LastMove || frames[i].Position.FEN() != want[i].Position.FEN() {
			t.Errorf("frame %d: %v %s, want %v %s", i, frames[i].LastMove, frames[i].Position.FEN(), want[i].LastMove, want[i].Position.FEN())
		}
	}
}

// The GIF palette is the board palette plus one transparent colour, within 256.
func TestGIFPalette(t *testing.T) {
	var buf bytes.Buffer
	if err := GameGIF(&buf, []Frame{{Position: chesscore.StartPosition()}}, GIFOptions{Size: 128}); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	pal, ok := g.Config.ColorModel.(color.Palette)
	if !ok || len(pal) > 256 {
		t.Fatalf("global palette %T of %d colours", g.Config.ColorModel, len(pal))
	}
}
