package main

import (
	"bytes"
	"image"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/render"
)

// renderWant is what the render package draws for the position after moves (UCI).
func renderWant(t *testing.T, fen string, moves []string, opt render.BoardOptions) []byte {
	t.Helper()
	pos, err := chesscore.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range moves {
		m, err := pos.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		pos = pos.Play(m)
		opt.LastMove = m
	}
	var buf bytes.Buffer
	if err := render.PNG(&buf, &pos, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func runRenderTo(t *testing.T, args ...string) ([]byte, error) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.png")
	for i, a := range args {
		if a == "OUT.gif" {
			out = strings.TrimSuffix(out, ".png") + ".gif"
			args[i] = out
		} else if a == "OUT" {
			args[i] = out
		}
	}
	var stdout, stderr bytes.Buffer
	if err := runRender(args, &stdout, &stderr); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("output not written: %v", err)
	}
	return data, nil
}

func TestRenderPNG(t *testing.T) {
	const start = chesscore.StartFEN
	for _, c := range []struct {
		name  string
		args  []string
		fen   string
		moves []string
		opt   render.BoardOptions
	}{
		{"start", []string{"-o", "OUT"}, start, nil, render.BoardOptions{Coordinates: true}},
		{"san moves", []string{"--moves", "1. e4 e5 2. Nf3", "--size", "256", "-o", "OUT"}, start, []string{"e2e4", "e7e5", "g1f3"},
			render.BoardOptions{Size: 256, Coordinates: true}},
		{"uci moves flipped", []string{"--moves", "e2e4 c7c5", "--flip", "--theme", "green", "--no-coords", "-o", "OUT"}, start, []string{"e2e4", "c7c5"},
			render.BoardOptions{Theme: "green", Flip: true}},
		{"fen", []string{"--fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "--moves", "e2e4", "-o", "OUT"}, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", []string{"e2e4"},
			render.BoardOptions{Coordinates: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := runRenderTo(t, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			if want := renderWant(t, c.fen, c.moves, c.opt); !bytes.Equal(got, want) {
				t.Errorf("output differs from render.PNG of the same position (%d bytes, want %d)", len(got), len(want))
			}
			if _, err := png.Decode(bytes.NewReader(got)); err != nil {
				t.Errorf("output is not a PNG: %v", err)
			}
		})
	}
}

func TestRenderLastMoveFlag(t *testing.T) {
	got, err := runRenderTo(t, "--moves", "e4", "--lastmove", "a1h8", "-o", "OUT")
	if err != nil {
		t.Fatal(err)
	}
	pos := chesscore.StartPosition()
	pos = pos.Play(chesscore.NewMove(chesscore.E2, chesscore.E4))
	var want bytes.Buffer
	if err := render.PNG(&want, &pos, render.BoardOptions{Coordinates: true, LastMove: chesscore.NewMove(chesscore.A1, chesscore.H8)}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Error("--lastmove a1h8 did not highlight a1 and h8 instead of the move played")
	}
}

func TestRenderStdout(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := runRender([]string{"--size", "128", "-o", "-"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(0, 0, 128, 128) {
		t.Errorf("bounds %v, want 128×128", img.Bounds())
	}
}

func TestRenderGIF(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "game.pgn")
	text := `[Event "Casual"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0
`
	if err := os.WriteFile(pgn, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		args   []string
		frames int
	}{
		{"pgn", []string{"--pgn", pgn, "--size", "128", "--delay", "500ms", "-o", "OUT.gif"}, 8},
		{"moves", []string{"--moves", "d4 d5 c4", "--size", "128", "-o", "OUT.gif"}, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := runRenderTo(t, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			g, err := gif.DecodeAll(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("output is not a GIF: %v", err)
			}
			if len(g.Image) != c.frames {
				t.Errorf("%d frames, want %d", len(g.Image), c.frames)
			}
		})
	}
	// A PNG of the PGN shows its final position.
	got, err := runRenderTo(t, "--pgn", pgn, "-o", "OUT")
	if err != nil {
		t.Fatal(err)
	}
	want := renderWant(t, chesscore.StartFEN, []string{"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"}, render.BoardOptions{Coordinates: true})
	if !bytes.Equal(got, want) {
		t.Error("PNG of the PGN differs from its final position")
	}
}

func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.pgn")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no output", nil, "-o: give an output file"},
		{"bad extension", []string{"-o", "x.jpg"}, "want a .png or .gif"},
		{"fen and pgn", []string{"--fen", chesscore.StartFEN, "--pgn", empty, "-o", "OUT"}, "one or the other"},
		{"bad fen", []string{"--fen", "8/8/8 w", "-o", "OUT"}, "--fen"},
		{"missing pgn", []string{"--pgn", filepath.Join(dir, "nope.pgn"), "-o", "OUT"}, "--pgn"},
		{"empty pgn", []string{"--pgn", empty, "-o", "OUT"}, "no game in the file"},
		{"illegal move", []string{"--moves", "e4 e4", "-o", "OUT"}, `move 2 "e4"`},
		{"theme", []string{"--theme", "pink", "-o", "OUT"}, `unknown theme "pink"`},
		{"size", []string{"--size", "50", "-o", "OUT"}, "board size 50"},
		{"lastmove syntax", []string{"--lastmove", "e2", "-o", "OUT"}, "--lastmove"},
		{"lastmove same square", []string{"--lastmove", "e2e2", "-o", "OUT"}, "two different squares"},
		{"lastmove with gif", []string{"--lastmove", "e2e4", "-o", "OUT.gif"}, "use it with a .png"},
		{"short delay", []string{"--delay", "1ms", "-o", "OUT.gif"}, "delay 1ms"},
		{"stray argument", []string{"-o", "OUT", "extra"}, "unexpected argument"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runRenderTo(t, c.args...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestMoveTokens(t *testing.T) {
	for _, c := range []struct {
		tok            string
		number, result bool
	}{
		{"1.", true, false}, {"12...", true, false}, {"e4", false, false}, {"1.e4", false, false},
		{".", false, false}, {"1-0", false, true}, {"1/2-1/2", false, true}, {"*", false, true}, {"0-0", false, false},
	} {
		if got := isMoveNumber(c.tok); got != c.number {
			t.Errorf("isMoveNumber(%q) = %v, want %v", c.tok, got, c.number)
		}
		if got := isResult(c.tok); got != c.result {
			t.Errorf("isResult(%q) = %v, want %v", c.tok, got, c.result)
		}
	}
}

// FuzzRenderMoves feeds arbitrary --moves text to the parser: it must not panic, and
// what it accepts must replay as legal moves.
func FuzzRenderMoves(f *testing.F) {
	for _, s := range []string{"e4 e5 Nf3", "1. e4 e5 2. Nf3 Nc6 1-0", "e2e4 e7e5 g1f3", "O-O", "e4 e4", "1...", "e8=Q", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		g := chesscore.NewGame(chesscore.StartPosition(), dead.Decider{})
		if err := playMoves(g, text); err != nil {
			return
		}
		pos := chesscore.StartPosition()
		for _, m := range g.Moves() {
			if !pos.IsLegal(m) {
				t.Fatalf("accepted illegal move %v from %q", m, text)
			}
			pos = pos.Play(m)
		}
	})
}

func FuzzParseSquares(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8q", "a1a1", "", "z9z9", "e2e4x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parseSquares(s)
		if err != nil {
			return
		}
		if m.From() == m.To() || m.From() > chesscore.H8 || m.To() > chesscore.H8 || m.UCI() != s[:4] {
			t.Fatalf("parseSquares(%q) = %v", s, m)
		}
	})
}
