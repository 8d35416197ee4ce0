// store.go: the puzzle service's uses of the store that are more than one Tx call: bulk
// imports, the guilds with a daily post, and the leaderboard's order (the store lists
// members by user id; ranking them is the service's business).

package puzzles

import (
	"cmp"
	"context"
	"slices"

	"github.com/gambitchess/gambit/storage"
)

// addPuzzles stores the puzzles not stored yet in one transaction of their own (not
// grouped with other writers: imports come in batches of a few thousand) and returns
// how many it added.
func addPuzzles(ctx context.Context, st storage.Store, ps []*storage.Puzzle) (added int, err error) {
	err = st.Bulk(ctx, func(tx storage.Tx) (err error) {
		added, err = tx.AddPuzzles(ps)
		return err
	})
	return added, err
}

// puzzleGuilds returns the settings of every guild that has a channel for the daily
// puzzle.
func puzzleGuilds(ctx context.Context, st storage.Store) ([]storage.GuildSettings, error) {
	all, err := storage.Read(ctx, st, storage.Tx.Guilds)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(s storage.GuildSettings) bool { return s.Puzzle.Channel == "" }), nil
}

// leaderboard returns the guild's members with at least one rated attempt, by rating
// (highest first; then more puzzles solved; then user id), at most limit of them (0:
// all).
func leaderboard(ctx context.Context, st storage.Store, guild string, limit int) ([]storage.PuzzlePlayer, error) {
	ps, err := storage.Read(ctx, st, func(tx storage.Tx) ([]storage.PuzzlePlayer, error) { return tx.PuzzlePlayers(guild) })
	if err != nil {
		return nil, err
	}
	ps = slices.DeleteFunc(ps, func(p storage.PuzzlePlayer) bool { return p.Rated == 0 })
	slices.SortStableFunc(ps, func(a, b storage.PuzzlePlayer) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Solved, a.Solved); c != 0 {
			return c
		}
		return cmp.Compare(a.UserID, b.UserID)
	})
	if limit > 0 && len(ps) > limit {
		ps = ps[:limit]
	}
	return ps, nil
}
