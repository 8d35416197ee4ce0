package main

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

func TestRatingOutput(t *testing.T) {
	tests := []struct {
		name string
		args string
		want string
	}{
		// Seed 003's worked example.
		{"fide win", "fide --rating 1600 --games-played 40 --game 1800:1",
			`{"k": 20, "change": 15.2, "rounded_change": 15, "new_rating": 1615}`},
		{"fide draw", "fide --rating 1600 --games-played 40 --game 1800:0.5",
			`{"k": 20, "change": 5.2, "rounded_change": 5, "new_rating": 1605}`},
		{"fide loss", "fide --rating 1600 --games-played 40 --game 1800:0",
			`{"k": 20, "change": -4.8, "rounded_change": -5, "new_rating": 1595}`},
		{"fide peak below 2400", "fide --rating 1600 --games-played 40 --peak 1650 --game 1800:1",
			`{"k": 20, "change": 15.2, "rounded_change": 15, "new_rating": 1615}`},
		{"fide peak 2400", "fide --rating 2350 --games-played 40 --peak 2400 --game 2350:1/2 --game 2300:1",
			`{"k": 10, "change": 4.3, "rounded_change": 4, "new_rating": 2354}`},
		{"fide new player", "fide --rating 1500 --game 1600:1 --game 1550:½",
			`{"k": 40, "change": 28.4, "rounded_change": 28, "new_rating": 1528}`},
		{"fide junior", "fide --rating 2000 --games-played 300 --junior --game 2000:0",
			`{"k": 40, "change": -20, "rounded_change": -20, "new_rating": 1980}`},
		{"fide forced K, single dashes", "fide -rating=1500 -k=5 -game=1500:0",
			`{"k": 5, "change": -2.5, "rounded_change": -3, "new_rating": 1497}`},
		{"fide 400-point rule", "fide --rating 2000 --games-played 40 --game 1500:1",
			`{"k": 20, "change": 1.6, "rounded_change": 2, "new_rating": 2002}`},
		{"fide 2650 and above", "fide --rating 2800 --games-played 400 --game 1800:1 --game 1800:0",
			`{"k": 10, "change": -10, "rounded_change": -10, "new_rating": 2790}`},
		{"fide no games", "fide --rating 1600 --games-played 40",
			`{"k": 20, "change": 0, "rounded_change": 0, "new_rating": 1600}`},
		{"fide hundredths", "fide --rating 1600 --k 1 --game 1603:1",
			`{"k": 1, "change": 0.5, "rounded_change": 1, "new_rating": 1601}`},
		{"fide small change", "fide --rating 1600 --k 1 --game 1604:0",
			`{"k": 1, "change": -0.49, "rounded_change": 0, "new_rating": 1600}`},

		{"fide-initial published", "fide-initial --game 1900:1 --game 1900:1 --game 1900:1 --game 1900:0 --game 1907:0",
			`{"rated": true, "rating": 1922}`},
		// Ra = 7250/4 = 1812.5, p = 2.5/4 = .625 → .63, dp 95: 1907.5 → 1908.
		{"fide-initial too few games", "fide-initial --game 1800:0.5 --game 1850:1",
			`{"rated": false, "rating": 1908}`},
		{"fide-initial below 1400", "fide-initial --game 1400:0.5 --game 1400:0 --game 1400:0 --game 1400:0 --game 1400:0",
			`{"rated": false, "rating": 1284}`},
		{"fide-initial zero score", "fide-initial --game 1800:0 --game 1800:0 --game 1800:0 --game 1800:0 --game 1800:0",
			`{"rated": false, "rating": 0}`},

		// Glickman's worked example (the paper rounds to 1464.06, 151.52, 0.05999).
		{"glicko2 paper", "glicko2 --rating 1500 --rd 200 --volatility 0.06 --tau 0.5 --game 1400:30:1 --game 1550:100:0 --game 1700:300:0",
			`{"rating": 1464.0507, "rd": 151.5165, "volatility": 0.059996}`},
		{"glicko2 no games", "glicko2 --rating 1500 --rd 200 --volatility 0.06",
			`{"rating": 1500, "rd": 200.2714, "volatility": 0.06}`},
		{"glicko2 defaults", "glicko2 --game 1500:350:0.5",
			`{"rating": 1500, "rd": 290.319, "volatility": 0.059999}`},
	}
	for _, tt := range tests {
		args := strings.Fields(tt.args)
		var stdout, stderr bytes.Buffer
		if err := runGroup("rating", args, &stdout, &stderr); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := stdout.String(); got != tt.want+"\n" {
			t.Errorf("%s: output\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

func TestRatingErrors(t *testing.T) {
	tests := []struct {
		args string
		want []string // substrings of the error
	}{
		{"", []string{"missing subcommand"}},
		{"elo --rating 1600", []string{"unknown subcommand", `"elo"`}},
		{"fide --games-played 40 --game 1800:1", []string{"--rating is required"}},
		{"fide --rating 5000", []string{"--rating 5000", "0 to 4000"}},
		{"fide --rating -1", []string{"--rating -1"}},
		{"fide --rating abc", []string{"-rating", "abc"}},
		{"fide --rating 1600 --games-played -3", []string{"--games-played -3"}},
		{"fide --rating 1600 --peak 1500", []string{"--peak 1500", "at least --rating"}},
		{"fide --rating 1600 --k 0", []string{"--k 0"}},
		{"fide --rating 1600 --k -20", []string{"--k -20"}},
		{"fide --rating 1600 --game 1800:2", []string{"--game", `"1800:2"`, "score"}},
		{"fide --rating 1600 --game 1800", []string{"--game", `"1800"`, "RATING:SCORE"}},
		{"fide --rating 1600 --game 9000:1", []string{"--game", `"9000:1"`, "out of range"}},
		{"fide --rating 1600 --nonsense", []string{"-nonsense"}},
		{"fide --rating 1600 1800:1", []string{"unexpected argument", "1800:1"}},
		{"fide-initial --game 1800:0.7", []string{"--game", `"1800:0.7"`, "score"}},
		{"fide-initial --game x:1", []string{"--game", `"x"`}},
		{"glicko2 --rd 0", []string{"--rd", "deviation"}},
		{"glicko2 --rd -5", []string{"--rd"}},
		{"glicko2 --volatility 0", []string{"--volatility"}},
		{"glicko2 --rating 9000", []string{"--rating", "out of range"}},
		{"glicko2 --rating NaN", []string{"--rating"}},
		{"glicko2 --tau 0", []string{"--tau 0"}},
		{"glicko2 --game 1400:30", []string{"--game", "RATING:RD:SCORE"}},
		{"glicko2 --game 1400:0:1", []string{"--game", "RD"}},
		{"glicko2 --game 1400:30:2", []string{"--game", "score"}},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := runGroup("rating", strings.Fields(tt.args), &stdout, &stderr)
		if err == nil {
			t.Errorf("%q: no error; output %q", tt.args, stdout.String())
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q does not mention %q", tt.args, err, w)
			}
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: wrote %q to stdout on error", tt.args, stdout.String())
		}
	}
}

func TestRatingHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"fide", "-h"}, {"glicko2", "--help"}} {
		var stdout, stderr bytes.Buffer
		err := runGroup("rating", args, &stdout, &stderr)
		if !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%q: error %v, want flag.ErrHelp", args, err)
		}
		if !strings.Contains(stderr.String(), "usage") || stdout.Len() != 0 {
			t.Errorf("%q: stderr %q, stdout %q; want the usage on stderr only", args, stderr.String(), stdout.String())
		}
	}
}

func TestRatingNumber(t *testing.T) {
	tests := []struct {
		x      float64
		places int
		want   string
	}{
		{15.2, 2, "15.2"}, {-4.8, 2, "-4.8"}, {15, 2, "15"}, {0, 2, "0"}, {-0.001, 2, "0"},
		{0.05, 2, "0.05"}, {342, 2, "342"}, {1464.0506705393013, 4, "1464.0507"},
		{0.059995984286488495, 6, "0.059996"}, {1e6, 2, "1000000"},
	}
	for _, tt := range tests {
		if got := ratingNumber(tt.x, tt.places); got != tt.want {
			t.Errorf("ratingNumber(%v, %d) = %q, want %q", tt.x, tt.places, got, tt.want)
		}
	}
}
