// Tests of the opening reader (EPD and FEN lines).
package match

import (
	"strings"
	"testing"
)

func TestReadOpenings(t *testing.T) {
	cases := []struct {
		in, err  string
		n        int
		name     string
		fullmove int
	}{
		{"# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n", "", 1, "", 1},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n", "", 1, "e4", 1},
		{"r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - hmvc 3; fmvn 3; id \"Ruy Lopez\";\n", "", 1, "Ruy Lopez", 3},
		{"rnbqkbnr/pppppppp/8/8 w\n", "line 1", 0, "", 0},
		{"8/8/8/8/8/8/8/8 w - -\n", "line 1", 0, "", 0},
		{"7k/6Q1/6K1/8/8/8/8/8 b - -\n", "no legal move", 0, "", 0},
		{"# nothing\n", "no positions", 0, "", 0},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1; id \"unterminated;\n", "", 1, "", 1},
	}
	for _, c := range cases {
		ops, err := ReadOpenings(strings.NewReader(c.in))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ReadOpenings(%q) error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || len(ops) != c.n {
			t.Errorf("ReadOpenings(%q) = %d, %v", c.in, len(ops), err)
			continue
		}
		if ops[0].Name != c.name || ops[0].Pos.FullmoveNumber() != c.fullmove {
			t.Errorf("ReadOpenings(%q) = %q at move %d, want %q at move %d", c.in, ops[0].Name, ops[0].Pos.FullmoveNumber(), c.name, c.fullmove)
		}
	}
}

func TestEPDOps(t *testing.T) {
	got := epdOps(`hmvc 3; fmvn 12; id "A; quoted name"; c0 "e4 e5"; bm Nf3;`)
	want := map[string]string{"hmvc": "3", "fmvn": "12", "id": "A; quoted name", "c0": "e4 e5", "bm": "Nf3"}
	if len(got) != len(want) {
		t.Errorf("epdOps = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("epdOps[%q] = %q, want %q", k, got[k], v)
		}
	}
}

func FuzzReadOpenings(f *testing.F) {
	for _, s := range []string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n# x\n",
		"8/8/8/8/8/8/8/8 w - -", "id \"", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ops, err := ReadOpenings(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, o := range ops {
			if err := o.Pos.Verify(); err != nil || !o.Pos.HasLegalMove() {
				t.Errorf("%q: accepted a bad position %s: %v", s, o.Pos.FEN(), err)
			}
		}
	})
}
