package render

import (
	"bytes"
	"image"
	"image/color"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/lru"
)

func mustFEN(t testing.TB, fen string) chesscore.Position {
	t.Helper()
	pos, err := chesscore.ParseFEN(fen)
	if err != nil {
		t.Fatalf("parse %q: %v", fen, err)
	}
	return pos
}

func mustMove(t testing.TB, pos *chesscore.Position, uci string) chesscore.Move {
	t.Helper()
	var ml chesscore.MoveList
	pos.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if m.UCI() == uci {
			return m
		}
	}
	t.Fatalf("%s is not legal in %s", uci, pos.FEN())
	return chesscore.NullMove
}

// Positions used by several tests.
const (
	scholarMate = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
	foolsMate   = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
	middlegame  = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
	endgame     = "6k1/5ppp/8/3N4/8/8/1Q3PPP/6K1 w - - 0 40"
)

type boardCase struct {
	name string
	fen  string
	last string // UCI of the last move, played from the position before (prev)
	prev string
	opt  BoardOptions
}

func boardCases() []boardCase {
	bars := func(o BoardOptions) BoardOptions {
		o.White = &PlayerBar{Name: "Ada Lovelace", Rating: 1832, Clock: 4*time.Minute + 59*time.Second, HasClock: true}
		o.Black = &PlayerBar{Name: "Bobby", Rating: 1200, Provisional: true, Clock: 9300 * time.Millisecond, HasClock: true}
		return o
	}
	return []boardCase{
		{name: "start_brown_512", fen: chesscore.StartFEN, opt: BoardOptions{Coordinates: true}},
		{name: "mate_blue_flip_256", fen: scholarMate, prev: "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", last: "h5f7",
			opt: BoardOptions{Size: 256, Theme: "blue", Flip: true, Coordinates: true}},
		{name: "middlegame_green_1024", fen: middlegame, opt: BoardOptions{Size: 1024, Theme: "green"}},
		{name: "foolsmate_bars_brown_384", fen: foolsMate, prev: "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", last: "d8h4",
			opt: bars(BoardOptions{Size: 384, Coordinates: true})},
		{name: "endgame_annotated_purple_512", fen: endgame, opt: bars(BoardOptions{Theme: "purple", Coordinates: true,
			Arrows: []Arrow{{From: chesscore.D5, To: chesscore.E7}, {From: chesscore.B2, To: chesscore.G7, Color: Red}},
			Marks:  []Mark{{Square: chesscore.G8, Shape: Ring, Color: Red}, {Square: chesscore.F6, Shape: Dot, Color: Blue}, {Square: chesscore.H8, Shape: Cross, Color: Yellow}}})},
	}
}

// caseImage renders a boardCase.
func caseImage(t testing.TB, c boardCase) (chesscore.Position, BoardOptions, image.Image) {
	t.Helper()
	pos := mustFEN(t, c.fen)
	opt := c.opt
	if c.last != "" {
		prev := mustFEN(t, c.prev)
		opt.LastMove = mustMove(t, &prev, c.last)
		if got := prev.Play(opt.LastMove); got.FEN() != pos.FEN() {
			t.Fatalf("%s: %s from the previous position gives %s", c.name, c.last, got.FEN())
		}
	}
	img, err := Image(&pos, opt)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return pos, opt, img
}

func TestBoardGolden(t *testing.T) {
	for _, c := range boardCases() {
		t.Run(c.name, func(t *testing.T) {
			_, _, img := caseImage(t, c)
			checkGolden(t, c.name, img)
		})
	}
}

// The fast path (tiles copied into a paletted board) must look like the naive path
// that draws everything in full colour: only palette rounding may differ.
func TestFastMatchesNaive(t *testing.T) {
	for _, c := range boardCases() {
		if c.opt.White != nil {
			continue // the naive path draws no bars
		}
		t.Run(c.name, func(t *testing.T) {
			pos, opt, img := caseImage(t, c)
			naive, err := renderNaive(&pos, opt)
			if err != nil {
				t.Fatal(err)
			}
			b := img.Bounds()
			if naive.Bounds() != b {
				t.Fatalf("naive bounds %v, fast %v", naive.Bounds(), b)
			}
			worst, sum := 0, 0
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					d := channelDiff(color.RGBAModel.Convert(img.At(x, y)).(color.RGBA), naive.RGBAAt(x, y))
					worst = max(worst, d)
					sum += d
				}
			}
			mean := float64(sum) / float64(b.Dx()*b.Dy())
			if worst > 40 || mean > 0.5 {
				t.Errorf("fast and naive differ: worst channel %d (want ≤ 40), mean %.3f (want ≤ 0.5)", worst, mean)
			}
		})
	}
}

func TestSquaresAndHighlights(t *testing.T) {
	th := themes["brown"]
	pos := mustFEN(t, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	last := chesscore.NewMove(chesscore.E2, chesscore.E4) // squares need not match the position
	for _, flip := range []bool{false, true} {
		img, err := Image(&pos, BoardOptions{Size: 256, Flip: flip, LastMove: last})
		if err != nil {
			t.Fatal(err)
		}
		at := func(sq chesscore.Square) color.RGBA {
			x, y := squareOrigin(sq, 32, flip)
			return color.RGBAModel.Convert(img.At(x+2, y+2)).(color.RGBA)
		}
		for _, c := range []struct {
			sq   chesscore.Square
			want color.RGBA
		}{
			{chesscore.A1, th.dark}, {chesscore.H1, th.light}, {chesscore.A8, th.light}, {chesscore.H8, th.dark},
			{chesscore.E2, th.lastLight}, {chesscore.E4, th.lastLight}, {chesscore.D4, th.dark},
		} {
			if got := at(c.sq); got != c.want {
				t.Errorf("flip=%v: %v shows %v, want %v", flip, c.sq, got, c.want)
			}
		}
	}
	// Flipping puts a1 at the top right.
	if x, y := squareOrigin(chesscore.A1, 32, true); x != 224 || y != 0 {
		t.Errorf("flipped a1 at (%d,%d), want (224,0)", x, y)
	}
}

// redness counts strongly red pixels in the square sq of img.
func redness(img image.Image, sq chesscore.Square, side int, flip bool) int {
	s := side / 8
	x0, y0 := squareOrigin(sq, s, flip)
	n := 0
	for y := y0; y < y0+s; y++ {
		for x := x0; x < x0+s; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if int(c.R) > int(c.G)+90 && int(c.R) > int(c.B)+90 {
				n++
			}
		}
	}
	return n
}

func TestCheckGlow(t *testing.T) {
	pos := mustFEN(t, scholarMate)
	img, err := Image(&pos, BoardOptions{Size: 256})
	if err != nil {
		t.Fatal(err)
	}
	if n := redness(img, chesscore.E8, 256, false); n < 40 {
		t.Errorf("king in check on e8: %d red pixels, want at least 40", n)
	}
	if n := redness(img, chesscore.E1, 256, false); n != 0 {
		t.Errorf("king not in check on e1: %d red pixels, want 0", n)
	}
	img, _ = Image(&pos, BoardOptions{Size: 256, NoCheck: true})
	if n := redness(img, chesscore.E8, 256, false); n != 0 {
		t.Errorf("NoCheck: %d red pixels on e8, want 0", n)
	}
}

func TestImageKinds(t *testing.T) {
	pos := chesscore.StartPosition()
	img, err := Image(&pos, BoardOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := img.(*image.Paletted); !ok || img.Bounds() != image.Rect(0, 0, 512, 512) {
		t.Errorf("plain board: %T %v, want *image.Paletted 512×512", img, img.Bounds())
	}
	img, _ = Image(&pos, BoardOptions{Size: 300, White: &PlayerBar{Name: "w"}})
	if _, ok := img.(*image.Paletted); !ok || img.Bounds() != image.Rect(0, 0, 296, 296+2*barHeight(296)) {
		t.Errorf("with bars: %T %v, want paletted 296 wide with two bars", img, img.Bounds())
	}
	img, _ = Image(&pos, BoardOptions{Size: 256, Arrows: []Arrow{{From: chesscore.E2, To: chesscore.E4}}})
	if _, ok := img.(*image.RGBA); !ok {
		t.Errorf("with an arrow: %T, want *image.RGBA", img)
	}
}

func TestOptionErrors(t *testing.T) {
	pos := chesscore.StartPosition()
	for _, c := range []struct {
		name string
		opt  BoardOptions
		want string
	}{
		{"small", BoardOptions{Size: 100}, "board size 100"},
		{"big", BoardOptions{Size: 4096}, "board size 4096"},
		{"theme", BoardOptions{Theme: "pink"}, `unknown theme "pink"`},
		{"arrow to itself", BoardOptions{Arrows: []Arrow{{From: chesscore.E2, To: chesscore.E2}}}, "arrow e2-e2"},
		{"arrow off board", BoardOptions{Arrows: []Arrow{{From: chesscore.E2, To: chesscore.NoSquare}}}, "arrow e2--"},
		{"mark shape", BoardOptions{Marks: []Mark{{Square: chesscore.E2, Shape: 9}}}, "mark on e2"},
	} {
		var buf bytes.Buffer
		err := PNG(&buf, &pos, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestThemes(t *testing.T) {
	names := Themes()
	if len(names) < 3 {
		t.Fatalf("Themes() = %v, want at least three", names)
	}
	for i, n := range names {
		if i > 0 && names[i-1] >= n {
			t.Errorf("Themes() not sorted: %v", names)
		}
		if _, err := lookupTheme(strings.ToUpper(n)); err != nil {
			t.Errorf("lookup %q: %v", n, err)
		}
		p := buildPalette(themes[n])
		if len(p.colors) > maxColors {
			t.Errorf("%s: palette of %d colours, want ≤ %d", n, len(p.colors), maxColors)
		}
		for _, c := range []color.RGBA{themes[n].light, themes[n].dark, whiteFill, pieceEdge, blackFill, barText} {
			if q := p.quantizer(); p.rgba[q.index(c)] != c {
				t.Errorf("%s: base colour %v not exactly in the palette", n, c)
			}
		}
	}
}

// Many goroutines rendering at once, from cold caches, get the same bytes as one.
func TestConcurrentRendering(t *testing.T) {
	sets, arts = lru.New[setKey, *boardSet](16), lru.New[int, *pieceArt](24)
	pos := mustFEN(t, middlegame)
	opts := []BoardOptions{
		{Size: 256}, {Size: 256, Theme: "blue", Flip: true, Coordinates: true},
		{Size: 200, Theme: "green", LastMove: chesscore.NewMove(chesscore.E2, chesscore.E4)},
		{Size: 256, White: &PlayerBar{Name: "x", HasClock: true}, Arrows: []Arrow{{From: chesscore.A1, To: chesscore.H8}}},
	}
	const workers = 8
	results := make([][][]byte, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3 * len(opts) {
				var buf bytes.Buffer
				if err := PNG(&buf, &pos, opts[(i+w)%len(opts)]); err != nil {
					t.Error(err)
					return
				}
				results[w] = append(results[w], buf.Bytes())
			}
		}()
	}
	wg.Wait()
	for i, o := range opts {
		var want bytes.Buffer
		if err := PNG(&want, &pos, o); err != nil {
			t.Fatal(err)
		}
		for w := range workers {
			for j := i; j < len(results[w]); j += len(opts) {
				// results[w][j] was drawn with opts[(j+w)%len(opts)].
				if (j+w)%len(opts) != i {
					continue
				}
				if !bytes.Equal(results[w][j], want.Bytes()) {
					t.Errorf("worker %d render %d with options %d differs from a serial render", w, j, i)
				}
			}
		}
	}
}

func TestFormatClock(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0:00.0"}, {-time.Second, "0:00.0"}, {9999 * time.Millisecond, "0:09.9"},
		{10 * time.Second, "0:10"}, {3*time.Minute + 7*time.Second + 900*time.Millisecond, "3:07"},
		{59*time.Minute + 59*time.Second, "59:59"}, {time.Hour, "1:00:00"},
		{23*time.Hour + 59*time.Minute + 59*time.Second, "23:59:59"},
		{24 * time.Hour, "1d 00h"}, {3*24*time.Hour + 5*time.Hour + 59*time.Minute, "3d 05h"},
	} {
		if got := FormatClock(c.d); got != c.want {
			t.Errorf("FormatClock(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestMaterial(t *testing.T) {
	for _, c := range []struct {
		fen    string
		side   chesscore.Color
		up     map[chesscore.PieceType]int
		points int
	}{
		{chesscore.StartFEN, chesscore.White, nil, 0},
		{endgame, chesscore.White, map[chesscore.PieceType]int{chesscore.Knight: 1, chesscore.Queen: 1}, 12},
		{endgame, chesscore.Black, nil, 0},
		// Black has a rook for White's two bishops: each side is up something.
		{"4k3/8/8/8/8/8/8/1BB1K2r w - - 0 1", chesscore.White, map[chesscore.PieceType]int{chesscore.Bishop: 2}, 1},
		{"4k3/8/8/8/8/8/8/1BB1K2r w - - 0 1", chesscore.Black, map[chesscore.PieceType]int{chesscore.Rook: 1}, 0},
	} {
		pos := mustFEN(t, c.fen)
		up, points := Material(&pos, c.side)
		for pt := chesscore.Pawn; pt <= chesscore.King; pt++ {
			if up[pt] != c.up[pt] {
				t.Errorf("%s %v: up[%v] = %d, want %d", c.fen, c.side, pt, up[pt], c.up[pt])
			}
		}
		if points != c.points {
			t.Errorf("%s %v: points = %d, want %d", c.fen, c.side, points, c.points)
		}
	}
}

func TestCleanAndFitNames(t *testing.T) {
	if got := cleanName("  al\x00ice\n "); got != "alice" {
		t.Errorf("cleanName = %q, want alice", got)
	}
	pos := chesscore.StartPosition()
	long := strings.Repeat("verylongname", 20)
	img, err := Image(&pos, BoardOptions{Size: 256, White: &PlayerBar{Name: long, Rating: 1500, HasClock: true}})
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 256 {
		t.Errorf("bars widened the picture to %d", img.Bounds().Dx())
	}
}

// Every piece stays inside its square with a margin, so a tile holds all of it, and
// covers a fair part of the square, so it reads at small sizes.
func TestPieceArtInsideTile(t *testing.T) {
	for _, size := range []int{32, 64, 128} {
		art := newPieceArt(size)
		for _, pc := range allPieces {
			covered := 0
			for y, runs := range art.runs[pc] {
				for _, r := range runs {
					if y == 0 || y == size-1 || r.x0 == 0 || int(r.x1) == size {
						t.Errorf("%v at %d px touches the edge of its tile in row %d", pc, size, y)
					}
					covered += int(r.x1 - r.x0)
				}
			}
			if f := float64(covered) / float64(size*size); f < 0.2 || f > 0.6 {
				t.Errorf("%v at %d px covers %.0f%% of its square, want 20%% to 60%%", pc, size, 100*f)
			}
		}
	}
}
