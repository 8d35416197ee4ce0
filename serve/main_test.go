package serve

import (
	"testing"

	"github.com/gambitchess/gambit/internal/leaktest"
)

// TestMain fails the run if a server left goroutines behind: every Run must close its
// sessions (no reconnect loop), its timers, its ops listener and its event queue.
func TestMain(m *testing.M) {
	leaktest.Main(m, "serve.TestMain", goroutinesOfARun...)
}

// goroutinesOfARun are the packages whose goroutines a Run starts.
var goroutinesOfARun = []string{"bwmarrin/discordgo", "gambit/serve.", "gambit/bot.", "gambit/service/games.", "gambit/internal/timers.", "gorilla/websocket"}
