// ratings.go: ladder players and rated results in the PostgreSQL backend.

package pg

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// LadderPlayer reads a player's record.
func (t *pgTx) LadderPlayer(guildID string, cat clock.Category, userID string) (storage.LadderPlayer, error) {
	if err := storage.CheckLadderKey(guildID, cat, userID); err != nil {
		return storage.LadderPlayer{}, err
	}
	v, err := t.value(`SELECT record FROM ladder_players WHERE guild_id = $1 AND category = $2 AND user_id = $3`,
		guildID, int16(cat), userID)
	if err != nil {
		return storage.LadderPlayer{}, fmt.Errorf("%s in the %s ladder of guild %s: %w", userID, cat, guildID, err)
	}
	if v == nil {
		return storage.LadderPlayer{}, fmt.Errorf("%s in the %s ladder of guild %s: %w", userID, cat, guildID, storage.ErrNotFound)
	}
	p := storage.LadderPlayer{GuildID: guildID, Category: cat, UserID: userID}
	if err := codec.DecodeLadderPlayerValue(v, &p); err != nil {
		return p, fmt.Errorf("ladder player %s in guild %s: %w", userID, guildID, err)
	}
	return p, nil
}

// PutLadderPlayer writes a player's record.
func (t *pgTx) PutLadderPlayer(p storage.LadderPlayer) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if _, err := t.exec(`INSERT INTO ladder_players (guild_id, category, user_id, record) VALUES ($1, $2, $3, $4)
		ON CONFLICT (guild_id, category, user_id) DO UPDATE SET record = excluded.record`,
		p.GuildID, int16(p.Category), p.UserID, codec.EncodeLadderPlayer(&p)); err != nil {
		return fmt.Errorf("write ladder player %s in guild %s: %w", p.UserID, p.GuildID, err)
	}
	return nil
}

// scanPlayers reads the ladder players of a query of (category, user_id, record) rows
// of guild guildID.
func (t *pgTx) scanPlayers(guildID, sql string, args ...any) ([]storage.LadderPlayer, error) {
	var out []storage.LadderPlayer
	err := t.Each(sql, args, func(r pgx.Rows) error {
		var cat int16
		var v []byte
		p := storage.LadderPlayer{GuildID: guildID}
		if err := r.Scan(&cat, &p.UserID, &v); err != nil {
			return err
		}
		p.Category = clock.Category(cat)
		if err := codec.DecodeLadderPlayerValue(v, &p); err != nil {
			return fmt.Errorf("ladder player %s in guild %s: %w", p.UserID, guildID, err)
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("ladders of guild %s: %w", guildID, err)
	}
	return out, nil
}

// Ladder reads the players of a guild's category, in user id order.
func (t *pgTx) Ladder(guildID string, cat clock.Category) ([]storage.LadderPlayer, error) {
	if guildID == "" || len(guildID) > storage.MaxIDLen {
		return nil, fmt.Errorf("ladder: guild id %q: want 1 to %d bytes", guildID, storage.MaxIDLen)
	}
	return t.scanPlayers(guildID, `SELECT category, user_id, record FROM ladder_players
		WHERE guild_id = $1 AND category = $2 ORDER BY user_id`, guildID, int16(cat))
}

// GuildLadders reads every player record of a guild, by category then user id.
func (t *pgTx) GuildLadders(guildID string) ([]storage.LadderPlayer, error) {
	if guildID == "" || len(guildID) > storage.MaxIDLen {
		return nil, fmt.Errorf("ladders: guild id %q: want 1 to %d bytes", guildID, storage.MaxIDLen)
	}
	return t.scanPlayers(guildID, `SELECT category, user_id, record FROM ladder_players
		WHERE guild_id = $1 ORDER BY category, user_id`, guildID)
}

// UserLadders reads every ladder record of a user, by guild then category (index
// ladder_players_user, schema version 12).
func (t *pgTx) UserLadders(userID string) ([]storage.LadderPlayer, error) {
	if userID == "" || len(userID) > storage.MaxIDLen {
		return nil, fmt.Errorf("ladders: user id %q: want 1 to %d bytes", userID, storage.MaxIDLen)
	}
	var out []storage.LadderPlayer
	err := t.Each(`SELECT guild_id, category, record FROM ladder_players WHERE user_id = $1 ORDER BY guild_id, category`,
		[]any{userID}, func(r pgx.Rows) error {
			var cat int16
			var v []byte
			p := storage.LadderPlayer{UserID: userID}
			if err := r.Scan(&p.GuildID, &cat, &v); err != nil {
				return err
			}
			p.Category = clock.Category(cat)
			if err := codec.DecodeLadderPlayerValue(v, &p); err != nil {
				return fmt.Errorf("ladder player %s in guild %s: %w", userID, p.GuildID, err)
			}
			out = append(out, p)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("ladders of user %s: %w", userID, err)
	}
	return out, nil
}

// ReplaceLadders replaces every player record of a guild with players.
func (t *pgTx) ReplaceLadders(guildID string, players []storage.LadderPlayer) error {
	if err := storage.ValidateLadders(guildID, players); err != nil {
		return err
	}
	if _, err := t.exec(`DELETE FROM ladder_players WHERE guild_id = $1`, guildID); err != nil {
		return fmt.Errorf("replace ladders of guild %s: %w", guildID, err)
	}
	for _, p := range players {
		if err := t.PutLadderPlayer(p); err != nil {
			return fmt.Errorf("replace ladders of guild %s: %w", guildID, err)
		}
	}
	return nil
}

// scanResults reads rated results from rows of records.
func (t *pgTx) scanResults(sql string, args ...any) ([]storage.RatedResult, error) {
	var out []storage.RatedResult
	err := t.Each(sql, args, func(r pgx.Rows) error {
		var v []byte
		if err := r.Scan(&v); err != nil {
			return err
		}
		var res storage.RatedResult
		if err := codec.DecodeJSON(v, &res); err != nil {
			return err
		}
		out = append(out, res)
		return nil
	})
	return out, err
}

// RatedResults reads a guild's rated results in end order.
func (t *pgTx) RatedResults(guildID string) ([]storage.RatedResult, error) {
	if guildID == "" || len(guildID) > storage.MaxIDLen {
		return nil, fmt.Errorf("rated results: guild id %q: want 1 to %d bytes", guildID, storage.MaxIDLen)
	}
	out, err := t.scanResults(`SELECT record FROM rated_results WHERE guild_id = $1 ORDER BY ended, game_id`, guildID)
	if err != nil {
		return nil, fmt.Errorf("rated results of guild %s: %w", guildID, err)
	}
	return out, nil
}

// RatedResult reads the rated result of a game.
func (t *pgTx) RatedResult(gameID uint64) (storage.RatedResult, error) {
	v, err := t.value(`SELECT record FROM rated_results WHERE game_id = $1`, int64(gameID))
	if err != nil {
		return storage.RatedResult{}, fmt.Errorf("rated result of game %d: %w", gameID, err)
	}
	if v == nil {
		return storage.RatedResult{}, fmt.Errorf("rated result of game %d: %w", gameID, storage.ErrNotFound)
	}
	var r storage.RatedResult
	if err := codec.DecodeJSON(v, &r); err != nil {
		return r, fmt.Errorf("rated result of game %d: %w", gameID, err)
	}
	return r, nil
}

// AddRatedResult records a rated result unless its game already has one. A result a
// concurrent transaction is adding makes this one wait, then fail to serialize; its
// retry sees the result and adds nothing.
func (t *pgTx) AddRatedResult(r storage.RatedResult) (added bool, err error) {
	if err := r.Validate(); err != nil {
		return false, err
	}
	v, err := codec.EncodeJSON(r)
	if err != nil {
		return false, fmt.Errorf("encode rated result of game %d: %w", r.GameID, err)
	}
	n, err := t.exec(`INSERT INTO rated_results (game_id, guild_id, ended, record) VALUES ($1, $2, $3, $4)
		ON CONFLICT (game_id) DO NOTHING`, int64(r.GameID), r.GuildID, r.Ended.UnixNano(), v)
	if err != nil {
		return false, fmt.Errorf("write rated result of game %d: %w", r.GameID, err)
	}
	return n == 1, nil
}

// ReplaceRatedResult rewrites the rating fields of a game's rated result.
func (t *pgTx) ReplaceRatedResult(r storage.RatedResult) error {
	old, err := t.RatedResult(r.GameID)
	if err != nil {
		return err
	}
	if old.GuildID != r.GuildID || old.White != r.White || old.Black != r.Black || old.Score != r.Score ||
		old.Category != r.Category || !old.Ended.Equal(r.Ended) {
		return fmt.Errorf("replace rated result of game %d: only the ratings may change", r.GameID)
	}
	v, err := codec.EncodeJSON(r)
	if err != nil {
		return fmt.Errorf("encode rated result of game %d: %w", r.GameID, err)
	}
	if _, err := t.exec(`UPDATE rated_results SET record = $2 WHERE game_id = $1`, int64(r.GameID), v); err != nil {
		return fmt.Errorf("write rated result of game %d: %w", r.GameID, err)
	}
	return nil
}
