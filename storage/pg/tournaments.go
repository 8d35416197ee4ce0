// tournaments.go: tournaments, the tournament boards of games, and games against
// the engine in the PostgreSQL backend.

package pg

import (
	"fmt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// Tournament reads tournament id.
func (t *pgTx) Tournament(id uint64) (*storage.Tournament, error) {
	v, err := t.value(`SELECT record FROM tournaments WHERE id = $1`, int64(id))
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	if v == nil {
		return nil, fmt.Errorf("tournament %d: %w", id, storage.ErrNotFound)
	}
	return codec.DecodeTournament(id, v)
}

// PutTournament writes a tournament, giving a new one (ID 0) the next id, and
// increments its Version.
func (t *pgTx) PutTournament(tm *storage.Tournament) error {
	if err := tm.Validate(); err != nil {
		return err
	}
	tm.Version++
	v, err := codec.EncodeJSON(tm)
	if err != nil {
		tm.Version--
		return fmt.Errorf("encode tournament %d: %w", tm.ID, err)
	}
	if tm.ID == 0 {
		var id int64
		if _, err := t.scanOne(`INSERT INTO tournaments (guild_id, live, record) VALUES ($1, $2, $3) RETURNING id`,
			[]any{tm.GuildID, tm.Live(), v}, &id); err != nil {
			tm.Version--
			return fmt.Errorf("new tournament: %w", err)
		}
		tm.ID = uint64(id)
		return nil
	}
	n, err := t.exec(`UPDATE tournaments SET guild_id = $2, live = $3, record = $4 WHERE id = $1`, int64(tm.ID), tm.GuildID, tm.Live(), v)
	if err == nil && n == 0 {
		err = t.insertWithID("tournaments", `INSERT INTO tournaments (id, guild_id, live, record) VALUES ($1, $2, $3, $4)`,
			int64(tm.ID), tm.GuildID, tm.Live(), v)
	}
	if err != nil {
		tm.Version--
		return fmt.Errorf("write tournament %d: %w", tm.ID, err)
	}
	return nil
}

// Tournaments reads a guild's tournaments (every guild's for ""), newest first.
func (t *pgTx) Tournaments(guildID string, liveOnly bool) ([]*storage.Tournament, error) {
	var out []*storage.Tournament
	err := eachIDRecord(t, `SELECT id, record FROM tournaments WHERE ($1 = '' OR guild_id = $1) AND (live OR NOT $2) ORDER BY id DESC`,
		[]any{guildID, liveOnly}, codec.DecodeTournament, func(tm *storage.Tournament) error {
			out = append(out, tm)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("tournaments of guild %q: %w", guildID, err)
	}
	return out, nil
}

// TournamentGame reads the tournament board of a game.
func (t *pgTx) TournamentGame(gameID uint64) (*storage.TournamentGame, error) {
	v, err := t.value(`SELECT record FROM tournament_games WHERE game_id = $1`, int64(gameID))
	if err != nil {
		return nil, fmt.Errorf("tournament game %d: %w", gameID, err)
	}
	if v == nil {
		return nil, fmt.Errorf("tournament game %d: %w", gameID, storage.ErrNotFound)
	}
	return codec.DecodeTournamentGame(gameID, v)
}

// PutTournamentGame records the tournament board of a game.
func (t *pgTx) PutTournamentGame(tg storage.TournamentGame) error {
	if tg.GameID == 0 || tg.TournamentID == 0 {
		return fmt.Errorf("tournament game: game %d of tournament %d: both ids are needed", tg.GameID, tg.TournamentID)
	}
	v, err := codec.EncodeJSON(tg)
	if err != nil {
		return fmt.Errorf("encode tournament game %d: %w", tg.GameID, err)
	}
	if _, err := t.exec(`INSERT INTO tournament_games (game_id, record) VALUES ($1, $2)
		ON CONFLICT (game_id) DO UPDATE SET record = excluded.record`, int64(tg.GameID), v); err != nil {
		return fmt.Errorf("write tournament game %d: %w", tg.GameID, err)
	}
	return nil
}

// PutEngineGame records the engine's side of a stored game.
func (t *pgTx) PutEngineGame(e storage.EngineGame) error {
	var one int
	found, err := t.scanOne(`SELECT 1 FROM games WHERE id = $1`, []any{int64(e.GameID)}, &one)
	if err != nil {
		return fmt.Errorf("put engine game %d: %w", e.GameID, err)
	}
	if !found {
		return fmt.Errorf("put engine game: game %d: %w", e.GameID, storage.ErrNotFound)
	}
	if err := e.Validate(); err != nil {
		return err
	}
	v, err := codec.EncodeJSON(e)
	if err != nil {
		return fmt.Errorf("encode engine game %d: %w", e.GameID, err)
	}
	if _, err := t.exec(`INSERT INTO engine_games (game_id, record) VALUES ($1, $2)
		ON CONFLICT (game_id) DO UPDATE SET record = excluded.record`, int64(e.GameID), v); err != nil {
		return fmt.Errorf("write engine game %d: %w", e.GameID, err)
	}
	return nil
}

// scanEngineGames reads (game_id, record) rows.
func (t *pgTx) scanEngineGames(sql string, args ...any) ([]storage.EngineGame, error) {
	var out []storage.EngineGame
	err := eachIDRecord(t, sql, args, codec.DecodeEngineGame, func(e *storage.EngineGame) error {
		out = append(out, *e)
		return nil
	})
	return out, err
}

// EngineGame reads the engine's side of a game.
func (t *pgTx) EngineGame(id uint64) (storage.EngineGame, error) {
	es, err := t.scanEngineGames(`SELECT game_id, record FROM engine_games WHERE game_id = $1`, int64(id))
	if err != nil {
		return storage.EngineGame{}, fmt.Errorf("engine game %d: %w", id, err)
	}
	if len(es) == 0 {
		return storage.EngineGame{}, fmt.Errorf("engine game %d: %w", id, storage.ErrNotFound)
	}
	return es[0], nil
}

// LiveEngineGames reads the engine records of the live games, in game id order.
func (t *pgTx) LiveEngineGames() ([]storage.EngineGame, error) {
	es, err := t.scanEngineGames(`SELECT e.game_id, e.record FROM engine_games e JOIN games g ON g.id = e.game_id
		WHERE g.live ORDER BY e.game_id`)
	if err != nil {
		return nil, fmt.Errorf("live engine games: %w", err)
	}
	return es, nil
}
