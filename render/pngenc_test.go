package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

// pngRoundTrip encodes img with the board coder, decodes it with image/png and checks
// every pixel.
func pngRoundTrip(t testing.TB, img *image.Paletted) int {
	t.Helper()
	var buf bytes.Buffer
	if err := writePalettedPNG(&buf, img); err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("decode %v image: %v", img.Rect.Size(), err)
	}
	p, ok := got.(*image.Paletted)
	if !ok {
		t.Fatalf("decoded %T, want *image.Paletted", got)
	}
	if p.Rect.Size() != img.Rect.Size() {
		t.Fatalf("decoded size %v, want %v", p.Rect.Size(), img.Rect.Size())
	}
	for y := 0; y < img.Rect.Dy(); y++ {
		for x := 0; x < img.Rect.Dx(); x++ {
			w := img.Palette[img.ColorIndexAt(img.Rect.Min.X+x, img.Rect.Min.Y+y)]
			if g := p.At(x, y); color.RGBAModel.Convert(g) != color.RGBAModel.Convert(w) {
				t.Fatalf("pixel (%d,%d) = %v, want %v", x, y, g, w)
			}
		}
	}
	return buf.Len()
}

func testPalette(n int) color.Palette {
	pal := make(color.Palette, n)
	for i := range pal {
		pal[i] = color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), 0xff}
	}
	return pal
}

func TestPalettedPNGRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	fill := func(img *image.Paletted, kind int) {
		n := len(img.Palette)
		for i := range img.Pix {
			switch kind {
			case 0: // noise: all literals
				img.Pix[i] = uint8(rng.IntN(n))
			case 1: // runs
				if i == 0 || rng.IntN(40) == 0 {
					img.Pix[i] = uint8(rng.IntN(n))
				} else {
					img.Pix[i] = img.Pix[i-1]
				}
			case 2: // rows repeating the row above with a few changes
				w := img.Stride
				if i < w || rng.IntN(30) == 0 {
					img.Pix[i] = uint8(rng.IntN(n))
				} else {
					img.Pix[i] = img.Pix[i-w]
				}
			}
		}
	}
	for _, c := range []struct{ w, h, colors, kind int }{
		{1, 1, 1, 0}, {1, 1, 2, 0}, {3, 2, 2, 1}, {7, 300, 5, 2}, {300, 7, 256, 0},
		{512, 512, 200, 1}, {512, 512, 200, 2}, {129, 67, 256, 0}, {1000, 3, 16, 1},
	} {
		img := image.NewPaletted(image.Rect(0, 0, c.w, c.h), testPalette(c.colors))
		fill(img, c.kind)
		pngRoundTrip(t, img)
	}
	// A uniform picture is all long matches, and tiny.
	img := image.NewPaletted(image.Rect(0, 0, 512, 512), testPalette(3))
	if n := pngRoundTrip(t, img); n > 2000 {
		t.Errorf("uniform 512×512 picture took %d bytes, want under 2000", n)
	}
	// A sub-image (offset bounds, stride wider than the picture).
	big := image.NewPaletted(image.Rect(0, 0, 64, 64), testPalette(9))
	fill(big, 1)
	pngRoundTrip(t, big.SubImage(image.Rect(10, 20, 50, 30)).(*image.Paletted))
}

func TestPalettedPNGTransparency(t *testing.T) {
	pal := color.Palette{color.RGBA{1, 2, 3, 255}, color.NRGBA{200, 100, 50, 128}, color.RGBA{}}
	img := image.NewPaletted(image.Rect(0, 0, 3, 1), pal)
	img.Pix = []uint8{0, 1, 2}
	pngRoundTrip(t, img)
}

func TestPalettedPNGErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := writePalettedPNG(&buf, image.NewPaletted(image.Rect(0, 0, 0, 5), testPalette(2))); err == nil {
		t.Error("empty picture: no error")
	}
	if err := writePalettedPNG(&buf, image.NewPaletted(image.Rect(0, 0, 2, 2), nil)); err == nil {
		t.Error("no palette: no error")
	}
}

// A board encodes as small as the standard encoder at its fastest level, or smaller.
func TestBoardPNGSize(t *testing.T) {
	pos := mustFEN(t, middlegame)
	img, err := Image(&pos, BoardOptions{Coordinates: true})
	if err != nil {
		t.Fatal(err)
	}
	ours := pngRoundTrip(t, img.(*image.Paletted))
	var std bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&std, img); err != nil {
		t.Fatal(err)
	}
	if ours > std.Len()*11/10 {
		t.Errorf("board PNG %d bytes, the standard encoder makes %d", ours, std.Len())
	}
	if ours > 30<<10 {
		t.Errorf("board PNG %d bytes, want at most 30 KiB", ours)
	}
}

// FuzzPalettedPNG encodes arbitrary pictures: every one must decode to itself.
func FuzzPalettedPNG(f *testing.F) {
	f.Add(uint8(3), uint8(2), []byte{0, 1, 1, 1, 0, 2})
	f.Add(uint8(16), uint8(16), bytes.Repeat([]byte{5}, 256))
	f.Add(uint8(1), uint8(200), []byte{9})
	f.Fuzz(func(t *testing.T, w, h uint8, pix []byte) {
		if w == 0 || h == 0 {
			return
		}
		img := image.NewPaletted(image.Rect(0, 0, int(w), int(h)), testPalette(256))
		for i := range img.Pix {
			if len(pix) > 0 {
				img.Pix[i] = pix[i%len(pix)] ^ uint8(i/len(pix))
			}
		}
		pngRoundTrip(t, img)
	})
}
