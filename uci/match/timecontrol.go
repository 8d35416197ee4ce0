// timecontrol.go: a match's time control, "[moves/]base[+increment]" in seconds.

package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TimeControl is a match time control: base time, increment, and moves per period (0:
// sudden death). The zero value is no clock.
type TimeControl struct {
	// Moves is the number of moves of a period; each completed period adds Base again.
	Moves int
	// Base is the time of a period; Inc is added after every move.
	Base, Inc time.Duration
}

// ParseTimeControl reads "[moves/]base[+increment]" in seconds, decimals allowed:
// "10+0.1", "40/60", "180+2".
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	rest := strings.TrimSpace(s)
	if m, r, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 || n > 1000 {
			return tc, fmt.Errorf("%q: moves per period %q: want 1 to 1000", s, m)
		}
		tc.Moves, rest = n, r
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	seconds := func(what, v string) (time.Duration, error) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 86400 || math.IsNaN(f) {
			return 0, fmt.Errorf("%q: %s %q: want seconds from 0 to 86400", s, what, v)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	var err error
	if tc.Base, err = seconds("base", base); err != nil {
		return tc, err
	}
	if tc.Base <= 0 {
		return tc, fmt.Errorf("%q: base time must be positive", s)
	}
	if hasInc {
		if tc.Inc, err = seconds("increment", inc); err != nil {
			return tc, err
		}
	}
	return tc, nil
}

// String writes the control in PGN's TimeControl form, which ParseTimeControl reads back.
func (tc TimeControl) String() string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	s := secs(tc.Base)
	if tc.Moves > 0 {
		s = strconv.Itoa(tc.Moves) + "/" + s
	}
	if tc.Inc > 0 {
		s += "+" + secs(tc.Inc)
	}
	return s
}
