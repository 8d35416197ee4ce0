// Tests of whole matches, played by this test binary serving the built-in engine.
package match

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/uci"
)

// The test binary doubles as the engines of the matches: with GAMBIT_MATCH_ENGINE=1 it
// serves the built-in engine over UCI on its stdin and stdout.
func TestMain(m *testing.M) {
	if os.Getenv("GAMBIT_MATCH_ENGINE") != "1" {
		os.Exit(m.Run())
	}
	if err := (&uci.Server{Name: "Gambit", HashMB: 2, Seed: 3}).Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// selfEngine is this test binary as a UCI engine.
func selfEngine(t *testing.T, name string) Engine {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GAMBIT_MATCH_ENGINE", "1")
	return Engine{Name: name, Path: exe}
}

func TestPlayTinyMatch(t *testing.T) {
	var pgn, progress bytes.Buffer
	ops, err := ReadOpenings(strings.NewReader("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"Two knights\";\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, b := selfEngine(t, "gambit-a"), selfEngine(t, "gambit-b")
	b.Options = []uci.OptionValue{{Name: "Level", Value: "2"}}
	cfg := Config{
		Engines: [2]Engine{a, b}, Games: 2, Openings: ops, TimeControl: TimeControl{Base: 2 * time.Second, Inc: 20 * time.Millisecond},
		Margin: time.Second, Concurrency: 1, Adjudication: Adjudication{ResignScore: 600, ResignMoves: 2, MaxMoves: 40},
		PGN: &pgn, Progress: &progress,
	}
	res, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 2 || res.Wins+res.Draws+res.Losses != 2 {
		t.Fatalf("result %+v", res)
	}
	if res.Engine1 != "gambit-a" || res.Engine2 != "gambit-b" {
		t.Errorf("names %q %q", res.Engine1, res.Engine2)
	}
	games, err := chesscore.ReadPGN(strings.NewReader(pgn.String()), dead.Decider{})
	if err != nil {
		t.Fatalf("the match PGN does not read back: %v\n%s", err, pgn.String())
	}
	if len(games) != 2 {
		t.Fatalf("%d games in the PGN", len(games))
	}
	whites := map[string]bool{}
	for _, g := range games {
		whites[g.Tags["White"]] = true
		if !g.Game.Over() {
			t.Errorf("round %s did not finish", g.Tags["Round"])
		}
		if g.Tags["Opening"] != "Two knights" || g.Tags["TimeControl"] != "2+0.02" {
			t.Errorf("tags %v", g.Tags)
		}
		if g.Game.Ply() == 0 || !g.Moves[0].HasClock {
			t.Errorf("round %s: no moves or no clock comments", g.Tags["Round"])
		}
	}
	if !whites["gambit-a"] || !whites["gambit-b"] {
		t.Errorf("each engine should have White once: %v", whites)
	}
	if n := strings.Count("\n"+progress.String(), "\ngame "); n != 2 {
		t.Errorf("progress:\n%s", progress.String())
	}
	var out bytes.Buffer
	if err := res.Report(&out); err != nil || !strings.Contains(out.String(), "Elo difference: ") {
		t.Errorf("report %q, %v", out.String(), err)
	}
}

// TestPlayNamesAndLimits: an engine without a name is called by its UCI id; a match
// without a limit per move, or without games, is refused before any engine starts.
func TestPlayNamesAndLimits(t *testing.T) {
	e := selfEngine(t, "")
	res, err := Play(context.Background(), Config{Engines: [2]Engine{e, e}, Games: 1, Nodes: 300,
		Adjudication: Adjudication{MaxMoves: 6}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 2 || res.Engine1 != "Gambit" || res.Engine2 != "Gambit" {
		t.Errorf("result %+v", res)
	}
	for _, cfg := range []Config{
		{Engines: [2]Engine{e, e}, Games: 2},
		{Engines: [2]Engine{e, e}, Games: 0, Nodes: 10},
	} {
		if _, err := Play(context.Background(), cfg); err == nil {
			t.Errorf("Play(%+v) accepted", cfg)
		}
	}
	if _, err := Play(context.Background(), Config{Engines: [2]Engine{{Path: "/nonexistent/engine"}, e}, Games: 2, Nodes: 10}); err == nil {
		t.Error("a missing engine did not fail the match")
	}
}

func TestParseEngineCommand(t *testing.T) {
	e, err := ParseEngineCommand("  /usr/bin/stockfish  --flag x ")
	if err != nil || e.Path != "/usr/bin/stockfish" || strings.Join(e.Args, " ") != "--flag x" {
		t.Errorf("ParseEngineCommand = %+v, %v", e, err)
	}
	if _, err := ParseEngineCommand("   "); err == nil {
		t.Error("an empty command line was accepted")
	}
}

// TestPlaySPRTStops: a full-strength engine against level 1 gives the SPRT its verdict
// (H1 on wide hypotheses) long before the game cap, and the match stops there with
// whole pairs counted.
func TestPlaySPRTStops(t *testing.T) {
	strong, weak := selfEngine(t, "strong"), selfEngine(t, "weak")
	weak.Options = []uci.OptionValue{{Name: "Level", Value: "1"}}
	test := &SPRT{Elo0: 0, Elo1: 400, Alpha: 0.2, Beta: 0.2}
	res, err := Play(context.Background(), Config{Engines: [2]Engine{strong, weak}, Games: 40, Nodes: 3000,
		Adjudication: Adjudication{ResignScore: 500, ResignMoves: 2, MaxMoves: 80}, SPRT: test})
	if err != nil {
		t.Fatal(err)
	}
	if res.SPRT == nil || res.SPRT.Verdict != AcceptH1 || res.SPRT.LLR < res.SPRT.Upper {
		t.Fatalf("SPRT %+v after %d games (%+v), want H1 accepted", res.SPRT, res.Games, res.Pentanomial)
	}
	if res.Games >= 40 || res.Games != 2*res.Pentanomial.Pairs() {
		t.Errorf("%d games for %d pairs: want the match stopped at the verdict, in whole pairs", res.Games, res.Pentanomial.Pairs())
	}
	if _, err := Play(context.Background(), Config{Engines: [2]Engine{strong, weak}, Games: 2, Nodes: 10,
		SPRT: &SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}}); err == nil {
		t.Error("an SPRT with elo0 above elo1 was accepted")
	}
}
