package rating

import (
	"errors"
	"testing"
)

func TestParseGame(t *testing.T) {
	tests := []struct {
		in   string
		want Game
		err  error
	}{
		{"1800:1", Game{1800, 1}, nil},
		{"1800:1.0", Game{1800, 1}, nil},
		{"2015:0.5", Game{2015, 0.5}, nil},
		{"2015:.5", Game{2015, 0.5}, nil},
		{"2015:1/2", Game{2015, 0.5}, nil},
		{"2015:½", Game{2015, 0.5}, nil},
		{"1750:0", Game{1750, 0}, nil},
		{"0:0", Game{0, 0}, nil},
		{"4000:1", Game{4000, 1}, nil},
		{"1800:2", Game{}, ErrScore},
		{"1800:0.25", Game{}, ErrScore},
		{"1800:", Game{}, ErrScore},
		{"1800: 1", Game{}, ErrScore},
		{"1800", Game{}, ErrSyntax},
		{"", Game{}, ErrSyntax},
		{":1", Game{}, ErrSyntax},
		{"18x0:1", Game{}, ErrSyntax},
		{"1800.5:1", Game{}, ErrSyntax},
		{"1800:1:1", Game{}, ErrScore},
		{"4001:1", Game{}, ErrRating},
		{"-1:1", Game{}, ErrRating},
	}
	for _, tt := range tests {
		got, err := ParseGame(tt.in)
		if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
			t.Errorf("ParseGame(%q) error = %v, want %v", tt.in, err, tt.err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseGame(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseGlicko2Game(t *testing.T) {
	tests := []struct {
		in   string
		want Glicko2Game
		err  error
	}{
		{"1400:30:1", Glicko2Game{1400, 30, 1}, nil},
		{"1550:100:0", Glicko2Game{1550, 100, 0}, nil},
		{"1700.5:300.25:1/2", Glicko2Game{1700.5, 300.25, 0.5}, nil},
		{"1700.:.5:0", Glicko2Game{1700, 0.5, 0}, nil},
		{"1400:30", Glicko2Game{}, ErrSyntax},
		{"1400:30:1:1", Glicko2Game{}, ErrSyntax},
		{"1e3:30:1", Glicko2Game{}, ErrSyntax},
		{"0x10:30:1", Glicko2Game{}, ErrSyntax},
		{"NaN:30:1", Glicko2Game{}, ErrSyntax},
		{"Inf:30:1", Glicko2Game{}, ErrSyntax},
		{"1400:.:1", Glicko2Game{}, ErrSyntax},
		{"1400:1..0:1", Glicko2Game{}, ErrSyntax},
		{"1400:0:1", Glicko2Game{}, ErrRD},
		{"1400:-30:1", Glicko2Game{}, ErrRD},
		{"5000:30:1", Glicko2Game{}, ErrRating},
		{"1400:30:2", Glicko2Game{}, ErrScore},
	}
	for _, tt := range tests {
		got, err := ParseGlicko2Game(tt.in)
		if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
			t.Errorf("ParseGlicko2Game(%q) error = %v, want %v", tt.in, err, tt.err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseGlicko2Game(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestGameString(t *testing.T) {
	if got := (Game{1800, 0.5}).String(); got != "1800:0.5" {
		t.Errorf("Game.String() = %q", got)
	}
	if got := (Glicko2Game{1400.5, 30, 1}).String(); got != "1400.5:30:1" {
		t.Errorf("Glicko2Game.String() = %q", got)
	}
}

// FuzzParseGame checks that ParseGame never panics, that what it accepts is
// a valid game, and that String writes it back in a form read as the same game.
func FuzzParseGame(f *testing.F) {
	for _, s := range []string{"1800:1", "2015:0.5", "1750:0", "1800:½", "1800:1/2", "0:.5",
		"4000:1.0", "1800", "1800:2", "-1:1", "+1800:1", "01800:0", ":", "", "1800:1:1", "99999999999999999999:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGame(s)
		if err != nil {
			return
		}
		if _, err := FIDEChange(FIDEPlayer{Rating: 1600}, []Game{g}); err != nil {
			t.Fatalf("ParseGame(%q) = %+v, which FIDEChange rejects: %v", s, g, err)
		}
		again, err := ParseGame(g.String())
		if err != nil || again != g {
			t.Fatalf("ParseGame(%q) = %+v; String %q reads back as %+v, %v", s, g, g.String(), again, err)
		}
	})
}

// FuzzParseGlicko2Game checks the same for ParseGlicko2Game.
func FuzzParseGlicko2Game(f *testing.F) {
	for _, s := range []string{"1400:30:1", "1550:100:0", "1700:300:0", "1700.5:.25:1/2", "1400:30",
		"1400:0:1", "1e3:30:1", "NaN:1:1", "-0:1:1", "4000.0000000000001:1:1", "::", "1400:30:½", "1400:5000:1", "1400:5000.1:1", "0:0.0000001:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGlicko2Game(s)
		if err != nil {
			return
		}
		p, err := Glicko2Update(Glicko2Player{Rating: 1500, RD: 200, Volatility: 0.06}, []Glicko2Game{g}, 0.5)
		if err != nil || !finite(p) {
			t.Fatalf("ParseGlicko2Game(%q) = %+v, which Glicko2Update rates as %+v, %v", s, g, p, err)
		}
		again, err := ParseGlicko2Game(g.String())
		if err != nil || again != g {
			t.Fatalf("ParseGlicko2Game(%q) = %+v; String %q reads back as %+v, %v", s, g, g.String(), again, err)
		}
	})
}
