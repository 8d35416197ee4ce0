package serve

// The game page's look: screenshots of a finished game's page in the light and the
// dark theme, on a desktop and a phone-sized viewport, compared with golden files
// within a tolerance (font rasterisation differs slightly between machines).

import (
	"bytes"
	"context"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

var updateScreens = flag.Bool("update", false, "rewrite the golden screenshots under testdata/web")

// screenTolerance is the share of pixels that may differ by more than pixelTolerance
// (in any channel) from the golden screenshot.
const (
	screenTolerance = 0.02
	pixelTolerance  = 48
)

func TestWebScreenshots(t *testing.T) {
	w := newWebWorld(t)
	w.start()
	g := w.startGame("10+5")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	g.played(g.move(w.alice, "Qh5"), "Qh5", w.bob)
	g.played(g.move(w.bob, "Nc6"), "Nc6", w.alice)
	g.played(g.move(w.alice, "Bc4"), "Bc4", w.bob)
	g.played(g.move(w.bob, "Nf6"), "Nf6", w.alice)
	res := g.move(w.alice, "Qxf7#")
	if d := res.Callback.Data; d.Ephemeral() {
		t.Fatalf("mate answered %q", d.Content)
	}
	link := liveBoardURL(t, g.lastBoard().Payload)
	for _, c := range []struct {
		name          string
		width, height int64
		mobile        bool
		scheme        string
	}{
		{"light-desktop", 1280, 860, false, "light"},
		{"dark-desktop", 1280, 860, false, "dark"},
		{"light-phone", 390, 1400, true, "light"},
		{"dark-phone", 390, 1400, true, "dark"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &page{t: t, ctx: newTab(t)}
			var opts []chromedp.EmulateViewportOption
			if c.mobile {
				opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateScale(1))
			}
			p.do(chromedp.EmulateViewport(c.width, c.height, opts...),
				chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
						Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: c.scheme}}})
					return err
				}),
				chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("[data-board]")))
			p.waitSocket()
			p.waitJS("the result", `document.querySelector('[data-board]').dataset.result === '1-0'`)
			shot, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			compareScreen(t, filepath.Join("testdata", "web", "game-"+c.name+".png"), shot)
		})
	}
}

// compareScreen compares a PNG screenshot with its golden file (or writes it with
// -update).
func compareScreen(t *testing.T, golden string, shot []byte) {
	t.Helper()
	if *updateScreens {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestWebScreenshots -update ./serve to create it)", err)
	}
	a, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if a.Bounds() != b.Bounds() {
		t.Fatalf("screenshot %v, golden %s %v", a.Bounds(), golden, b.Bounds())
	}
	if share := differing(a, b); share > screenTolerance {
		out := filepath.Join(t.TempDir(), filepath.Base(golden))
		_ = os.WriteFile(out, shot, 0o644)
		t.Errorf("%.1f%% of the pixels differ from %s (at most %.1f%%); this run's screenshot: %s", 100*share, golden, 100*screenTolerance, out)
	}
}

// differing returns the share of pixels of a and b that differ by more than
// pixelTolerance in a channel.
func differing(a, b image.Image) float64 {
	r := a.Bounds()
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			if far(ar, br) || far(ag, bg) || far(ab, bb) {
				n++
			}
		}
	}
	return float64(n) / float64(r.Dx()*r.Dy())
}

func far(x, y uint32) bool {
	d := int(x>>8) - int(y>>8)
	return d > pixelTolerance || d < -pixelTolerance
}
