package tournament

import "testing"

func TestParsePoints(t *testing.T) {
	tests := []struct {
		in   string
		want Points
		ok   bool
	}{
		{"2.5", 25, true}, {"3", 30, true}, {"1,5", 15, true}, {" 10.0 ", 100, true},
		{"0.55", 0, false}, {"x", 0, false}, {"", 0, false}, {"-1.5", -15, true},
	}
	for _, tt := range tests {
		got, err := ParsePoints(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParsePoints(%q) = %v, %v", tt.in, got, err)
		}
	}
	if s := Points(25).String(); s != "2.5" {
		t.Errorf("String = %q", s)
	}
}

func TestValidate(t *testing.T) {
	ev := &Event{Scoring: StandardScoring, Players: []Player{
		{ID: 1, Results: []Result{{Opponent: 2, Color: White, Code: Win}}},
		{ID: 2, Results: []Result{{Opponent: 1, Color: White, Code: Loss}}},
	}}
	if err := ev.Validate(); err == nil {
		t.Fatal("two Whites accepted")
	}
	ev.Players[1].Results[0].Color = Black
	if err := ev.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := ev.Score(&ev.Players[0], -1); got != 10 {
		t.Fatalf("score %v", got)
	}
}

func FuzzParsePoints(f *testing.F) {
	for _, s := range []string{"2.5", "0", "10.0", "1,5", "-3.0", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePoints(s)
		if err != nil {
			return
		}
		q, err := ParsePoints(p.String())
		if err != nil || q != p {
			t.Fatalf("round trip %q -> %v -> %v (%v)", s, p, q, err)
		}
	})
}
