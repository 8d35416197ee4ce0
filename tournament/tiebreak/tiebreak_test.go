package tiebreak

import (
	"testing"

	"github.com/gambitchess/gambit/tournament"
)

func game(ev *tournament.Event, w, b int, cw, cb tournament.Code) {
	ev.Players[w-1].Results = append(ev.Players[w-1].Results, tournament.Result{Opponent: b, Color: tournament.White, Code: cw})
	ev.Players[b-1].Results = append(ev.Players[b-1].Results, tournament.Result{Opponent: w, Color: tournament.Black, Code: cb})
}

func bye(ev *tournament.Event, p int, c tournament.Code) {
	ev.Players[p-1].Results = append(ev.Players[p-1].Results, tournament.Result{Code: c})
}

func event(n int) *tournament.Event {
	ev := &tournament.Event{Scoring: tournament.StandardScoring}
	for i := 1; i <= n; i++ {
		ev.Players = append(ev.Players, tournament.Player{ID: i, Rating: 2000 - i})
	}
	return ev
}

const W, D, L = tournament.Win, tournament.Draw, tournament.Loss

// A hand-computed 4-player, 3-round Swiss.
func TestBuchholzSonnebornBerger(t *testing.T) {
	ev := event(4)
	game(ev, 1, 3, W, L)
	game(ev, 2, 4, D, D)
	game(ev, 2, 1, D, D)
	game(ev, 3, 4, W, L)
	game(ev, 1, 4, W, L)
	game(ev, 3, 2, W, L)
	specs, err := ParseList("BH, BH/C1, SB, BH/M1, WIN, BPG, PS, ARO")
	if err != nil {
		t.Fatal(err)
	}
	rows := Standings(ev, specs, Options{})
	got := map[int][]int64{}
	for _, r := range rows {
		got[r.Player] = r.Values
	}
	want := map[int][]int64{
		1: {350, 300, 300, 100, 200, 100, 500, 199700},
		3: {400, 350, 150, 100, 200, 100, 300, 199800},
	}
	for id, w := range want {
		for k := range w {
			if got[id][k] != w[k] {
				t.Errorf("player %d %s = %s, want %s", id, specs[k], Format(got[id][k]), Format(w[k]))
			}
		}
	}
	if rows[0].Player != 1 || rows[1].Player != 3 {
		t.Errorf("order %v", rows)
	}
}

// Article 16.4: a pairing-allocated bye counts as a game against a dummy
// whose score is the player's own, capped at a draw per round.
func TestDummyOpponentCap(t *testing.T) {
	ev := event(3)
	bye(ev, 1, tournament.PAB)
	game(ev, 2, 3, W, L)
	game(ev, 1, 2, W, L)
	bye(ev, 3, tournament.PAB)
	game(ev, 3, 1, L, W)
	bye(ev, 2, tournament.PAB)
	rows := Standings(ev, []Spec{{Kind: BH}}, Options{})
	// Player 1: 3 points; dummy capped at 0.5*3 = 1.5; opponents 2 (2.0) and 3 (1.0).
	for _, r := range rows {
		if r.Player == 1 && r.Values[0] != 450 {
			t.Fatalf("BH of player 1 = %s, want 4.50", Format(r.Values[0]))
		}
	}
}

// Article 16.3: a withdrawn player's rounds count as draws for the opponents.
func TestWithdrawnOpponentCountsDraws(t *testing.T) {
	ev := event(4)
	game(ev, 1, 2, W, L)
	game(ev, 3, 4, D, D)
	game(ev, 1, 3, D, D)
	bye(ev, 2, tournament.ZeroBye)
	bye(ev, 4, tournament.PAB)
	rows := Standings(ev, []Spec{{Kind: BH}}, Options{})
	for _, r := range rows {
		if r.Player == 1 && r.Values[0] != 150 { // 2: 0 + ½ (adjusted); 3: 1
			t.Fatalf("BH of player 1 = %s, want 1.50", Format(r.Values[0]))
		}
	}
}

func TestDirectEncounter(t *testing.T) {
	ev := event(4)
	game(ev, 1, 2, L, W) // 2 beats 1
	game(ev, 3, 4, W, L)
	game(ev, 1, 4, W, L)
	game(ev, 2, 3, L, W)
	// 1: 1, 2: 1, 3: 2, 4: 0 -> 1 and 2 tied, 2 won their game.
	rows := Standings(ev, []Spec{{Kind: DE}}, Options{})
	if rows[0].Player != 3 || rows[1].Player != 2 || rows[2].Player != 1 {
		t.Fatalf("order %+v", rows)
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"XYZ", "BH/Q1", "WIN/C1", "BH/C0"} {
		if _, err := ParseSpec(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	sp, err := ParseSpec("bh-c1")
	if err != nil || sp.String() != "BH/C1" {
		t.Fatalf("bh-c1: %v %v", sp, err)
	}
}

func FuzzParseList(f *testing.F) {
	for _, s := range []string{"BH/C1, BH, SB, DE", "BH-M1", "", "SB/C2,WIN", "x/y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		specs, err := ParseList(s)
		if err != nil {
			return
		}
		var parts []string
		for _, sp := range specs {
			parts = append(parts, sp.String())
		}
		again, err := ParseList(join(parts))
		if err != nil || len(again) != len(specs) {
			t.Fatalf("round trip of %q: %v %v", s, again, err)
		}
	})
}

func join(p []string) string {
	out := ""
	for i, s := range p {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}
