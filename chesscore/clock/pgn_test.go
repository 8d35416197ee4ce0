package clock

import (
	"strings"
	"testing"
)

func TestPGN(t *testing.T) {
	tests := []struct{ in, pgn string }{
		{"5+3", "300+3"},
		{"5+0", "300"},
		{"3+2", "180+2"},
		{"30s+0", "30"},
		{"90+30", "5400+30"},
		{"40/90+30, 30+30", "40/5400+30:1800+30"},
		{"40/120, 20/60", "40/7200:20/3600"},
		{"40/120, 20/60, 30", "40/7200:20/3600:1800"},
		{"5+0 d3", "300"}, // PGN has no delay notation
		{"5+0 b3", "300"},
		{"3d", "1/259200"},
		{"1d", "1/86400"},
		{"12h", "1/43200"},
		{"-", "-"},
		{"?", "?"},
	}
	for _, tt := range tests {
		tc, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.PGN(); got != tt.pgn {
			t.Errorf("Parse(%q).PGN() = %q, want %q", tt.in, got, tt.pgn)
		}
		back, err := ParsePGN(tc.PGN())
		if err != nil {
			t.Errorf("ParsePGN(%q): %v", tc.PGN(), err)
			continue
		}
		want := tc
		want.DelayMode, want.Delay = NoDelay, 0
		if !back.Equal(want) {
			t.Errorf("ParsePGN(%q) = %v, want %v", tc.PGN(), back, want)
		}
	}
}

func TestParsePGN(t *testing.T) {
	tests := []struct{ in, str string }{
		{"40/5400+30:1800+30", "40/90+30, 30+30"},
		{"300+3", "5+3"},
		{"300", "5+0"},
		{"300+0", "5+0"},
		{" 180+2 ", "3+2"},
		{"45+0", "45s+0"},
		{"40/7200:3600", "40/120+0, 60+0"},
		{"40/9000", "40/150+0"},
		{"1/259200", "3d"},
		{"1/3600", "1h"},
		{"-", "-"},
		{"?", "?"},
	}
	for _, tt := range tests {
		tc, err := ParsePGN(tt.in)
		if err != nil {
			t.Errorf("ParsePGN(%q): %v", tt.in, err)
			continue
		}
		if got := tc.String(); got != tt.str {
			t.Errorf("ParsePGN(%q).String() = %q, want %q", tt.in, got, tt.str)
		}
	}
}

func TestParsePGNErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `PGN time control "": empty`},
		{"*180", `sandclock period "*180" is not supported`},
		{"40/5400:*60", `period 2: sandclock period "*60" is not supported`},
		{"300+", `missing increment after '+'`},
		{"+3", `missing seconds`},
		{"40/", `missing seconds`},
		{"/300", `missing move count`},
		{"abc", `seconds "abc" is not a whole number`},
		{"5+3", ``}, // valid: five seconds plus three; see below
		{"300+99", `increment 99 s is over 60 s`},
		{"0+1", `base time 0 is not allowed`},
		{"1/300", `one move per 300 s is read as correspondence: correspondence allowance 300s is not a whole number of hours`},
		{"1/300+2", `a period of 1 move is not allowed`},
		{"300:60", `period 1 lasts for the rest of the game but period 2 follows it`},
		{"300 +3", `seconds "300 " is not a whole number`},
		{"-300", `seconds "-300" is not a whole number`},
		{"1234567890", `seconds "1234567890" is too long`},
		{"1:2:3:4:5:6", `6 periods is more than 5`},
		{"40/5400+30:1800+30:", `period 3: missing seconds`},
	}
	for _, tt := range tests {
		_, err := ParsePGN(tt.in)
		if tt.want == "" {
			if err != nil {
				t.Errorf("ParsePGN(%q): %v", tt.in, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParsePGN(%q) succeeded, want error containing %q", tt.in, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "PGN time control ") {
			t.Errorf("ParsePGN(%q) error = %q, want it to contain %q", tt.in, err, tt.want)
		}
	}
}
