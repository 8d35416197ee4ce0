// Package terminal plays a game of the game service in a terminal: it reads commands and
// moves line by line, shows the board with both clocks, lets the built-in engine (or
// any engine.Player) move for one side, and leaves a game it quits open in the store
// to be resumed. `gambit play` and `gambit games` are its command line.
package terminal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/games"
)

// help is what the help command prints.
const help = `Type a move in SAN (e4, Nf3, O-O, e8=Q) or UCI (e2e4), or a command:
  draw            offer a draw with your next move, or accept the offer on the board
  decline         decline the draw offer on the board
  claim [MOVE]    claim a draw by threefold repetition or the fifty moves, on the
                  board or with the move that brings it about
  takeback        ask to take back the last move
  resign, abort   resign the game, or call it off before both sides have moved
  board, pgn      show the board, or the game so far in PGN
  quit            leave: the game stays open, and gambit play --resume goes on with it`

// Session is one terminal game being played. Set the exported fields, then call Run.
type Session struct {
	// Out receives everything the session shows.
	Out io.Writer
	// Games is the game service; GameID the game played.
	Games  *games.Service
	GameID uint64
	// Where names the store, for the messages that say where the game is kept.
	Where string
	// Unicode draws the pieces as chess symbols; Flip puts Black at the bottom.
	Unicode, Flip bool
	// Engine, if set, plays EngineColor's moves (nil: two players at one keyboard).
	Engine      engine.Player
	EngineColor chesscore.Color
	// Now is the clock the clocks are read at (default time.Now).
	Now func() time.Time
	// Ticks, if set, makes the clocks tick: each tick shows them again while a side
	// thinks (a time.Ticker's channel; tests send their own).
	Ticks <-chan time.Time
	// Redraw says Out is a terminal that understands ANSI cursor movement: a tick
	// rewrites the clocks line in place. Without it ticks show nothing, and the clocks
	// show with every board and prompt.
	Redraw bool

	offerNext  bool // the next move carries a draw offer
	boardShown bool // the board was just printed (after a move)
}

// ReadLines delivers the lines of r on a channel, closed at the end of input.
func ReadLines(r io.Reader) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return lines
}

func (s *Session) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

func (s *Session) hasEngine() bool { return s.Engine != nil }

// action is a request by the player of colour c.
func (s *Session) action(g *games.Game, c chesscore.Color) games.Action {
	return games.Action{GameID: s.GameID, UserID: g.Player(c).ID}
}

// Run plays until the game ends, the input ends (the game stays open) or the player
// quits. over signals that the game may have ended meanwhile (a flag fell); it may be
// nil.
func (s *Session) Run(ctx context.Context, lines <-chan string, over <-chan struct{}) error {
	for {
		g, err := s.Games.Game(ctx, s.GameID)
		if err != nil {
			return fmt.Errorf("load game %d: %w", s.GameID, err)
		}
		if !g.Live() {
			s.finish(g)
			return nil
		}
		if s.hasEngine() && g.Turn() == s.EngineColor && !g.Takeback.Pending {
			if err := s.engineMove(ctx, g, over); err != nil {
				return err
			}
			continue
		}
		s.prompt(g)
		quit, err := s.await(ctx, g, lines, over)
		if err != nil || quit {
			return err
		}
	}
}

// await waits for a line of input (and acts on it), the end of the game or the input,
// ticking the clocks meanwhile; it reports whether the session is over.
func (s *Session) await(ctx context.Context, g *games.Game, lines <-chan string, over <-chan struct{}) (quit bool, err error) {
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				fmt.Fprintln(s.Out)
				s.leave()
				return true, nil
			}
			if s.handle(ctx, g, strings.TrimSpace(line)) {
				s.leave()
				return true, nil
			}
			return false, nil
		case <-over:
			fmt.Fprintln(s.Out)
			return false, nil
		case <-s.Ticks:
			s.tickPrompt(g)
		case <-ctx.Done():
			return true, ctx.Err()
		}
	}
}

// handle acts on one line of input; it reports whether the player quit.
func (s *Session) handle(ctx context.Context, g *games.Game, line string) (quit bool) {
	turn := g.Turn()
	if t := g.Takeback; t.Pending {
		answerer := t.By.Other()
		switch strings.ToLower(line) {
		case "y", "yes":
			s.report(s.Games.AcceptTakeback(ctx, s.action(g, answerer)))
		case "n", "no":
			s.report(s.Games.DeclineTakeback(ctx, s.action(g, answerer)))
		case "quit", "exit":
			return true
		default:
			fmt.Fprintln(s.Out, "Please answer yes or no.")
		}
		return false
	}
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(word) {
	case "":
	case "help", "?":
		fmt.Fprintln(s.Out, help)
	case "board":
		fmt.Fprint(s.Out, BoardText(g, s.Unicode, s.Flip))
	case "pgn":
		fmt.Fprint(s.Out, g.PGN())
	case "quit", "exit":
		return true
	case "draw":
		if o := g.DrawOffer; o.Pending && o.By != turn {
			s.report(s.Games.AcceptDraw(ctx, s.action(g, turn)))
			return false
		}
		if s.hasEngine() {
			fmt.Fprintln(s.Out, "Your draw offer goes with your next move; the engine answers by playing on.")
		} else {
			fmt.Fprintln(s.Out, "Your draw offer goes with your next move.")
		}
		s.offerNext = true
	case "decline":
		s.report(s.Games.DeclineDraw(ctx, s.action(g, turn)))
	case "claim":
		s.report(s.Games.ClaimDraw(ctx, games.ClaimRequest{Action: s.action(g, turn), Move: rest}))
	case "resign":
		s.report(s.Games.Resign(ctx, s.action(g, turn)))
	case "abort":
		s.report(s.Games.Abort(ctx, s.action(g, turn)))
	case "takeback":
		s.takeback(ctx, g)
	default:
		s.move(ctx, g, line)
	}
	return false
}

// move plays the player's move, with the draw offer if one was asked for. An offer the
// rules refuse (too early, too many) refuses the move with it; the offer is then
// dropped, so the move typed again goes through.
func (s *Session) move(ctx context.Context, g *games.Game, text string) {
	res, err := s.Games.Move(ctx, games.MoveRequest{Action: s.action(g, g.Turn()), Move: text, OfferDraw: s.offerNext})
	if err != nil {
		s.explain(err)
		if s.offerNext && isOfferRefusal(err) {
			s.offerNext = false
			fmt.Fprintln(s.Out, "Your draw offer is withdrawn and the move was not played: type it again.")
		}
		return
	}
	s.offerNext = false
	s.showMove(res)
}

// isOfferRefusal reports whether a move was refused for its draw offer.
func isOfferRefusal(err error) bool {
	return errors.Is(err, games.ErrTooEarly) || errors.Is(err, games.ErrTooManyDrawOffers) || errors.Is(err, games.ErrOfferPending)
}

// takeback asks for the last move back: at one keyboard the player who made it asks and
// the one to move answers; against the engine, the engine always agrees.
func (s *Session) takeback(ctx context.Context, g *games.Game) {
	if g.Ply() == 0 {
		s.explain(games.ErrNothingToTakeBack)
		return
	}
	asker := g.Turn().Other() // the last mover
	if s.hasEngine() {
		asker = s.EngineColor.Other()
	}
	if _, err := s.Games.RequestTakeback(ctx, s.action(g, asker)); err != nil {
		s.explain(err)
		return
	}
	if s.hasEngine() {
		res, err := s.Games.AcceptTakeback(ctx, s.action(g, s.EngineColor))
		if err != nil {
			s.explain(err)
			return
		}
		fmt.Fprintln(s.Out, "The engine agrees to the takeback.")
		fmt.Fprint(s.Out, BoardText(res.Game, s.Unicode, s.Flip))
	}
}
