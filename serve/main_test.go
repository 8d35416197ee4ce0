package bot

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain fails the run if the bot left goroutines behind: every Run must close its
// sessions (no reconnect loop), its timers, its metrics server and its event queue.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if left := lingering(10 * time.Second); left != "" {
			fmt.Fprintf(os.Stderr, "goroutines left running after the tests:\n%s\n", left)
			code = 1
		}
	}
	os.Exit(code)
}

func lingering(timeout time.Duration) string {
	deadline := time.Now().Add(timeout)
	for {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var left []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "testing.(*M)") || strings.Contains(g, "bot.TestMain") {
				continue
			}
			for _, pkg := range []string{"bwmarrin/discordgo", "gambit/bot.", "gambit/service/games.", "gambit/internal/timers.", "gorilla/websocket"} {
				if strings.Contains(g, pkg) {
					left = append(left, g)
					break
				}
			}
		}
		if len(left) == 0 {
			return ""
		}
		if time.Now().After(deadline) {
			return strings.Join(left, "\n\n")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
