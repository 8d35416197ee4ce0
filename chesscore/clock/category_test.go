package clock

import (
	"encoding/json"
	"testing"
	"time"
)

func TestCategory(t *testing.T) {
	tests := []struct {
		in   string
		want Category
	}{
		// Worked examples of the FIDE guide (seed 003).
		{"90+30", Standard},
		{"15+10", Rapid},
		{"10+5", Rapid},
		{"3+2", Blitz},
		// Typical examples from the same table.
		{"120+0", Standard},
		{"25+10", Rapid},
		{"5+0", Blitz},
		{"1+0", Bullet},
		{"2+1", Bullet},
		// Boundaries.
		{"60+0", Standard},  // 60 minutes or more
		{"59+0", Rapid},     // less than 60
		{"50+10", Standard}, // 50 + 10 = 60
		{"10+0", Blitz},     // 10 minutes or less
		{"9+1", Blitz},      // 9 + 1 = 10
		{"9+2", Rapid},      // 9 + 2 = 11
		{"10s+0", Bullet},
		{"3+0", Blitz},  // 40-move estimate exactly 3 minutes: not under
		{"2+2", Blitz},  // 2 + 40×2 s = 3:20
		{"1+3", Blitz},  // 1 + 2 = 3
		{"1+2", Bullet}, // 1 + 1:20 = 2:20
		{"0.5+0", Bullet},
		{"5+0 d3", Blitz},  // 5 + 3 = 8
		{"10+0 d5", Rapid}, // 10 + 5 = 15: a delay counts like an increment
		{"8+0 b2", Blitz},  // 8 + 2 = 10
		// Several periods: every base starting within 60 moves counts.
		{"40/90+30, 30+30", Standard},
		{"40/30, 40+0", Standard}, // 30 + 40 = 70 within 60 moves
		{"60/30, 60", Rapid},      // the second period starts at move 61
		{"20/4, 4", Blitz},        // 4 + 4 = 8
		{"20/4, 10/2", Rapid},     // 4 + 2 at moves 20, 30, 40 and 50 (the last period repeats) = 12
		// Correspondence and no clock.
		{"3d", Correspondence},
		{"12h", Correspondence},
		{"-", NoCategory},
		{"?", NoCategory},
	}
	for _, tt := range tests {
		tc, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.Category(); got != tt.want {
			t.Errorf("%q.Category() = %v (60-move budget %v), want %v", tt.in, got, tc.Budget(60), tt.want)
		}
	}
}

func TestBudget(t *testing.T) {
	tests := []struct {
		in    string
		moves int
		want  time.Duration
	}{
		{"90+30", 60, 120 * minute},
		{"15+10", 60, 25 * minute},
		{"2+1", 40, 160 * second},
		{"40/90+30, 30+30", 60, 150 * minute},
		{"40/90+30, 30+30", 40, 110 * minute}, // the second base arrives after move 40
		{"40/90+30, 30+30", 41, 140*minute + 30*second},
		{"40/120, 20/60", 100, 120*minute + 3*60*minute}, // bases at moves 40, 60 and 80
		{"5+0 d3", 60, 8 * minute},
		{"5+3", 0, 5 * minute},
		{"3d", 60, 0},
		{"-", 60, 0},
	}
	for _, tt := range tests {
		tc, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.Budget(tt.moves); got != tt.want {
			t.Errorf("%q.Budget(%d) = %v, want %v", tt.in, tt.moves, got, tt.want)
		}
	}
}

func TestCategoryNames(t *testing.T) {
	for c := Bullet; c <= Chess960; c++ {
		got, err := ParseCategory(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCategory(%q) = %v, %v; want %v", c.String(), got, err, c)
		}
	}
	want := []string{"none", "bullet", "blitz", "rapid", "standard", "correspondence", "chess960", "Category(7)"}
	for i, w := range want {
		if got := Category(i).String(); got != w {
			t.Errorf("Category(%d).String() = %q, want %q", i, got, w)
		}
	}
	aliases := map[string]Category{"Classical": Standard, " BLITZ ": Blitz, "daily": Correspondence, "960": Chess960}
	for in, w := range aliases {
		if got, err := ParseCategory(in); err != nil || got != w {
			t.Errorf("ParseCategory(%q) = %v, %v; want %v", in, got, err, w)
		}
	}
	for _, bad := range []string{"", "none", "lightning", "bullets"} {
		if _, err := ParseCategory(bad); err == nil {
			t.Errorf("ParseCategory(%q) succeeded", bad)
		}
	}
	if _, err := ParseCategory("hyper"); err == nil || err.Error() != `category "hyper": want bullet, blitz, rapid, standard, correspondence or chess960` {
		t.Errorf("ParseCategory(hyper) error = %v", err)
	}
	fide := map[Category]Category{Bullet: Blitz, Blitz: Blitz, Rapid: Rapid, Standard: Standard, Correspondence: Correspondence, NoCategory: NoCategory}
	for c, w := range fide {
		if got := c.FIDE(); got != w {
			t.Errorf("%v.FIDE() = %v, want %v", c, got, w)
		}
	}
}

func TestCategoryText(t *testing.T) {
	in := map[string]Category{"a": Bullet, "b": NoCategory, "c": Correspondence}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":"bullet","b":"none","c":"correspondence"}`; string(data) != want {
		t.Errorf("json = %s, want %s", data, want)
	}
	var back map[string]Category
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	for k, v := range in {
		if back[k] != v {
			t.Errorf("round trip %q: %v, want %v", k, back[k], v)
		}
	}
	if _, err := Category(9).MarshalText(); err == nil {
		t.Error("MarshalText of an unknown category succeeded")
	}
}
