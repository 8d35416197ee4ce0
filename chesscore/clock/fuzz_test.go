package clock

import (
	"testing"
)

// The seed corpora live in testdata/fuzz/<FuzzName>; these add a few more.

func FuzzParse(f *testing.F) {
	for _, s := range []string{"5+3", "40/90+30, 30+30", "5+0 d3", "3d", "½+0", "5+", "1/2+0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := Parse(s)
		if err != nil {
			return
		}
		if err := tc.Validate(); err != nil {
			t.Fatalf("Parse(%q) gave an invalid control: %v", s, err)
		}
		canon := tc.String()
		again, err := Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) = %q, which does not parse: %v", s, canon, err)
		}
		if !again.Equal(tc) {
			t.Fatalf("Parse(%q) = %#v, but Parse(%q) = %#v", s, tc, canon, again)
		}
		if again.String() != canon {
			t.Fatalf("String not stable: %q then %q", canon, again.String())
		}
		fromPGN, err := ParsePGN(tc.PGN())
		if err != nil {
			t.Fatalf("ParsePGN(%q) (from %q): %v", tc.PGN(), s, err)
		}
		noDelay := tc
		noDelay.DelayMode, noDelay.Delay = NoDelay, 0
		if !fromPGN.Equal(noDelay) {
			t.Fatalf("PGN round trip of %q: %q gave %q", s, tc.PGN(), fromPGN)
		}
		_ = tc.Category()
		if k := tc.Kind(); k == KindLive || k == KindCorrespondence {
			if _, err := New(tc); err != nil {
				t.Fatalf("New(%q): %v", canon, err)
			}
		}
	})
}

func FuzzParsePGN(f *testing.F) {
	for _, s := range []string{"40/5400+30:1800+30", "300+3", "-", "?", "1/259200", "*180"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParsePGN(s)
		if err != nil {
			return
		}
		if err := tc.Validate(); err != nil {
			t.Fatalf("ParsePGN(%q) gave an invalid control: %v", s, err)
		}
		again, err := ParsePGN(tc.PGN())
		if err != nil || !again.Equal(tc) {
			t.Fatalf("ParsePGN(%q) = %v; its PGN %q gave %v, %v", s, tc, tc.PGN(), again, err)
		}
		human, err := Parse(tc.String())
		if err != nil || !human.Equal(tc) {
			t.Fatalf("ParsePGN(%q) = %v; Parse(%q) gave %v, %v", s, tc, tc.String(), human, err)
		}
	})
}

func FuzzParseCategory(f *testing.F) {
	for _, s := range []string{"blitz", "Classical", "none", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCategory(s)
		if err != nil {
			return
		}
		if again, err := ParseCategory(c.String()); err != nil || again != c {
			t.Fatalf("ParseCategory(%q) = %v, but ParseCategory(%q) = %v, %v", s, c, c.String(), again, err)
		}
	})
}
