// engines.go: games against the engine: which side the engine plays, at which level,
// with which engine (schema version 5, bucket engine_games).
//
// The record is written in the transaction that creates the game (Tx.PutEngineGame from
// the creation's hook, Change.After), so a game against the engine never exists without
// it. It is kept after the game ends: it says who the opponent was for analysis and
// history.

package storage

import (
	"fmt"
	"time"

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

func (e *EngineGame) Validate() error {
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
