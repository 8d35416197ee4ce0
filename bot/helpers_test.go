package bot

// Helpers shared by the tests of the Discord runtime.

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"sync"
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

// logBuffer collects log lines for a test to read.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// hangGuard bounds the waits for a condition: the condition is polled and ends the
// wait as soon as it holds, so the bound only decides how long a bot that is stuck
// takes to fail. It is far above anything the bot needs on a loaded machine under the
// race detector.
const hangGuard = 2 * time.Minute
