package commands

import (
	"testing"
	"time"
)

func TestParseStarts(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"2026-03-02 18:00", time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)},
		{"2026-03-02T18:00+01:00", time.Date(2026, 3, 2, 17, 0, 0, 0, time.UTC)},
		{"2026-03-02t18:00:30z", time.Date(2026, 3, 2, 18, 0, 30, 0, time.UTC)},
		{"<t:1772474400>", time.Unix(1772474400, 0).UTC()},
		{"<t:1772474400:F>", time.Unix(1772474400, 0).UTC()},
		{"1772474400", time.Unix(1772474400, 0).UTC()},
		{"in 2h30m", now.Add(150 * time.Minute)},
		{"90m", now.Add(90 * time.Minute)},
		{"in 1d", now.Add(24 * time.Hour)},
		{"2d12h", now.Add(60 * time.Hour)},
	} {
		got, err := parseStarts(tc.in, now)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "tomorrow", "in -2h", "2026-13-02 18:00", "<t:abc>", "0", "99999999999999999", "in xd", "in 1d-3h"} {
		if got, err := parseStarts(bad, now); err == nil {
			t.Errorf("%q: accepted as %v", bad, got)
		}
	}
}
