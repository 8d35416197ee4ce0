// votegames.go: vote chess games in the PostgreSQL backend (table vote_games: game id,
// whether it is live, the JSON envelope of VoteGame).

package pg

import (
	"fmt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// VoteGame reads the vote record of a game.
func (t *pgTx) VoteGame(gameID uint64) (*storage.VoteGame, error) {
	v, err := t.value(`SELECT record FROM vote_games WHERE game_id = $1`, int64(gameID))
	if err != nil {
		return nil, fmt.Errorf("vote game %d: %w", gameID, err)
	}
	if v == nil {
		return nil, fmt.Errorf("vote game %d: %w", gameID, storage.ErrNotFound)
	}
	return codec.DecodeVoteGame(gameID, v)
}

// PutVoteGame writes the vote record of a stored game from its stored version. The
// read and the write are one serializable transaction, so of two writers from one
// version one commits and the other is retried (and then finds the new version).
func (t *pgTx) PutVoteGame(v *storage.VoteGame) error {
	if err := v.Validate(); err != nil {
		return err
	}
	var one int
	found, err := t.scanOne(`SELECT 1 FROM games WHERE id = $1`, []any{int64(v.GameID)}, &one)
	if err != nil {
		return fmt.Errorf("put vote game %d: %w", v.GameID, err)
	}
	if !found {
		return fmt.Errorf("put vote game: game %d: %w", v.GameID, storage.ErrNotFound)
	}
	var stored *storage.VoteGame
	if b, err := t.value(`SELECT record FROM vote_games WHERE game_id = $1 FOR UPDATE`, int64(v.GameID)); err != nil {
		return fmt.Errorf("put vote game %d: %w", v.GameID, err)
	} else if b != nil {
		if stored, err = codec.DecodeVoteGame(v.GameID, b); err != nil {
			return err
		}
	}
	w, err := storage.NextVoteVersion(stored, v)
	if err != nil {
		return err
	}
	b, err := codec.EncodeJSON(w)
	if err == nil {
		_, err = t.exec(`INSERT INTO vote_games (game_id, live, record) VALUES ($1, $2, $3)
			ON CONFLICT (game_id) DO UPDATE SET live = EXCLUDED.live, record = EXCLUDED.record`, int64(w.GameID), !w.Over, b)
	}
	if err != nil {
		return fmt.Errorf("write vote game %d: %w", v.GameID, err)
	}
	return nil
}

// LiveVoteGames reads the vote records not over, in game id order.
func (t *pgTx) LiveVoteGames() ([]*storage.VoteGame, error) {
	var out []*storage.VoteGame
	err := eachIDRecord(t, `SELECT game_id, record FROM vote_games WHERE live ORDER BY game_id`, nil, codec.DecodeVoteGame,
		func(v *storage.VoteGame) error {
			out = append(out, v)
			return nil
		})
	return out, err
}

// EachVoteGame calls fn with every vote record in game id order.
func (t *pgTx) EachVoteGame(fn func(*storage.VoteGame) error) error {
	return eachIDRecord(t, `SELECT game_id, record FROM vote_games ORDER BY game_id`, nil, codec.DecodeVoteGame, fn)
}
