// actions.go: a player's moves and actions from the page: each is the same call to the
// game service that Discord's command makes, for the session's Discord user, so every
// rule (whose turn, the clock, the offers' limits, the claims) is the service's alone.

package web

import (
	"context"
	"errors"
	"fmt"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

// errSpectator is the answer to an action from a page nobody signed in to.
var errSpectator = errors.New("you are watching: to play, use the button Play on the web under your game's board on Discord")

// act runs a move or an action for the socket's user and answers it; the new state
// reaches every page (this one included) through the game's event.
func (c *conn) act(ctx context.Context, m clientMsg) {
	res, err := c.s.act(ctx, c, m)
	if err != nil {
		c.reply(errorMsg{T: "error", ID: m.ID, Error: err.Error()})
		return
	}
	c.reply(okMsg{T: "ok", ID: m.ID, SAN: res.SAN})
}

// act runs m for c's user.
func (s *Server) act(ctx context.Context, c *conn, m clientMsg) (*games.Result, error) {
	user := c.user
	if c.local {
		g, err := s.opts.Games.Game(ctx, c.game)
		if err != nil {
			return nil, playerError(err)
		}
		// gambit play's board is one keyboard for both sides: the page acts for the
		// side to move, or for White on a resignation with nobody to move.
		user = g.Player(g.Turn()).ID
		if s.opts.Engine != nil {
			if e, ok := s.opts.Engine.EngineGame(ctx, g.ID); ok && e.Color == g.Turn() {
				user = g.Player(g.Turn().Other()).ID
			}
		}
	}
	if user == "" {
		return nil, errSpectator
	}
	if !s.limits.action(user) {
		return nil, errors.New("slow down: too many actions in a few seconds")
	}
	a := games.Action{RequestID: "web:" + user + ":" + m.ID, GameID: c.game, UserID: user, Expect: games.AtPly(m.Ply)}
	var (
		res *games.Result
		err error
	)
	gs := s.opts.Games
	if m.T == "move" {
		res, err = gs.Move(ctx, games.MoveRequest{Action: a, Move: m.Move, OfferDraw: m.OfferDraw})
	} else {
		switch m.Action {
		case "resign":
			a.Expect = games.Ply{} // a resignation stands whatever was played meanwhile
			res, err = gs.Resign(ctx, a)
		case "offer-draw":
			res, err = gs.OfferDraw(ctx, a)
		case "accept-draw":
			res, err = gs.AcceptDraw(ctx, a)
		case "decline-draw":
			res, err = gs.DeclineDraw(ctx, a)
		case "claim-draw":
			res, err = gs.ClaimDraw(ctx, games.ClaimRequest{Action: a, Move: m.Move})
		case "abort":
			res, err = gs.Abort(ctx, a)
		case "takeback":
			res, err = gs.RequestTakeback(ctx, a)
		case "accept-takeback":
			res, err = gs.AcceptTakeback(ctx, a)
		case "decline-takeback":
			res, err = gs.DeclineTakeback(ctx, a)
		default:
			return nil, errMsgForm // the decoder admits only the actions above
		}
	}
	if err != nil {
		if !isPlayerError(err) {
			s.log.Error("web: an action failed", "game", c.game, "action", m.Action, "err", err)
		}
		return nil, playerError(err)
	}
	return res, nil
}

// playerErrors are the service's errors a player causes; their texts are written for
// the player.
var playerErrors = []error{
	games.ErrNotAPlayer, games.ErrNotYourTurn, games.ErrGameOver, games.ErrTimeUp, games.ErrStale,
	games.ErrIllegalMove, games.ErrCannotAcceptOwn, games.ErrTooManyDrawOffers, games.ErrOfferWithMove,
	games.ErrOfferPending, games.ErrNoDrawOffer, games.ErrTooEarly, games.ErrIncorrectClaim, games.ErrNoTakeback,
	games.ErrNothingToTakeBack, games.ErrNoTakebacks, games.ErrAlreadyAsked, games.ErrTooLateToAbort,
	games.ErrBadRequest, games.ErrNoSuchGame, games.ErrClosed, games.ErrPlansOff, games.ErrNoPlan,
}

func isPlayerError(err error) bool {
	for _, pe := range playerErrors {
		if errors.Is(err, pe) {
			return true
		}
	}
	return false
}

// playerError returns err as the page shows it: the service's own words for what the
// player caused (the reason of an illegal move included), a plain sentence otherwise.
func playerError(err error) error {
	if err == nil {
		return nil
	}
	var me *chesscore.MoveError
	if errors.As(err, &me) && errors.Is(err, games.ErrIllegalMove) {
		return fmt.Errorf("illegal move: %s", me.Reason)
	}
	for _, pe := range playerErrors {
		if errors.Is(err, pe) {
			if errors.Is(err, games.ErrStale) {
				return errors.New("the game has moved on: look at the board as it is now")
			}
			return errors.New(err.Error()) // "%w: what exactly", in the player's words
		}
	}
	return errors.New("that did not work on our side; try again")
}
