// hint.go: the hint, which piece to move, counted as a miss on a rated try.

package puzzles

import (
	"context"
	"errors"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// Hint is the piece to move.
type Hint struct {
	*Progress
	// From is the square of the piece the solution moves.
	From cc.Square
	// Rated reports that the hint decided the rated try (as a miss).
	Rated                     bool
	RatingBefore, RatingAfter float64
}

// Hint shows which piece the solution moves in the member's current position. A hint
// during the rated first try counts as a miss, as on lichess.
func (s *Service) Hint(ctx context.Context, guild, user, name, puzzleID string) (*Hint, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	cur, err := s.Current(ctx, guild, user, puzzleID)
	if err != nil {
		return nil, err
	}
	puzzleID = cur.Puzzle.ID
	unlock := s.lock(guild, user)
	defer unlock()
	now := s.clock.Now()
	var out *Hint
	err = s.db.Update(ctx, func(w storage.Tx) error {
		out = nil
		p, l, err := s.loadPuzzle(w, puzzleID)
		if err != nil {
			return err
		}
		sp, err := w.Puzzle(puzzleID)
		if err != nil {
			return err
		}
		pl, err := w.PuzzlePlayer(guild, user)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		pl = newPlayer(pl)
		a, err := w.PuzzleAttempt(guild, user, puzzleID)
		if errors.Is(err, storage.ErrNotFound) {
			a.Tries, a.Started, a.Daily = 1, now, cur.Daily
		} else if err != nil {
			return err
		}
		if a.Step >= l.Steps() {
			a.Step = 0
			a.Tries++
		}
		h := &Hint{From: l.Moves[1+2*a.Step].From(), RatingBefore: pl.Rating, RatingAfter: pl.Rating}
		a.Hints++
		if a.Result == storage.AttemptOpen {
			a.Result, a.RatingBefore = storage.AttemptFailed, pl.Rating
			if err := rate(w, &pl, sp, 0); err != nil {
				return err
			}
			a.RatingAfter, h.Rated, h.RatingAfter = pl.Rating, true, pl.Rating
		}
		if name != "" {
			pl.Name = truncateName(name)
		}
		pl.Current, pl.Updated = puzzleID, now
		if err := w.PutPuzzleAttempt(a); err != nil {
			return err
		}
		if err := w.PutPuzzlePlayer(pl); err != nil {
			return err
		}
		h.Progress = progress(p, l, a, pl, cur.Daily)
		out = h
		return nil
	})
	return out, err
}
