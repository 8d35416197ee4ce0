// starts.go: the start time of a tournament as an organiser types it.

package commands

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// parseLead reads a duration from now: Go's ("2h30m") with whole days in front ("1d",
// "2d12h").
func parseLead(s string) (time.Duration, error) {
	if strings.ContainsAny(s, "+-") {
		return 0, fmt.Errorf("a signed duration %q", s)
	}
	days := time.Duration(0)
	if n, rest, ok := strings.Cut(s, "d"); ok {
		k, err := strconv.Atoi(n)
		if err != nil || k < 0 || k > 400 {
			return 0, fmt.Errorf("days %q", n)
		}
		days = time.Duration(k) * 24 * time.Hour
		if s = rest; s == "" {
			return days, nil
		}
	}
	d, err := time.ParseDuration(s)
	return days + d, err
}

// startsHelp says which start times the starts option takes.
const startsHelp = "Give the start as a date and time in UTC (2026-03-02 18:00), with an offset (2026-03-02T18:00+01:00), as a Discord timestamp (<t:1772474400>) or from now (in 2h30m, in 1d)."

// parseStarts reads a start time: "2026-03-02 18:00" (UTC), RFC 3339 with or without
// seconds ("2026-03-02T18:00+01:00"), a Discord timestamp ("<t:1772474400>", any
// style) or Unix seconds, or a duration from now ("in 2h30m", "90m"). The result is
// whole minutes or seconds as given; that it lies in the future is the service's check.
func parseStarts(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, Errorf("%s", startsHelp)
	}
	if rest, ok := strings.CutPrefix(s, "<t:"); ok {
		rest = strings.TrimSuffix(rest, ">")
		rest, _, _ = strings.Cut(rest, ":")
		s = rest
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n <= 0 || n > 1<<40 {
			return time.Time{}, Errorf("%s", startsHelp)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	if d, err := parseLead(strings.TrimSpace(strings.TrimPrefix(strings.ToLower(s), "in "))); err == nil {
		if d <= 0 {
			return time.Time{}, Errorf("The start must be in the future.")
		}
		return now.Add(d).Truncate(time.Second).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, strings.ToUpper(s)); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, Errorf("%q is not a start time I can read. %s", truncateRunes(s, 40), startsHelp)
}
