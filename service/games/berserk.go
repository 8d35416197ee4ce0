// berserk.go: an arena's berserk: a player halves their own clock before their first
// move.

package games

import (
	"context"
	"errors"
	"fmt"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// ErrTooLateToBerserk refuses a berserk after the player's first move.
var ErrTooLateToBerserk = errors.New("too late: berserk before your first move")

// BerserkRequest halves the requester's remaining time. After, if set, runs in the
// transaction that commits it (the tournament records the berserk there, and may refuse
// it by returning an error: then nothing is written).
type BerserkRequest struct {
	Action
	After func(tx storage.Tx) error
}

// Berserk halves the requester's clock in a tournament game (one with a no-show time)
// with a live clock, before the requester's first move. The increment stays (the clock
// has one control for both sides).
func (s *Service) Berserk(ctx context.Context, r BerserkRequest) (*Result, error) {
	return s.gameOp(ctx, r.Action, EffectBerserk, func(st *opState) error {
		c := st.rec.Clock
		switch {
		case st.rec.NoShow <= 0 || c == nil || st.rec.Control.Kind() != clock.KindLive:
			return fmt.Errorf("%w: berserk is for tournament games with a live clock", ErrBadRequest)
		case c.Moves[st.color] > 0:
			return ErrTooLateToBerserk
		}
		c.Left[st.color] = (c.Left[st.color] / 2).Truncate(1e6)
		st.after = r.After
		return nil
	})
}
