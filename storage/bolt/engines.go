// engines.go: games against the engine in the bbolt backend.
//
// Layout: game id (8 bytes, big-endian) → JSON envelope of EngineGame.

package bolt

import (
	"fmt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// PutEngineGame records the engine's side of a stored game (game ids start at 1, so a
// record without one is refused as a game not found).
func (t boltTx) PutEngineGame(e storage.EngineGame) error {
	if _, err := t.Game(e.GameID); err != nil {
		return fmt.Errorf("put engine game: %w", err)
	}
	if err := e.Validate(); err != nil {
		return err
	}
	v, err := codec.EncodeJSON(e)
	if err != nil {
		return fmt.Errorf("encode engine game %d: %w", e.GameID, err)
	}
	if err := t.tx.Bucket([]byte(bucketEngineGames)).Put(codec.IDKey(e.GameID), v); err != nil {
		return fmt.Errorf("write engine game %d: %w", e.GameID, err)
	}
	return nil
}

// EngineGame reads the engine's side of a game.
func (t boltTx) EngineGame(id uint64) (storage.EngineGame, error) {
	v := t.tx.Bucket([]byte(bucketEngineGames)).Get(codec.IDKey(id))
	if v == nil {
		return storage.EngineGame{}, fmt.Errorf("engine game %d: %w", id, storage.ErrNotFound)
	}
	e, err := codec.DecodeEngineGame(id, v)
	if err != nil {
		return storage.EngineGame{}, err
	}
	return *e, nil
}

// LiveEngineGames reads the engine records of the live games, in game id order.
func (t boltTx) LiveEngineGames() ([]storage.EngineGame, error) {
	var out []storage.EngineGame
	engines := t.tx.Bucket([]byte(bucketEngineGames))
	err := t.tx.Bucket([]byte(bucketLiveGames)).ForEach(func(k, _ []byte) error {
		if engines.Get(k) == nil {
			return nil
		}
		e, err := t.EngineGame(codec.KeyID(k))
		if err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}
