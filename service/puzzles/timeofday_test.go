package puzzles

import (
	"fmt"
	"testing"

	"github.com/gambitchess/gambit/storage"
)

func TestParseTimeOfDay(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"", 0, true}, {"00:00", 0, true}, {"7:05", 425, true}, {"09:30", 570, true}, {"23:59", 1439, true},
		{"24:00", 0, false}, {"12:60", 0, false}, {"9h", 0, false}, {"-1:00", 0, false}, {"00:00:00", 0, false},
	} {
		got, err := ParseTimeOfDay(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseTimeOfDay(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// FuzzParseTimeOfDay: a time that parses is within the day, reads back the same from
// its canonical form, and the store accepts that form.
func FuzzParseTimeOfDay(f *testing.F) {
	for _, s := range []string{"", "09:00", "7:05", "23:59", "24:00", "12:60", "9h", "-1:00", "00:00:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseTimeOfDay(s)
		if err != nil {
			return
		}
		if m < 0 || m >= 24*60 {
			t.Fatalf("%q: %d minutes", s, m)
		}
		canonical := fmt.Sprintf("%02d:%02d", m/60, m%60)
		again, err := ParseTimeOfDay(canonical)
		if err != nil || again != m {
			t.Fatalf("%q: %d, then %d, %v", s, m, again, err)
		}
		if err := (storage.PuzzleSettings{Time: canonical}).Validate(); err != nil {
			t.Fatalf("%q: the store refuses its canonical form %q: %v", s, canonical, err)
		}
	})
}
