// engine.go: the engine's turn, with its clock ticking while it thinks.

package terminal

import (
	"context"
	"errors"
	"fmt"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/games"
)

// engineMove lets the engine choose and play its move. Its clock ticks on the status
// line while it thinks; if the game ends meanwhile (its flag falls), the search stops
// and the loop reports the result.
func (s *Session) engineMove(ctx context.Context, g *games.Game, over <-chan struct{}) error {
	var tl *engine.TimeLeft
	if g.Clock != nil {
		t := engine.ClockTimeLeft(g.Clock, s.EngineColor, s.now())
		tl = &t
	}
	think, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		m   chesscore.Move
		err error
	}
	done := make(chan answer, 1)
	go func() {
		m, err := s.Engine.BestMove(think, g.Chess(), tl)
		done <- answer{m, err}
	}()
	var a answer
	ended, shown := false, false
wait:
	for {
		select {
		case a = <-done:
			break wait
		case <-s.Ticks:
			if line := ClockLine(g, s.now()); s.Redraw && line != "" {
				fmt.Fprintf(s.Out, "\r\x1b[2K%s   the engine is thinking", line)
				shown = true
			}
		case <-over:
			ended = true
			cancel()
		}
	}
	if shown {
		fmt.Fprint(s.Out, "\r\x1b[2K")
	}
	if ended {
		return nil // the loop finds the game over and reports it
	}
	if a.err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("engine: %w", a.err)
	}
	res, err := s.Games.Move(ctx, games.MoveRequest{Action: s.action(g, s.EngineColor), Move: a.m.UCI()})
	if errors.Is(err, games.ErrGameOver) {
		return nil // its flag fell while it thought: the loop reports the result
	}
	if err != nil {
		return fmt.Errorf("engine move %s: %w", a.m.UCI(), err)
	}
	if g.DrawOffer.Pending {
		fmt.Fprintln(s.Out, "The engine plays on.")
	}
	s.showMove(res)
	return nil
}
