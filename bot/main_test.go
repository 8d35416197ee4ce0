package bot

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/leaktest"
)

// TestMain fails the run if a test left goroutines behind: the notifier's queues, the
// router's handlers and the interactions endpoint must all stop when closed.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		left := leaktest.Lingering(10*time.Second, "bot.TestMain",
			"bwmarrin/discordgo", "gambit/bot.", "gambit/service/games.", "gambit/internal/timers.", "gorilla/websocket")
		if left != "" {
			fmt.Fprintf(os.Stderr, "goroutines left running after the tests:\n%s\n", left)
			code = 1
		}
	}
	os.Exit(code)
}
