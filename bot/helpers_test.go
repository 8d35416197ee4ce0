package bot

// Helpers shared by the tests of the Discord runtime.

import (
	"io"
	"log/slog"
	"os"
	"testing"
	"time"
)

// epoch is where the manual clock of every test starts.
var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// testLogger logs to stderr with -v and GAMBIT_TEST_LOG set, else nowhere.
func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() && os.Getenv("GAMBIT_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// hangGuard bounds the waits for a condition: the condition is polled and ends the
// wait as soon as it holds, so the bound only decides how long a bot that is stuck
// takes to fail. It is far above anything the bot needs on a loaded machine under the
// race detector.
const hangGuard = 2 * time.Minute
