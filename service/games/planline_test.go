package games

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gambitchess/gambit/storage"
)

func TestParsePlanLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  string // part of the error; "" for none
	}{
		{"e5 Nf3 Nc6 Bb5", []string{"e5", "Nf3", "Nc6", "Bb5"}, ""},
		{"1...e5 2.Nf3 Nc6 3. Bb5", []string{"e5", "Nf3", "Nc6", "Bb5"}, ""},
		{"1… e5, 2.Nf3!? Nc6?!", []string{"e5", "Nf3", "Nc6"}, ""},
		{"e7e5 g1f3", []string{"e7e5", "g1f3"}, ""},
		{"O-O 0-0-0 e8=Q+ Qxf7#", []string{"O-O", "0-0-0", "e8=Q+", "Qxf7#"}, ""},
		{"", nil, "no moves"},
		{"1. 2...", nil, "no moves"},
		{"Nf3 draw", nil, "cannot offer or claim a draw"},
		{"Nf3 1/2-1/2", nil, "cannot offer or claim a draw"},
		{"Nf3 12.=", nil, "cannot offer or claim a draw"},
		{"Nf3 Zz9", nil, `"Zz9" is not a move`},
		{"Nf3 <@123>", nil, "is not a move"},
		{strings.Repeat("e4 ", 200), nil, "at most 400 characters"},
		{strings.Repeat("e4 ", storage.MaxPlanDepth+1), nil, "at most 24 moves"},
		{"\xff\xfe", nil, "not readable text"},
	} {
		got, err := ParsePlanLine(c.in)
		if c.err == "" {
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParsePlanLine(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParsePlanLine(%q) = %q, %v; want an error saying %q", c.in, got, err, c.err)
		}
	}
}

// FuzzParsePlanLine: whatever the text, the parser either refuses it with a bad
// request or returns 1 to MaxPlanDepth tokens of move characters, each found in the
// text.
func FuzzParsePlanLine(f *testing.F) {
	for _, s := range []string{"e5 Nf3 Nc6 Bb5", "1...e5 2.Nf3", "O-O draw", "1… e5", "e8=Q+", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		moves, err := ParsePlanLine(s)
		if err != nil {
			if !errors.Is(err, ErrBadRequest) || moves != nil {
				t.Fatalf("ParsePlanLine(%q): %q, %v", s, moves, err)
			}
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("ParsePlanLine(%q): the error %q is not valid text", s, err)
			}
			return
		}
		if len(moves) == 0 || len(moves) > storage.MaxPlanDepth {
			t.Fatalf("ParsePlanLine(%q): %d moves", s, len(moves))
		}
		for _, m := range moves {
			if m == "" || !moveChars(m) || !strings.Contains(s, m) {
				t.Fatalf("ParsePlanLine(%q): token %q", s, m)
			}
		}
	})
}
