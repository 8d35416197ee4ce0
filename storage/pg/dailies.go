// dailies.go: the puzzles of the day, the members' puzzle records and their
// attempts in the PostgreSQL backend.

package pg

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// scanDailies reads (day, record) rows of a guild.
func (t *pgTx) scanDailies(guildID, sql string, args ...any) ([]*storage.Daily, error) {
	var out []*storage.Daily
	err := t.Each(sql, args, func(r pgx.Rows) error {
		d := &storage.Daily{GuildID: guildID}
		var v []byte
		if err := r.Scan(&d.Date, &v); err != nil {
			return err
		}
		if err := codec.DecodeJSON(v, d); err != nil {
			return fmt.Errorf("daily puzzle %s of guild %s: %w", d.Date, guildID, err)
		}
		out = append(out, d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("daily puzzles of guild %s: %w", guildID, err)
	}
	return out, nil
}

// Daily reads a guild's puzzle of a day.
func (t *pgTx) Daily(guildID, date string) (*storage.Daily, error) {
	if err := storage.CheckGuild("daily puzzle", guildID); err != nil {
		return nil, err
	}
	ds, err := t.scanDailies(guildID, `SELECT day, record FROM puzzle_daily WHERE guild_id = $1 AND day = $2`, guildID, date)
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 {
		return nil, fmt.Errorf("daily puzzle %s of guild %s: %w", date, guildID, storage.ErrNotFound)
	}
	return ds[0], nil
}

// PutDaily writes a guild's day.
func (t *pgTx) PutDaily(d *storage.Daily) error {
	if err := d.Validate(); err != nil {
		return err
	}
	v, err := codec.EncodeJSON(d)
	if err != nil {
		return fmt.Errorf("encode daily puzzle %s of guild %s: %w", d.Date, d.GuildID, err)
	}
	if _, err := t.exec(`INSERT INTO puzzle_daily (guild_id, day, record) VALUES ($1, $2, $3)
		ON CONFLICT (guild_id, day) DO UPDATE SET record = excluded.record`, d.GuildID, d.Date, v); err != nil {
		return fmt.Errorf("write daily puzzle %s of guild %s: %w", d.Date, d.GuildID, err)
	}
	return nil
}

// Dailies reads a guild's days, oldest first.
func (t *pgTx) Dailies(guildID string) ([]*storage.Daily, error) {
	if err := storage.CheckGuild("daily puzzles", guildID); err != nil {
		return nil, err
	}
	return t.scanDailies(guildID, `SELECT day, record FROM puzzle_daily WHERE guild_id = $1 ORDER BY day`, guildID)
}

// LatestDaily reads a guild's latest day that is not abandoned, at or before date (""
// for no bound).
func (t *pgTx) LatestDaily(guildID, date string) (*storage.Daily, error) {
	if err := storage.CheckGuild("daily puzzle", guildID); err != nil {
		return nil, err
	}
	last := date
	for {
		// A page of days at a time, newest first, until one is not abandoned.
		ds, err := t.scanDailies(guildID, `SELECT day, record FROM puzzle_daily
			WHERE guild_id = $1 AND ($2 = '' OR day <= $2) AND ($3 = '' OR day < $3) ORDER BY day DESC LIMIT 50`,
			guildID, date, pageAfter(last, date))
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			if d.State != storage.DailyAbandoned {
				return d, nil
			}
		}
		if len(ds) < 50 {
			return nil, fmt.Errorf("daily puzzle of guild %s: %w", guildID, storage.ErrNotFound)
		}
		last = ds[len(ds)-1].Date
	}
}

// pageAfter is the bound of LatestDaily's next page: none on the first (last is still
// the date asked for), else before the last day read.
func pageAfter(last, date string) string {
	if last == date {
		return ""
	}
	return last
}

// PuzzlePlayer reads a member's puzzle record.
func (t *pgTx) PuzzlePlayer(guildID, userID string) (storage.PuzzlePlayer, error) {
	if err := storage.CheckMember("puzzle player", guildID, userID); err != nil {
		return storage.PuzzlePlayer{}, err
	}
	p := storage.PuzzlePlayer{GuildID: guildID, UserID: userID}
	v, err := t.value(`SELECT record FROM puzzle_players WHERE guild_id = $1 AND user_id = $2`, guildID, userID)
	if err != nil {
		return p, fmt.Errorf("puzzle player %s in guild %s: %w", userID, guildID, err)
	}
	if v == nil {
		return p, fmt.Errorf("puzzle player %s in guild %s: %w", userID, guildID, storage.ErrNotFound)
	}
	if err := codec.DecodeJSON(v, &p); err != nil {
		return p, fmt.Errorf("puzzle player %s in guild %s: %w", userID, guildID, err)
	}
	return p, nil
}

// PutPuzzlePlayer writes a member's puzzle record.
func (t *pgTx) PutPuzzlePlayer(p storage.PuzzlePlayer) error {
	if err := p.Validate(); err != nil {
		return err
	}
	v, err := codec.EncodeJSON(p)
	if err != nil {
		return fmt.Errorf("encode puzzle player %s in guild %s: %w", p.UserID, p.GuildID, err)
	}
	if _, err := t.exec(`INSERT INTO puzzle_players (guild_id, user_id, record) VALUES ($1, $2, $3)
		ON CONFLICT (guild_id, user_id) DO UPDATE SET record = excluded.record`, p.GuildID, p.UserID, v); err != nil {
		return fmt.Errorf("write puzzle player %s in guild %s: %w", p.UserID, p.GuildID, err)
	}
	return nil
}

// PuzzlePlayers reads the puzzle records of a guild's members, in user id order.
func (t *pgTx) PuzzlePlayers(guildID string) ([]storage.PuzzlePlayer, error) {
	if err := storage.CheckGuild("puzzle players", guildID); err != nil {
		return nil, err
	}
	var out []storage.PuzzlePlayer
	err := t.Each(`SELECT user_id, record FROM puzzle_players WHERE guild_id = $1 ORDER BY user_id`, []any{guildID},
		func(r pgx.Rows) error {
			p := storage.PuzzlePlayer{GuildID: guildID}
			var v []byte
			if err := r.Scan(&p.UserID, &v); err != nil {
				return err
			}
			if err := codec.DecodeJSON(v, &p); err != nil {
				return fmt.Errorf("puzzle player %s in guild %s: %w", p.UserID, guildID, err)
			}
			out = append(out, p)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("puzzle players of guild %s: %w", guildID, err)
	}
	return out, nil
}

// PuzzleAttempt reads a member's attempt at a puzzle.
func (t *pgTx) PuzzleAttempt(guildID, userID, puzzleID string) (storage.PuzzleAttempt, error) {
	a := storage.PuzzleAttempt{GuildID: guildID, UserID: userID, PuzzleID: puzzleID}
	if err := storage.CheckMember("puzzle attempt", guildID, userID); err != nil {
		return a, err
	}
	if !storage.ValidPuzzleID(puzzleID) {
		return a, fmt.Errorf("puzzle attempt: puzzle id %q: %w", puzzleID, storage.ErrNotFound)
	}
	v, err := t.value(`SELECT record FROM puzzle_attempts WHERE guild_id = $1 AND user_id = $2 AND puzzle_id = $3`,
		guildID, userID, puzzleID)
	if err != nil {
		return a, fmt.Errorf("attempt of %s at puzzle %s in guild %s: %w", userID, puzzleID, guildID, err)
	}
	if v == nil {
		return a, fmt.Errorf("attempt of %s at puzzle %s in guild %s: %w", userID, puzzleID, guildID, storage.ErrNotFound)
	}
	if err := codec.DecodeJSON(v, &a); err != nil {
		return a, fmt.Errorf("attempt of %s at puzzle %s in guild %s: %w", userID, puzzleID, guildID, err)
	}
	a.GuildID, a.UserID, a.PuzzleID = guildID, userID, puzzleID
	return a, nil
}

// PutPuzzleAttempt writes a member's attempt at a puzzle.
func (t *pgTx) PutPuzzleAttempt(a storage.PuzzleAttempt) error {
	if err := a.Validate(); err != nil {
		return err
	}
	v, err := codec.EncodeJSON(a)
	if err != nil {
		return fmt.Errorf("encode attempt of %s at puzzle %s: %w", a.UserID, a.PuzzleID, err)
	}
	if _, err := t.exec(`INSERT INTO puzzle_attempts (guild_id, user_id, puzzle_id, record) VALUES ($1, $2, $3, $4)
		ON CONFLICT (guild_id, user_id, puzzle_id) DO UPDATE SET record = excluded.record`,
		a.GuildID, a.UserID, a.PuzzleID, v); err != nil {
		return fmt.Errorf("write attempt of %s at puzzle %s: %w", a.UserID, a.PuzzleID, err)
	}
	return nil
}
