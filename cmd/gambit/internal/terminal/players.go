// players.go: the players of a terminal game, and the engine's level kept in its name.

package terminal

import (
	"fmt"

	"github.com/gambitchess/gambit/storage"
)

// The players of a terminal game. Their IDs start with "local:", which is what
// games.LocalScope looks for, so the bot never runs these games' clocks.
var (
	// White and Black are two players at one keyboard.
	White = storage.Player{ID: "local:white", Name: "White"}
	Black = storage.Player{ID: "local:black", Name: "Black"}
	// You is the person playing the engine.
	You = storage.Player{ID: "local:you", Name: "You"}
)

// engineID is the engine's player ID in every terminal game against it.
const engineID = "local:engine"

// EnginePlayer is the built-in engine at a level, as a player of a terminal game; the
// level is in the name, where EngineLevel finds it again when the game is resumed.
func EnginePlayer(level int) storage.Player {
	return storage.Player{ID: engineID, Name: fmt.Sprintf("Gambit engine (level %d)", level)}
}

// IsEngine reports whether p is the engine.
func IsEngine(p storage.Player) bool { return p.ID == engineID }

// EngineLevel returns the level of an engine player made by EnginePlayer; false for
// another player or a name without a level.
func EngineLevel(p storage.Player) (int, bool) {
	var level int
	if !IsEngine(p) {
		return 0, false
	}
	if _, err := fmt.Sscanf(p.Name, "Gambit engine (level %d)", &level); err != nil {
		return 0, false
	}
	return level, true
}
