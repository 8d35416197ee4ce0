// order.go: how a ladder is ranked (the store lists players by user id).

package ladder

import (
	"cmp"
	"context"
	"slices"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// sortLadder orders players as a leaderboard: rating, highest first; then more games;
// then user id.
func sortLadder(ps []storage.LadderPlayer) {
	slices.SortStableFunc(ps, func(a, b storage.LadderPlayer) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Games, a.Games); c != 0 {
			return c
		}
		return cmp.Compare(a.UserID, b.UserID)
	})
}

// ranked reads the players of a guild's category as a leaderboard (sortLadder).
func (s *Service) ranked(ctx context.Context, guildID string, cat clock.Category) ([]storage.LadderPlayer, error) {
	ps, err := storage.Read(ctx, s.db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.Ladder(guildID, cat) })
	if err != nil {
		return nil, err
	}
	sortLadder(ps)
	return ps, nil
}
