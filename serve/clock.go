// clock.go: what a process on PostgreSQL assumes of its clock, checked at start: its
// wall clock is read against the database's, the offset corrected for the rest of the
// run, and a process whose clock is further off than MaxClockSkew refuses to run.

package serve

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage/pg"
)

// MaxClockSkew bounds how far a process's wall clock may be from the database's for
// it to run on PostgreSQL. Within it, the process corrects its clock by the offset it
// measured at start, so the instants it writes (a move's, a lease's end, a heartbeat)
// are on the database's clock, whichever process writes them. Beyond it the machine's
// clock is not kept (no NTP): the offset would drift from what was measured, and the
// process refuses to run rather than charge players or end leases by it.
const MaxClockSkew = 10 * time.Second

// clockSamples is how many readings of the database's clock the check takes; the one
// of the shortest round trip is kept.
const clockSamples = 5

// offsetClock is a clock corrected by a fixed offset.
type offsetClock struct {
	base   timers.Clock
	offset time.Duration
}

// Now returns the base clock's instant plus the offset (its monotonic reading kept).
func (c offsetClock) Now() time.Time { return c.base.Now().Add(c.offset) }

// syncClock measures clk against the database's clock and returns the offset to add
// to it, or an error when the offset is beyond MaxClockSkew even at the edge of what
// the measurement allows. A manual clock (a test's own time, which moves only when told
// to) is not measured: its offset is 0.
func syncClock(ctx context.Context, db *pg.DB, clk timers.Clock, log *slog.Logger) (time.Duration, error) {
	if _, manual := clk.(*timers.ManualClock); manual {
		return 0, nil
	}
	s, err := db.MeasureClock(ctx, clk.Now, clockSamples)
	if err != nil {
		return 0, fmt.Errorf("check this machine's clock against the database's: %w", err)
	}
	if s.Offset.Abs()-s.Uncertainty > MaxClockSkew {
		return 0, fmt.Errorf("this machine's clock is %v off the database's (±%v; positive: behind), beyond the %v gambit allows: synchronise the machines' clocks (NTP) and start again",
			s.Offset.Round(time.Millisecond), s.Uncertainty.Round(time.Microsecond), MaxClockSkew)
	}
	log.Info("clock: checked against the database's; corrected by the offset",
		"offset", s.Offset.Round(time.Microsecond), "uncertainty", s.Uncertainty.Round(time.Microsecond), "max", MaxClockSkew)
	return s.Offset, nil
}
