// control.go: the TimeControl value, its limits, validation and canonical form.

package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limits on a time control. Parse, ParsePGN, Validate and New enforce them.
const (
	MinBase         = time.Second         // shortest base time of a period
	MaxBase         = 5 * time.Hour       // longest base time of a period
	MaxIncrement    = 60 * time.Second    // longest increment (the FIDE Laws' upper bound)
	MaxDelay        = 60 * time.Second    // longest delay
	MinPeriodMoves  = 2                   // fewest moves a period with a move count may have
	MaxPeriodMoves  = 200                 // most moves a period with a move count may have
	MaxPeriods      = 5                   // most periods in one control
	MinPerMove      = time.Hour           // shortest correspondence allowance
	MaxPerMove      = 30 * 24 * time.Hour // longest correspondence allowance
	maxNotationSize = 120                 // longest input Parse and ParsePGN accept, in bytes
)

// Kind says what sort of time control a TimeControl is.
type Kind uint8

// The kinds of time control. KindUnknown is the zero value.
const (
	KindUnknown        Kind = iota // not known ("?"): the zero TimeControl
	KindUntimed                    // no clock at all ("-")
	KindLive                       // periods of base time with increments or a delay
	KindCorrespondence             // an allowance per move, in days or hours
)

// String returns "unknown", "untimed", "live" or "correspondence".
func (k Kind) String() string {
	switch k {
	case KindUnknown:
		return "unknown"
	case KindUntimed:
		return "untimed"
	case KindLive:
		return "live"
	case KindCorrespondence:
		return "correspondence"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// DelayMode says how a delay is applied.
type DelayMode uint8

// The delay modes. NoDelay is the zero value.
const (
	NoDelay   DelayMode = iota
	Simple              // US delay: the clock waits Delay before running ("d")
	Bronstein           // time used is given back after the move, up to Delay ("b")
)

// String returns "none", "simple" or "bronstein".
func (m DelayMode) String() string {
	switch m {
	case NoDelay:
		return "none"
	case Simple:
		return "simple"
	case Bronstein:
		return "bronstein"
	}
	return "DelayMode(" + strconv.Itoa(int(m)) + ")"
}

// Period is one stage of a live time control.
type Period struct {
	// Moves is the number of moves to make in the period; 0 means the period
	// lasts for the rest of the game. A last period with Moves > 0 repeats.
	Moves int
	// Base is the time added to the clock when the period begins.
	Base time.Duration
	// Increment is added after each move made in the period.
	Increment time.Duration
}

// TimeControl is a time control. The zero value is unknown ("?").
//
// A live control has Periods (and optionally a delay); a correspondence
// control has PerMove; an untimed control has Untimed set. Validate reports
// any other combination.
type TimeControl struct {
	// Periods are the stages of a live control, in order.
	Periods []Period
	// DelayMode and Delay describe the delay applied to every move of a live
	// control; Delay is zero when DelayMode is NoDelay.
	DelayMode DelayMode
	Delay     time.Duration
	// PerMove is the allowance for each move of a correspondence control.
	PerMove time.Duration
	// Untimed marks a game played without a clock.
	Untimed bool
}

// Kind returns the kind of control: KindLive if it has periods, KindCorrespondence if
// it has a per-move allowance, KindUntimed if marked so, and KindUnknown otherwise.
func (tc TimeControl) Kind() Kind {
	switch {
	case len(tc.Periods) > 0:
		return KindLive
	case tc.PerMove > 0:
		return KindCorrespondence
	case tc.Untimed:
		return KindUntimed
	}
	return KindUnknown
}

// InitialTime returns the time on each clock at the start of the game: the
// first period's base, or the correspondence allowance; zero otherwise.
func (tc TimeControl) InitialTime() time.Duration {
	switch tc.Kind() {
	case KindLive:
		return tc.Periods[0].Base
	case KindCorrespondence:
		return tc.PerMove
	}
	return 0
}

// Equal reports whether two controls are the same.
func (tc TimeControl) Equal(other TimeControl) bool {
	if len(tc.Periods) != len(other.Periods) {
		return false
	}
	for i := range tc.Periods {
		if tc.Periods[i] != other.Periods[i] {
			return false
		}
	}
	return tc.DelayMode == other.DelayMode && tc.Delay == other.Delay &&
		tc.PerMove == other.PerMove && tc.Untimed == other.Untimed
}

// errMixedKinds is reported for a control with fields of more than one kind.
var errMixedKinds = errors.New("a control is live (periods), correspondence (per-move allowance) or untimed, not a mix")

// Validate reports whether the control is well formed and within the limits.
func (tc TimeControl) Validate() error {
	kinds := 0
	if len(tc.Periods) > 0 {
		kinds++
	}
	if tc.PerMove != 0 {
		kinds++
	}
	if tc.Untimed {
		kinds++
	}
	if kinds > 1 {
		return errMixedKinds
	}
	if tc.Kind() != KindLive && (tc.DelayMode != NoDelay || tc.Delay != 0) {
		return fmt.Errorf("a delay needs a live control, not %s", tc.Kind())
	}
	switch tc.Kind() {
	case KindLive:
		return tc.validateLive()
	case KindCorrespondence:
		return validatePerMove(tc.PerMove)
	}
	if tc.PerMove < 0 {
		return fmt.Errorf("per-move allowance %v is negative", tc.PerMove)
	}
	return nil
}

func (tc TimeControl) validateLive() error {
	if len(tc.Periods) > MaxPeriods {
		return fmt.Errorf("%d periods is more than %d", len(tc.Periods), MaxPeriods)
	}
	hasIncrement := false
	for i, p := range tc.Periods {
		n := i + 1
		at := "" // names the period when there are several
		if len(tc.Periods) > 1 {
			at = "period " + strconv.Itoa(n) + ": "
		}
		switch {
		case p.Moves < 0:
			return fmt.Errorf("%smove count %d is negative", at, p.Moves)
		case p.Moves == 1:
			return fmt.Errorf("%sa period of 1 move is not allowed (for half a minute write \"30s+0\" or \"½+0\")", at)
		case p.Moves > MaxPeriodMoves:
			return fmt.Errorf("%smove count %d is over %d", at, p.Moves, MaxPeriodMoves)
		case p.Moves == 0 && i < len(tc.Periods)-1:
			return fmt.Errorf("period %d lasts for the rest of the game but period %d follows it; give it a move count, as in \"40/90\"", n, n+1)
		}
		if err := checkWhole(at+"base time", p.Base); err != nil {
			return err
		}
		if p.Base == 0 {
			return fmt.Errorf("%sbase time 0 is not allowed: the clock would flag before the first move", at)
		}
		if p.Base < MinBase {
			return fmt.Errorf("%sbase time %s is under %s", at, formatSeconds(p.Base), formatSeconds(MinBase))
		}
		if p.Base > MaxBase {
			return fmt.Errorf("%sbase time %s is over %s", at, formatSeconds(p.Base), formatSeconds(MaxBase))
		}
		if err := checkWhole(at+"increment", p.Increment); err != nil {
			return err
		}
		if p.Increment < 0 {
			return fmt.Errorf("%sincrement %s is negative", at, formatSeconds(p.Increment))
		}
		if p.Increment > MaxIncrement {
			return fmt.Errorf("%sincrement %d s is over %d s", at, p.Increment/time.Second, MaxIncrement/time.Second)
		}
		if p.Increment > 0 {
			hasIncrement = true
		}
	}
	switch tc.DelayMode {
	case NoDelay:
		if tc.Delay != 0 {
			return fmt.Errorf("delay %s has no delay mode", formatSeconds(tc.Delay))
		}
		return nil
	case Simple, Bronstein:
	default:
		return fmt.Errorf("unknown delay mode %d", tc.DelayMode)
	}
	if err := checkWhole("delay", tc.Delay); err != nil {
		return err
	}
	if tc.Delay <= 0 {
		return fmt.Errorf("%s delay must be at least 1 s", tc.DelayMode)
	}
	if tc.Delay > MaxDelay {
		return fmt.Errorf("delay %d s is over %d s", tc.Delay/time.Second, MaxDelay/time.Second)
	}
	if hasIncrement {
		return errors.New("a control has an increment or a delay, not both")
	}
	return nil
}

func validatePerMove(d time.Duration) error {
	if d%time.Hour != 0 {
		return fmt.Errorf("correspondence allowance %s is not a whole number of hours", formatSeconds(d))
	}
	if d < MinPerMove || d > MaxPerMove {
		return fmt.Errorf("correspondence allowance %s is outside 1h to 30d", formatPerMove(d))
	}
	return nil
}

// checkWhole reports a duration that is not a whole number of seconds.
func checkWhole(what string, d time.Duration) error {
	if d%time.Second != 0 {
		return fmt.Errorf("%s %v is not a whole number of seconds", what, d)
	}
	return nil
}

// String returns the canonical notation, which Parse reads back to an equal
// control: "5+3", "30s+0", "40/90+30, 30+30", "5+0 d3", "3d", "12h", "-"
// or "?". An invalid control is written as well as it can be, for messages.
func (tc TimeControl) String() string {
	switch tc.Kind() {
	case KindUnknown:
		return "?"
	case KindUntimed:
		return "-"
	case KindCorrespondence:
		return formatPerMove(tc.PerMove)
	}
	var b strings.Builder
	for i, p := range tc.Periods {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.Moves != 0 {
			b.WriteString(strconv.Itoa(p.Moves))
			b.WriteByte('/')
		}
		if p.Base%time.Minute == 0 {
			b.WriteString(strconv.FormatInt(int64(p.Base/time.Minute), 10))
		} else {
			b.WriteString(formatSeconds(p.Base))
		}
		b.WriteByte('+')
		b.WriteString(formatBareSeconds(p.Increment))
	}
	switch tc.DelayMode {
	case Simple:
		b.WriteString(" d")
		b.WriteString(formatBareSeconds(tc.Delay))
	case Bronstein:
		b.WriteString(" b")
		b.WriteString(formatBareSeconds(tc.Delay))
	}
	return b.String()
}

// formatBareSeconds writes a duration as a number of seconds without a unit,
// with a fraction only when the duration is not whole.
func formatBareSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// formatSeconds writes a duration in seconds with the unit, as "30s".
func formatSeconds(d time.Duration) string { return formatBareSeconds(d) + "s" }

// formatPerMove writes a correspondence allowance in days when whole, else hours.
func formatPerMove(d time.Duration) string {
	const day = 24 * time.Hour
	if d%day == 0 {
		return strconv.FormatInt(int64(d/day), 10) + "d"
	}
	if d%time.Hour == 0 {
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	}
	return d.String()
}

// MarshalText encodes the control in its canonical notation, so a stored
// clock reads "5+3" rather than a list of nanoseconds.
func (tc TimeControl) MarshalText() ([]byte, error) {
	if err := tc.Validate(); err != nil {
		return nil, fmt.Errorf("marshal time control %q: %w", tc.String(), err)
	}
	return []byte(tc.String()), nil
}

// UnmarshalText decodes the canonical notation (any notation Parse accepts).
func (tc *TimeControl) UnmarshalText(text []byte) error {
	parsed, err := Parse(string(text))
	if err != nil {
		return err
	}
	*tc = parsed
	return nil
}

// locate returns the period that the move after `done` completed moves belongs
// to, and how many moves of that period are already made. The control must be
// live and valid.
func (tc TimeControl) locate(done int) (period, into int) {
	last := len(tc.Periods) - 1
	for i, p := range tc.Periods {
		switch {
		case p.Moves == 0:
			return i, done
		case i == last:
			return i, done % p.Moves
		case done < p.Moves:
			return i, done
		}
		done -= p.Moves
	}
	return last, done // unreachable for a valid control
}

// Budget returns the time a player receives for a game of n moves: the base
// of every period that starts within them, plus the increment (or delay) of
// each move. It is zero for a control that is not live. Category uses the
// 60-move budget (FIDE) and the 40-move budget (online bullet).
func (tc TimeControl) Budget(n int) time.Duration {
	if tc.Kind() != KindLive {
		return 0
	}
	total := tc.Periods[0].Base
	for done := 0; done < n; done++ {
		p, into := tc.locate(done)
		if done > 0 && into == 0 {
			total += tc.Periods[p].Base
		}
		total += tc.Periods[p].Increment + tc.Delay
	}
	return total
}
