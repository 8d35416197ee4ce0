// plans.go: conditional moves on the live board. While the opponent is to move, a
// player switches the board to plan mode, plays the opponent's move and their reply,
// alternating, each checked by the game service as it is entered (CheckPlanDraft), and
// saves the line (AddPlanLine, as /conditional add); they see their plan as a list of
// lines, remove one (RemovePlanLines) or clear it (ClearPlan). Every call is the
// service's, with the Discord command's rules and errors.
//
// A plan is its author's alone: the plan and draft messages go to the author's own
// sockets of the game and to no other (never to the opponent's, never to a
// spectator's), and the game's state, which every page gets, holds nothing of it.

package web

import (
	"context"
	"errors"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/service/games"
)

// planMsg is the "plan" message, sent to the author's sockets alone: their lines in
// SAN from the current position, and whether the game allows conditional moves.
type planMsg struct {
	T    string `json:"t"` // "plan"
	Game uint64 `json:"game"`
	// Lines are the plan's lines, each the opponent's move then the reply, alternating.
	Lines [][]string `json:"lines"`
	// Allowed is set when the game allows conditional moves; Off says why not.
	Allowed bool   `json:"allowed"`
	Off     string `json:"off,omitempty"`
}

// draftMsg answers plan-check: the line so far in SAN, the position after it and the
// moves legal there (in UCI), for the board in plan mode.
type draftMsg struct {
	T     string   `json:"t"` // "draft"
	ID    string   `json:"id"`
	Ply   int      `json:"ply"`
	SAN   []string `json:"san"`
	FEN   string   `json:"fen"`
	Legal []string `json:"legal"`
	// Over says how the game would end with the line's last move ("" when it goes on).
	Over string `json:"over,omitempty"`
}

// errLocalPlan refuses plan mode on gambit play's board, where one keyboard plays
// both sides.
var errLocalPlan = errors.New("conditional moves are for games on a Discord server")

// plan runs a plan message for the socket's user and answers it; a change sends the
// plan again to every socket of the user's in the game.
func (c *conn) plan(ctx context.Context, m clientMsg) {
	s := c.s
	fail := func(err error) { c.reply(errorMsg{T: "error", ID: m.ID, Error: err.Error()}) }
	switch {
	case c.local:
		fail(errLocalPlan)
		return
	case c.user == "":
		fail(errSpectator)
		return
	case !s.limits.action(c.user):
		fail(errors.New("slow down: too many actions in a few seconds"))
		return
	}
	a := games.Action{RequestID: "web:" + c.user + ":" + m.ID, GameID: c.game, UserID: c.user, Expect: games.AtPly(m.Ply)}
	r := games.PlanRequest{Action: a, Line: m.Line}
	gs := s.opts.Games
	var err error
	switch m.T {
	case "plan-check":
		var d *games.PlanDraft
		if d, err = gs.CheckPlanDraft(ctx, r); err == nil {
			legal := make([]string, len(d.Legal))
			for i, mv := range d.Legal {
				legal[i] = mv.UCI()
			}
			msg := draftMsg{T: "draft", ID: m.ID, Ply: d.Ply, SAN: d.SAN, FEN: d.Position.FEN(), Legal: legal}
			if d.Outcome.Over() {
				msg.Over = d.Outcome.String()
			}
			c.reply(msg)
			return
		}
	case "plan-add":
		_, err = gs.AddPlanLine(ctx, r)
	case "plan-remove":
		_, err = gs.RemovePlanLines(ctx, r)
	case "plan-clear":
		_, err = gs.ClearPlan(ctx, a)
	default:
		err = errMsgForm // the decoder admits only the types above
	}
	if err != nil {
		if !isPlayerError(err) {
			// The error's text may quote the line, which stays out of the logs.
			s.log.Error("web: a plan request failed", "game", c.game, "type", m.T)
		}
		fail(planError(err))
		return
	}
	c.reply(okMsg{T: "ok", ID: m.ID})
	for _, o := range s.hub.userConns(c.game, c.user) {
		s.sendPlan(ctx, o)
	}
}

// planError is the page's sentence for a refused plan request: the service's words,
// as /conditional gives them.
func planError(err error) error {
	if errors.Is(err, games.ErrNotYourTurn) && !errors.Is(err, games.ErrGameOver) {
		return errors.New("it is your move: play it first, then plan your replies to your opponent's next move")
	}
	return playerError(err)
}

// sendPlan sends c its user's plan in c's game, if the user plays it (a spectator's,
// a stranger's and gambit play's sockets get none).
func (s *Server) sendPlan(ctx context.Context, c *conn) {
	if c.user == "" || c.local {
		return
	}
	v, err := s.opts.Games.Plan(ctx, c.game, c.user)
	if errors.Is(err, games.ErrNotAPlayer) {
		return
	}
	if err != nil {
		s.log.Warn("web: read a plan", "game", c.game, "err", err)
		return
	}
	msg := planMsg{T: "plan", Game: c.game, Lines: v.Lines, Allowed: true}
	if msg.Lines == nil {
		msg.Lines = [][]string{}
	}
	if err := s.opts.Games.PlansAllowed(ctx, c.game); errors.Is(err, games.ErrPlansOff) {
		msg.Allowed, msg.Off = false, err.Error()
	} else if err != nil {
		s.log.Warn("web: read whether a game allows conditional moves", "game", c.game, "err", err)
		return
	}
	c.reply(msg)
}

// pushPlans sends each player's sockets of game g their own plan after an event of
// the game (a reply played, a plan dropped, a takeback, the end). Only correspondence
// games have plans.
func (s *Server) pushPlans(ctx context.Context, g *games.Game) {
	if g.Control.Kind() != clock.KindCorrespondence || s.opts.LocalOnly {
		return
	}
	ids := []string{g.White.ID}
	if g.Black.ID != g.White.ID {
		ids = append(ids, g.Black.ID)
	}
	for _, id := range ids {
		for _, c := range s.hub.userConns(g.ID, id) {
			s.sendPlan(ctx, c)
		}
	}
}
