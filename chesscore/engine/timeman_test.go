package engine

import (
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
)

func TestBudget(t *testing.T) {
	s, m := time.Second, time.Minute
	cases := []struct {
		name    string
		tl      TimeLeft
		ply     int
		minSoft time.Duration
		maxSoft time.Duration
		maxHard time.Duration
	}{
		{"blitz 5+0 start", TimeLeft{Remaining: 5 * m}, 0, 5 * s, 10 * s, 5 * m / 3},
		{"blitz 3+2", TimeLeft{Remaining: 3 * m, Increment: 2 * s}, 20, 5 * s, 9 * s, m + 2*s},
		{"bullet low on time", TimeLeft{Remaining: 300 * time.Millisecond, Increment: 100 * time.Millisecond}, 80, 2 * time.Millisecond, 100 * time.Millisecond, 270 * time.Millisecond},
		{"flag about to fall", TimeLeft{Remaining: 10 * time.Millisecond}, 80, minThink, minThink, minThink},
		{"period: 2 moves to the control", TimeLeft{Remaining: 10 * s, MovesToGo: 2}, 70, 4 * s, 5 * s, 10 * s},
		{"last move of the period", TimeLeft{Remaining: 10 * s, MovesToGo: 1}, 78, 8 * s, 10 * s, 10 * s},
		{"simple delay", TimeLeft{Remaining: 5 * m, Delay: 5 * s, DelayMode: clock.Simple}, 0, 10 * s, 14 * s, 5*m/3 + 5*s},
		{"bronstein delay", TimeLeft{Remaining: 5 * m, Delay: 5 * s, DelayMode: clock.Bronstein}, 0, 10 * s, 14 * s, 5 * m / 3},
		{"correspondence capped", TimeLeft{Remaining: 72 * time.Hour, Correspondence: true, MaxThink: 30 * s}, 0, 30 * s, 30 * s, 30 * s},
		{"correspondence uncapped", TimeLeft{Remaining: time.Hour, Correspondence: true, MaxThink: time.Hour}, 0, 80 * s, 100 * s, 7 * m},
		{"correspondence default cap", TimeLeft{Remaining: 72 * time.Hour, Correspondence: true}, 0, DefaultCorrespondenceThink, DefaultCorrespondenceThink, DefaultCorrespondenceThink},
	}
	for _, c := range cases {
		soft, hard := c.tl.Budget(c.ply)
		if soft < c.minSoft || soft > c.maxSoft {
			t.Errorf("%s: soft %v, want %v..%v", c.name, soft, c.minSoft, c.maxSoft)
		}
		if hard > c.maxHard || hard < soft {
			t.Errorf("%s: hard %v, want %v..%v", c.name, hard, soft, c.maxHard)
		}
	}
	// More increment never means less time.
	a, _ := TimeLeft{Remaining: m}.Budget(30)
	b, _ := TimeLeft{Remaining: m, Increment: s}.Budget(30)
	if b <= a {
		t.Errorf("an increment lowered the budget: %v then %v", a, b)
	}
}

func TestClockTimeLeft(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	cases := []struct {
		control string
		moves   int // completed by each side before the query
		want    TimeLeft
	}{
		{"5+3", 0, TimeLeft{Remaining: 5 * time.Minute, Increment: 3 * time.Second}},
		{"40/90+30, 30+30", 39, TimeLeft{MovesToGo: 1, Increment: 30 * time.Second}},
		{"40/90, 30", 40, TimeLeft{}},
		{"5+0 d3", 0, TimeLeft{Remaining: 5 * time.Minute, Delay: 3 * time.Second, DelayMode: clock.Simple}},
		{"3d", 0, TimeLeft{Remaining: 72 * time.Hour, Correspondence: true}},
	}
	for _, c := range cases {
		tc, err := clock.Parse(c.control)
		if err != nil {
			t.Fatalf("parse %q: %v", c.control, err)
		}
		ck, err := clock.New(tc)
		if err != nil {
			t.Fatal(err)
		}
		now := t0
		if err := ck.Start(now); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2*c.moves; i++ {
			now = now.Add(time.Second)
			if err := ck.Press(now); err != nil {
				t.Fatalf("%s: press %d: %v", c.control, i, err)
			}
		}
		got := ClockTimeLeft(&ck, cc.White, now)
		if c.want.Remaining == 0 {
			c.want.Remaining = got.Remaining // depends on the periods' arithmetic, checked below
			if got.Remaining <= 0 {
				t.Errorf("%s: no time left after %d moves", c.control, c.moves)
			}
		}
		if got != c.want {
			t.Errorf("%s after %d moves: %+v, want %+v", c.control, c.moves, got, c.want)
		}
	}
}

func TestSearchWithClock(t *testing.T) {
	fc := &fakeClock{t: time.Unix(1e9, 0), step: time.Millisecond}
	e := New(Options{HashMB: 4})
	tl := &TimeLeft{Remaining: 2 * time.Second}
	res, err := e.Search(cc.StartPosition(), nil, Limits{Clock: tl, Now: fc.now})
	if err != nil {
		t.Fatal(err)
	}
	soft, hard := tl.Budget(0)
	if res.Time > hard+5*time.Millisecond {
		t.Errorf("spent %v with a hard limit of %v (soft %v)", res.Time, hard, soft)
	}
	if res.Move == cc.NullMove {
		t.Error("no move")
	}
	// A single legal move is played at once.
	pos := mustFEN(t, "7k/8/8/8/8/8/6q1/7K w - - 0 1")
	res, _ = e.Search(pos, nil, Limits{Clock: tl, Now: fc.now})
	if res.Move.UCI() != "h1g2" || res.Depth > 2 {
		t.Errorf("forced move: %s at depth %d", res.Move, res.Depth)
	}
}

// TestBudgetSurvivesStalls plays out the clock of a long game at the fast controls of
// engine testing: every move spends its whole budget (soft, or in the worst case hard)
// plus 1 ms of communication, and every 50th move the machine stalls for 150 ms (more
// than a match's usual 100 ms margin). The clock must never fall below zero.
func TestBudgetSurvivesStalls(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name      string
		base, inc time.Duration
	}{
		{"10+0.1", 10 * time.Second, 100 * ms},
		{"1+0.01", time.Second, 10 * ms},
		{"60+0.6", time.Minute, 600 * ms},
	} {
		for _, useHard := range []bool{false, true} {
			left := c.base
			for move := range 200 {
				soft, hard := TimeLeft{Remaining: left, Increment: c.inc}.Budget(2 * move)
				spent := soft
				if useHard {
					spent = hard
				}
				spent += ms
				if move%50 == 49 {
					spent += 150 * ms
				}
				if left -= spent; left < 0 {
					t.Errorf("%s (spending the %s budget): flag fell at move %d", c.name, map[bool]string{false: "soft", true: "hard"}[useHard], move+1)
					break
				}
				left += c.inc
			}
		}
	}
}
