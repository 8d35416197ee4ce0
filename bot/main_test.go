package bot

import (
	"testing"

	"github.com/gambitchess/gambit/internal/leaktest"
)

// TestMain fails the run if a test left goroutines behind: the notifier's queues, the
// router's handlers and the interactions endpoint must all stop when closed.
func TestMain(m *testing.M) {
	leaktest.Main(m, "bot.TestMain",
		"bwmarrin/discordgo", "gambit/bot.", "gambit/service/games.", "gambit/internal/timers.", "gorilla/websocket")
}
