package commands

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestCustomIDRoundTrip(t *testing.T) {
	cases := []struct {
		id   CustomID
		want string
	}{
		{NewCustomID("game", 42, 17, "to", "e2", "0"), "v1/game/42/17/to/e2/0"},
		{NewCustomID("challenge", 9, 0, "accept"), "v1/challenge/9/0/accept"},
		{NewCustomID("game", 18446744073709551615, 0, "resign-confirm"), "v1/game/18446744073709551615/0/resign-confirm"},
		{NewCustomID("game", 0, 300, "promote", "e7e8q"), "v1/game/0/300/promote/e7e8q"},
	}
	for _, c := range cases {
		s := c.id.String()
		if s != c.want {
			t.Errorf("String(%+v) = %q, want %q", c.id, s, c.want)
		}
		back, err := ParseCustomID(s)
		if err != nil {
			t.Errorf("ParseCustomID(%q): %v", s, err)
			continue
		}
		if !reflect.DeepEqual(back, c.id) {
			t.Errorf("ParseCustomID(%q) = %+v, want %+v", s, back, c.id)
		}
	}
}

func TestParseCustomIDErrors(t *testing.T) {
	cases := []struct {
		in   string
		want error
	}{
		{"", ErrCustomIDSyntax},
		{"game/42/17/move", ErrCustomIDSyntax},
		{"v1/game/42/17", ErrCustomIDSyntax},
		{"v1/game/x/17/move", ErrCustomIDSyntax},
		{"v1/game/42/-1/move", ErrCustomIDSyntax},
		{"v1/game/042/1/move", ErrCustomIDSyntax},
		{"v1/Game/42/1/move", ErrCustomIDSyntax},
		{"v1/game/42/1/move/", ErrCustomIDSyntax},
		{"v1/game/42/1/move/a b", ErrCustomIDSyntax},
		{"v1/game/99999999999999999999/1/move", ErrCustomIDSyntax},
		{"v0/game/1/1/move", ErrCustomIDSyntax},
		{"v01/game/1/1/move", ErrCustomIDSyntax},
		{"v2/game/1/1/move", ErrCustomIDVersion},
		{"v2/anything at all", ErrCustomIDVersion},
		{"v1/game/1/1/" + strings.Repeat("a", 100), ErrCustomIDSyntax},
	}
	for _, c := range cases {
		_, err := ParseCustomID(c.in)
		if !errors.Is(err, c.want) {
			t.Errorf("ParseCustomID(%q) = %v, want %v", c.in, err, c.want)
		}
	}
}

func TestCustomIDStringPanicsOnBadParts(t *testing.T) {
	for _, id := range []CustomID{
		NewCustomID("Game", 1, 0, "x"),
		NewCustomID("game", 1, -1, "x"),
		NewCustomID("game", 1, 0, "x", "a/b"),
		NewCustomID("game", 1, 0, "x", strings.Repeat("a", 100)),
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("String(%#v) did not panic", id.Args)
				}
			}()
			_ = id.String()
		}()
	}
}

func FuzzParseCustomID(f *testing.F) {
	for _, s := range []string{"v1/game/42/17/to/e2/0", "v1/challenge/9/0/accept", "v2/x", "", "v1/game/1/1/a/", "v1//1/1/a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseCustomID(s)
		if err != nil {
			if !errors.Is(err, ErrCustomIDSyntax) && !errors.Is(err, ErrCustomIDVersion) {
				t.Fatalf("ParseCustomID(%q): error %v wraps neither sentinel", s, err)
			}
			return
		}
		out := id.String()
		if out != s {
			t.Fatalf("ParseCustomID(%q).String() = %q", s, out)
		}
		again, err := ParseCustomID(out)
		if err != nil || !reflect.DeepEqual(again, id) {
			t.Fatalf("round trip of %q: %+v, %v", s, again, err)
		}
	})
}
