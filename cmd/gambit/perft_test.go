package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/chess960"
	"github.com/gambitchess/gambit/internal/stockfish"
)

func TestPerftCLI(t *testing.T) {
	cases := []struct {
		args     []string
		wantLast string
		wantCode int
		wantErr  string
	}{
		{[]string{"perft", "--depth", "3"}, "8902", 0, ""},
		{[]string{"perft", "--depth", "2", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"}, "2039", 0, ""},
		{[]string{"perft", "--depth", "1", "--divide"}, "20", 0, ""},
		{[]string{"perft", "--depth", "0"}, "", 1, "want a depth from 1 to 15"},
		{[]string{"perft", "--depth", "x"}, "", 2, "invalid value"},
		{[]string{"perft", "--depth", "2", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"}, "", 1, "white has 0 kings"},
		{[]string{"perft", "--depth", "2", "extra"}, "", 1, "unexpected argument"},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		code := run(c.args, &out, &errOut)
		if code == 0 && c.wantCode != 0 || code != 0 && c.wantCode == 0 {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.wantCode, errOut.String())
			continue
		}
		if c.wantErr != "" && !strings.Contains(errOut.String(), c.wantErr) {
			t.Errorf("%v: stderr %q, want it to contain %q", c.args, errOut.String(), c.wantErr)
		}
		if c.wantLast != "" {
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if last := lines[len(lines)-1]; last != c.wantLast {
				t.Errorf("%v: last line %q, want %q", c.args, last, c.wantLast)
			}
		}
	}
	var out bytes.Buffer
	run([]string{"perft", "--depth", "2", "--divide"}, &out, &bytes.Buffer{})
	if !strings.Contains(out.String(), "e2e4: 20\n") {
		t.Errorf("divide output lacks 'e2e4: 20':\n%s", out.String())
	}
}

// parseDivide reads `gambit perft --divide` output into move → count and the total.
func parseDivide(t *testing.T, s string) (map[string]uint64, uint64) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(s), "\n")
	m := map[string]uint64{}
	for _, l := range lines[:len(lines)-1] {
		if l == "" {
			continue
		}
		mv, n, ok := strings.Cut(l, ": ")
		v, err := strconv.ParseUint(n, 10, 64)
		if !ok || err != nil {
			t.Fatalf("bad divide line %q", l)
		}
		m[mv] = v
	}
	total, err := strconv.ParseUint(lines[len(lines)-1], 10, 64)
	if err != nil {
		t.Fatalf("bad total line %q", lines[len(lines)-1])
	}
	return m, total
}

// TestPerftAgainstStockfish plays seeded random legal games and, at positions along them,
// compares `gambit perft --divide` at depth 3 with Stockfish's `go perft 3`.
func TestPerftAgainstStockfish(t *testing.T) {
	sf, err := stockfish.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	games, every := 60, 3
	if testing.Short() {
		games = 10
	}
	rng := rand.New(rand.NewPCG(2026, 12))
	checked := 0
	for g := 0; g < games; g++ {
		pos := chesscore.StartPosition()
		for ply := 0; ply < 160; ply++ {
			var ml chesscore.MoveList
			pos.LegalMoves(&ml)
			if ml.N == 0 {
				break
			}
			if ply%every == 0 {
				comparePerft(t, sf, pos.FEN())
				checked++
			}
			// Prefer captures and promotions now and then, to reach sharp endings.
			m := ml.Moves[rng.IntN(ml.N)]
			if rng.IntN(3) == 0 {
				for _, c := range ml.Slice() {
					if pos.IsCapture(c) || c.Kind() != chesscore.NormalMove {
						m = c
						break
					}
				}
			}
			pos = pos.Play(m)
		}
	}
	t.Logf("compared %d positions with Stockfish", checked)
}

// TestPerftAgainstStockfish960 is TestPerftAgainstStockfish from Chess960 start positions
// drawn at random, Stockfish in UCI_Chess960 mode: castling of every shape, with the
// rights lost along the way.
func TestPerftAgainstStockfish960(t *testing.T) {
	sf, err := stockfish.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	if err := sf.SetChess960(true); err != nil {
		t.Fatal(err)
	}
	games, every := 30, 4
	if testing.Short() {
		games = 6
	}
	rng := rand.New(rand.NewPCG(960, 12))
	checked := 0
	for g := 0; g < games; g++ {
		pos, err := chess960.Start(chess960.Random(rng))
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 80; ply++ {
			var ml chesscore.MoveList
			pos.LegalMoves(&ml)
			if ml.N == 0 {
				break
			}
			if ply%every == 0 {
				comparePerft(t, sf, pos.FEN(), "--chess960")
				checked++
			}
			m := ml.Moves[rng.IntN(ml.N)]
			for _, c := range ml.Slice() { // castle whenever it can: that is what is tested
				if c.Kind() == chesscore.CastlingMove && rng.IntN(2) == 0 {
					m = c
				}
			}
			pos = pos.Play(m)
		}
	}
	t.Logf("compared %d Chess960 positions with Stockfish", checked)
}

func comparePerft(t *testing.T, sf *stockfish.Engine, fen string, flags ...string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(append([]string{"perft", "--depth", "3", "--divide", "--fen", fen}, flags...), &out, &errOut); code != 0 {
		t.Fatalf("gambit perft on %q: exit %d: %s", fen, code, errOut.String())
	}
	ours, total := parseDivide(t, out.String())
	theirs, err := sf.Perft(fen, 3)
	if err != nil {
		t.Fatal(err)
	}
	if total == theirs.Nodes && len(ours) == len(theirs.Divide) {
		same := true
		for mv, n := range ours {
			same = same && theirs.Divide[mv] == n
		}
		if same {
			return
		}
	}
	var diffs []string
	for mv, n := range ours {
		if theirs.Divide[mv] != n {
			diffs = append(diffs, fmt.Sprintf("%s: gambit %d, stockfish %d", mv, n, theirs.Divide[mv]))
		}
	}
	for mv, n := range theirs.Divide {
		if _, ok := ours[mv]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: gambit -, stockfish %d", mv, n))
		}
	}
	sort.Strings(diffs)
	t.Errorf("perft 3 of %q: gambit %d, stockfish %d\n%s", fen, total, theirs.Nodes, strings.Join(diffs, "\n"))
}
