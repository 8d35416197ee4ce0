// Tests of the clocks that tick at the prompt and while the engine thinks.
package terminal

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
)

// TestClocksTickAtThePrompt: for a timed game the clocks line stands above every
// prompt, and each tick rewrites it in place with the running clock.
func TestClocksTickAtThePrompt(t *testing.T) {
	f := newFixture(t)
	out := &output{}
	s := f.start(t, White, Black, "1+0", out)
	ticks := make(chan time.Time)
	s.Ticks, s.Redraw = ticks, true
	lines := make(chan string)
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background(), lines, nil) }()
	lines <- "e4"
	lines <- "e5" // both first moves are free; White's clock runs from here
	out.waitFor(t, "1... e5")
	out.waitFor(t, "White 1:00 | Black 1:00\nWhite to move: ")
	f.clk.Advance(3 * time.Second)
	ticks <- f.clk.Now()
	out.waitFor(t, "\x1b7\x1b[1A\r\x1b[2KWhite 0:57 | Black 1:00\x1b8")
	f.clk.Advance(50 * time.Second)
	ticks <- f.clk.Now()
	out.waitFor(t, "\x1b7\x1b[1A\r\x1b[2KWhite 0:07.0 | Black 1:00\x1b8")
	close(lines)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// heldEngine answers with its first legal move once released.
type heldEngine struct{ release chan struct{} }

func (e heldEngine) BestMove(ctx context.Context, g *chesscore.Game, _ *engine.TimeLeft) (chesscore.Move, error) {
	select {
	case <-e.release:
	case <-ctx.Done():
		return chesscore.NullMove, ctx.Err()
	}
	pos := g.Position()
	var ml chesscore.MoveList
	pos.LegalMoves(&ml)
	return ml.Moves[0], nil
}

// TestEngineClockTicks: while the engine thinks its clock ticks on a status line, which
// is cleared before its move is shown.
func TestEngineClockTicks(t *testing.T) {
	f := newFixture(t)
	out := &output{}
	s := f.start(t, You, EnginePlayer(3), "3+2", out)
	eng := heldEngine{release: make(chan struct{})}
	ticks := make(chan time.Time)
	s.Engine, s.EngineColor, s.Ticks, s.Redraw = eng, chesscore.Black, ticks, true
	lines := make(chan string)
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background(), lines, nil) }()
	lines <- "e4"
	eng.release <- struct{}{} // the engine's free first move
	lines <- "d4"             // White's clock runs from Black's first move; Black's from here
	out.waitFor(t, "2. d4")
	f.clk.Advance(4 * time.Second)
	ticks <- f.clk.Now()
	out.waitFor(t, "\r\x1b[2KWhite 3:02 | Black 2:56   the engine is thinking")
	eng.release <- struct{}{}
	out.waitFor(t, "2... ")
	if !strings.Contains(out.String(), "the engine is thinking\r\x1b[2K2... ") {
		t.Errorf("the status line is not cleared before the move:\n%q", out.String())
	}
	close(lines)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
