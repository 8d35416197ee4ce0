package chesscore

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// perftCase is one line of testdata/perftsuite.epd.
type perftCase struct {
	fen    string
	src    string
	counts map[int]uint64
}

func loadPerftSuite(t testing.TB) []perftCase {
	t.Helper()
	f, err := os.Open("testdata/perftsuite.epd")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		e, err := ParseEPD(text)
		if err != nil {
			t.Fatalf("perftsuite.epd:%d: %v", line, err)
		}
		c := perftCase{fen: e.FEN, counts: map[int]uint64{}}
		for _, op := range e.Ops {
			switch key, val := op.Code, op.Operand(); {
			case key == "src":
				c.src = val
			case strings.HasPrefix(key, "D"):
				d, err1 := strconv.Atoi(key[1:])
				n, err2 := strconv.ParseUint(val, 10, 64)
				if err1 != nil || err2 != nil {
					t.Fatalf("perftsuite.epd:%d: bad operation %q", line, op)
				}
				c.counts[d] = n
			}
		}
		cases = append(cases, c)
	}
	return cases
}

func TestPerftSuite(t *testing.T) {
	for _, c := range loadPerftSuite(t) {
		t.Run(c.src, func(t *testing.T) {
			pos, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatalf("ParseFEN(%q): %v", c.fen, err)
			}
			before := pos
			for d := 1; d <= 7; d++ {
				want, ok := c.counts[d]
				if !ok || ((testing.Short() || raceEnabled) && want > 5_000_000) || want > 200_000_000 {
					continue
				}
				if got := Perft(&pos, d); got != want {
					t.Errorf("%s depth %d: got %d, want %d", c.fen, d, got, want)
				}
			}
			if pos != before {
				t.Errorf("position changed by the walk")
			}
		})
	}
}

// TestPerftMakesEveryMove walks the shallow trees making every leaf move (no bulk
// counting) and checks the invariants of every position reached.
func TestPerftMakesEveryMove(t *testing.T) {
	for _, c := range loadPerftSuite(t) {
		pos, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		limit := uint64(300_000)
		if testing.Short() || raceEnabled {
			limit = 10_000
		}
		depth, want := 0, uint64(0)
		for d, n := range c.counts {
			if n <= limit && d > depth {
				depth, want = d, n
			}
		}
		if depth == 0 {
			continue
		}
		var walk func(p *Position, d int) uint64
		walk = func(p *Position, d int) uint64 {
			if err := p.Verify(); err != nil {
				t.Fatalf("%s: %v", p.FEN(), err)
			}
			if d == 0 {
				return 1
			}
			var ml MoveList
			p.LegalMoves(&ml)
			if n := p.CountLegalMoves(); n != ml.N {
				t.Fatalf("%s: CountLegalMoves %d, LegalMoves %d", p.FEN(), n, ml.N)
			}
			var n uint64
			for _, m := range ml.Slice() {
				child := p.Play(m)
				n += walk(&child, d-1)
			}
			return n
		}
		if got := walk(&pos, depth); got != want {
			t.Errorf("%s (%s) depth %d without bulk counting: got %d, want %d", c.fen, c.src, depth, got, want)
		}
	}
}

func TestNoAllocations(t *testing.T) {
	pos, err := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var ml MoveList
	var sink Position
	cases := []struct {
		name string
		f    func()
	}{
		{"LegalMoves", func() { pos.LegalMoves(&ml) }},
		{"CountLegalMoves", func() { _ = pos.CountLegalMoves() }},
		{"Play", func() {
			pos.LegalMoves(&ml)
			for _, m := range ml.Slice() {
				sink = pos.Play(m)
			}
		}},
		{"Perft3", func() { _ = Perft(&pos, 3) }},
		{"PerftNoBulk2", func() { _ = PerftNoBulk(&pos, 2) }},
	}
	for _, c := range cases {
		if n := testing.AllocsPerRun(20, c.f); n != 0 {
			t.Errorf("%s allocates %.1f times per run, want 0", c.name, n)
		}
	}
	_ = sink
}

func BenchmarkPerft(b *testing.B) {
	kiwi := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	for _, c := range []struct {
		name  string
		fen   string
		depth int
	}{
		{"start/d5", StartFEN, 5},
		{"start/d6", StartFEN, 6},
		{"kiwipete/d4", kiwi, 4},
		{"kiwipete/d5", kiwi, 5},
	} {
		pos, err := ParseFEN(c.fen)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name  string
			perft func(*Position, int) uint64
		}{{"bulk", Perft}, {"nobulk", PerftNoBulk}} {
			b.Run(c.name+"/"+mode.name, func(b *testing.B) {
				var nodes uint64
				for i := 0; i < b.N; i++ {
					nodes += mode.perft(&pos, c.depth)
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			})
		}
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	pos, _ := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	var ml MoveList
	for i := 0; i < b.N; i++ {
		pos.LegalMoves(&ml)
	}
}

// BenchmarkInitTables measures the start-up cost of building every attack table.
func BenchmarkInitTables(b *testing.B) {
	for i := 0; i < b.N; i++ {
		initAttacks()
	}
}
