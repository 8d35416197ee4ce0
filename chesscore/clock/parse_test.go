package clock

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

const (
	second = time.Second
	minute = time.Minute
	hour   = time.Hour
	day    = 24 * time.Hour
)

// live builds a live control from periods.
func live(periods ...Period) TimeControl { return TimeControl{Periods: periods} }

// sd is a sudden-death period (the rest of the game).
func sd(base, inc time.Duration) Period { return Period{Base: base, Increment: inc} }

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want TimeControl
		str  string // canonical String
	}{
		{"5+3", live(sd(5*minute, 3*second)), "5+3"},
		{"90+30", live(sd(90*minute, 30*second)), "90+30"},
		{"3+2", live(sd(3*minute, 2*second)), "3+2"},
		{"15m+10s", live(sd(15*minute, 10*second)), "15+10"},
		{"15M+10S", live(sd(15*minute, 10*second)), "15+10"},
		{" 5 + 3 ", live(sd(5*minute, 3*second)), "5+3"},
		{"5", live(sd(5*minute, 0)), "5+0"},
		{"300s+1m", live(sd(5*minute, 60*second)), "5+60"},
		{"30s+0", live(sd(30*second, 0)), "30s+0"},
		{"½+0", live(sd(30*second, 0)), "30s+0"},
		{"¼+0", live(sd(15*second, 0)), "15s+0"},
		{"¾+1", live(sd(45*second, second)), "45s+1"},
		{"1½+1", live(sd(90*second, second)), "90s+1"},
		{"0.5+0", live(sd(30*second, 0)), "30s+0"},
		{"2.25+1", live(sd(135*second, second)), "135s+1"},
		{"1+0", live(sd(minute, 0)), "1+0"},
		{"40/90+30, 30+30", live(Period{40, 90 * minute, 30 * second}, sd(30*minute, 30*second)), "40/90+30, 30+30"},
		{"40 / 90 + 30 ,30+30", live(Period{40, 90 * minute, 30 * second}, sd(30*minute, 30*second)), "40/90+30, 30+30"},
		{"40/120, 20/60, 30", live(Period{40, 120 * minute, 0}, Period{20, 60 * minute, 0}, sd(30*minute, 0)), "40/120+0, 20/60+0, 30+0"},
		{"40/120, 20/60", live(Period{40, 120 * minute, 0}, Period{20, 60 * minute, 0}), "40/120+0, 20/60+0"},
		{"40/90", live(Period{40, 90 * minute, 0}), "40/90+0"},
		{"5+0 d3", TimeControl{Periods: []Period{sd(5*minute, 0)}, DelayMode: Simple, Delay: 3 * second}, "5+0 d3"},
		{"5 d3s", TimeControl{Periods: []Period{sd(5*minute, 0)}, DelayMode: Simple, Delay: 3 * second}, "5+0 d3"},
		{"5+0d3", TimeControl{Periods: []Period{sd(5*minute, 0)}, DelayMode: Simple, Delay: 3 * second}, "5+0 d3"},
		{"5+0 b3", TimeControl{Periods: []Period{sd(5*minute, 0)}, DelayMode: Bronstein, Delay: 3 * second}, "5+0 b3"},
		{"40/120, 30 D5", TimeControl{Periods: []Period{{40, 120 * minute, 0}, sd(30*minute, 0)}, DelayMode: Simple, Delay: 5 * second}, "40/120+0, 30+0 d5"},
		{"3d", TimeControl{PerMove: 3 * day}, "3d"},
		{"1d", TimeControl{PerMove: day}, "1d"},
		{"12h", TimeControl{PerMove: 12 * hour}, "12h"},
		{"48h", TimeControl{PerMove: 2 * day}, "2d"},
		{"36h", TimeControl{PerMove: 36 * hour}, "36h"},
		{"0.5d", TimeControl{PerMove: 12 * hour}, "12h"},
		{"30d", TimeControl{PerMove: 30 * day}, "30d"},
		{"-", TimeControl{Untimed: true}, "-"},
		{" ? ", TimeControl{}, "?"},
		{"300+60", live(sd(300*minute, 60*second)), "300+60"},
		{"1s+0", live(sd(second, 0)), "1s+0"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if !got.Equal(tt.want) {
			t.Errorf("Parse(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
		if s := got.String(); s != tt.str {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, s, tt.str)
		}
		again, err := Parse(got.String())
		if err != nil || !again.Equal(got) {
			t.Errorf("Parse(%q) did not round-trip: %v, %v", got.String(), again, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `time control "": empty`},
		{"   ", `time control "   ": empty`},
		{"5+", `time control "5+": missing increment after '+'`},
		{"5+ ", `time control "5+ ": missing increment after '+'`},
		{"5+99", `time control "5+99": increment 99 s is over 60 s`},
		{"5+61s", `increment 61 s is over 60 s`},
		{"40/90+30, 30+99", `period 2: increment 99 s is over 60 s`},
		{"+3", `missing base time before '+'`},
		{"/90", `missing move count before '/'`},
		{"40/", `missing base time after "40/"`},
		{"40/90+30,", `missing period after ','`},
		{"1/2+0", `a period of 1 move is not allowed (for half a minute write "30s+0" or "½+0")`},
		{"0+1", `base time 0 is not allowed`},
		{"0+0", `base time 0 is not allowed`},
		{"301+0", `base time 18060s is over 18000s`},
		{"0.01+0", `base time "0.01" is not a whole number of seconds`},
		{"1.5s+0", `base time "1.5s" is not a whole number of seconds`},
		{"5+0.5", `increment "0.5" is not a whole number of seconds`},
		{"1.+0", `number "1." has no digits after the point`},
		{"1.2345+0", `too many decimals`},
		{"12345678+0", `number "12345678" is too long`},
		{"5+3 d3", `a control has an increment or a delay, not both`},
		{"5+0 d", `missing delay seconds after 'd'`},
		{"5+0 b", `missing delay seconds after 'b'`},
		{"5+0 d61", `delay 61 s is over 60 s`},
		{"5+0 d0", `simple delay must be at least 1 s`},
		{"5+0 d3 b2", `unexpected "b2"`},
		{"5+3, 3+2", `period 1 lasts for the rest of the game but period 2 follows it`},
		{"40/90, 30, 10", `period 2 lasts for the rest of the game but period 3 follows it`},
		{"40/90, 40/90, 40/90, 40/90, 40/90, 30", `more than 5 periods`},
		{"201/90, 30", `period 1: move count 201 is over 200`},
		{"1.5/90", `move count "1.5" is not a whole number`},
		{"3d+2", `correspondence control "3d" takes no increment`},
		{"3d, 5+0", `correspondence control "3d" has no further periods`},
		{"5d3", `unexpected "3" after correspondence control "5d"`},
		{"40/3d", `"3d": days and hours are for correspondence, which has no move count`},
		{"40/90, 3d", `"3d": days and hours are for correspondence, which has a single allowance per move`},
		{"0d", `correspondence allowance "0d" is zero`},
		{"31d", `correspondence allowance 31d is outside 1h to 30d`},
		{"1.5h", `correspondence allowance 5400s is not a whole number of hours`},
		{"5x", `unexpected "x"`},
		{"blitz", `unexpected "blitz": a period starts with a number`},
		{"5+3 extra", `unexpected "extra"`},
		{"\xff", `not valid UTF-8`},
		{strings.Repeat("1", 200), `longer than 120 bytes`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want error containing %q", tt.in, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) error = %q, want it to contain %q", tt.in, err, tt.want)
		}
		if !strings.HasPrefix(err.Error(), "time control ") {
			t.Errorf("Parse(%q) error = %q, want it to name the input", tt.in, err)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		tc   TimeControl
		want string // "" for valid
	}{
		{"zero is unknown", TimeControl{}, ""},
		{"untimed", TimeControl{Untimed: true}, ""},
		{"live", live(sd(5*minute, 3*second)), ""},
		{"mixed", TimeControl{Periods: []Period{sd(5*minute, 0)}, PerMove: day}, "not a mix"},
		{"untimed with periods", TimeControl{Periods: []Period{sd(5*minute, 0)}, Untimed: true}, "not a mix"},
		{"delay without live", TimeControl{PerMove: day, DelayMode: Simple, Delay: second}, "a delay needs a live control, not correspondence"},
		{"delay without mode", TimeControl{Periods: []Period{sd(5*minute, 0)}, Delay: second}, "has no delay mode"},
		{"bad mode", TimeControl{Periods: []Period{sd(5*minute, 0)}, DelayMode: 9, Delay: second}, "unknown delay mode 9"},
		{"fractional base", live(sd(1500*time.Millisecond, 0)), "base time 1.5s is not a whole number of seconds"},
		{"fractional delay", TimeControl{Periods: []Period{sd(5*minute, 0)}, DelayMode: Bronstein, Delay: 1500 * time.Millisecond}, "delay 1.5s is not a whole number"},
		{"negative increment", live(sd(5*minute, -second)), "increment -1s is negative"},
		{"negative moves", live(Period{Moves: -1, Base: minute}), "move count -1 is negative"},
		{"too many periods", live(Period{40, minute, 0}, Period{40, minute, 0}, Period{40, minute, 0}, Period{40, minute, 0}, Period{40, minute, 0}, sd(minute, 0)), "6 periods is more than 5"},
		{"negative per move", TimeControl{PerMove: -hour}, "per-move allowance -1h0m0s is negative"},
		{"per move minutes", TimeControl{PerMove: 90 * minute}, "not a whole number of hours"},
		{"per move short", TimeControl{PerMove: 0}, ""},
	}
	for _, tt := range tests {
		err := tt.tc.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: Validate() = %v, want nil", tt.name, err)
		case tt.want != "" && err == nil:
			t.Errorf("%s: Validate() = nil, want error containing %q", tt.name, tt.want)
		case tt.want != "" && !strings.Contains(err.Error(), tt.want):
			t.Errorf("%s: Validate() = %q, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

func TestKindAndInitialTime(t *testing.T) {
	tests := []struct {
		in      string
		kind    Kind
		initial time.Duration
	}{
		{"?", KindUnknown, 0},
		{"-", KindUntimed, 0},
		{"40/90+30, 30+30", KindLive, 90 * minute},
		{"3d", KindCorrespondence, 3 * day},
	}
	for _, tt := range tests {
		tc, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.Kind(); got != tt.kind {
			t.Errorf("%q.Kind() = %v, want %v", tt.in, got, tt.kind)
		}
		if got := tc.InitialTime(); got != tt.initial {
			t.Errorf("%q.InitialTime() = %v, want %v", tt.in, got, tt.initial)
		}
	}
	names := map[Kind]string{KindUnknown: "unknown", KindUntimed: "untimed", KindLive: "live", KindCorrespondence: "correspondence", 7: "Kind(7)"}
	for k, want := range names {
		if k.String() != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, k.String(), want)
		}
	}
	modes := map[DelayMode]string{NoDelay: "none", Simple: "simple", Bronstein: "bronstein", 5: "DelayMode(5)"}
	for m, want := range modes {
		if m.String() != want {
			t.Errorf("DelayMode(%d).String() = %q, want %q", m, m.String(), want)
		}
	}
}

func TestTimeControlText(t *testing.T) {
	type record struct {
		Control TimeControl
	}
	for _, in := range []string{"40/90+30, 30+30", "5+0 b3", "3d", "-", "?"} {
		tc, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(record{tc})
		if err != nil {
			t.Fatalf("marshal %q: %v", in, err)
		}
		if want := `{"Control":"` + tc.String() + `"}`; string(data) != want {
			t.Errorf("json of %q = %s, want %s", in, data, want)
		}
		var back record
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", data, err)
		}
		if !back.Control.Equal(tc) {
			t.Errorf("json round trip of %q gave %v", in, back.Control)
		}
	}
	if _, err := json.Marshal(record{live(sd(0, 0))}); err == nil {
		t.Error("marshalling an invalid control succeeded")
	}
	var back record
	if err := json.Unmarshal([]byte(`{"Control":"5+"}`), &back); err == nil {
		t.Error("unmarshalling a bad control succeeded")
	}
}

func TestEqual(t *testing.T) {
	a := live(Period{40, 90 * minute, 30 * second}, sd(30*minute, 30*second))
	tests := []struct {
		b    TimeControl
		want bool
	}{
		{live(Period{40, 90 * minute, 30 * second}, sd(30*minute, 30*second)), true},
		{live(Period{40, 90 * minute, 30 * second}), false},
		{live(Period{40, 90 * minute, 30 * second}, sd(30*minute, 20*second)), false},
		{TimeControl{Periods: a.Periods, DelayMode: Simple, Delay: second}, false},
	}
	for i, tt := range tests {
		if got := a.Equal(tt.b); got != tt.want {
			t.Errorf("case %d: Equal = %v, want %v", i, got, tt.want)
		}
	}
	if !(TimeControl{Periods: []Period{}}).Equal(TimeControl{}) {
		t.Error("empty and nil periods differ")
	}
}
