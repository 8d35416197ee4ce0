// pgn.go: the PGN TimeControl tag form, written by PGN and read by ParsePGN.

package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// PGN returns the control as the value of a PGN TimeControl tag: "?" when
// unknown, "-" when untimed, "300+3", "300", "40/5400+30:1800+30", and
// "1/259200" for three days per move. PGN has no notation for a delay, so a
// delay is left out.
func (tc TimeControl) PGN() string {
	switch tc.Kind() {
	case KindUnknown:
		return "?"
	case KindUntimed:
		return "-"
	case KindCorrespondence:
		return "1/" + formatBareSeconds(tc.PerMove)
	}
	var b strings.Builder
	for i, p := range tc.Periods {
		if i > 0 {
			b.WriteByte(':')
		}
		if p.Moves != 0 {
			b.WriteString(strconv.Itoa(p.Moves))
			b.WriteByte('/')
		}
		b.WriteString(formatBareSeconds(p.Base))
		if p.Increment != 0 {
			b.WriteByte('+')
			b.WriteString(formatBareSeconds(p.Increment))
		}
	}
	return b.String()
}

// ParsePGN reads the value of a PGN TimeControl tag: "?" (unknown), "-"
// (untimed), or periods separated by ':' each written [moves/]seconds[+increment]
// in seconds, as "40/5400+30:1800+30" or "300+3". A lone one-move period
// such as "1/259200" is read as a correspondence allowance. Sandclock periods
// ("*180") are not supported. The result is valid (see Validate).
func ParsePGN(tag string) (TimeControl, error) {
	tc, err := parsePGN(tag)
	if err != nil {
		return TimeControl{}, fmt.Errorf("PGN time control %q: %w", tag, err)
	}
	return tc, nil
}

func parsePGN(tag string) (TimeControl, error) {
	if len(tag) > maxNotationSize {
		return TimeControl{}, fmt.Errorf("longer than %d bytes", maxNotationSize)
	}
	s := strings.TrimSpace(tag)
	switch s {
	case "":
		return TimeControl{}, errors.New("empty")
	case "?":
		return TimeControl{}, nil
	case "-":
		return TimeControl{Untimed: true}, nil
	}
	fields := strings.Split(s, ":")
	if len(fields) > MaxPeriods {
		return TimeControl{}, fmt.Errorf("%d periods is more than %d", len(fields), MaxPeriods)
	}
	var tc TimeControl
	for i, f := range fields {
		at := ""
		if len(fields) > 1 {
			at = "period " + strconv.Itoa(i+1) + ": "
		}
		if strings.HasPrefix(f, "*") {
			return TimeControl{}, fmt.Errorf("%ssandclock period %q is not supported", at, f)
		}
		var p Period
		rest := f
		if movesText, after, ok := strings.Cut(f, "/"); ok {
			n, err := pgnNumber(movesText, at, "move count")
			if err != nil {
				return TimeControl{}, err
			}
			p.Moves, rest = int(n), after
		}
		baseText, incText, hasInc := strings.Cut(rest, "+")
		base, err := pgnNumber(baseText, at, "seconds")
		if err != nil {
			return TimeControl{}, err
		}
		p.Base = time.Duration(base) * time.Second
		if hasInc {
			if incText == "" {
				return TimeControl{}, fmt.Errorf("%smissing increment after '+'", at)
			}
			inc, err := pgnNumber(incText, at, "increment")
			if err != nil {
				return TimeControl{}, err
			}
			p.Increment = time.Duration(inc) * time.Second
		}
		if len(fields) == 1 && p.Moves == 1 && !hasInc {
			if err := validatePerMove(p.Base); err != nil {
				return TimeControl{}, fmt.Errorf("one move per %d s is read as correspondence: %w", base, err)
			}
			return TimeControl{PerMove: p.Base}, nil
		}
		tc.Periods = append(tc.Periods, p)
	}
	if err := tc.Validate(); err != nil {
		return TimeControl{}, err
	}
	return tc, nil
}

// pgnNumber reads a non-negative decimal integer of at most 9 digits (so that
// seconds cannot overflow a time.Duration); at
// names the period in errors.
func pgnNumber(s, at, what string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("%smissing %s", at, what)
	}
	if len(s) > 9 {
		return 0, fmt.Errorf("%s%s %q is too long", at, what, s)
	}
	var n int64
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, fmt.Errorf("%s%s %q is not a whole number", at, what, s)
		}
		n = n*10 + int64(r-'0')
	}
	return n, nil
}
