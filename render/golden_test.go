package render

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// Golden comparison: a pixel matches when no channel differs by more than
// goldenTolerance; a picture matches when at most goldenSlack of its pixels do not.
// The slack absorbs floating-point differences between platforms in the rasteriser.
const (
	goldenTolerance = 8
	goldenSlack     = 0.002
)

// checkGolden compares img with testdata/name.png (rewriting it under -update). On a
// mismatch it writes testdata/name.got.png and testdata/name.diff.png, where
// mismatched pixels are red over a faded copy of the golden.
func checkGolden(t *testing.T, name string, img image.Image) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	bad, diff := compareImages(want, img)
	if bad < 0 {
		t.Fatalf("%s: size %v, golden is %v", name, img.Bounds(), want.Bounds())
	}
	total := want.Bounds().Dx() * want.Bounds().Dy()
	if float64(bad) > goldenSlack*float64(total) {
		writePNG(t, filepath.Join("testdata", name+".got.png"), img)
		writePNG(t, filepath.Join("testdata", name+".diff.png"), diff)
		t.Errorf("%s: %d of %d pixels differ by more than %d; see testdata/%s.diff.png", name, bad, total, goldenTolerance, name)
	}
}

// compareImages counts the pixels of got that differ from want beyond the tolerance
// and returns a diff picture; bad is -1 when the sizes differ.
func compareImages(want, got image.Image) (bad int, diff *image.RGBA) {
	b := want.Bounds()
	if got.Bounds() != b {
		return -1, nil
	}
	diff = image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			w := color.RGBAModel.Convert(want.At(x, y)).(color.RGBA)
			g := color.RGBAModel.Convert(got.At(x, y)).(color.RGBA)
			if channelDiff(w, g) > goldenTolerance {
				bad++
				diff.Set(x, y, color.RGBA{0xff, 0, 0, 0xff})
			} else {
				diff.Set(x, y, color.RGBA{w.R/4 + 0xbf, w.G/4 + 0xbf, w.B/4 + 0xbf, 0xff})
			}
		}
	}
	return bad, diff
}

func channelDiff(a, b color.RGBA) int {
	d := 0
	for _, p := range [][2]uint8{{a.R, b.R}, {a.G, b.G}, {a.B, b.B}, {a.A, b.A}} {
		d = max(d, abs(int(p[0])-int(p[1])))
	}
	return d
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// decodePNG decodes PNG bytes or fails the test.
func decodePNG(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode png: %v", err)
	}
	return img
}

func TestCompareImagesFindsDifferences(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 4, 4))
	b := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := range a.Pix {
		a.Pix[i], b.Pix[i] = 100, 100
	}
	b.Pix[0] = 100 + goldenTolerance // within tolerance
	b.Pix[4] = 101 + goldenTolerance // one pixel beyond it
	bad, diff := compareImages(a, b)
	if bad != 1 {
		t.Fatalf("bad = %d, want 1", bad)
	}
	if got := diff.RGBAAt(1, 0); got != (color.RGBA{0xff, 0, 0, 0xff}) {
		t.Errorf("diff pixel = %v, want red", got)
	}
	if bad, _ := compareImages(a, image.NewRGBA(image.Rect(0, 0, 3, 4))); bad != -1 {
		t.Errorf("size mismatch gave %d, want -1", bad)
	}
}
