package uci

import (
	"context"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/internal/stockfish"
)

// TestClientStockfish drives a real Stockfish (installed by scripts/test.sh) the way the
// bot's stronger levels and analysis will.
func TestClientStockfish(t *testing.T) {
	path, err := stockfish.Path()
	if err != nil {
		t.Fatalf("%v (scripts/test.sh installs it)", err)
	}
	ctx := context.Background()
	c, err := Start(ctx, Config{Path: path, Options: []OptionValue{{"Hash", "8"}, {"UCI_LimitStrength", "true"}, {"UCI_Elo", "1500"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if name, _ := c.ID(); name == "" {
		t.Error("no id name")
	}
	g := cc.NewGame(cc.StartPosition(), dead.Decider{})
	for ply := 0; ply < 6; ply++ {
		m, err := c.BestMove(ctx, g, &engine.TimeLeft{Remaining: 3 * time.Second, Increment: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("stockfish move %s: %v", m, err)
		}
	}
	mate := cc.NewGame(mustFENPos(t, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), dead.Decider{})
	lines, err := c.Analyse(ctx, mate, GoParams{Depth: 8}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[0].Move.UCI() != "d1d8" || lines[0].Score.MateIn() != 1 {
		t.Errorf("mate in one: %+v", lines)
	}
}

// TestClientStockfishChess960 plays and analyses Chess960 positions with a real Stockfish
// in UCI_Chess960 mode: castlings in the moves sent, and a castling found as the mate.
func TestClientStockfishChess960(t *testing.T) {
	path, err := stockfish.Path()
	if err != nil {
		t.Fatalf("%v (scripts/test.sh installs it)", err)
	}
	ctx := context.Background()
	c, err := Start(ctx, Config{Path: path, Options: []OptionValue{{"Hash", "8"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g := cc.NewGame(mustFENPos(t, "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1"), dead.Decider{})
	if _, err := g.PlaySAN("O-O-O"); err != nil { // the king stays on c1, the rook goes a1-d1
		t.Fatal(err)
	}
	if s := PositionOf(g).String(); s != "position fen r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1 moves c1a1" {
		t.Errorf("position command %q", s)
	}
	for ply := 0; ply < 4; ply++ {
		m, err := c.BestMove(ctx, g, &engine.TimeLeft{Remaining: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("stockfish move %s: %v", m, err)
		}
	}
	mate := cc.NewGame(mustFENPos(t, "2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1"), dead.Decider{})
	lines, err := c.Analyse(ctx, mate, GoParams{Depth: 6}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0].Move.Kind() != cc.CastlingMove || lines[0].Score.MateIn() != 1 {
		t.Errorf("mate by O-O-O: %+v", lines)
	}
	// A standard game after the Chess960 ones: UCI_Chess960 is turned off again.
	std := cc.NewGame(cc.StartPosition(), dead.Decider{})
	if m, err := c.BestMove(ctx, std, &engine.TimeLeft{Remaining: time.Second}); err != nil || std.Play(m) != nil {
		t.Errorf("standard game after Chess960: %v, %v", m, err)
	}
}
