// Tests of the opening reader (EPD and FEN lines).
package match

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
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

// TestBook checks the built-in book (tools/bookgen): enough distinct, legal positions
// for a 200-game match without repeating one, each scored within ±50 cp by the oracle at
// depth 14 or more, with the moves that lead there.
func TestBook(t *testing.T) {
	ops, err := Book()
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) < 100 {
		t.Fatalf("%d positions, want at least 100", len(ops))
	}
	seen := map[string]bool{}
	n := 0
	for _, line := range strings.Split(balancedBook, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		e, err := chesscore.ParseEPD(line)
		if err != nil {
			t.Fatal(err)
		}
		ce, ok1 := e.Op("ce")
		acd, ok2 := e.Op("acd")
		c0, ok3 := e.Op("c0")
		score, err1 := strconv.Atoi(ce.Operand())
		depth, err2 := strconv.Atoi(acd.Operand())
		if !ok1 || !ok2 || !ok3 || err1 != nil || err2 != nil || score < -50 || score > 50 || depth < 14 {
			t.Errorf("line %q: want ce within ±50, acd ≥ 14 and c0", line)
		}
		g := chesscore.NewGame(chesscore.StartPosition(), dead.Decider{})
		for _, san := range strings.Fields(c0.Operand()) {
			if _, err := g.PlaySAN(san); err != nil {
				t.Fatalf("line %q: %s: %v", line, san, err)
			}
		}
		key := strings.Join(strings.Fields(e.FEN)[:4], " ")
		end := g.Position()
		if got := strings.Join(strings.Fields(end.FEN())[:4], " "); got != key {
			t.Errorf("line %q: its moves lead to %s", line, got)
		}
		if seen[key] {
			t.Errorf("line %q repeats a position", line)
		}
		seen[key] = true
		if ops[n].Pos.InCheck() {
			t.Errorf("line %q: the side to move is in check", line)
		}
		n++
	}
}
