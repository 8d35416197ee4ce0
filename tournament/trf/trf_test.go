package trf

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/tournament"
)

func TestParseFixture(t *testing.T) {
	f, err := os.Open("testdata/bye_c5.trf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ev, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Rounds != 3 || len(ev.Players) != 6 || ev.Name != "Dutch 2025 C5 test" {
		t.Fatalf("header: rounds %d players %d name %q", ev.Rounds, len(ev.Players), ev.Name)
	}
	p := ev.Players[3]
	if p.Rating != 2689 || p.Name != "Test0004 Player0004" || p.Rank != 5 || len(p.Results) != 3 {
		t.Fatalf("player 4: %+v", p)
	}
	if r := p.Results[2]; r.Opponent != 0 || r.Code != tournament.ZeroBye {
		t.Fatalf("player 4 round 3: %+v", r)
	}
	if r := p.Results[0]; r.Opponent != 1 || r.Color != tournament.Black || r.Code != tournament.Loss {
		t.Fatalf("player 4 round 1: %+v", r)
	}
	if got := ev.Score(&ev.Players[0], -1); got != 20 {
		t.Fatalf("score of 1 = %v", got)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, name := range []string{"testdata/bye_c5.trf", "testdata/bye_c9.trf"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := Write(&out, ev); err != nil {
			t.Fatal(err)
		}
		// Player lines are reproduced column for column.
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "001") && !strings.Contains(out.String(), line) {
				t.Errorf("%s: line not reproduced:\n%s\nin\n%s", name, line, out.String())
			}
		}
		again, err := Parse(&out)
		if err != nil {
			t.Fatal(err)
		}
		if len(again.Players) != len(ev.Players) || again.Rounds != ev.Rounds {
			t.Fatalf("%s: round trip changed the event", name)
		}
	}
}

func TestLineEndingsAndForfeits(t *testing.T) {
	in := "012 X\r001    1      A                                                                  1.0          2 w +\r001    2      B                                                                  0.0          1 b -\rXXR 2\rXXC black1\r"
	ev, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Initial() != tournament.Black || ev.Players[0].Results[0].Played() {
		t.Fatalf("forfeit read as played or colour lost: %+v", ev)
	}
}

func TestParseErrors(t *testing.T) {
	bad := []string{
		"001    x",
		"001    1      A                                                                  1.0          2 w 1\n",
		"001    1      A                                                                  1.0          1 q 1\n",
		"001    2      A\n",
		"XXR zero\n",
		"001    1      A                                                                  1.0       0000 - 1\n",
	}
	for _, s := range bad {
		if _, err := Parse(strings.NewReader(s)); err == nil {
			t.Errorf("accepted %q", s)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/bye_c5.trf", "testdata/bye_c9.trf"} {
		data, err := os.ReadFile(name)
		if err == nil {
			f.Add(string(data))
		}
	}
	f.Add("001    1\nXXR 1\n")
	f.Add("012 name\r\n001    1      A          1.0\r\n")
	f.Add("001    1      A                                                                  1.0          2 w =\n001    2      B                                                                  0.5          1 b =\n")
	f.Fuzz(func(t *testing.T, s string) {
		ev, err := Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, ev); err != nil {
			t.Fatal(err)
		}
		again, err := Parse(&out)
		if err != nil {
			t.Fatalf("written TRF does not parse: %v\n%s", err, out.String())
		}
		if len(again.Players) != len(ev.Players) {
			t.Fatalf("player count changed")
		}
		for i := range ev.Players {
			a, b := ev.Players[i], again.Players[i]
			if len(a.Results) != len(b.Results) || ev.Score(&a, -1) != again.Score(&b, -1) {
				t.Fatalf("player %d changed: %+v vs %+v", a.ID, a, b)
			}
			for r := range a.Results {
				if a.Results[r] != b.Results[r] {
					t.Fatalf("player %d round %d: %+v vs %+v", a.ID, r+1, a.Results[r], b.Results[r])
				}
			}
		}
	})
}
