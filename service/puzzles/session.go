// session.go: a member's session in a puzzle: starting one (today's, a random one, a
// given one), where they stand, and the cache of validated lines.

package puzzles

import (
	"context"
	"errors"
	"fmt"
	"math"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/storage"
)

// maxLineCache bounds the cache of validated lines.
const maxLineCache = 4096

// line returns the validated line of a stored puzzle, cached by id (a stored puzzle's
// line never changes).
func (s *Service) line(p *puzzle.Puzzle) (puzzle.Line, error) {
	if l, ok := s.lines.Get(p.ID); ok {
		return l, nil
	}
	l, err := p.Validate()
	if err != nil {
		return l, err
	}
	s.lines.Add(p.ID, l)
	return l, nil
}

// Progress is where a member stands in a puzzle.
type Progress struct {
	Puzzle  *puzzle.Puzzle
	Line    puzzle.Line
	Attempt storage.PuzzleAttempt
	Player  storage.PuzzlePlayer
	// Daily is the date of the guild's day when this is the guild's puzzle of the day.
	Daily string
	// Position is what the member faces: their move (after the opponent's LastMove); at
	// the end of the line, the final position after the member's LastMove.
	Position cc.Position
	LastMove cc.Move
	// Done reports that the try in progress is complete.
	Done bool
}

// Step returns the solver step of the try in progress (0 for the first move).
func (p *Progress) Step() int { return p.Attempt.Step }

// progress fills a Progress from the records.
func progress(p *puzzle.Puzzle, l puzzle.Line, a storage.PuzzleAttempt, pl storage.PuzzlePlayer, daily string) *Progress {
	pr := &Progress{Puzzle: p, Line: l, Attempt: a, Player: pl, Daily: daily}
	if a.Step >= l.Steps() {
		pr.Done = true
		pos := l.Start
		for _, m := range l.Moves {
			pos = pos.Play(m)
		}
		pr.Position, pr.LastMove = pos, l.Moves[len(l.Moves)-1]
		return pr
	}
	pr.Position, pr.LastMove = l.PositionAt(a.Step)
	return pr
}

// loadPuzzle reads a puzzle and its line through a writer.
func (s *Service) loadPuzzle(w storage.PuzzlesTx, id string) (*puzzle.Puzzle, puzzle.Line, error) {
	sp, err := w.Puzzle(id)
	return s.withLine(id, sp, err)
}

// withLine turns a stored puzzle read for id (or the error reading it) into the puzzle
// and its line.
func (s *Service) withLine(id string, p *puzzle.Puzzle, err error) (*puzzle.Puzzle, puzzle.Line, error) {
	if errors.Is(err, storage.ErrNotFound) {
		return nil, puzzle.Line{}, fmt.Errorf("puzzle %s: %w", id, ErrNoSuchPuzzle)
	}
	if err != nil {
		return nil, puzzle.Line{}, err
	}
	l, err := s.line(p)
	return p, l, err
}

// currentDaily returns the guild's puzzle of the day as the transaction sees it ("" for
// none).
func currentDaily(w storage.DailiesTx, guild string) (*storage.Daily, error) {
	d, err := w.LatestDaily(guild, "")
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	return d, err
}

// Start makes puzzleID the member's current puzzle (creating the attempt if this is the
// first look) and returns where they stand.
func (s *Service) Start(ctx context.Context, guild, user, name, puzzleID string) (*Progress, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := checkMember(guild, user); err != nil {
		return nil, err
	}
	unlock := s.lock(guild, user)
	defer unlock()
	now := s.clock.Now()
	var out *Progress
	err = s.db.Update(ctx, func(w storage.Tx) error {
		out = nil
		p, l, err := s.loadPuzzle(w, puzzleID)
		if err != nil {
			return err
		}
		if g := p.SourceGuild(); g != "" && g != guild {
			return fmt.Errorf("puzzle %s: %w", puzzleID, ErrNoSuchPuzzle)
		}
		pl, err := w.PuzzlePlayer(guild, user)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		pl = newPlayer(pl)
		a, err := w.PuzzleAttempt(guild, user, puzzleID)
		fresh := errors.Is(err, storage.ErrNotFound)
		if err != nil && !fresh {
			return err
		}
		day, err := currentDaily(w, guild)
		if err != nil {
			return err
		}
		daily := ""
		if day != nil && day.PuzzleID == puzzleID {
			daily = day.Date
		}
		if fresh {
			a.Tries, a.Started, a.Daily = 1, now, daily
			if err := w.PutPuzzleAttempt(a); err != nil {
				return err
			}
		}
		if pl.Current != puzzleID || (name != "" && pl.Name != name) {
			pl.Current, pl.Updated = puzzleID, now
			if name != "" {
				pl.Name = truncateName(name)
			}
			if err := w.PutPuzzlePlayer(pl); err != nil {
				return err
			}
		}
		out = progress(p, l, a, pl, daily)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Today returns the guild's puzzle of the day, made the member's current puzzle. A guild
// without a daily post gets its puzzle of the day from the first member who asks.
func (s *Service) Today(ctx context.Context, guild, user, name string) (*Progress, error) {
	if err := checkMember(guild, user); err != nil {
		return nil, err
	}
	d, err := s.TodayDaily(ctx, guild)
	if err != nil {
		return nil, err
	}
	return s.Start(ctx, guild, user, name, d.PuzzleID)
}

// Random picks a puzzle for the member (one they have not tried, near the rating asked
// for, or near their own rating when 0) and makes it their current one.
func (s *Service) Random(ctx context.Context, guild, user, name string, around int) (*Progress, error) {
	if err := checkMember(guild, user); err != nil {
		return nil, err
	}
	if around == 0 {
		pl, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.PuzzlePlayer, error) { return tx.PuzzlePlayer(guild, user) })
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return nil, err
		}
		around = int(math.Round(newPlayer(pl).Rating))
	}
	seed := s.rand()
	q := storage.PuzzlePick{GuildID: guild, MinRating: max(around-150, 1), MaxRating: around + 150, Seed: seed, NotTriedBy: user}
	sp, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Puzzle, error) { return tx.PickPuzzle(q) })
	for _, relax := range []func(){
		func() { q.MinRating, q.MaxRating = max(around-500, 1), around+500 },
		func() { q.MinRating, q.MaxRating = 0, 0 },
		func() { q.NotTriedBy = "" },
	} {
		if !errors.Is(err, storage.ErrNoPuzzle) {
			break
		}
		relax()
		sp, err = storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Puzzle, error) { return tx.PickPuzzle(q) })
	}
	if errors.Is(err, storage.ErrNoPuzzle) {
		return nil, ErrNoPuzzles
	}
	if err != nil {
		return nil, err
	}
	return s.Start(ctx, guild, user, name, sp.ID)
}

// Current returns where the member stands in their current puzzle (puzzleID, if set,
// or the one they last looked at, or the guild's puzzle of the day), without changing
// anything: for autocomplete and hints.
func (s *Service) Current(ctx context.Context, guild, user, puzzleID string) (*Progress, error) {
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
	pl = newPlayer(pl)
	if puzzleID == "" {
		puzzleID = pl.Current
	}
	if puzzleID == "" {
		d, err := s.TodayDaily(ctx, guild)
		if err != nil {
			return nil, err
		}
		puzzleID = d.PuzzleID
	}
	p, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Puzzle, error) { return tx.Puzzle(puzzleID) })
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("puzzle %s: %w", puzzleID, ErrNoSuchPuzzle)
	}
	if err != nil {
		return nil, err
	}
	if g := p.SourceGuild(); g != "" && g != guild {
		return nil, fmt.Errorf("puzzle %s: %w", puzzleID, ErrNoSuchPuzzle)
	}
	l, err := s.line(p)
	if err != nil {
		return nil, err
	}
	a, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.PuzzleAttempt, error) { return tx.PuzzleAttempt(guild, user, puzzleID) })
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	daily := ""
	if d, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Daily, error) { return tx.LatestDaily(guild, "") }); err == nil && d.PuzzleID == puzzleID {
		daily = d.Date
	}
	return progress(p, l, a, pl, daily), nil
}

// Puzzle returns a stored puzzle and its line.
func (s *Service) Puzzle(ctx context.Context, id string) (*puzzle.Puzzle, puzzle.Line, error) {
	if err := ctx.Err(); err != nil {
		return nil, puzzle.Line{}, err
	}
	p, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Puzzle, error) { return tx.Puzzle(id) })
	return s.withLine(id, p, err)
}
