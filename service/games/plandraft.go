// plandraft.go: a line of conditional moves while it is being entered on the live
// board, one move at a time: each move is checked as AddPlanLine checks a whole line
// (the same settings, the same turn, the same parser and legality), and nothing is
// stored until the line is added.

package games

import (
	"context"
	"fmt"

	"github.com/gambitchess/gambit/chesscore"
)

// PlanDraft is the start of a line, checked: its moves in SAN, the position they lead
// to and the moves legal there (the opponent's after an even number of moves, the
// requester's after an odd one).
type PlanDraft struct {
	GameID uint64
	// Ply is the game's ply the line starts from.
	Ply int
	// SAN holds the line's moves in SAN, the opponent's first.
	SAN []string
	// Position is the position after the line.
	Position chesscore.Position
	// Legal holds the moves legal after the line (none when the game would be over).
	Legal []chesscore.Move
	// Outcome is how the game would end with the line's last move (not Over: it goes on).
	Outcome chesscore.Outcome
}

// CheckPlanDraft checks the start of a line of conditional moves for the requester,
// who may end it with the opponent's move (a reply is still to come): the game must
// allow conditional moves, be the opponent's to move and at the ply the request
// expects, and every move must be legal. It changes nothing; AddPlanLine stores the
// finished line.
func (s *Service) CheckPlanDraft(ctx context.Context, r PlanRequest) (*PlanDraft, error) {
	g, err := s.Game(ctx, r.GameID)
	if err != nil {
		return nil, err
	}
	color, ok := g.ColorOf(r.UserID)
	if !ok || r.UserID == "" {
		return nil, fmt.Errorf("game %d: %w", r.GameID, ErrNotAPlayer)
	}
	if !g.Live() {
		return nil, overError(&g.Game)
	}
	if r.Expect.set && r.Expect.n != g.Ply() {
		return nil, fmt.Errorf("%w (the game is at ply %d, the request was made at ply %d)", ErrStale, g.Ply(), r.Expect.n)
	}
	if err := s.plansAllowed(ctx, &g.Game); err != nil {
		return nil, err
	}
	if g.Turn() == color {
		return nil, fmt.Errorf("%w: it is your move: play it, then plan your replies to your opponent's", ErrNotYourTurn)
	}
	sans, err := ParsePlanLine(r.Line)
	if err != nil {
		return nil, err
	}
	chess := g.Chess()
	start := chess.Clone()
	line, err := playLine(chess, sans)
	if err != nil {
		return nil, err
	}
	d := &PlanDraft{GameID: g.ID, Ply: g.Ply(), SAN: make([]string, 0, len(line)), Position: chess.Position(), Outcome: chess.Outcome()}
	for _, m := range line {
		pos := start.Position()
		d.SAN = append(d.SAN, pos.SAN(m))
		if err := start.Play(m); err != nil {
			return nil, fmt.Errorf("replay a checked line of game %d: %w", g.ID, err)
		}
	}
	if !chess.Over() {
		var ml chesscore.MoveList
		d.Position.LegalMoves(&ml)
		d.Legal = append(d.Legal, ml.Slice()...)
	}
	return d, nil
}

// PlansAllowed reports (nil) whether game id allows conditional moves: a
// correspondence game in the scope its server's settings give; else ErrPlansOff with
// the reason, as AddPlanLine refuses a line.
func (s *Service) PlansAllowed(ctx context.Context, id uint64) error {
	g, err := s.Game(ctx, id)
	if err != nil {
		return err
	}
	return s.plansAllowed(ctx, &g.Game)
}
