// dump.go: every record of a family of the PostgreSQL backend, in key order (Copy
// and the backups read a store through these), and the check of every game record.

package pg

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
	"github.com/gambitchess/gambit/storage/transfer"
)

var _ transfer.Lister = (*pgTx)(nil)

// rows streams the rows of sql to fn, which scans each into its own variables.
func (t *pgTx) rows(sql string, fn func(r pgx.Rows) error) error {
	return t.Each(sql, nil, fn)
}

// eachIDRecord runs sql with args, whose rows are an integer id and a record, and calls
// fn with each record as decode reads it.
func eachIDRecord[T any](t *pgTx, sql string, args []any, decode func(uint64, []byte) (T, error), fn func(T) error) error {
	return t.Each(sql, args, func(r pgx.Rows) error {
		var id int64
		var v []byte
		if err := r.Scan(&id, &v); err != nil {
			return err
		}
		rec, err := decode(uint64(id), v)
		if err != nil {
			return err
		}
		return fn(rec)
	})
}

func (t *pgTx) EachGame(fn func(*storage.Game) error) error {
	return eachIDRecord(t, `SELECT id, record FROM games ORDER BY id`, nil, codec.DecodeGame, fn)
}

func (t *pgTx) EachChallenge(fn func(*storage.Challenge) error) error {
	return eachIDRecord(t, `SELECT id, record FROM challenges ORDER BY id`, nil, codec.DecodeChallenge, fn)
}

func (t *pgTx) EachUser(fn func(storage.User) error) error {
	return t.rows(`SELECT user_id, record FROM users ORDER BY user_id`, func(r pgx.Rows) error {
		u := storage.User{Prefs: storage.DefaultUserPrefs()}
		var v []byte
		if err := r.Scan(&u.ID, &v); err != nil {
			return err
		}
		id := u.ID
		if err := codec.DecodeJSON(v, &u); err != nil {
			return fmt.Errorf("user %s: %w", id, err)
		}
		u.ID = id
		return fn(u)
	})
}

func (t *pgTx) EachReceipt(fn func(*storage.Receipt) error) error {
	return t.rows(`SELECT request_id, record FROM receipts ORDER BY request_id`, func(r pgx.Rows) error {
		var id string
		var v []byte
		if err := r.Scan(&id, &v); err != nil {
			return err
		}
		rc := &storage.Receipt{}
		if err := codec.DecodeJSON(v, rc); err != nil {
			return fmt.Errorf("receipt %q: %w", id, err)
		}
		rc.RequestID = id
		return fn(rc)
	})
}

func (t *pgTx) EachHeartbeat(fn func(string, time.Time) error) error {
	return t.rows(`SELECT instance, at FROM heartbeats ORDER BY instance`, func(r pgx.Rows) error {
		var instance string
		var ns int64
		if err := r.Scan(&instance, &ns); err != nil {
			return err
		}
		return fn(instance, time.Unix(0, ns).UTC())
	})
}

func (t *pgTx) EachLadderPlayer(fn func(storage.LadderPlayer) error) error {
	return t.rows(`SELECT guild_id, category, user_id, record FROM ladder_players ORDER BY guild_id, category, user_id`,
		func(r pgx.Rows) error {
			var p storage.LadderPlayer
			var cat int16
			var v []byte
			if err := r.Scan(&p.GuildID, &cat, &p.UserID, &v); err != nil {
				return err
			}
			p.Category = clock.Category(cat)
			if err := codec.DecodeLadderPlayerValue(v, &p); err != nil {
				return fmt.Errorf("ladder player %s in guild %s: %w", p.UserID, p.GuildID, err)
			}
			return fn(p)
		})
}

func (t *pgTx) EachRatedResult(fn func(storage.RatedResult) error) error {
	return t.rows(`SELECT record FROM rated_results ORDER BY guild_id, ended, game_id`, func(r pgx.Rows) error {
		var v []byte
		if err := r.Scan(&v); err != nil {
			return err
		}
		var res storage.RatedResult
		if err := codec.DecodeJSON(v, &res); err != nil {
			return fmt.Errorf("rated result: %w", err)
		}
		return fn(res)
	})
}

func (t *pgTx) EachDaily(fn func(*storage.Daily) error) error {
	return t.rows(`SELECT guild_id, day, record FROM puzzle_daily ORDER BY guild_id, day`, func(r pgx.Rows) error {
		d := &storage.Daily{}
		var v []byte
		if err := r.Scan(&d.GuildID, &d.Date, &v); err != nil {
			return err
		}
		if err := codec.DecodeJSON(v, d); err != nil {
			return fmt.Errorf("daily puzzle %s of guild %s: %w", d.Date, d.GuildID, err)
		}
		return fn(d)
	})
}

func (t *pgTx) EachPuzzlePlayer(fn func(storage.PuzzlePlayer) error) error {
	return t.rows(`SELECT guild_id, user_id, record FROM puzzle_players ORDER BY guild_id, user_id`, func(r pgx.Rows) error {
		var p storage.PuzzlePlayer
		var v []byte
		if err := r.Scan(&p.GuildID, &p.UserID, &v); err != nil {
			return err
		}
		if err := codec.DecodeJSON(v, &p); err != nil {
			return fmt.Errorf("puzzle player %s in guild %s: %w", p.UserID, p.GuildID, err)
		}
		return fn(p)
	})
}

func (t *pgTx) EachAttempt(fn func(storage.PuzzleAttempt) error) error {
	return t.rows(`SELECT guild_id, user_id, puzzle_id, record FROM puzzle_attempts ORDER BY guild_id, user_id, puzzle_id`,
		func(r pgx.Rows) error {
			var a storage.PuzzleAttempt
			var v []byte
			if err := r.Scan(&a.GuildID, &a.UserID, &a.PuzzleID, &v); err != nil {
				return err
			}
			if err := codec.DecodeJSON(v, &a); err != nil {
				return fmt.Errorf("attempt of %s at puzzle %s: %w", a.UserID, a.PuzzleID, err)
			}
			return fn(a)
		})
}

func (t *pgTx) EachEngineGame(fn func(storage.EngineGame) error) error {
	return eachIDRecord(t, `SELECT game_id, record FROM engine_games ORDER BY game_id`, nil, codec.DecodeEngineGame, func(e *storage.EngineGame) error {
		return fn(*e)
	})
}

func (t *pgTx) EachTournament(fn func(*storage.Tournament) error) error {
	return eachIDRecord(t, `SELECT id, record FROM tournaments ORDER BY id`, nil, codec.DecodeTournament, fn)
}

func (t *pgTx) EachTournamentGame(fn func(storage.TournamentGame) error) error {
	return eachIDRecord(t, `SELECT game_id, record FROM tournament_games ORDER BY game_id`, nil, codec.DecodeTournamentGame, func(tg *storage.TournamentGame) error {
		return fn(*tg)
	})
}

// Check verifies that every game record decodes and that its columns agree with it.
func (db *DB) Check(ctx context.Context) error {
	err := db.View(storage.LongRunning(ctx), func(tx storage.Tx) error {
		return tx.(*pgTx).rows(`SELECT id, guild_id, channel_id, white_id, black_id, live, version, record FROM games ORDER BY id`,
			func(r pgx.Rows) error {
				var id, version int64
				var guild, channel, white, black string
				var live bool
				var v []byte
				if err := r.Scan(&id, &guild, &channel, &white, &black, &live, &version, &v); err != nil {
					return err
				}
				g, err := codec.DecodeGame(uint64(id), v)
				if err != nil {
					return err
				}
				if g.GuildID != guild || g.ChannelID != channel || g.White.ID != white || g.Black.ID != black ||
					g.Live() != live || g.Version != uint64(version) {
					return fmt.Errorf("%w: game %d: the columns do not match the record", storage.ErrCorrupt, id)
				}
				return nil
			})
	})
	if err != nil {
		return fmt.Errorf("check %s: %w", db.name, err)
	}
	return nil
}
