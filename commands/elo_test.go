package commands

import (
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore/rating"
)

func TestEloAnswer(t *testing.T) {
	n := func(v int) *int { return &v }
	cases := []struct {
		name string
		o    eloOptions
		want []string // substrings of the answer, in order
	}{
		{"seed 003: 1600 beats 1800, K 20", eloOptions{Rating: 1600, Opponent: n(1800), Result: "1", K: 20},
			[]string{"Rating **1600** · K **20** (given)", "vs 1800 (−200): win · expected 0.24 · +15.2",
				"20 × (1 − 0.24) = **+15.2**, rounded **+15** → new rating **1615**"}},
		{"the 1800 loses 15", eloOptions{Rating: 1800, Opponent: n(1600), Result: "0", GamesPlayed: n(40)},
			[]string{"K **20** (below 2400 with 30 games or more)", "vs 1600 (+200): loss · expected 0.76 · −15.2",
				"**−15.2**, rounded **−15** → new rating **1785**"}},
		{"new player", eloOptions{Rating: 1500, Opponent: n(1500), Result: "1", GamesPlayed: n(0)},
			[]string{"K **40** (fewer than 30 games)", "expected 0.50 ", "rounded **+20** → new rating **1520**"}},
		{"several games", eloOptions{Rating: 1600, Results: "1800:1, 1750:0.5 1600:½", GamesPlayed: n(100)},
			[]string{"vs 1800", "vs 1750 (−150): draw · expected 0.30 · +4", "vs 1600 (±0): draw · expected 0.50 · ±0",
				"20 × (2 − 1.04) = **+19.2**, rounded **+19** → new rating **1619**"}},
		{"one game and results together", eloOptions{Rating: 1600, Opponent: n(1800), Result: "0.5", Results: "1700:0", GamesPlayed: n(100)},
			[]string{"vs 1800", "vs 1700", "(0.5 − 0.60) = **−2**"}},
		{"400-point rule", eloOptions{Rating: 2000, Opponent: n(1500), Result: "1", GamesPlayed: n(40)},
			[]string{"expected 0.92", "+1.6", "rounded **+2**", "_400-point rule (Article 8.3.1): the difference of 500 points against 1500 counts as 400._"}},
		{"2650 and above", eloOptions{Rating: 2700, Opponent: n(2200), Result: "1", GamesPlayed: n(400)},
			[]string{"K **10** (has reached 2400: 10 for ever)", "expected 0.96", "Rated 2650 or more: the full difference of 500 points"}},
		{"peak", eloOptions{Rating: 2300, Peak: 2410, Opponent: n(2300), Result: "0", GamesPlayed: n(400)},
			[]string{"K **10**", "rounded **−5** → new rating **2295**"}},
		{"junior", eloOptions{Rating: 2000, Junior: true, Opponent: n(2000), Result: "1", GamesPlayed: n(400)},
			[]string{"K **40** (junior below 2300)", "new rating **2020**"}},
		{"K capped by 700", eloOptions{Rating: 1500, GamesPlayed: n(0), Results: strings.Repeat("1500:0.5 ", 20)},
			[]string{"K **35** (fewer than 30 games; 40 lowered to 35 so that K × 20 games stays within 700)", "±0"}},
		{"below the floor", eloOptions{Rating: 1400, Opponent: n(1400), Result: "0", GamesPlayed: n(0)},
			[]string{"new rating **1380**", "Below 1400 FIDE lists a player as unrated"}},
	}
	for _, c := range cases {
		got, err := eloAnswer(c.o)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		rest := got
		for _, w := range c.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: answer lacks %q (in order):\n%s", c.name, w, got)
				break
			}
			rest = rest[i+len(w):]
		}
		if c.name != "400-point rule" && c.name != "2650 and above" && strings.Contains(got, "400-point") {
			t.Errorf("%s: a 400-point note without a gap over 400:\n%s", c.name, got)
		}
	}
}

func TestEloRefusals(t *testing.T) {
	n := func(v int) *int { return &v }
	cases := []struct {
		name string
		o    eloOptions
		want string
	}{
		{"nothing", eloOptions{Rating: 1600}, "Give the opponent's rating"},
		{"opponent without result", eloOptions{Rating: 1600, Opponent: n(1800)}, "Give both"},
		{"result without opponent", eloOptions{Rating: 1600, Result: "1"}, "Give both"},
		{"bad results", eloOptions{Rating: 1600, Results: "1800-1"}, "rating:score"},
		{"bad score", eloOptions{Rating: 1600, Results: "1800:2"}, "rating:score"},
		{"too many", eloOptions{Rating: 1600, Results: strings.Repeat("1800:1 ", maxEloGames+1)}, "at most 50"},
		{"peak below rating", eloOptions{Rating: 1600, Peak: 1500, Opponent: n(1800), Result: "1"}, "peak cannot be below"},
		{"rating out of range", eloOptions{Rating: 5000, Opponent: n(1800), Result: "1"}, "between 0 and 4000"},
	}
	for _, c := range cases {
		_, err := eloAnswer(c.o)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if msg := UserMessage(err); !strings.Contains(msg, c.want) {
			t.Errorf("%s: user reads %q, want it to say %q", c.name, msg, c.want)
		}
	}
}

func FuzzParseEloResults(f *testing.F) {
	for _, s := range []string{"1800:1 1750:0.5", "1800:1,1750:½", "2010:1/2;1500:0", "", "  ", "1800", "1800:", ":1",
		"1800:2", "-5:1", "99999:1", "1800:1:1", "1800:0.50", "1e3:1", "1800:1\t1900:0\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ParseEloResults(s)
		if err != nil {
			return
		}
		if len(games) > maxEloGames {
			t.Fatalf("%d games from %q", len(games), s)
		}
		var parts []string
		for _, g := range games {
			if g.Opponent < rating.MinRating || g.Opponent > rating.MaxRating || (g.Score != 0 && g.Score != 0.5 && g.Score != 1) {
				t.Fatalf("%q gave %+v", s, g)
			}
			parts = append(parts, g.String())
		}
		again, err := ParseEloResults(strings.Join(parts, " "))
		if err != nil || len(again) != len(games) {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
		for i := range again {
			if again[i] != games[i] {
				t.Fatalf("round trip of %q: %+v became %+v", s, games[i], again[i])
			}
		}
	})
}
