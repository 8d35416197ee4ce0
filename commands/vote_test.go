package commands

import (
	"testing"
	"time"
)

func TestParseVoteWindow(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"10m", 10 * time.Minute, true},
		{"2h30m", 150 * time.Minute, true},
		{"1d", 24 * time.Hour, true},
		{"14d", 14 * 24 * time.Hour, true},
		{"15d", 0, false},
		{"0d", 0, false},
		{"30s", 0, false},
		{"-1h", 0, false},
		{"soon", 0, false},
		{"1.5d", 0, false},
	} {
		got, err := parseVoteWindow(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseVoteWindow(%q) = %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestWindowLabel(t *testing.T) {
	for in, want := range map[time.Duration]string{
		24 * time.Hour: "1 day", 48 * time.Hour: "2 days", time.Hour: "1 hour", 90 * time.Minute: "90 minutes", 90 * time.Second: "1m30s",
	} {
		if got := windowLabel(in); got != want {
			t.Errorf("windowLabel(%v) = %q, want %q", in, got, want)
		}
	}
}
