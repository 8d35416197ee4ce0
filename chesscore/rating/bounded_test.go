package rating

import (
	"math"
	"testing"
)

func TestLadderFIDE(t *testing.T) {
	tests := []struct {
		name    string
		p       FIDEPlayer
		g       Game
		rating  int // the new rating
		change  int // RoundedChange
		k       int
		changeF float64 // Change, FIDE's unrounded change
	}{
		// Equal ratings, K 40: a loss costs 20, but not below the floor.
		{"loss at the floor", FIDEPlayer{Rating: 100}, Game{Opponent: 100, Score: 0}, 100, 0, 40, -20},
		{"loss to the floor", FIDEPlayer{Rating: 110}, Game{Opponent: 110, Score: 0}, 100, -10, 40, -20},
		{"loss above the floor", FIDEPlayer{Rating: 130}, Game{Opponent: 130, Score: 0}, 110, -20, 40, -20},
		{"win at the floor", FIDEPlayer{Rating: 100}, Game{Opponent: 100, Score: 1}, 120, 20, 40, 20},
		// A rating stored below the floor (before there was one) is rated from the floor.
		{"below the floor", FIDEPlayer{Rating: 10}, Game{Opponent: 100, Score: 0}, 100, 0, 40, -20},
		{"negative", FIDEPlayer{Rating: -50, GamesPlayed: -3}, Game{Opponent: -7, Score: 1}, 120, 20, 40, 20},
		// Peak 4000: K 10; equal ratings, a win: +5, but not above the ceiling.
		{"win at the ceiling", FIDEPlayer{Rating: 4000, Peak: 4000}, Game{Opponent: 4000, Score: 1}, 4000, 0, 10, 5},
		{"above the ceiling", FIDEPlayer{Rating: 9000, Peak: 9500}, Game{Opponent: 9000, Score: 0}, 3995, -5, 10, -5},
		{"peak below the rating", FIDEPlayer{Rating: 1500, Peak: 1400, GamesPlayed: 40}, Game{Opponent: 1500, Score: 1}, 1510, 10, 20, 10},
		// Scores are taken to the nearest of 0, 0.5 and 1.
		{"score 0.3", FIDEPlayer{Rating: 1500}, Game{Opponent: 1500, Score: 0.3}, 1500, 0, 40, 0},
		{"score NaN", FIDEPlayer{Rating: 1500}, Game{Opponent: 1500, Score: math.NaN()}, 1500, 0, 40, 0},
		{"score +Inf", FIDEPlayer{Rating: 1500}, Game{Opponent: 1500, Score: math.Inf(1)}, 1520, 20, 40, 20},
		{"score -1", FIDEPlayer{Rating: 1500}, Game{Opponent: 1500, Score: -1}, 1480, -20, 40, -20},
		// A forced K is kept in 0..700.
		{"K negative", FIDEPlayer{Rating: 1500, K: -5}, Game{Opponent: 1500, Score: 1}, 1520, 20, 40, 20},
		{"K huge", FIDEPlayer{Rating: 1500, K: math.MaxInt}, Game{Opponent: 1500, Score: 1}, 1850, 350, 700, 350},
	}
	for _, tt := range tests {
		got := LadderFIDE(tt.p, tt.g)
		if got.NewRating != tt.rating || got.RoundedChange != tt.change || got.K != tt.k || got.Change != tt.changeF {
			t.Errorf("%s: %+v; want rating %d, change %d (unrounded %v), K %d", tt.name, got, tt.rating, tt.change, tt.changeF, tt.k)
		}
	}
}

func TestLadderGlicko2(t *testing.T) {
	fresh := Glicko2Player{Rating: LadderFloor, RD: Glicko2DefaultRD, Volatility: Glicko2DefaultVolatility}
	got := LadderGlicko2(fresh, Glicko2Game{Rating: LadderFloor, RD: Glicko2DefaultRD, Score: 0}, 0.5)
	if got.Rating != LadderFloor || !(got.RD < Glicko2DefaultRD) || got.Volatility <= 0 {
		t.Errorf("a newcomer at the floor who loses: %+v, want rating %d and a smaller RD", got, LadderFloor)
	}
	top := Glicko2Player{Rating: LadderCeiling, RD: 200, Volatility: 0.06}
	if got := LadderGlicko2(top, Glicko2Game{Rating: LadderCeiling, RD: 200, Score: 1}, 0.5); got.Rating != LadderCeiling {
		t.Errorf("a win at the ceiling: %+v, want rating %d", got, LadderCeiling)
	}
	// Within the bounds the result is Glicko2Update's: the paper's player and one game.
	g := Glicko2Game{Rating: 1400, RD: 30, Score: 1}
	want, err := Glicko2Update(paperPlayer, []Glicko2Game{g}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if got := LadderGlicko2(paperPlayer, g, 0.5); got != want {
		t.Errorf("within the bounds: %+v, want Glicko2Update's %+v", got, want)
	}
	// Inputs out of range, not numbers or infinite are brought into range.
	nan, inf := math.NaN(), math.Inf(1)
	for _, p := range []Glicko2Player{
		{nan, nan, nan}, {inf, inf, inf}, {-inf, -inf, -inf}, {-5, 0, 0}, {1e300, 1e300, 1e300},
	} {
		for _, g := range []Glicko2Game{{nan, nan, nan}, {inf, 0, 1}, {-inf, -inf, -inf}, {1500, 1e-300, 0.5}} {
			for _, tau := range []float64{nan, 0, -1, inf, 0.5} {
				if got := LadderGlicko2(p, g, tau); !inLadderBounds(got) {
					t.Errorf("%+v against %+v, τ %v: %+v out of bounds", p, g, tau, got)
				}
			}
		}
	}
}

// TestLadderStreaks plays long streaks between two players under both systems: a
// loser's rating stops at the floor and a winner's at the ceiling, and nothing fails.
func TestLadderStreaks(t *testing.T) {
	// FIDE: two players starting at the floor; one loses 200 games in a row.
	loser, winner := FIDEPlayer{Rating: LadderFloor}, FIDEPlayer{Rating: LadderFloor}
	for i := range 200 {
		l := LadderFIDE(loser, Game{Opponent: winner.Rating, Score: 0})
		w := LadderFIDE(winner, Game{Opponent: loser.Rating, Score: 1})
		loser.Rating, loser.GamesPlayed = l.NewRating, i+1
		winner.Rating, winner.GamesPlayed, winner.Peak = w.NewRating, i+1, max(winner.Peak, w.NewRating)
		if l.NewRating != LadderFloor || w.NewRating < LadderFloor+20 || w.NewRating > LadderCeiling {
			t.Fatalf("FIDE game %d: loser %d, winner %d", i+1, l.NewRating, w.NewRating)
		}
	}
	// FIDE: two players at the ceiling; one wins 200 games in a row.
	loser, winner = FIDEPlayer{Rating: LadderCeiling, Peak: LadderCeiling}, FIDEPlayer{Rating: LadderCeiling, Peak: LadderCeiling}
	for i := range 200 {
		l := LadderFIDE(loser, Game{Opponent: winner.Rating, Score: 0})
		w := LadderFIDE(winner, Game{Opponent: loser.Rating, Score: 1})
		loser.Rating, winner.Rating = l.NewRating, w.NewRating
		if w.NewRating != LadderCeiling || l.NewRating < LadderFloor || l.NewRating >= LadderCeiling {
			t.Fatalf("FIDE game %d at the top: loser %d, winner %d", i+1, l.NewRating, w.NewRating)
		}
	}
	// Glicko-2, the same from both ends.
	for _, start := range []float64{LadderFloor, LadderCeiling} {
		lo := Glicko2Player{Rating: start, RD: Glicko2DefaultRD, Volatility: Glicko2DefaultVolatility}
		hi := lo
		for i := range 200 {
			nl := LadderGlicko2(lo, Glicko2Game{Rating: hi.Rating, RD: hi.RD, Score: 0}, 0.5)
			nh := LadderGlicko2(hi, Glicko2Game{Rating: lo.Rating, RD: lo.RD, Score: 1}, 0.5)
			if !inLadderBounds(nl) || !inLadderBounds(nh) || nl.Rating > lo.Rating || nh.Rating < hi.Rating {
				t.Fatalf("Glicko-2 from %v, game %d: loser %+v → %+v, winner %+v → %+v", start, i+1, lo, nl, hi, nh)
			}
			lo, hi = nl, nh
		}
		if start == LadderFloor && lo.Rating != LadderFloor {
			t.Errorf("Glicko-2 from the floor: the loser ends at %v, want %d", lo.Rating, LadderFloor)
		}
		if start == LadderCeiling && hi.Rating != LadderCeiling {
			t.Errorf("Glicko-2 from the ceiling: the winner ends at %v, want %d", hi.Rating, LadderCeiling)
		}
	}
}

func TestClampLadderRating(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{math.NaN(), LadderFloor}, {math.Inf(-1), LadderFloor}, {-3, LadderFloor}, {99.5, LadderFloor},
		{100, 100}, {1512.25, 1512.25}, {4000, 4000}, {4000.5, LadderCeiling}, {math.Inf(1), LadderCeiling},
	} {
		if got := ClampLadderRating(tt.in); got != tt.want {
			t.Errorf("ClampLadderRating(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// inLadderBounds reports whether p's rating, deviation and volatility are within the
// ladder bounds (which excludes NaN and the infinities).
func inLadderBounds(p Glicko2Player) bool {
	return p.Rating >= LadderFloor && p.Rating <= LadderCeiling &&
		p.RD >= LadderMinRD && p.RD <= LadderMaxRD &&
		p.Volatility >= LadderMinVolatility && p.Volatility <= LadderMaxVolatility
}

// FuzzLadderFIDE: for any input the new rating is within the ladder bounds, moves the
// way the score says, and is FIDEChange's whenever FIDEChange accepts the input and its
// result is within the bounds.
func FuzzLadderFIDE(f *testing.F) {
	f.Add(100, 0, 0, 100, 0.0, 0, false)
	f.Add(110, 110, 5, 110, 0.0, 0, false)
	f.Add(4000, 4000, 100, 4000, 1.0, 0, false)
	f.Add(2390, 2405, 100, 2390, 0.5, 0, true)
	f.Add(-1, -1, -1, -1, math.NaN(), -1, false)
	f.Add(math.MaxInt, math.MinInt, math.MaxInt, math.MinInt, math.Inf(-1), math.MaxInt, true)
	f.Fuzz(func(t *testing.T, rating, peak, games, opponent int, score float64, k int, junior bool) {
		p := FIDEPlayer{Rating: rating, Peak: peak, GamesPlayed: games, K: k, Junior: junior}
		g := Game{Opponent: opponent, Score: score}
		got := LadderFIDE(p, g)
		if got.NewRating < LadderFloor || got.NewRating > LadderCeiling {
			t.Fatalf("%+v against %+v: new rating %d out of bounds", p, g, got.NewRating)
		}
		before := clampLadderInt(rating)
		if got.NewRating-before != got.RoundedChange {
			t.Fatalf("%+v against %+v: %+v, the change is not new − old (%d)", p, g, got, before)
		}
		if s := ladderScore(score); (s == 1 && got.RoundedChange < 0) || (s == 0 && got.RoundedChange > 0) {
			t.Fatalf("%+v against %+v (score %v): change %d goes the wrong way", p, g, s, got.RoundedChange)
		}
		if math.IsNaN(got.Change) || math.IsNaN(got.Expected) || got.K < 1 || got.K > KCapProduct {
			t.Fatalf("%+v against %+v: %+v", p, g, got)
		}
		inBounds := func(r int) bool { return r >= LadderFloor && r <= LadderCeiling }
		if inBounds(rating) && inBounds(opponent) && (peak == 0 || (inBounds(peak) && peak >= rating)) && games >= 0 && k >= 0 && k <= KCapProduct {
			want, err := FIDEChange(p, []Game{g})
			if err == nil && inBounds(want.NewRating) && got != want {
				t.Fatalf("%+v against %+v: %+v, FIDEChange gives %+v", p, g, got, want)
			}
		}
	})
}

// FuzzLadderGlicko2: for any input the result is within the ladder bounds (never NaN),
// the rating moves the way a win or a loss says, and it is Glicko2Update's whenever the
// input is within the bounds and Glicko2Update's result is too.
func FuzzLadderGlicko2(f *testing.F) {
	f.Add(100.0, 350.0, 0.06, 100.0, 350.0, 0.0, 0.5)
	f.Add(4000.0, 30.0, 0.01, 4000.0, 30.0, 1.0, 1.2)
	f.Add(100.0, 30.0, 0.15, 4000.0, 350.0, 1.0, 0.3)
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 1.0, 0.5)
	f.Add(math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN())
	f.Add(math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1), math.Inf(1))
	f.Add(-1e308, 1e-308, 1e308, 1e308, -1e-308, 0.25, 1e-308)
	f.Fuzz(func(t *testing.T, r, rd, vol, oppR, oppRD, score, tau float64) {
		p := Glicko2Player{Rating: r, RD: rd, Volatility: vol}
		g := Glicko2Game{Rating: oppR, RD: oppRD, Score: score}
		got := LadderGlicko2(p, g, tau)
		if !inLadderBounds(got) {
			t.Fatalf("%+v against %+v, τ %v: %+v out of bounds", p, g, tau, got)
		}
		before := ClampLadderRating(r)
		if s := ladderScore(score); (s == 1 && got.Rating < before) || (s == 0 && got.Rating > before) {
			t.Fatalf("%+v against %+v (score %v), τ %v: %v → %v goes the wrong way", p, g, s, tau, before, got.Rating)
		}
		if inLadderBounds(p) && inLadderBounds(Glicko2Player{Rating: oppR, RD: oppRD, Volatility: LadderMinVolatility}) &&
			(score == 0 || score == 0.5 || score == 1) && tau >= LadderMinTau && tau <= LadderMaxTau {
			want, err := Glicko2Update(p, []Glicko2Game{g}, tau)
			if err == nil && inLadderBounds(want) && got != want {
				t.Fatalf("%+v against %+v, τ %v: %+v, Glicko2Update gives %+v", p, g, tau, got, want)
			}
		}
	})
}

// BenchmarkLadderFIDE rates one game under FIDE Elo, as the ladder does for each player
// of a game that ends.
func BenchmarkLadderFIDE(b *testing.B) {
	b.ReportAllocs()
	p := FIDEPlayer{Rating: 1500, GamesPlayed: 40, Peak: 1600}
	for i := range b.N {
		_ = LadderFIDE(p, Game{Opponent: 1400 + i%400, Score: float64(i%3) / 2})
	}
}

// BenchmarkLadderGlicko2 rates one game under Glicko-2 (the volatility iteration
// included), as the ladder does for each player of a game that ends.
func BenchmarkLadderGlicko2(b *testing.B) {
	b.ReportAllocs()
	p := Glicko2Player{Rating: 1500, RD: 120, Volatility: 0.06}
	for i := range b.N {
		_ = LadderGlicko2(p, Glicko2Game{Rating: float64(1400 + i%400), RD: 80, Score: float64(i%3) / 2}, 0.5)
	}
}

// Rating a ladder game allocates nothing.
func TestLadderUpdatesDoNotAllocate(t *testing.T) {
	fp, gp := FIDEPlayer{Rating: 1500}, Glicko2Player{Rating: 1500, RD: 120, Volatility: 0.06}
	if n := testing.AllocsPerRun(100, func() { fp.Rating = LadderFIDE(fp, Game{Opponent: 1500, Score: 1}).NewRating }); n != 0 {
		t.Errorf("LadderFIDE: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { gp = LadderGlicko2(gp, Glicko2Game{Rating: 1500, RD: 80, Score: 0}, 0.5) }); n != 0 {
		t.Errorf("LadderGlicko2: %v allocations, want 0", n)
	}
}
