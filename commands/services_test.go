package commands

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// testServices opens a store in a temporary directory and a game service on it with a
// manual clock at noon on 1 March 2026 and a silent logger, all closed at the end of
// the test.
func testServices(t *testing.T) (*bolt.DB, *timers.ManualClock, *games.Service, *slog.Logger) {
	t.Helper()
	db := storagetest.Open(t)
	clk := timers.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	gs, err := games.New(db, games.Options{Clock: clk, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gs.Close() })
	return db, clk, gs, quiet
}
