package arena

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)

func TestStreakAndBerserk(t *testing.T) {
	a, err := New(DefaultConfig(t0, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"ann", "bob"} {
		a.Join(id, 2000-i, t0)
	}
	want := []int{2, 2, 4, 4 + 1, 2}
	for k, res := range []Result{WhiteWins, WhiteWins, WhiteWins, WhiteWins, Draw} {
		gs := a.Pair(t0.Add(time.Duration(k) * time.Minute))
		if len(gs) != 1 {
			t.Fatalf("game %d: %d pairings", k, len(gs))
		}
		g := gs[0]
		r := res
		// ann wins every game whatever her colour, berserking in game 4.
		if g.Black == "ann" && res == WhiteWins {
			r = BlackWins
		}
		if k == 3 {
			if nb, err := a.Berserk(g.ID, "ann", 3*time.Minute); err != nil || nb != 90*time.Second {
				t.Fatalf("berserk: %v %v", nb, err)
			}
		}
		w, b, err := a.Report(g.ID, r)
		if err != nil {
			t.Fatal(err)
		}
		got := w
		if g.Black == "ann" {
			got = b
		}
		if got != want[k] {
			t.Fatalf("game %d: ann scored %d, want %d", k+1, got, want[k])
		}
	}
	st := a.Standings()
	if st[0].Player != "ann" || st[0].Score != 2+2+4+5+2 || st[0].OnFire {
		t.Fatalf("standings %+v", st)
	}
}

func TestNoPairingAfterEndAndColours(t *testing.T) {
	a, _ := New(DefaultConfig(t0, time.Hour))
	for _, id := range []string{"a", "b", "c", "d"} {
		a.Join(id, 1500, t0)
	}
	gs := a.Pair(t0)
	if len(gs) != 2 {
		t.Fatalf("%d games", len(gs))
	}
	for _, g := range gs {
		a.Report(g.ID, Draw)
	}
	gs2 := a.Pair(t0.Add(time.Minute))
	for _, g := range gs2 {
		for _, g1 := range gs {
			if (g.White == g1.White && g.Black == g1.Black) || (g.White == g1.Black && g.Black == g1.White) {
				t.Fatalf("immediate rematch %+v", g)
			}
		}
	}
	for _, g := range gs2 {
		a.Report(g.ID, Draw)
	}
	if gs := a.Pair(t0.Add(time.Hour)); len(gs) != 0 {
		t.Fatal("paired after the end")
	}
	if err := a.Join("e", 1, t0.Add(2*time.Hour)); err == nil {
		t.Fatal("joined after the end")
	}
}

func TestReportErrors(t *testing.T) {
	a, _ := New(DefaultConfig(t0, time.Hour))
	if _, _, err := a.Report(1, Draw); err == nil {
		t.Fatal("unknown game accepted")
	}
	a.Join("x", 1, t0)
	a.Join("y", 1, t0)
	g := a.Pair(t0)[0]
	a.Report(g.ID, Draw)
	if _, _, err := a.Report(g.ID, Draw); err == nil {
		t.Fatal("double report accepted")
	}
	if _, err := New(Config{}); err == nil {
		t.Fatal("zero duration accepted")
	}
}
