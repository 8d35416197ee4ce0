// bolt_engines.go: games against the engine in the bbolt backend.
//
// Layout: game id (8 bytes, big-endian) → JSON envelope of EngineGame.

package storage

import "fmt"

// PutEngineGame records the engine's side of a stored game (game ids start at 1, so a
// record without one is refused as a game not found).
func (t boltTx) PutEngineGame(e EngineGame) error {
	if _, err := t.Game(e.GameID); err != nil {
		return fmt.Errorf("put engine game: %w", err)
	}
	if err := e.validate(); err != nil {
		return err
	}
	v, err := encodeJSON(e)
	if err != nil {
		return fmt.Errorf("encode engine game %d: %w", e.GameID, err)
	}
	if err := t.tx.Bucket([]byte(bucketEngineGames)).Put(idKey(e.GameID), v); err != nil {
		return fmt.Errorf("write engine game %d: %w", e.GameID, err)
	}
	return nil
}

// EngineGame reads the engine's side of a game.
func (t boltTx) EngineGame(id uint64) (EngineGame, error) {
	v := t.tx.Bucket([]byte(bucketEngineGames)).Get(idKey(id))
	if v == nil {
		return EngineGame{}, fmt.Errorf("engine game %d: %w", id, ErrNotFound)
	}
	var e EngineGame
	if err := decodeJSON(v, &e); err != nil {
		return EngineGame{}, fmt.Errorf("engine game %d: %w", id, err)
	}
	e.GameID = id
	return e, nil
}

// LiveEngineGames reads the engine records of the live games, in game id order.
func (t boltTx) LiveEngineGames() ([]EngineGame, error) {
	var out []EngineGame
	engines := t.tx.Bucket([]byte(bucketEngineGames))
	err := t.tx.Bucket([]byte(bucketLiveGames)).ForEach(func(k, _ []byte) error {
		if engines.Get(k) == nil {
			return nil
		}
		e, err := t.EngineGame(keyID(k))
		if err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}
