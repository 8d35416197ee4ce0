package ladder

import (
	"math"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/rating"
)

func TestSeedExampleThroughTheLadder(t *testing.T) {
	// Seed 003: a 1600 beating an 1800 with K = 20 gains 15.2, shown as +15; the 1800 loses 15.
	s := DefaultSettings()
	w := Player{UserID: "a", Rating: 1600, Peak: 1600, Games: 40}
	b := Player{UserID: "b", Rating: 1800, Peak: 1800, Games: 40}
	cases := []struct {
		score      float64
		wAfter     float64
		bAfter     float64
		w, d, l    int
		provisiona bool
	}{
		{1, 1615, 1785, 1, 0, 0, false},
		{0.5, 1605, 1795, 0, 1, 0, false},
		{0, 1595, 1805, 0, 0, 1, false},
	}
	for _, c := range cases {
		nw, nb, cw, cb, err := Apply(s, w, b, Game{White: "a", Black: "b", Score: c.score, Category: clock.Blitz})
		if err != nil {
			t.Fatal(err)
		}
		if nw.Rating != c.wAfter || nb.Rating != c.bAfter || cw.K != 20 || cb.K != 20 {
			t.Errorf("score %v: white %v (K %d), black %v (K %d); want %v and %v with K 20", c.score, nw.Rating, cw.K, nb.Rating, cb.K, c.wAfter, c.bAfter)
		}
		if nw.Wins != c.w || nw.Draws != c.d || nw.Losses != c.l || nw.Games != 41 {
			t.Errorf("score %v: record %+v", c.score, nw)
		}
	}
}

func TestBootstrap(t *testing.T) {
	s := DefaultSettings()
	a, b := NewPlayer(s, "a"), NewPlayer(s, "b")
	if a.Display(s) != "1500?" {
		t.Errorf("new player shows %q, want 1500?", a.Display(s))
	}
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var ca Change
	var err error
	for i := 0; i < ProvisionalGames; i++ {
		a, b, ca, _, err = Apply(s, a, b, Game{White: "a", Black: "b", Score: 1, At: at.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		if ca.K != 40 {
			t.Errorf("game %d: K %d, want 40 for a new player", i+1, ca.K)
		}
	}
	if a.Provisional(s) || a.Display(s) == "" || a.Display(s)[len(a.Display(s))-1] == '?' {
		t.Errorf("after %d games still provisional: %s", ProvisionalGames, a.Display(s))
	}
	if len(a.History) != ProvisionalGames || a.Peak != a.Rating {
		t.Errorf("history %d points, peak %v rating %v", len(a.History), a.Peak, a.Rating)
	}
	// Equal ratings, K = 40, a win: +20 the first game.
	if a.History[0].Rating != 1520 {
		t.Errorf("first win took 1500 to %v, want 1520", a.History[0].Rating)
	}
	seeded, err := Seed(s, "c", 2100)
	if err != nil || seeded.Provisional(s) || seeded.Display(s) != "2100" {
		t.Errorf("seeded player: %+v %v", seeded, err)
	}
	if _, err := Seed(s, "c", -5); err == nil {
		t.Error("a negative seed rating was accepted")
	}
}

func TestPeakKeepsKTen(t *testing.T) {
	s := DefaultSettings()
	p := Player{UserID: "a", Rating: 2390, Peak: 2405, Games: 100}
	q := Player{UserID: "b", Rating: 2390, Peak: 2390, Games: 100}
	_, _, cp, cq, err := Apply(s, p, q, Game{Score: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if cp.K != 10 || cq.K != 20 {
		t.Errorf("K %d and %d, want 10 (peak 2405) and 20", cp.K, cq.K)
	}
}

func TestGlicko2Ladder(t *testing.T) {
	s := Settings{System: Glicko2, StartRating: 1500}
	a, b := NewPlayer(s, "a"), NewPlayer(s, "b")
	if !a.Provisional(s) {
		t.Error("a new Glicko-2 player is not provisional")
	}
	a2, b2, ca, cb, err := Apply(s, a, b, Game{Score: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ca.Delta() <= 0 || cb.Delta() >= 0 || ca.Delta() != -cb.Delta() {
		t.Errorf("deltas %v and %v: want equal and opposite for equal players", ca.Delta(), cb.Delta())
	}
	if a2.RD >= a.RD || b2.RD >= b.RD {
		t.Errorf("RD did not shrink: %v %v", a2.RD, b2.RD)
	}
}

func TestRecomputeMatchesIncremental(t *testing.T) {
	for _, sys := range []System{FIDE, Glicko2} {
		s := Settings{System: sys, StartRating: 1200}
		seeds := map[string]int{"carol": 1900}
		users := []string{"alice", "bob", "carol", "dave"}
		var games []Game
		state := Ladders{}
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		seed := uint32(7)
		next := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>16) % n }
		for i := 0; i < 300; i++ {
			w, b := users[next(4)], users[next(4)]
			if w == b {
				continue
			}
			cat := Categories()[next(5)]
			g := Game{GameID: uint64(i), White: w, Black: b, Score: []float64{0, 0.5, 1}[next(3)], Category: cat, At: at.Add(time.Duration(i) * time.Minute)}
			games = append(games, g)
			if state[cat] == nil {
				state[cat] = Ladder{}
			}
			pw, ok := state[cat][w]
			if !ok {
				pw = NewPlayer(s, w)
				if k, ok := seeds[w]; ok {
					pw, _ = Seed(s, w, k)
				}
			}
			pb, ok := state[cat][b]
			if !ok {
				pb = NewPlayer(s, b)
				if k, ok := seeds[b]; ok {
					pb, _ = Seed(s, b, k)
				}
			}
			nw, nb, _, _, err := Apply(s, pw, pb, g)
			if err != nil {
				t.Fatal(err)
			}
			state[cat][w], state[cat][b] = nw, nb
		}
		got, err := Recompute(s, seeds, games)
		if err != nil {
			t.Fatal(err)
		}
		for cat, l := range state {
			for id, p := range l {
				q := got[cat][id]
				if q.Rating != p.Rating || q.Games != p.Games || q.RD != p.RD || len(q.History) != len(p.History) {
					t.Errorf("%s %s %s: recomputed %+v, incremental %+v", sys, cat, id, q, p)
				}
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	s := DefaultSettings()
	if _, _, _, _, err := Apply(s, NewPlayer(s, "a"), NewPlayer(s, "b"), Game{Score: 2}); err == nil {
		t.Error("score 2 accepted")
	}
	if err := (Settings{System: "elo", StartRating: 1500}).Validate(); err == nil {
		t.Error("system elo accepted")
	}
	if err := (Settings{System: FIDE, StartRating: 50}).Validate(); err == nil {
		t.Error("start rating 50 accepted")
	}
}

func TestRatingsStayWithinTheBounds(t *testing.T) {
	for _, sys := range []System{FIDE, Glicko2} {
		s := Settings{System: sys, StartRating: MinStartRating}
		// Ratings stored out of the bounds before there were any are rated from the
		// nearest bound, which is what the change reports as before.
		for _, stored := range []float64{10, -40, math.NaN(), math.Inf(-1)} {
			low := NewPlayer(s, "a")
			low.Rating = stored
			nw, nb, cw, cb, err := Apply(s, low, NewPlayer(s, "b"), Game{White: "a", Black: "b", Score: 0})
			if err != nil {
				t.Fatal(err)
			}
			if nw.Rating != rating.LadderFloor || cw.Before != rating.LadderFloor || cw.After != rating.LadderFloor || cb.Before != MinStartRating || nb.Rating <= MinStartRating {
				t.Errorf("%s, white stored at %v loses: white %v (%+v), black %v (%+v)", sys, stored, nw.Rating, cw, nb.Rating, cb)
			}
		}
		high := NewPlayer(s, "a")
		high.Rating, high.Peak = 4100, 4100
		nw, _, cw, _, err := Apply(s, high, NewPlayer(s, "b"), Game{White: "a", Black: "b", Score: 1})
		if err != nil || nw.Rating != rating.LadderCeiling || cw.Before != rating.LadderCeiling {
			t.Errorf("%s, white stored at 4100 wins: %v (%+v), %v", sys, nw.Rating, cw, err)
		}
		// Seeds: an admin's must be within the bounds; a stored one counts as the
		// nearest bound.
		if _, err := Seed(s, "c", rating.LadderFloor-1); err == nil {
			t.Errorf("%s: a seed below the floor was accepted", sys)
		}
		if _, err := Seed(s, "c", rating.LadderCeiling+1); err == nil {
			t.Errorf("%s: a seed above the ceiling was accepted", sys)
		}
		for _, known := range []int{rating.LadderFloor, rating.LadderCeiling} {
			if p, err := Seed(s, "c", known); err != nil || p.Rating != float64(known) {
				t.Errorf("%s: seed %d: %+v, %v", sys, known, p, err)
			}
		}
		l, _, err := Replay(s, func(clock.Category, string) (int, bool) { return 50, true },
			[]Game{{GameID: 1, White: "a", Black: "b", Score: 0, Category: clock.Blitz}})
		if err != nil {
			t.Fatal(err)
		}
		if a := l[clock.Blitz]["a"]; a.Rating != rating.LadderFloor || a.History[0].Rating != rating.LadderFloor {
			t.Errorf("%s: replay from a stored seed of 50, a loss: %+v", sys, a)
		}
	}
}
