// stats.go: a member's puzzle record and the guild's leaderboard.

package puzzles

import (
	"context"
	"errors"

	"github.com/gambitchess/gambit/storage"
)

// Stats is a member's puzzle record as /puzzle stats shows it.
type Stats struct {
	storage.PuzzlePlayer
	// Streak is the streak still alive: the member solved the latest puzzle of the day,
	// or the one before it (today's is still open).
	Streak int
	// Rank is the member's place on the guild's leaderboard (0 without a rated
	// attempt); Of the number of ranked members.
	Rank, Of int
}

// Stats returns a member's puzzle record.
func (s *Service) Stats(ctx context.Context, guild, user string) (*Stats, error) {
	if err := checkMember(guild, user); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pl, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.PuzzlePlayer, error) { return tx.PuzzlePlayer(guild, user) })
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	st := &Stats{PuzzlePlayer: newPlayer(pl)}
	if pl.StreakDay != "" {
		d, err := s.TodayDaily(ctx, guild)
		if err != nil && !errors.Is(err, ErrNoPuzzles) {
			return nil, err
		}
		if d != nil && (d.Date == pl.StreakDay || d.Prev == pl.StreakDay) {
			st.Streak = pl.Streak
		}
	}
	board, err := leaderboard(ctx, s.db, guild, 0)
	if err != nil {
		return nil, err
	}
	st.Of = len(board)
	for i, b := range board {
		if b.UserID == user {
			st.Rank = i + 1
		}
	}
	return st, nil
}

// Leaderboard returns the guild's best puzzle ratings, at most limit members.
func (s *Service) Leaderboard(ctx context.Context, guild string, limit int) ([]storage.PuzzlePlayer, error) {
	if guild == "" {
		return nil, ErrNotInGuild
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return leaderboard(ctx, s.db, guild, limit)
}
