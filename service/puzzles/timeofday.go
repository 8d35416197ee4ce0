// timeofday.go: the time of day of the daily post, as members type it and as the store
// keeps it.

package puzzles

import (
	"fmt"
	"time"
)

// ParseTimeOfDay reads "HH:MM" (or "H:MM") and returns the minutes after midnight; ""
// is midnight. The store keeps the canonical form, fmt.Sprintf("%02d:%02d", m/60, m%60).
func ParseTimeOfDay(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, fmt.Errorf("time of day %q: want HH:MM, 00:00 to 23:59", s)
	}
	return t.Hour()*60 + t.Minute(), nil
}
