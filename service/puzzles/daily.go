// daily.go: the puzzle of the day: each guild's day (in its time zone, changing at its
// posting time) and the choice of the day's puzzle, never one the guild had before.

package puzzles

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitchess/gambit/storage"
)

// DayAt returns a guild's puzzle day at instant t: the latest date whose posting time
// (Settings.Time in Settings.Zone) is at or before t, and the next posting time after
// t.
func DayAt(ps storage.PuzzleSettings, t time.Time) (date string, next time.Time, err error) {
	loc, err := ps.Location()
	if err != nil {
		return "", time.Time{}, err
	}
	minutes, err := ParseTimeOfDay(ps.Time)
	if err != nil {
		return "", time.Time{}, err
	}
	h, m := minutes/60, minutes%60
	y, mo, d := t.In(loc).Date()
	at := time.Date(y, mo, d, h, m, 0, 0, loc)
	if at.After(t) {
		at = time.Date(y, mo, d-1, h, m, 0, 0, loc)
	}
	ay, amo, ad := at.Date()
	return at.Format(time.DateOnly), time.Date(ay, amo, ad+1, h, m, 0, 0, loc), nil
}

// eligible reports whether a day may be posted: it is the day the post was set up or a
// later one.
func eligible(ps storage.PuzzleSettings, date string) bool {
	if ps.Since.IsZero() {
		return true
	}
	loc, err := ps.Location()
	if err != nil {
		return false
	}
	return date >= ps.Since.In(loc).Format(time.DateOnly)
}

// planDay returns the guild's record of the day, creating it (with the day's puzzle)
// in one transaction if there is none: a planned day for a post, a silent one for a
// guild without. A silent day that becomes due for a post turns planned. Older planned
// days that were never posted are abandoned.
func (s *Service) planDay(ctx context.Context, guild string, ps storage.PuzzleSettings, date string, state storage.DailyState) (*storage.Daily, error) {
	seed := s.rand()
	now := s.clock.Now()
	var out *storage.Daily
	err := s.db.Update(ctx, func(w storage.Tx) error {
		out = nil
		d, err := w.Daily(guild, date)
		if err == nil {
			if d.State == storage.DailySilent && state == storage.DailyPlanned {
				d.State, d.ChannelID = storage.DailyPlanned, ps.Channel
				if err := w.PutDaily(d); err != nil {
					return err
				}
			}
			out = d
			return nil
		}
		if !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		days, err := w.Dailies(guild)
		if err != nil {
			return err
		}
		prev := ""
		for _, old := range days {
			if old.Date >= date {
				continue
			}
			switch old.State {
			case storage.DailyPlanned:
				old.State = storage.DailyAbandoned
				if err := w.PutDaily(old); err != nil {
					return err
				}
			case storage.DailyPosted, storage.DailySilent:
				prev = old.Date
			}
		}
		p, err := pickDaily(w, guild, ps, seed)
		if err != nil {
			return err
		}
		d = &storage.Daily{GuildID: guild, Date: date, PuzzleID: p.ID, State: state, Planned: now, Prev: prev}
		if state == storage.DailyPlanned {
			d.ChannelID = ps.Channel
		}
		if err := w.PutDaily(d); err != nil {
			return err
		}
		out = d
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("plan the puzzle of %s in guild %s: %w", date, guild, err)
	}
	return out, nil
}

// pickDaily chooses a day's puzzle: one the guild never had, from its own games first,
// in its rating range; failing that, outside the range; failing that (every puzzle was
// a daily), any.
func pickDaily(w storage.PuzzlesTx, guild string, ps storage.PuzzleSettings, seed uint64) (*storage.Puzzle, error) {
	q := storage.PuzzlePick{GuildID: guild, MinRating: ps.MinRating, MaxRating: ps.MaxRating, Seed: seed, PreferOwn: true, NotDailyIn: guild}
	p, err := w.PickPuzzle(q)
	if errors.Is(err, storage.ErrNoPuzzle) {
		q.MinRating, q.MaxRating = 0, 0
		p, err = w.PickPuzzle(q)
	}
	if errors.Is(err, storage.ErrNoPuzzle) {
		q.NotDailyIn = ""
		p, err = w.PickPuzzle(q)
	}
	if errors.Is(err, storage.ErrNoPuzzle) {
		return nil, ErrNoPuzzles
	}
	return p, err
}

// TodayDaily returns the guild's puzzle of the day: the latest day (posted or about to
// be) for a guild with a daily post; for one without, the day's record, chosen by the
// first member who asks.
func (s *Service) TodayDaily(ctx context.Context, guild string) (*storage.Daily, error) {
	if guild == "" {
		return nil, ErrNotInGuild
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	gs, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings(guild) })
	if err != nil {
		return nil, err
	}
	ps := gs.Puzzle
	date, _, err := DayAt(ps, s.clock.Now())
	if err != nil {
		return nil, err
	}
	d, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Daily, error) { return tx.LatestDaily(guild, date) })
	if err == nil && (ps.Channel != "" || d.Date == date) {
		return d, nil
	}
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	unlock := s.lock(guild, "")
	defer unlock()
	return s.planDay(ctx, guild, ps, date, storage.DailySilent)
}
