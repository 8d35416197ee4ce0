// Tests of `gambit match`: its flags, and the opening set kept for the calibration.
package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore/engine"
)

// selfEngineCommand is this test binary serving `gambit uci` (see TestMain), as an
// engine command line.
func selfEngineCommand(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GAMBIT_TEST_UCI_ENGINE", "1")
	t.Setenv("GAMBIT_TEST_UCI_ARGS", "--hash 2 --seed 3")
	return exe
}

func TestMatchCLI(t *testing.T) {
	cmd := selfEngineCommand(t)
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := run([]string{"match", "--engine1", cmd, "--engine2", cmd, "--name1", "x", "--name2", "y", "--games", "2",
		"--nodes", "400", "--max-moves", "12", "--pgn", dir + "/m.pgn", "--json", dir + "/m.json"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "x vs y: 2 games") {
		t.Errorf("report:\n%s", out.String())
	}
	for _, f := range []string{"m.pgn", "m.json"} {
		if b, err := os.ReadFile(dir + "/" + f); err != nil || len(b) == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	out.Reset()
	code = run([]string{"match", "--engine1", cmd, "--engine2", cmd, "--games", "2", "--nodes", "300", "--max-moves", "10",
		"--book", "--sprt", "--elo0", "0", "--elo1", "400", "--alpha", "0.2", "--beta", "0.2"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("--book --sprt: exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"pairs 1 ", "SPRT elo0 0 elo1 400 alpha 0.2 beta 0.2: LLR ", "bookgen 001)"} {
		if !strings.Contains(out.String()+errOut.String(), want) {
			t.Errorf("--book --sprt: output lacks %q:\n%s\n%s", want, out.String(), errOut.String())
		}
	}
	for _, bad := range [][]string{
		{"--engine1", cmd},
		{"--engine1", cmd, "--engine2", cmd},
		{"--engine1", cmd, "--engine2", cmd, "--tc", "fast"},
		{"--engine1", cmd, "--engine2", cmd, "--nodes", "10", "--games", "0"},
		{"--engine1", cmd, "--engine2", cmd, "--nodes", "10", "--option1", "Level"},
		{"--engine1", cmd, "--engine2", cmd, "--nodes", "10", "--openings", dir + "/missing.epd"},
		{"--engine1", cmd, "--engine2", cmd, "--nodes", "10", "--sprt", "--elo0", "5", "--elo1", "0"},
		{"--engine1", cmd, "--engine2", cmd, "--nodes", "10", "--sprt", "--alpha", "0.7"},
		{"--engine1", cmd, "--engine2", cmd, "--nodes", "10", "--book", "--openings", dir + "/m.pgn"},
	} {
		if err := runMatch(bad, &out, &errOut); err == nil {
			t.Errorf("runMatch(%q) accepted", bad)
		}
	}
}

func TestEngineCommandSelf(t *testing.T) {
	e, err := engineCommand("self --level 3")
	exe, _ := os.Executable()
	if err != nil || e.Path != exe || strings.Join(e.Args, " ") != "uci --level 3" {
		t.Errorf("engineCommand(self) = %+v, %v", e, err)
	}
	if e, err := engineCommand("stockfish"); err != nil || e.Path != "stockfish" || len(e.Args) != 0 {
		t.Errorf("engineCommand(stockfish) = %+v, %v", e, err)
	}
}

// TestOpeningsFile checks testdata/openings.epd, the opening set of the calibration
// matches (scripts/calibrate.sh): enough balanced, distinct, named positions.
func TestOpeningsFile(t *testing.T) {
	ops, err := readOpeningsFile("testdata/openings.epd")
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) < 50 {
		t.Errorf("%d openings in testdata/openings.epd, want at least 50 (100 games with both colours)", len(ops))
	}
	if ops[0].Name != "Ruy Lopez" || ops[0].Pos.FullmoveNumber() != 4 {
		t.Errorf("first opening %q at move %d, want the Ruy Lopez at move 4", ops[0].Name, ops[0].Pos.FullmoveNumber())
	}
	seen := map[uint64]bool{}
	e := engine.New(engine.Options{HashMB: 4})
	for _, o := range ops {
		if o.Name == "" {
			t.Errorf("%s: no id", o.Pos.FEN())
		}
		if seen[o.Pos.Hash()] {
			t.Errorf("%s appears twice", o.Name)
		}
		seen[o.Pos.Hash()] = true
		// Openings should be playable for both sides: no side a piece up.
		res, _ := e.Search(o.Pos, nil, engine.Limits{Depth: 6})
		if res.Score > 250 || res.Score < -250 {
			t.Errorf("%s: score %s, too lopsided for a match opening", o.Name, res.Score)
		}
	}
}
