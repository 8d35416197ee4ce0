package serve

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/leaktest"
)

// TestMain fails the run if a server left goroutines behind: every Run must close its
// sessions (no reconnect loop), its timers, its ops listener and its event queue.
// The web tests' browser is closed first.
func TestMain(m *testing.M) {
	code := m.Run()
	closeBrowser()
	if code == 0 {
		if left := leaktest.Lingering(10*time.Second, "serve.TestMain", goroutinesOfARun...); left != "" {
			fmt.Fprintf(os.Stderr, "goroutines left running after the tests:\n%s\n", left)
			code = 1
		}
	}
	os.Exit(code)
}

// goroutinesOfARun are the packages whose goroutines a Run starts.
var goroutinesOfARun = []string{"bwmarrin/discordgo", "gambit/serve.", "gambit/bot.", "gambit/service/games.", "gambit/internal/timers.", "gorilla/websocket", "gambit/web."}
