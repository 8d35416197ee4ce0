// Tests of the terminal players and the engine level kept in the engine's name.
package terminal

import (
	"testing"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

func TestEngineLevel(t *testing.T) {
	for level := 1; level <= 8; level++ {
		if got, ok := EngineLevel(EnginePlayer(level)); !ok || got != level {
			t.Errorf("EngineLevel(EnginePlayer(%d)) = %d, %v", level, got, ok)
		}
	}
	for _, p := range []storage.Player{You, White, Black, {ID: engineID, Name: "Gambit engine"}, {ID: "local:x", Name: "Gambit engine (level 3)"}} {
		if level, ok := EngineLevel(p); ok {
			t.Errorf("EngineLevel(%+v) = %d, true", p, level)
		}
	}
	for _, p := range []storage.Player{You, White, Black, EnginePlayer(2)} {
		g := &storage.Game{White: p, Black: You}
		if !games.LocalScope(g) {
			t.Errorf("%+v is not a local player", p)
		}
	}
}
