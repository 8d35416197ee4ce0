// clock.go: the two-sided clock, its state and its arithmetic.

package clock

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gambitchess/gambit/chesscore"
)

// State is where a Clock is in its life.
type State uint8

// The clock states. NotStarted is the zero value.
const (
	NotStarted State = iota // made by New, waiting for Start
	Running                 // the side to move's clock is running
	Paused                  // stopped by Pause, waiting for Resume
	Stopped                 // the game is over; the clock no longer runs
)

// String returns "not started", "running", "paused" or "stopped".
func (s State) String() string {
	switch s {
	case NotStarted:
		return "not started"
	case Running:
		return "running"
	case Paused:
		return "paused"
	case Stopped:
		return "stopped"
	}
	return "State(" + strconv.Itoa(int(s)) + ")"
}

// Errors returned by the clock, wrapped with details; test with errors.Is.
var (
	ErrFlagged    = errors.New("flag fell")
	ErrNotRunning = errors.New("clock is not running")
	ErrNotPaused  = errors.New("clock is not paused")
	ErrStarted    = errors.New("clock already started")
	ErrNoClock    = errors.New("time control has no clock")
)

// Clock is the state of a game's two clocks. It is a plain value with
// exported fields so that it can be stored and loaded as it is; the methods
// take every instant as an argument and never read the time.
//
// Use Remaining for the time a side has at an instant; the fields record the
// state as of the last event (Start, Press, Pause, Resume, Stop).
type Clock struct {
	// Control is the time control the clock runs.
	Control TimeControl
	// FreeFirstMoves chooses the online custom: each side's first move is
	// untimed (its clock neither runs nor flags, and that move earns no
	// increment). Set it before Start; false is the over-the-board rule.
	FreeFirstMoves bool
	// State is where the clock is in its life.
	State State
	// Turn is the side to move, whose clock runs. New sets White; set Black
	// before Start for a game that begins with Black to move.
	Turn chesscore.Color
	// Left is each side's main time: for the side to move, as it was when
	// its turn began; for the other side, as it is.
	Left [2]time.Duration
	// Moves counts the moves (presses) each side has completed.
	Moves [2]int
	// Since is the instant the current running stretch of Turn's clock
	// began (the start of the turn, or the last Resume); while paused or
	// stopped, the instant of that event.
	Since time.Time
	// Spent is the time the side to move used on this move before the last
	// Pause; zero at the start of each turn.
	Spent time.Duration
}

// New returns a clock for the control, not yet started, with White to move
// and each side's time set to the control's initial time. Untimed and
// unknown controls have no clock (ErrNoClock).
func New(tc TimeControl) (Clock, error) {
	if err := tc.Validate(); err != nil {
		return Clock{}, fmt.Errorf("new clock for %q: %w", tc.String(), err)
	}
	if k := tc.Kind(); k != KindLive && k != KindCorrespondence {
		return Clock{}, fmt.Errorf("new clock for %q: %w (%s)", tc.String(), ErrNoClock, k)
	}
	initial := tc.InitialTime()
	return Clock{Control: tc, Turn: chesscore.White, Left: [2]time.Duration{initial, initial}}, nil
}

// Start sets the side to move's clock running at now.
func (c *Clock) Start(now time.Time) error {
	if c.State != NotStarted {
		return fmt.Errorf("start clock: %w (clock is %s)", ErrStarted, c.State)
	}
	c.State, c.Since, c.Spent = Running, now, 0
	return nil
}

// ticking reports whether the side to move's time is counting down: the clock
// runs and the turn is not a free first move.
func (c *Clock) ticking() bool {
	return c.State == Running && !c.freeMove()
}

// freeMove reports whether the side to move is making an untimed first move.
func (c *Clock) freeMove() bool {
	return c.FreeFirstMoves && c.Moves[c.Turn] == 0
}

// used returns the time the side to move has spent on this move by now,
// counting time before a pause; an instant before Since counts as no time.
func (c *Clock) used(now time.Time) time.Duration {
	if c.freeMove() || (c.State != Running && c.State != Paused) {
		return 0
	}
	u := c.Spent
	if c.State == Running {
		if d := now.Sub(c.Since); d > 0 {
			u += d
		}
	}
	return u
}

// charge returns how much main time a move that has taken u costs so far:
// a simple delay is free; everything else counts (a Bronstein delay is given
// back only when the move is completed).
func (c *Clock) charge(u time.Duration) time.Duration {
	if c.Control.DelayMode == Simple {
		return max(0, u-c.Control.Delay)
	}
	return u
}

// Remaining returns the time color has left at now, never below zero. Only
// the side to move's time changes between events; a simple delay being
// waited out does not show, and a Bronstein delay shows only after the press.
func (c *Clock) Remaining(color chesscore.Color, now time.Time) time.Duration {
	left := c.Left[color]
	if color == c.Turn {
		left -= c.charge(c.used(now))
	}
	return max(0, left)
}

// FlagAt returns the instant the side to move's flag falls if nothing
// changes, or the zero time when that clock is not running (not started,
// paused, stopped, or a free first move). At FlagAt the side has no time
// left; the instant may already be past.
func (c *Clock) FlagAt() time.Time {
	if !c.ticking() {
		return time.Time{}
	}
	budget := c.Left[c.Turn] // usable time this turn, measured from the turn's start
	if c.Control.DelayMode == Simple && budget > 0 {
		budget += c.Control.Delay
	}
	return c.Since.Add(budget - c.Spent)
}

// Flagged reports whether the side to move has no time left at now: its flag
// has fallen (a press at that instant is too late).
func (c *Clock) Flagged(now time.Time) bool {
	return c.State != NotStarted && c.Remaining(c.Turn, now) == 0
}

// Press completes a move by the side to move at now: it charges the time
// used (a simple delay is free), gives back a Bronstein delay, adds the
// increment of the period the move belongs to, adds the next period's base
// time when the move completes its period (a correspondence press instead
// resets the mover's allowance), and starts the opponent's clock. A press at
// or after FlagAt fails with ErrFlagged and leaves the clock unchanged; the
// caller decides the result and calls Stop.
func (c *Clock) Press(now time.Time) error {
	if c.State != Running {
		return fmt.Errorf("press clock: %w (clock is %s)", ErrNotRunning, c.State)
	}
	if c.ticking() && !now.Before(c.FlagAt()) {
		return fmt.Errorf("press clock: %w: %s had no time left at %s", ErrFlagged, c.Turn, c.FlagAt().Format(time.RFC3339Nano))
	}
	mover := c.Turn
	free := c.freeMove()
	tc := &c.Control
	if !free {
		u := c.used(now)
		c.Left[mover] -= c.charge(u)
		if tc.DelayMode == Bronstein {
			c.Left[mover] += min(u, tc.Delay)
		}
	}
	switch tc.Kind() {
	case KindCorrespondence:
		c.Left[mover] = tc.PerMove
	case KindLive:
		p, into := tc.locate(c.Moves[mover])
		period := tc.Periods[p]
		if !free {
			c.Left[mover] += period.Increment
		}
		if period.Moves > 0 && into+1 == period.Moves {
			next, _ := tc.locate(c.Moves[mover] + 1)
			c.Left[mover] += tc.Periods[next].Base
		}
	}
	c.Moves[mover]++
	c.Turn = mover.Other()
	c.Since, c.Spent = now, 0
	return nil
}

// Pause stops the running clock at now, keeping the time used so far on
// this move. It fails with ErrFlagged, leaving the clock unchanged, if the
// flag had already fallen at now.
func (c *Clock) Pause(now time.Time) error {
	if c.State != Running {
		return fmt.Errorf("pause clock: %w (clock is %s)", ErrNotRunning, c.State)
	}
	if c.ticking() && !now.Before(c.FlagAt()) {
		return fmt.Errorf("pause clock: %w: %s had no time left at %s", ErrFlagged, c.Turn, c.FlagAt().Format(time.RFC3339Nano))
	}
	c.Spent = c.used(now)
	c.State, c.Since = Paused, now
	return nil
}

// Resume restarts a paused clock at now; the time between Pause and Resume
// is not charged to anyone.
func (c *Clock) Resume(now time.Time) error {
	if c.State != Paused {
		return fmt.Errorf("resume clock: %w (clock is %s)", ErrNotPaused, c.State)
	}
	c.State, c.Since = Running, now
	return nil
}

// Stop ends the clock at now, as when the game is over: the side to move is
// charged the time used on this move (without increment; to the flag at
// most); afterwards Press and Pause fail with ErrNotRunning, Resume with
// ErrNotPaused and Start with ErrStarted. Stopping a stopped clock does
// nothing; stopping one that never started charges nothing.
func (c *Clock) Stop(now time.Time) {
	switch c.State {
	case Stopped:
		return
	case Running, Paused:
		c.Left[c.Turn] = c.Remaining(c.Turn, now)
	}
	c.State, c.Since, c.Spent = Stopped, now, 0
}

// AddTime adds d to color's main time (a negative d removes time, down to
// zero), for penalties such as FIDE's two minutes for an illegal move and
// for takebacks. If color is to move, its flag moves by d. In correspondence
// the allowance is reset when color next completes a move, so time added to
// the side to move lasts for the current move, and time added to the other
// side lasts for its next move.
func (c *Clock) AddTime(color chesscore.Color, d time.Duration) {
	c.Left[color] = max(0, c.Left[color]+d)
}

// MovesToControl returns how many moves color must still make in its current
// period before the next period's time is added: 40 at the start of
// "40/90+30, 30+30", 0 once the period lasts for the rest of the game, and 0
// for correspondence.
func (c *Clock) MovesToControl(color chesscore.Color) int {
	if c.Control.Kind() != KindLive {
		return 0
	}
	p, into := c.Control.locate(c.Moves[color])
	if m := c.Control.Periods[p].Moves; m > 0 {
		return m - into
	}
	return 0
}
