package render

import (
	"bytes"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/chess960"
)

// TestChess960GIF draws a Chess960 game from start position 446 with both castlings, one
// of them a king that stays put: every frame of the GIF is the board of its position.
func TestChess960GIF(t *testing.T) {
	start, err := chess960.Start(446)
	if err != nil {
		t.Fatal(err)
	}
	g := chesscore.NewGame(start, nil)
	for _, s := range []string{"e3", "Na6", "Be2", "Nb6", "f4", "d5", "Bf2", "Qd6", "O-O", "O-O-O"} {
		if _, err := g.PlaySAN(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	frames, err := FramesFromMoves(g.Start(), g.Moves())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := GameGIF(&buf, frames, GIFOptions{Size: 200}); err != nil {
		t.Fatal(err)
	}
	_, shown := playGIF(t, buf.Bytes())
	if len(shown) != len(frames) {
		t.Fatalf("%d frames decoded, want %d", len(shown), len(frames))
	}
	for i, f := range frames {
		img, err := Image(&f.Position, BoardOptions{Size: 200, LastMove: f.LastMove})
		if err != nil {
			t.Fatal(err)
		}
		if bad, _ := compareImages(img, shown[i]); bad != 0 {
			t.Fatalf("frame %d (%v): %d pixels differ from the board picture", i, f.LastMove, bad)
		}
	}
	last := frames[len(frames)-1].Position
	if last.PieceAt(chesscore.G1) != chesscore.WhiteKing || last.PieceAt(chesscore.F1) != chesscore.WhiteRook ||
		last.PieceAt(chesscore.C8) != chesscore.BlackKing || last.PieceAt(chesscore.D8) != chesscore.BlackRook {
		t.Errorf("after both castlings: %s", last.FEN())
	}
}
