// Tests of the match time control's reading and writing.
package match

import (
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	cases := []struct {
		in   string
		want TimeControl
		err  bool
	}{
		{"10+0.1", TimeControl{Base: 10 * time.Second, Inc: 100 * time.Millisecond}, false},
		{"60", TimeControl{Base: time.Minute}, false},
		{"40/60+0.5", TimeControl{Moves: 40, Base: time.Minute, Inc: 500 * time.Millisecond}, false},
		{"0.5+0", TimeControl{Base: 500 * time.Millisecond}, false},
		{"0+1", TimeControl{}, true},
		{"x+1", TimeControl{}, true},
		{"10+y", TimeControl{}, true},
		{"0/10", TimeControl{}, true},
		{"-5", TimeControl{}, true},
		{"NaN", TimeControl{}, true},
	}
	for _, c := range cases {
		got, err := ParseTimeControl(c.in)
		if (err != nil) != c.err || !c.err && got != c.want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v", c.in, got, err)
			continue
		}
		if !c.err {
			again, err := ParseTimeControl(got.String())
			if err != nil || again != got {
				t.Errorf("%q round trip via %q: %+v, %v", c.in, got.String(), again, err)
			}
		}
	}
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"10+0.1", "40/60", "180+2", "1e3", "0.001+0.001", "5/", "+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			return
		}
		if tc.Base <= 0 || tc.Inc < 0 {
			t.Errorf("%q: %+v", s, tc)
		}
	})
}
