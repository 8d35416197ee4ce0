package clock

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
)

// t0 is the instant every scenario is measured from.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const ms = time.Millisecond

// noFlag stands for the zero FlagAt (the running side cannot flag).
const noFlag = time.Duration(-1)

type action uint8

const (
	check action = iota // only look at the clock
	start
	press
	pause
	resume
	stop
	add // AddTime(color, d)
)

// step is one event of a scenario and what the clock shows right after it.
type step struct {
	at           time.Duration // instant of the event, from t0
	do           action
	color        chesscore.Color // for add
	d            time.Duration   // for add
	err          error           // sentinel the event must fail with, or nil
	white, black time.Duration   // Remaining at the instant, after the event
	flag         time.Duration   // FlagAt from t0, or noFlag
}

func (s step) run(c *Clock) error {
	now := t0.Add(s.at)
	switch s.do {
	case start:
		return c.Start(now)
	case press:
		return c.Press(now)
	case pause:
		return c.Pause(now)
	case resume:
		return c.Resume(now)
	case stop:
		c.Stop(now)
	case add:
		c.AddTime(s.color, s.d)
	}
	return nil
}

var actionNames = [...]string{"check", "start", "press", "pause", "resume", "stop", "add"}

func TestClockScenarios(t *testing.T) {
	w, b := chesscore.White, chesscore.Black
	tests := []struct {
		name  string
		tc    string
		setup func(*Clock)
		steps []step
	}{
		{name: "increment", tc: "5+3", steps: []step{
			{at: 0, do: check, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5 * minute},
			{at: 10 * second, do: check, white: 4*minute + 50*second, black: 5 * minute, flag: 5 * minute},
			{at: 10 * second, do: press, white: 4*minute + 53*second, black: 5 * minute, flag: 5*minute + 10*second},
			{at: 40 * second, do: press, white: 4*minute + 53*second, black: 4*minute + 33*second, flag: 40*second + 4*minute + 53*second},
			{at: 50 * second, do: check, white: 4*minute + 43*second, black: 4*minute + 33*second, flag: 40*second + 4*minute + 53*second},
		}},
		{name: "flag falls when the time reaches zero", tc: "1+0", steps: []step{
			{at: 0, do: start, white: minute, black: minute, flag: minute},
			{at: minute - ms, do: check, white: ms, black: minute, flag: minute},
			{at: minute, do: check, white: 0, black: minute, flag: minute},
			{at: 90 * second, do: check, white: 0, black: minute, flag: minute}, // never negative
			{at: minute, do: press, err: ErrFlagged, white: 0, black: minute, flag: minute},
			{at: minute, do: pause, err: ErrFlagged, white: 0, black: minute, flag: minute},
			{at: 90 * second, do: stop, white: 0, black: minute, flag: noFlag},
			{at: 91 * second, do: press, err: ErrNotRunning, white: 0, black: minute, flag: noFlag},
		}},
		{name: "a press just before the flag counts", tc: "1+2", steps: []step{
			{at: 0, do: start, white: minute, black: minute, flag: minute},
			{at: minute - ms, do: press, white: 2*second + ms, black: minute, flag: 2*minute - ms},
		}},
		{name: "simple delay", tc: "5+0 d3", steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5*minute + 3*second},
			{at: 2 * second, do: check, white: 5 * minute, black: 5 * minute, flag: 5*minute + 3*second},
			{at: 2 * second, do: press, white: 5 * minute, black: 5 * minute, flag: 5*minute + 5*second}, // faster than the delay: free
			{at: 5 * second, do: press, white: 5 * minute, black: 5 * minute, flag: 5*minute + 8*second}, // exactly the delay: free
			{at: 15 * second, do: check, white: 4*minute + 53*second, black: 5 * minute, flag: 5*minute + 8*second},
			{at: 15 * second, do: press, white: 4*minute + 53*second, black: 5 * minute, flag: 5*minute + 18*second},
			{at: 15 * second, do: add, color: b, d: -(4*minute + 58*second), white: 4*minute + 53*second, black: 2 * second, flag: 20 * second},
			{at: 19*second + 999*ms, do: check, white: 4*minute + 53*second, black: ms, flag: 20 * second},
			{at: 19 * second, do: press, white: 4*minute + 53*second, black: second, flag: 19*second + 4*minute + 56*second},
		}},
		{name: "simple delay gives 2 s left plus 3 s of delay", tc: "5+0 d3", steps: []step{
			{at: 0, do: add, color: w, d: -(4*minute + 58*second), white: 2 * second, black: 5 * minute, flag: noFlag},
			{at: 0, do: start, white: 2 * second, black: 5 * minute, flag: 5 * second},
			{at: 4*second + 900*ms, do: press, white: 100 * ms, black: 5 * minute, flag: 4*second + 900*ms + 5*minute + 3*second},
		}},
		{name: "Bronstein delay", tc: "5+0 b3", steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5 * minute},
			{at: 2 * second, do: check, white: 4*minute + 58*second, black: 5 * minute, flag: 5 * minute},
			{at: 2 * second, do: press, white: 5 * minute, black: 5 * minute, flag: 5*minute + 2*second}, // refunded in full
			{at: 12 * second, do: press, white: 5 * minute, black: 4*minute + 53*second, flag: 5*minute + 12*second},
			{at: 12 * second, do: add, color: w, d: -(4*minute + 58*second), white: 2 * second, black: 4*minute + 53*second, flag: 14 * second},
			{at: 13 * second, do: check, white: second, black: 4*minute + 53*second, flag: 14 * second},
			{at: 13*second + 500*ms, do: press, white: 2 * second, black: 4*minute + 53*second, flag: 13*second + 500*ms + 4*minute + 53*second},
		}},
		{name: "Bronstein delay does not save a flag during the move", tc: "5+0 b3", steps: []step{
			{at: 0, do: add, color: w, d: -(4*minute + 58*second), white: 2 * second, black: 5 * minute, flag: noFlag},
			{at: 0, do: start, white: 2 * second, black: 5 * minute, flag: 2 * second},
			{at: 2 * second, do: press, err: ErrFlagged, white: 0, black: 5 * minute, flag: 2 * second},
			{at: 1 * second, do: press, white: 2 * second, black: 5 * minute, flag: 5*minute + second},
		}},
		{name: "correspondence", tc: "3d", steps: []step{
			{at: 0, do: start, white: 3 * day, black: 3 * day, flag: 3 * day},
			{at: 2 * day, do: press, white: 3 * day, black: 3 * day, flag: 5 * day},
			{at: 3 * day, do: add, color: b, d: day, white: 3 * day, black: 3 * day, flag: 6 * day},
			{at: 3 * day, do: add, color: w, d: 12 * hour, white: 3*day + 12*hour, black: 3 * day, flag: 6 * day},
			{at: 5 * day, do: press, white: 3*day + 12*hour, black: 3 * day, flag: 8*day + 12*hour},
			{at: 6 * day, do: press, white: 3 * day, black: 3 * day, flag: 9 * day},
			{at: 9*day - second, do: check, white: 3 * day, black: second, flag: 9 * day},
			{at: 9 * day, do: press, err: ErrFlagged, white: 3 * day, black: 0, flag: 9 * day},
		}},
		{name: "pause and resume", tc: "5+0", steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5 * minute},
			{at: minute, do: pause, white: 4 * minute, black: 5 * minute, flag: noFlag},
			{at: hour, do: check, white: 4 * minute, black: 5 * minute, flag: noFlag},
			{at: hour, do: press, err: ErrNotRunning, white: 4 * minute, black: 5 * minute, flag: noFlag},
			{at: hour, do: pause, err: ErrNotRunning, white: 4 * minute, black: 5 * minute, flag: noFlag},
			{at: hour, do: resume, white: 4 * minute, black: 5 * minute, flag: hour + 4*minute},
			{at: hour, do: resume, err: ErrNotPaused, white: 4 * minute, black: 5 * minute, flag: hour + 4*minute},
			{at: hour + minute, do: press, white: 3 * minute, black: 5 * minute, flag: hour + 6*minute},
			{at: hour + 2*minute, do: pause, white: 3 * minute, black: 4 * minute, flag: noFlag},
			{at: 2 * hour, do: resume, white: 3 * minute, black: 4 * minute, flag: 2*hour + 4*minute},
			{at: 2*hour + 30*second, do: press, white: 3 * minute, black: 3*minute + 30*second, flag: 2*hour + 3*minute + 30*second},
		}},
		{name: "a simple delay counts once per move across a pause", tc: "5+0 d3", steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5*minute + 3*second},
			{at: 2 * second, do: pause, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: minute, do: resume, white: 5 * minute, black: 5 * minute, flag: minute + 5*minute + second},
			{at: minute + 2*second, do: press, white: 4*minute + 59*second, black: 5 * minute, flag: minute + 2*second + 5*minute + 3*second},
		}},
		{name: "a Bronstein delay counts once per move across a pause", tc: "5+0 b3", steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5 * minute},
			{at: 2 * second, do: pause, white: 4*minute + 58*second, black: 5 * minute, flag: noFlag},
			{at: minute, do: resume, white: 4*minute + 58*second, black: 5 * minute, flag: minute + 4*minute + 58*second},
			{at: minute + 2*second, do: press, white: 4*minute + 59*second, black: 5 * minute, flag: minute + 2*second + 5*minute},
		}},
		{name: "free first moves", tc: "5+3", setup: func(c *Clock) { c.FreeFirstMoves = true }, steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: hour, do: check, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: hour, do: press, white: 5 * minute, black: 5 * minute, flag: noFlag}, // no increment for a free move
			{at: 2 * hour, do: press, white: 5 * minute, black: 5 * minute, flag: 2*hour + 5*minute},
			{at: 2*hour + 10*second, do: press, white: 4*minute + 53*second, black: 5 * minute, flag: 2*hour + 10*second + 5*minute},
			{at: 2*hour + 30*second, do: press, white: 4*minute + 53*second, black: 4*minute + 43*second, flag: 2*hour + 30*second + 4*minute + 53*second},
		}},
		{name: "free first moves, pausing", tc: "5+3", setup: func(c *Clock) { c.FreeFirstMoves = true }, steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: minute, do: pause, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: hour, do: resume, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: 2 * hour, do: stop, white: 5 * minute, black: 5 * minute, flag: noFlag},
		}},
		{name: "add time", tc: "5+0", steps: []step{
			{at: 0, do: add, color: b, d: minute, white: 5 * minute, black: 6 * minute, flag: noFlag},
			{at: 0, do: start, white: 5 * minute, black: 6 * minute, flag: 5 * minute},
			{at: minute, do: add, color: w, d: 2 * minute, white: 6 * minute, black: 6 * minute, flag: 7 * minute},
			{at: minute, do: add, color: w, d: -10 * minute, white: 0, black: 6 * minute, flag: 0},
			{at: minute, do: press, err: ErrFlagged, white: 0, black: 6 * minute, flag: 0},
		}},
		{name: "stop", tc: "5+3", steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5 * minute},
			{at: 10 * second, do: press, white: 4*minute + 53*second, black: 5 * minute, flag: 5*minute + 10*second},
			{at: 40 * second, do: stop, white: 4*minute + 53*second, black: 4*minute + 30*second, flag: noFlag},
			{at: 50 * second, do: stop, white: 4*minute + 53*second, black: 4*minute + 30*second, flag: noFlag},
			{at: 50 * second, do: press, err: ErrNotRunning, white: 4*minute + 53*second, black: 4*minute + 30*second, flag: noFlag},
			{at: 50 * second, do: start, err: ErrStarted, white: 4*minute + 53*second, black: 4*minute + 30*second, flag: noFlag},
			{at: 50 * second, do: resume, err: ErrNotPaused, white: 4*minute + 53*second, black: 4*minute + 30*second, flag: noFlag},
		}},
		{name: "stop while paused", tc: "5+3", steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5 * minute},
			{at: 10 * second, do: pause, white: 4*minute + 50*second, black: 5 * minute, flag: noFlag},
			{at: hour, do: stop, white: 4*minute + 50*second, black: 5 * minute, flag: noFlag},
		}},
		{name: "stop before the start", tc: "5+3", steps: []step{
			{at: 0, do: stop, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: 0, do: start, err: ErrStarted, white: 5 * minute, black: 5 * minute, flag: noFlag},
		}},
		{name: "errors before the start", tc: "5+3", steps: []step{
			{at: 0, do: press, err: ErrNotRunning, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: 0, do: pause, err: ErrNotRunning, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: 0, do: resume, err: ErrNotPaused, white: 5 * minute, black: 5 * minute, flag: noFlag},
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5 * minute},
			{at: 0, do: start, err: ErrStarted, white: 5 * minute, black: 5 * minute, flag: 5 * minute},
		}},
		{name: "black to move first", tc: "5+3", setup: func(c *Clock) { c.Turn = chesscore.Black }, steps: []step{
			{at: 0, do: start, white: 5 * minute, black: 5 * minute, flag: 5 * minute},
			{at: minute, do: check, white: 5 * minute, black: 4 * minute, flag: 5 * minute},
			{at: minute, do: press, white: 5 * minute, black: 4*minute + 3*second, flag: 6 * minute},
		}},
		{name: "an instant before the turn began costs nothing", tc: "5+3", steps: []step{
			{at: 10 * second, do: start, white: 5 * minute, black: 5 * minute, flag: 5*minute + 10*second},
			{at: 5 * second, do: check, white: 5 * minute, black: 5 * minute, flag: 5*minute + 10*second},
			{at: 5 * second, do: press, white: 5*minute + 3*second, black: 5 * minute, flag: 5*minute + 5*second},
		}},
		{name: "repeating period", tc: "2/1, 2/1", steps: []step{
			{at: 0, do: start, white: minute, black: minute, flag: minute},
			{at: 0, do: press, white: minute, black: minute, flag: minute},
			{at: 0, do: press, white: minute, black: minute, flag: minute},
			{at: 10 * second, do: press, white: 110 * second, black: minute, flag: 10*second + minute},
			{at: 10 * second, do: press, white: 110 * second, black: 2 * minute, flag: 10*second + 110*second},
			{at: 10 * second, do: press, white: 110 * second, black: 2 * minute, flag: 10*second + 2*minute},
			{at: 10 * second, do: press, white: 110 * second, black: 2 * minute, flag: 10*second + 110*second},
			{at: 10 * second, do: press, white: 170 * second, black: 2 * minute, flag: 10*second + 2*minute},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc, err := Parse(tt.tc)
			if err != nil {
				t.Fatal(err)
			}
			c, err := New(tc)
			if err != nil {
				t.Fatal(err)
			}
			if tt.setup != nil {
				tt.setup(&c)
			}
			for i, s := range tt.steps {
				before := c
				before.Control.Periods = append([]Period(nil), c.Control.Periods...)
				err := s.run(&c)
				where := func() string {
					return "step " + strconv.Itoa(i) + " (" + actionNames[s.do] + " at " + s.at.String() + ")"
				}
				switch {
				case s.err == nil && err != nil:
					t.Fatalf("%s: %v", where(), err)
				case s.err != nil && !errors.Is(err, s.err):
					t.Fatalf("%s: error %v, want %v", where(), err, s.err)
				case s.err != nil && !reflect.DeepEqual(before, c):
					t.Fatalf("%s: failed but changed the clock\nbefore %+v\nafter  %+v", where(), before, c)
				}
				now := t0.Add(s.at)
				if got := c.Remaining(chesscore.White, now); got != s.white {
					t.Errorf("%s: white has %v, want %v", where(), got, s.white)
				}
				if got := c.Remaining(chesscore.Black, now); got != s.black {
					t.Errorf("%s: black has %v, want %v", where(), got, s.black)
				}
				var want time.Time
				if s.flag != noFlag {
					want = t0.Add(s.flag)
				}
				if got := c.FlagAt(); !got.Equal(want) {
					t.Errorf("%s: FlagAt = %v, want %v", where(), got, want)
				}
				mover := s.white
				if c.Turn == chesscore.Black {
					mover = s.black
				}
				if got := c.Flagged(now); got != (mover == 0) {
					t.Errorf("%s: Flagged = %v with %v left", where(), got, mover)
				}
			}
		})
	}
}

// game is a started clock and the current instant of a test game.
type game struct {
	c   Clock
	now time.Time
}

func newGame(t *testing.T, control string) *game {
	t.Helper()
	tc, err := Parse(control)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(tc)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(t0); err != nil {
		t.Fatal(err)
	}
	return &game{c: c, now: t0}
}

func (g *game) move(t *testing.T, think time.Duration) {
	t.Helper()
	g.now = g.now.Add(think)
	if err := g.c.Press(g.now); err != nil {
		t.Fatalf("move %d of %s: %v", g.c.Moves[g.c.Turn]+1, g.c.Turn, err)
	}
}

func TestMultiPeriod(t *testing.T) {
	g := newGame(t, "40/90+30, 30+30")
	if got := g.c.MovesToControl(chesscore.White); got != 40 {
		t.Fatalf("MovesToControl at the start = %d, want 40", got)
	}
	for n := 1; n <= 45; n++ {
		g.move(t, minute) // white
		g.move(t, 2*minute)
		w := g.c.Remaining(chesscore.White, g.now)
		b := g.c.Remaining(chesscore.Black, g.now)
		wantW := 90*minute - time.Duration(n)*minute + time.Duration(n)*30*second
		wantB := 90*minute - time.Duration(n)*2*minute + time.Duration(n)*30*second
		wantToGo := 40 - n
		if n >= 40 {
			wantW += 30 * minute
			wantB += 30 * minute
			wantToGo = 0
		}
		if w != wantW || b != wantB {
			t.Errorf("after move %d: white %v black %v, want %v and %v", n, w, b, wantW, wantB)
		}
		for _, c := range []chesscore.Color{chesscore.White, chesscore.Black} {
			if got := g.c.MovesToControl(c); got != wantToGo {
				t.Errorf("after move %d: MovesToControl(%v) = %d, want %d", n, c, got, wantToGo)
			}
		}
	}
}

func TestMultiPeriodMoveFortyAtTheLimit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		spare time.Duration // time left when move 40 is pressed
		ok    bool
	}{
		{"with a millisecond to spare", ms, true},
		{"at the flag instant", 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, "40/90+30, 30+30")
			for n := 1; n < 40; n++ {
				g.move(t, minute)
				g.move(t, minute)
			}
			left := g.c.Remaining(chesscore.White, g.now)
			if want := 90*minute - 39*minute + 39*30*second; left != want {
				t.Fatalf("before move 40 white has %v, want %v", left, want)
			}
			at := g.now.Add(left - tt.spare)
			err := g.c.Press(at)
			if !tt.ok {
				if !errors.Is(err, ErrFlagged) {
					t.Fatalf("press at the flag: %v, want ErrFlagged", err)
				}
				if !g.c.Flagged(at) || g.c.Moves[chesscore.White] != 39 {
					t.Errorf("after a late move 40: Flagged %v, moves %d", g.c.Flagged(at), g.c.Moves[chesscore.White])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := g.c.Remaining(chesscore.White, at), tt.spare+30*second+30*minute; got != want {
				t.Errorf("after move 40 white has %v, want %v", got, want)
			}
		})
	}
}

func TestRepeatingPeriods(t *testing.T) {
	g := newGame(t, "40/120, 20/60")
	want := 120 * minute
	for n := 1; n <= 100; n++ {
		g.move(t, minute)
		g.move(t, 0)
		want -= minute
		toGo := 40 - n
		if n >= 40 {
			toGo = 20 - (n-40)%20
		}
		if n == 40 || n == 60 || n == 80 || n == 100 {
			want += 60 * minute
		}
		if got := g.c.Remaining(chesscore.White, g.now); got != want {
			t.Fatalf("after move %d white has %v, want %v", n, got, want)
		}
		if got := g.c.MovesToControl(chesscore.White); got != toGo {
			t.Fatalf("after move %d MovesToControl = %d, want %d", n, got, toGo)
		}
	}
}

func TestThreePeriods(t *testing.T) {
	g := newGame(t, "40/120, 20/60, 30")
	for n := 1; n <= 70; n++ {
		g.move(t, 0)
		g.move(t, 0)
	}
	if got, want := g.c.Remaining(chesscore.White, g.now), 210*minute; got != want {
		t.Errorf("after 70 moves white has %v, want %v", got, want)
	}
	if got := g.c.MovesToControl(chesscore.White); got != 0 {
		t.Errorf("MovesToControl in sudden death = %d", got)
	}
	c, _ := New(TimeControl{PerMove: day})
	if got := c.MovesToControl(chesscore.White); got != 0 {
		t.Errorf("MovesToControl in correspondence = %d", got)
	}
}

func TestNew(t *testing.T) {
	c, err := New(TimeControl{Periods: []Period{{Base: 5 * minute, Increment: 3 * second}}})
	if err != nil {
		t.Fatal(err)
	}
	want := Clock{Control: c.Control, Left: [2]time.Duration{5 * minute, 5 * minute}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("New = %+v, want %+v", c, want)
	}
	for _, tc := range []TimeControl{{}, {Untimed: true}} {
		if _, err := New(tc); !errors.Is(err, ErrNoClock) {
			t.Errorf("New(%q) error = %v, want ErrNoClock", tc, err)
		}
	}
	if _, err := New(live(sd(5*minute, 99*second))); err == nil || err.Error() != `new clock for "5+99": increment 99 s is over 60 s` {
		t.Errorf("New(5+99) error = %v", err)
	}
	names := map[State]string{NotStarted: "not started", Running: "running", Paused: "paused", Stopped: "stopped", 9: "State(9)"}
	for s, n := range names {
		if s.String() != n {
			t.Errorf("State(%d).String() = %q, want %q", s, s.String(), n)
		}
	}
}

// TestClockJSON stores a clock mid-move and checks the loaded copy behaves the same.
func TestClockJSON(t *testing.T) {
	g := newGame(t, "40/90+30, 30+30")
	g.move(t, minute)
	g.move(t, 2*minute)
	g.c.FreeFirstMoves = true
	if err := g.c.Pause(g.now.Add(10 * second)); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(g.c)
	if err != nil {
		t.Fatal(err)
	}
	var back Clock
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("unmarshal %s: %v", data, err)
	}
	if !reflect.DeepEqual(back, g.c) {
		t.Fatalf("round trip changed the clock:\n%+v\n%+v", back, g.c)
	}
	later := g.now.Add(hour)
	for _, c := range []*Clock{&g.c, &back} {
		if err := c.Resume(later); err != nil {
			t.Fatal(err)
		}
	}
	if !back.FlagAt().Equal(g.c.FlagAt()) || back.Remaining(chesscore.White, later) != g.c.Remaining(chesscore.White, later) {
		t.Errorf("loaded clock differs: flag %v vs %v", back.FlagAt(), g.c.FlagAt())
	}
}

// TestClockInvariants drives clocks with random events, some exactly at the
// flag instant, and checks the rules that hold at every instant.
func TestClockInvariants(t *testing.T) {
	controls := []string{"5+3", "1+0", "30s+1", "5+0 d3", "5+0 b3", "2/1+1, 3/1", "40/2, 1+1", "1h", "3d"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, control := range controls {
		tc, err := Parse(control)
		if err != nil {
			t.Fatal(err)
		}
		unit := tc.InitialTime() / 8
		for game := 0; game < 50; game++ {
			c, err := New(tc)
			if err != nil {
				t.Fatal(err)
			}
			c.FreeFirstMoves = game%3 == 0
			now := t0
			if err := c.Start(now); err != nil {
				t.Fatal(err)
			}
			for event := 0; event < 200 && c.State != Stopped; event++ {
				switch flag := c.FlagAt(); {
				case !flag.IsZero() && rng.IntN(6) == 0:
					now = flag // land exactly on the flag
				default:
					now = now.Add(time.Duration(rng.Int64N(int64(unit))))
				}
				checkInvariants(t, control, &c, now)
				before := c
				var err error
				switch r := rng.IntN(10); {
				case r < 7:
					err = c.Press(now)
				case r == 7:
					err = c.Pause(now)
				case r == 8:
					err = c.Resume(now)
				default:
					c.AddTime(chesscore.Color(rng.IntN(2)), time.Duration(rng.Int64N(int64(unit)))-unit/2)
				}
				if err != nil && !reflect.DeepEqual(before, c) {
					t.Fatalf("%s: a failed event changed the clock", control)
				}
				if errors.Is(err, ErrFlagged) {
					if !before.Flagged(now) {
						t.Fatalf("%s: ErrFlagged but Flagged is false", control)
					}
					c.Stop(now)
					if c.Left[c.Turn] != 0 || !c.Flagged(now) {
						t.Fatalf("%s: stopped at the flag with %v left", control, c.Left[c.Turn])
					}
				}
				checkInvariants(t, control, &c, now)
			}
		}
	}
}

func checkInvariants(t *testing.T, control string, c *Clock, now time.Time) {
	t.Helper()
	for _, color := range []chesscore.Color{chesscore.White, chesscore.Black} {
		if r := c.Remaining(color, now); r < 0 {
			t.Fatalf("%s: %v has %v", control, color, r)
		}
		if c.Left[color] < 0 {
			t.Fatalf("%s: %v main time %v", control, color, c.Left[color])
		}
	}
	other := c.Turn.Other()
	if c.Remaining(other, now) != c.Remaining(other, now.Add(time.Hour)) {
		t.Fatalf("%s: the waiting side's time runs", control)
	}
	flag := c.FlagAt()
	if flag.IsZero() {
		if c.State == Running && !c.freeMove() {
			t.Fatalf("%s: running without a flag instant", control)
		}
		if c.Remaining(c.Turn, now) != c.Remaining(c.Turn, now.Add(time.Hour)) {
			t.Fatalf("%s: a clock without a flag instant runs", control)
		}
		return
	}
	if got, want := c.Flagged(now), !now.Before(flag); got != want {
		t.Fatalf("%s: Flagged(%v) = %v with the flag at %v", control, now, got, flag)
	}
	if r := c.Remaining(c.Turn, flag); r != 0 {
		t.Fatalf("%s: %v left at the flag instant", control, r)
	}
	if flag.After(c.Since) {
		if r := c.Remaining(c.Turn, flag.Add(-time.Nanosecond)); r <= 0 {
			t.Fatalf("%s: no time left a nanosecond before the flag", control)
		}
	}
}

func BenchmarkPress(b *testing.B) {
	tc, err := Parse("40/90+30, 30+30")
	if err != nil {
		b.Fatal(err)
	}
	c, err := New(tc)
	if err != nil {
		b.Fatal(err)
	}
	now := t0
	if err := c.Start(now); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		now = now.Add(time.Second)
		if err := c.Press(now); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "presses/s")
}
