package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTournamentPairFixtures(t *testing.T) {
	tests := []struct{ file, want string }{
		{"../../tournament/trf/testdata/bye_c5.trf", "1 5\n3 2\n6 0\n"},
		{"../../tournament/trf/testdata/bye_c9.trf", "2 1\n3 5\n4 0\n"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		if err := runGroup("tournament", []string{"pair", "--system", "dutch", "--trf", tt.file}, &out, &errb); err != nil {
			t.Fatalf("%s: %v (%s)", tt.file, err, errb.String())
		}
		if out.String() != tt.want {
			t.Errorf("%s: got\n%s want\n%s", tt.file, out.String(), tt.want)
		}
	}
}

func TestTournamentPairRoundOne(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 6; i++ {
		b.WriteString("001 " + pad(i) + "      Player" + pad(i) + "\n")
	}
	b.WriteString("XXR 5\nXXC black1\n")
	path := filepath.Join(dir, "r1.trf")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runGroup("tournament", []string{"pair", "--trf", path}, &out, &out); err != nil {
		t.Fatal(err)
	}
	// black1: pairing number 1 gets Black in round 1.
	if got, want := out.String(), "4 1\n2 5\n6 3\n"; got != want {
		t.Fatalf("got\n%s want\n%s", got, want)
	}
}

func pad(i int) string {
	s := "   " + string(rune('0'+i))
	return s[len(s)-4:]
}

func TestTournamentErrors(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{
		nil,
		{"nope"},
		{"pair"},
		{"pair", "--system", "burstein", "--trf", "x"},
		{"pair", "--trf", "/does/not/exist"},
		{"berger", "--players", "1"},
		{"standings", "--trf", "x", "--tiebreaks", "ZZ"},
	} {
		if err := runGroup("tournament", args, &out, &out); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestTournamentBergerAndStandings(t *testing.T) {
	var out bytes.Buffer
	if err := runGroup("tournament", []string{"berger", "--players", "4"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "round 1: 1-4 2-3\n") {
		t.Fatalf("berger output %q", out.String())
	}
	out.Reset()
	if err := runGroup("tournament", []string{"standings", "--trf", "../../tournament/trf/testdata/bye_c5.trf"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "BH/C1") || strings.Count(out.String(), "\n") != 7 {
		t.Fatalf("standings output %q", out.String())
	}
}
