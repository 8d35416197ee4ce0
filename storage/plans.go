// plans.go: a player's conditional moves in a game (schema version 9, bucket and
// table conditional_plans): the replies they queued to the opponent's possible moves.
//
// A plan is private to its author: only the game service reads it, to answer the
// opponent's move in the transaction that records that move, and to show it to its
// author. It is deleted when the game ends, when a takeback makes it stale, and when
// the opponent plays a move it does not foresee.

package storage

import (
	"fmt"
	"time"

	"github.com/gambitchess/gambit/chesscore"
)

// Bounds of a plan: how many lines it holds and how many half-moves a line has.
const (
	MaxPlanLines = 32
	MaxPlanDepth = 24
)

// Plan is a player's conditional moves in a game: lines that start with a move of the
// opponent and alternate, each opponent's move followed by the player's reply. Lines
// that share a start form a tree; the lines never answer one opponent's move with two
// different replies.
type Plan struct {
	// GameID and Color are the record's key: the game and the side of the planner.
	GameID uint64          `json:"-"`
	Color  chesscore.Color `json:"-"`
	// UserID is the planner, the only user who sees the plan.
	UserID string `json:"user"`
	// Ply is the game's ply when the lines begin: the opponent's move that starts each
	// line is the game's move at Ply (0 is the first move).
	Ply int `json:"ply"`
	// Lines are the lines, each of an even number of moves (at least two).
	Lines [][]chesscore.Move `json:"lines"`
	// Updated is when the plan was last changed.
	Updated time.Time `json:"updated"`
}

// Validate checks the plan's shape: the key, the planner, the bounds, lines of pairs
// of moves, and one reply per opponent's move. Legality is the game service's.
func (p *Plan) Validate() error {
	switch {
	case p.GameID == 0:
		return fmt.Errorf("plan: no game id")
	case p.Color != chesscore.White && p.Color != chesscore.Black:
		return fmt.Errorf("plan of game %d: colour %d is neither white nor black", p.GameID, p.Color)
	case p.UserID == "" || len(p.UserID) > MaxIDLen:
		return fmt.Errorf("plan of game %d: user id %q: want 1 to %d bytes", p.GameID, p.UserID, MaxIDLen)
	case p.Ply < 0:
		return fmt.Errorf("plan of game %d: ply %d is negative", p.GameID, p.Ply)
	case len(p.Lines) == 0 || len(p.Lines) > MaxPlanLines:
		return fmt.Errorf("plan of game %d: %d lines (want 1 to %d)", p.GameID, len(p.Lines), MaxPlanLines)
	}
	for i, l := range p.Lines {
		if len(l) < 2 || len(l)%2 != 0 || len(l) > MaxPlanDepth {
			return fmt.Errorf("plan of game %d: line %d has %d moves (want an even number from 2 to %d)", p.GameID, i+1, len(l), MaxPlanDepth)
		}
	}
	if i, j, ok := p.Conflict(); ok {
		return fmt.Errorf("plan of game %d: lines %d and %d answer the same move with different replies", p.GameID, i+1, j+1)
	}
	return nil
}

// Conflict finds two lines that reach one opponent's move along the same moves and
// answer it differently; ok is false when the lines form a tree.
func (p *Plan) Conflict() (i, j int, ok bool) {
	for i := range p.Lines {
		for j := i + 1; j < len(p.Lines); j++ {
			a, b := p.Lines[i], p.Lines[j]
			for k := 0; k+1 < len(a) && k+1 < len(b); k += 2 {
				if a[k] != b[k] {
					break
				}
				if a[k+1] != b[k+1] {
					return i, j, true
				}
			}
		}
	}
	return 0, 0, false
}

// Clone returns a deep copy of the plan.
func (p *Plan) Clone() *Plan {
	c := *p
	c.Lines = make([][]chesscore.Move, len(p.Lines))
	for i, l := range p.Lines {
		c.Lines[i] = append([]chesscore.Move(nil), l...)
	}
	return &c
}

// Reply returns the plan's reply to the opponent's move m, and the plan that remains
// after that reply (nil when no line goes further): the lines through m and the reply,
// without those two moves, two plies later. ok is false when no line foresees m.
func (p *Plan) Reply(m chesscore.Move) (reply chesscore.Move, rest *Plan, ok bool) {
	var lines [][]chesscore.Move
	for _, l := range p.Lines {
		if l[0] != m {
			continue
		}
		reply, ok = l[1], true
		if len(l) > 2 {
			lines = append(lines, append([]chesscore.Move(nil), l[2:]...))
		}
	}
	if !ok || len(lines) == 0 {
		return reply, nil, ok
	}
	r := *p
	r.Ply, r.Lines = p.Ply+2, lines
	return reply, &r, true
}

// PlansTx reads and writes the players' conditional moves (plans.go).
type PlansTx interface {
	// Plan returns the plan of side c in a game (ErrNotFound for none).
	Plan(gameID uint64, c chesscore.Color) (*Plan, error)
	// PutPlan validates and writes a plan of a stored game, replacing the side's plan.
	PutPlan(p *Plan) error
	// DeletePlans deletes the plans of a game's sides given (both when none is given);
	// a side without a plan is no error.
	DeletePlans(gameID uint64, sides ...chesscore.Color) error
}
