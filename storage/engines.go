// engines.go: games against the engine: which side the engine plays, at which level,
// with which engine (schema version 5, bucket engine_games).
//
// Layout: game id (8 bytes, big-endian) → JSON envelope of EngineGame. The record is
// written in the transaction that creates the game (Writer.PutEngineGame from the
// creation's hook), so a game against the engine never exists without it. It is kept
// after the game ends: it says who the opponent was for analysis and history.

package storage

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/chesscore"
)

// Engine kinds of an EngineGame.
const (
	// EngineBuiltin is Gambit's own engine (chesscore/engine).
	EngineBuiltin = "builtin"
	// EngineExternal is the external UCI engine of the configuration (engine.external_path).
	EngineExternal = "external"
)

// EngineGame says how the engine plays its side of a game.
type EngineGame struct {
	// GameID is the game (the record's key).
	GameID uint64 `json:"-"`
	// Color is the side the engine plays.
	Color chesscore.Color `json:"color"`
	// Level is the playing level (1 to 8 for the built-in engine; the external engine's
	// levels come after).
	Level int `json:"level"`
	// Engine is EngineBuiltin or EngineExternal.
	Engine string `json:"engine"`
	// Created is when the game was created.
	Created time.Time `json:"created"`
}

func (e *EngineGame) validate() error {
	if e.Color != chesscore.White && e.Color != chesscore.Black {
		return fmt.Errorf("engine game %d: colour %d is neither white nor black", e.GameID, e.Color)
	}
	if e.Level < 1 || e.Level > 99 {
		return fmt.Errorf("engine game %d: level %d: want 1 to 99", e.GameID, e.Level)
	}
	if e.Engine != EngineBuiltin && e.Engine != EngineExternal {
		return fmt.Errorf("engine game %d: engine %q: want %q or %q", e.GameID, e.Engine, EngineBuiltin, EngineExternal)
	}
	return nil
}

func putEngineGame(tx *bolt.Tx, e EngineGame) error {
	if e.GameID == 0 {
		return fmt.Errorf("put engine game: no game id")
	}
	if err := e.validate(); err != nil {
		return err
	}
	v, err := encodeJSON(e)
	if err != nil {
		return fmt.Errorf("encode engine game %d: %w", e.GameID, err)
	}
	if err := tx.Bucket([]byte(bucketEngineGames)).Put(idKey(e.GameID), v); err != nil {
		return fmt.Errorf("write engine game %d: %w", e.GameID, err)
	}
	return nil
}

func getEngineGame(tx *bolt.Tx, id uint64) (EngineGame, error) {
	v := tx.Bucket([]byte(bucketEngineGames)).Get(idKey(id))
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

// PutEngineGame records the engine's side of a game in the transaction of a Change:
// from the hook (Change.After) of the change that creates the game, whose id the
// transaction has just assigned.
func (w *Writer) PutEngineGame(e EngineGame) error {
	if _, err := getGame(w.tx, e.GameID); err != nil {
		return fmt.Errorf("put engine game: %w", err)
	}
	return putEngineGame(w.tx, e)
}

// PutEngineGame records the engine's side of an existing game.
func (db *DB) PutEngineGame(e EngineGame) error {
	return db.update(func(tx *bolt.Tx) error {
		if _, err := getGame(tx, e.GameID); err != nil {
			return fmt.Errorf("put engine game: %w", err)
		}
		return putEngineGame(tx, e)
	})
}

// EngineGame returns the engine's side of game id (ErrNotFound for a game between
// people).
func (db *DB) EngineGame(id uint64) (EngineGame, error) {
	var e EngineGame
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		e, err = getEngineGame(tx, id)
		return err
	})
	return e, err
}

// DeleteEngineGame forgets the engine's side of game id (no error if there is none).
func (db *DB) DeleteEngineGame(id uint64) error {
	return db.update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketEngineGames)).Delete(idKey(id))
	})
}

// LiveEngineGames returns the engine records of the games still being played, in game
// id order: what the engine must take up again at start-up.
func (db *DB) LiveEngineGames() ([]EngineGame, error) {
	var out []EngineGame
	err := db.bolt.View(func(tx *bolt.Tx) error {
		engines := tx.Bucket([]byte(bucketEngineGames))
		return tx.Bucket([]byte(bucketLiveGames)).ForEach(func(k, _ []byte) error {
			if engines.Get(k) == nil {
				return nil
			}
			e, err := getEngineGame(tx, keyID(k))
			if err != nil {
				return err
			}
			out = append(out, e)
			return nil
		})
	})
	return out, err
}
