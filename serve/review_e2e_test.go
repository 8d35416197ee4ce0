package serve

// The game review's story: a game between people that falls into an opening trap, its
// opening on the board and in the PGN, and /analyze's review with its summary card,
// compared with a golden picture (the analysis is bounded by nodes, so the same on any
// machine).

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/bot/discordfake"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestStoryReviewOfATrap(t *testing.T) {
	w := newWorld(t)
	w.cfg.Engine.AnalysisNodes = 20000
	r := w.start()
	_ = r
	// The Blackburne-Kostić Gambit's trap: 4. Nxe5? Qg5 5. Nxf7?? Qxg2 and mate.
	g := w.startGame("10+5")
	moves := []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Nxf7", "Qxg2", "Rf1", "Qxe4+", "Be2", "Nf3#"}
	for i, san := range moves {
		p, next := w.alice, w.bob
		if i%2 == 1 {
			p, next = w.bob, w.alice
		}
		if i == len(moves)-1 {
			break
		}
		g.played(g.move(p, san), san, next)
	}
	// Before the mate: the board names the opening.
	board := w.answer(w.send(discordfake.Command("board").In(w.f.GuildID, g.thread)))
	if !strings.Contains(board.Content, "📖 C50 Italian Game\\: Blackburne\\-Kostić Gambit") {
		t.Errorf("/board does not name the opening: %q", board.Content)
	}
	if res := g.move(w.bob, "Nf3#"); !strings.Contains(res.Callback.Data.Content, "0-1") {
		t.Fatalf("the mate answered %q", res.Callback.Data.Content)
	}

	// /pgn carries the opening's tags.
	pgn, ok := w.send(discordfake.Command("pgn").In(w.f.GuildID, g.thread)).Callback.Data.File("gambit-game-1.pgn")
	if !ok || !strings.Contains(string(pgn.Data), "[ECO \"C50\"]\n[Opening \"Italian Game: Blackburne-Kostić Gambit\"]\n") {
		t.Errorf("/pgn: %v\n%s", ok, pgn.Data)
	}

	// The review: opening, accuracies, critical moments with the better move, the card
	// beside the graph.
	d := w.puzzleAnswer(discordfake.Command("analyze").In(w.f.GuildID, g.thread))
	t.Logf("/analyze answered:\n%s", d.Content)
	for _, want := range []string{
		"📖 C50 Italian Game\\: Blackburne\\-Kostić Gambit\n", "White (alice): accuracy **", "Black (bob): accuracy **",
		"**Critical moments**", "5. **Nxf7??** blunder", "better **",
	} {
		if !strings.Contains(d.Content, want) {
			t.Errorf("/analyze lacks %q", want)
		}
	}
	card, ok := d.File("review.png")
	if !ok {
		t.Fatal("/analyze has no review card")
	}
	if _, ok := d.File("evaluation.png"); !ok {
		t.Error("/analyze has no evaluation graph")
	}
	checkGoldenPNG(t, filepath.Join("testdata", "review_trap.png"), card.Data)
}

// checkGoldenPNG compares a PNG with the golden file (rewritten under -update): a pixel
// matches when no channel differs by more than 8, the picture when at most 0.2% of its
// pixels do not (the rasteriser's floating point differs a little between platforms).
func checkGoldenPNG(t *testing.T, path string, data []byte) {
	t.Helper()
	if *updateGolden {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	a, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	b, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode the picture: %v", err)
	}
	if a.Bounds() != b.Bounds() {
		t.Fatalf("%s: size %v, the picture's %v", path, a.Bounds(), b.Bounds())
	}
	bad := 0
	bounds := a.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if pixelDiff(a, b, x, y) > 8 {
				bad++
			}
		}
	}
	if total := bounds.Dx() * bounds.Dy(); float64(bad) > 0.002*float64(total) {
		got := strings.TrimSuffix(path, ".png") + ".got.png"
		_ = os.WriteFile(got, data, 0o644)
		t.Errorf("%s: %d of %d pixels differ; the picture is in %s", path, bad, total, got)
	}
}

func pixelDiff(a, b image.Image, x, y int) int {
	p := color.RGBAModel.Convert(a.At(x, y)).(color.RGBA)
	q := color.RGBAModel.Convert(b.At(x, y)).(color.RGBA)
	d := 0
	for _, c := range [][2]uint8{{p.R, q.R}, {p.G, q.G}, {p.B, q.B}, {p.A, q.A}} {
		d = max(d, absInt(int(c[0])-int(c[1])))
	}
	return d
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
