// conditional.go: conditional moves. While the opponent is to move, a player queues
// replies to the opponent's possible moves (a plan, storage.Plan); when the opponent
// plays a move the plan foresees, the reply is played at once.
//
// The reply is played in the transaction that records the opponent's move: the move,
// the reply and what is left of the plan are one commit, so a process killed between
// the two cannot exist, and nothing needs redoing after a restart or a takeover. Every
// change of a plan also writes the game record (its Version), so a plan edited while
// the opponent's move is committed makes one of the two writes conflict and run again
// on the other's result: the reply follows the plan as it was when the move committed.

package games

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// The effects of the requests on plans.
const (
	EffectPlanned     Effect = "conditional moves planned"
	EffectPlanRemoved Effect = "conditional moves removed"
)

// ErrNoPlan: removing conditional moves from an empty plan.
var ErrNoPlan = errors.New("you have no conditional moves in this game")

// ErrPlansOff: the game does not allow conditional moves (not a correspondence game,
// or the server's settings).
var ErrPlansOff = errors.New("conditional moves are not allowed in this game")

// PlanRequest adds a line of conditional moves to one's plan, or removes the lines
// that start with it.
type PlanRequest struct {
	Action
	// Line is the line as the player typed it (ParsePlanLine): the opponent's move,
	// then one's reply, alternating.
	Line string
}

// PlanView is a plan as its author sees it: its lines in SAN, from the current
// position.
type PlanView struct {
	GameID uint64
	// Lines are the lines, each a list of SAN moves (the opponent's first).
	Lines [][]string
}

// ConditionalPlayed: the plan of Player (of Color) answered the opponent's move Move
// with Reply; the opponent has the move. It replaces the YourTurn of both moves.
type ConditionalPlayed struct {
	Game        *Game
	Player      storage.Player
	Color       chesscore.Color
	Move, Reply string
	// DrawLapsed is set when the opponent offered a draw with Move: the reply, a move
	// like any other, declined it (FIDE 9.1.2.3).
	DrawLapsed bool
}

// PlanDropped: the opponent played Move, which the plan of Player (of Color) did not
// foresee, or the game stopped allowing conditional moves (Reason says which): the
// plan is gone.
type PlanDropped struct {
	Game   *Game
	Player storage.Player
	Color  chesscore.Color
	Move   string
	// Off is set when the plan was dropped because the game no longer allows
	// conditional moves.
	Off bool
}

func (ConditionalPlayed) event() {}
func (PlanDropped) event()       {}

// plansAllowed checks that the game allows conditional moves: a correspondence game
// in the scope its guild's settings give.
func (s *Service) plansAllowed(ctx context.Context, rec *storage.Game) error {
	gs, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings(rec.GuildID) })
	if err != nil {
		return fmt.Errorf("read settings of guild %s: %w", rec.GuildID, err)
	}
	if gs.ConditionalMoves.Allows(rec.Control) {
		return nil
	}
	switch gs.ConditionalMoves {
	case storage.ConditionalOff:
		return fmt.Errorf("%w: this server has turned them off", ErrPlansOff)
	case storage.ConditionalDaily:
		return fmt.Errorf("%w: this server allows them in daily games only (a day or more per move)", ErrPlansOff)
	}
	return fmt.Errorf("%w: they are for correspondence games (a time per move in hours or days)", ErrPlansOff)
}

// readPlan returns the requester's plan if it is current: one made at another ply (a
// takeback since) counts as none.
func (st *opState) readPlan(ctx context.Context, c chesscore.Color) (*storage.Plan, error) {
	p, err := storage.Read(ctx, st.s.db, func(tx storage.Tx) (*storage.Plan, error) { return tx.Plan(st.rec.ID, c) })
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read plan of game %d: %w", st.rec.ID, err)
	}
	if p.Ply != st.rec.Ply() {
		return nil, nil
	}
	return p, nil
}

// checkLine plays the moves of a line from the current position of a copy of the game
// and returns them: each must be legal, the game must not end before the line does,
// and the line must end with the requester's reply.
func (st *opState) checkLine(sans []string) ([]chesscore.Move, error) {
	if len(sans)%2 != 0 {
		return nil, fmt.Errorf("%w: the line ends with your opponent's move %s: add your reply to it", ErrBadRequest, sans[len(sans)-1])
	}
	return playLine(st.chess.Clone(), sans)
}

// playLine plays the moves of a line on g (a copy of the game at its current
// position), the opponent's first, and returns them; the first illegal move, or one
// after the game would have ended, is named.
func playLine(g *chesscore.Game, sans []string) ([]chesscore.Move, error) {
	out := make([]chesscore.Move, 0, len(sans))
	for i, san := range sans {
		whose := "your opponent's"
		if i%2 == 1 {
			whose = "your"
		}
		if g.Over() {
			return nil, fmt.Errorf("%w: the game is over (%s) before move %d (%s): end the line there", ErrBadRequest, g.Outcome(), i+1, san)
		}
		m, err := g.PlaySAN(san)
		if err != nil {
			return nil, fmt.Errorf("%w: move %d of the line (%s, %s move) is not legal there: %v", ErrBadRequest, i+1, san, whose, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// AddPlanLine adds a line to the requester's plan, while the opponent is to move. The
// line is checked move by move (the first illegal one is named); a line that answers
// an opponent's move the plan already answers otherwise is refused; one that goes
// further than a line of the plan replaces it.
func (s *Service) AddPlanLine(ctx context.Context, r PlanRequest) (*Result, error) {
	return s.gameOp(ctx, r.Action, EffectPlanned, func(st *opState) error {
		if err := s.plansAllowed(ctx, st.rec); err != nil {
			return err
		}
		if st.chess.Turn() == st.color {
			return fmt.Errorf("%w: it is your move: play it, then plan your replies to your opponent's", ErrNotYourTurn)
		}
		sans, err := ParsePlanLine(r.Line)
		if err != nil {
			return err
		}
		line, err := st.checkLine(sans)
		if err != nil {
			return err
		}
		old, err := st.readPlan(ctx, st.color)
		if err != nil {
			return err
		}
		p := &storage.Plan{GameID: st.rec.ID, Color: st.color, UserID: r.UserID, Ply: st.rec.Ply(), Updated: st.now}
		if old != nil {
			p.Lines = old.Clone().Lines
		}
		if p.Lines, err = mergeLine(p.Lines, line); err != nil {
			return err
		}
		if len(p.Lines) > storage.MaxPlanLines {
			return fmt.Errorf("%w: a plan has at most %d lines; remove some first", ErrBadRequest, storage.MaxPlanLines)
		}
		if err := p.Validate(); err != nil {
			return fmt.Errorf("%w: %v", ErrBadRequest, err)
		}
		st.after = func(tx storage.Tx) error { return tx.PutPlan(p) }
		return nil
	})
}

// mergeLine adds line to lines: a line it extends is replaced, a line that already
// holds it is an error, and so is a different reply to an opponent's move a line
// answers.
func mergeLine(lines [][]chesscore.Move, line []chesscore.Move) ([][]chesscore.Move, error) {
	var out [][]chesscore.Move
	for _, l := range lines {
		n := min(len(l), len(line))
		common := 0
		for common < n && l[common] == line[common] {
			common++
		}
		switch {
		case common == len(line):
			return nil, fmt.Errorf("%w: your plan already has that line", ErrBadRequest)
		case common == len(l):
			continue // the new line goes further: it replaces this one
		case common%2 == 1:
			return nil, fmt.Errorf("%w: your plan already answers that move of your opponent (move %d of the line) with another reply; remove that line first", ErrBadRequest, common+1)
		}
		out = append(out, l)
	}
	return append(out, line), nil
}

// RemovePlanLines removes from the requester's plan every line that starts with the
// moves given (the opponent's move alone removes that whole branch).
func (s *Service) RemovePlanLines(ctx context.Context, r PlanRequest) (*Result, error) {
	return s.gameOp(ctx, r.Action, EffectPlanRemoved, func(st *opState) error {
		sans, err := ParsePlanLine(r.Line)
		if err != nil {
			return err
		}
		old, err := st.readPlan(ctx, st.color)
		if err != nil {
			return err
		}
		if old == nil {
			return ErrNoPlan
		}
		prefix, err := st.prefixMoves(sans)
		if err != nil {
			return err
		}
		p := old.Clone()
		p.Lines = slices.DeleteFunc(p.Lines, func(l []chesscore.Move) bool {
			return len(l) >= len(prefix) && slices.Equal(l[:len(prefix)], prefix)
		})
		if len(p.Lines) == len(old.Lines) {
			return fmt.Errorf("%w: no line of your plan starts with %s", ErrBadRequest, strings.Join(sans, " "))
		}
		p.Updated = st.now
		st.after = func(tx storage.Tx) error {
			if len(p.Lines) == 0 {
				return tx.DeletePlans(p.GameID, p.Color)
			}
			return tx.PutPlan(p)
		}
		return nil
	})
}

// prefixMoves reads the moves of the start of a line, without requiring a reply at
// its end.
func (st *opState) prefixMoves(sans []string) ([]chesscore.Move, error) {
	g := st.chess.Clone()
	out := make([]chesscore.Move, 0, len(sans))
	for i, san := range sans {
		m, err := g.PlaySAN(san)
		if err != nil {
			return nil, fmt.Errorf("%w: move %d (%s) is not legal there: %v", ErrBadRequest, i+1, san, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// ClearPlan deletes the requester's plan.
func (s *Service) ClearPlan(ctx context.Context, a Action) (*Result, error) {
	return s.gameOp(ctx, a, EffectPlanRemoved, func(st *opState) error {
		old, err := st.readPlan(ctx, st.color)
		if err != nil {
			return err
		}
		if old == nil {
			return ErrNoPlan
		}
		st.after = func(tx storage.Tx) error { return tx.DeletePlans(st.rec.ID, st.color) }
		return nil
	})
}

// Plan returns userID's plan in a game, for userID alone (nil lines: none). A plan
// made before a takeback counts as none.
func (s *Service) Plan(ctx context.Context, gameID uint64, userID string) (*PlanView, error) {
	g, err := s.Game(ctx, gameID)
	if err != nil {
		return nil, err
	}
	c, ok := g.ColorOf(userID)
	if !ok {
		return nil, fmt.Errorf("game %d: %w", gameID, ErrNotAPlayer)
	}
	p, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Plan, error) { return tx.Plan(gameID, c) })
	v := &PlanView{GameID: gameID}
	if errors.Is(err, storage.ErrNotFound) || (err == nil && (p.Ply != g.Ply() || !g.Live())) {
		return v, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read plan of game %d: %w", gameID, err)
	}
	for _, l := range p.Lines {
		ch := g.Chess()
		sans := make([]string, 0, len(l))
		for _, m := range l {
			pos := ch.Position()
			san := pos.SAN(m)
			if err := ch.Play(m); err != nil {
				return nil, fmt.Errorf("plan of game %d: %w", gameID, err)
			}
			sans = append(sans, san)
		}
		v.Lines = append(v.Lines, sans)
	}
	return v, nil
}

// answerWithPlan runs after the opponent's move m (SAN san) was recorded in the
// working copies: the plan of the side now to move answers it if it foresees it (the
// reply is recorded as a move of its own, with the same instant), and is dropped
// otherwise. It returns the events of the outcome (nil without a plan) and whether a
// reply was played.
func (st *opState) answerWithPlan(ctx context.Context, m chesscore.Move, san string, drawOffered bool) (events func(v *Game) []Event, replied bool, err error) {
	planner := st.chess.Turn()
	if st.chess.Over() {
		return nil, false, nil // the end deletes the plans (prepare)
	}
	p, err := storage.Read(ctx, st.s.db, func(tx storage.Tx) (*storage.Plan, error) { return tx.Plan(st.rec.ID, planner) })
	if errors.Is(err, storage.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read plan of game %d: %w", st.rec.ID, err)
	}
	id := st.rec.ID
	drop := func(tx storage.Tx) error { return tx.DeletePlans(id, planner) }
	who := st.rec.Player(planner)
	if p.Ply != st.rec.Ply()-1 {
		st.addAfter(drop) // made before a takeback: stale
		return nil, false, nil
	}
	reply, rest, ok := p.Reply(m)
	off := false
	if ok {
		if err := st.s.plansAllowed(ctx, st.rec); errors.Is(err, ErrPlansOff) {
			ok, off = false, true
		} else if err != nil {
			return nil, false, err
		}
	}
	if !ok {
		st.addAfter(drop)
		return func(v *Game) []Event {
			return []Event{PlanDropped{Game: v, Player: who, Color: planner, Move: san, Off: off}}
		}, false, nil
	}
	if err := st.chess.Play(reply); err != nil {
		// A plan checked when entered is legal when its move comes; a record that says
		// otherwise is dropped rather than trusted.
		st.addAfter(drop)
		return func(v *Game) []Event {
			return []Event{PlanDropped{Game: v, Player: who, Color: planner, Move: san}}
		}, false, nil
	}
	if err := st.recordMove(reply); err != nil {
		return nil, false, err
	}
	replySAN := st.san
	st.san = san
	if rest != nil {
		rest.Updated = st.now
		st.addAfter(func(tx storage.Tx) error { return tx.PutPlan(rest) })
	} else {
		st.addAfter(drop)
	}
	return func(v *Game) []Event {
		if !v.Live() {
			return nil // the GameOver shows the reply's board
		}
		return []Event{ConditionalPlayed{Game: v, Player: who, Color: planner, Move: san, Reply: replySAN, DrawLapsed: drawOffered}}
	}, true, nil
}

// addAfter chains fn after the writes the request already has in its transaction.
func (st *opState) addAfter(fn func(tx storage.Tx) error) {
	prev := st.after
	if prev == nil {
		st.after = fn
		return
	}
	st.after = func(tx storage.Tx) error {
		if err := prev(tx); err != nil {
			return err
		}
		return fn(tx)
	}
}
