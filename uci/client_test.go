package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/internal/syncbuf"
)

// The test binary doubles as the engines the client tests drive: with GAMBIT_UCI_FAKE set
// it runs the built-in server, or a misbehaving fake, on its stdin and stdout.
func TestMain(m *testing.M) {
	switch mode := os.Getenv("GAMBIT_UCI_FAKE"); mode {
	case "":
		os.Exit(m.Run())
	case "gambit":
		if err := (&Server{HashMB: 2}).Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	default:
		fakeEngine(mode)
		os.Exit(0)
	}
}

// fakeEngine speaks enough UCI to misbehave in the way mode says:
//
//	hang        never answers go, ignores stop
//	late        answers go only after stop
//	crash       exits on go, after a word on stderr
//	crash-once  exits on the first go of the marker file's life ($GAMBIT_UCI_MARKER)
//	illegal     answers go with an illegal move
//	nouciok     never finishes the handshake
func fakeEngine(mode string) {
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) { fmt.Fprintln(out, s); out.Flush() }
	pos := cc.StartPosition()
	sc := bufio.NewScanner(os.Stdin)
	searching := false
	first := func() string {
		var ml cc.MoveList
		pos.LegalMoves(&ml)
		if ml.N == 0 {
			return "0000"
		}
		return ml.Moves[0].UCI()
	}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			if mode == "nouciok" {
				continue
			}
			say("id name Fake " + mode)
			say("option name Hash type spin default 1 min 1 max 16")
			say("uciok")
		case "isready":
			say("readyok")
		case "position":
			if _, p, err := ParsePosition(f[1:], false); err == nil {
				pos = p
			}
		case "go":
			switch mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "fake engine: crashing on go")
				os.Exit(3)
			case "crash-once":
				marker := os.Getenv("GAMBIT_UCI_MARKER")
				if _, err := os.Stat(marker); err != nil {
					os.WriteFile(marker, []byte("crashed"), 0o644)
					fmt.Fprintln(os.Stderr, "fake engine: crashing once")
					os.Exit(3)
				}
				say("info depth 1 score cp 10 pv " + first())
				say("bestmove " + first())
			case "illegal":
				say("bestmove e2e5")
			case "late":
				searching = true
			case "hang":
			}
		case "stop":
			if searching {
				say("bestmove " + first())
				searching = false
			}
		case "quit":
			if mode == "hang" {
				continue // a hung engine does not quit either
			}
			return
		}
	}
}

// fakeConfig runs this test binary as an engine in the given mode.
func fakeConfig(t *testing.T, mode string, logs *syncbuf.Buffer) Config {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GAMBIT_UCI_FAKE", mode)
	t.Setenv("GAMBIT_UCI_MARKER", t.TempDir()+"/crashed")
	cfg := Config{Name: "fake-" + mode, Path: exe, Grace: 300 * time.Millisecond, StartTimeout: 5 * time.Second}
	if logs != nil {
		cfg.Log = slog.New(slog.NewTextHandler(logs, nil))
	}
	return cfg
}

func TestClientDrivesGambit(t *testing.T) {
	ctx := context.Background()
	cfg := fakeConfig(t, "gambit", nil)
	cfg.Options = []OptionValue{{"Hash", "4"}, {"Level", "8"}}
	c, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if name, _ := c.ID(); name != "Gambit" {
		t.Errorf("id name %q", name)
	}
	if len(c.Options()) == 0 {
		t.Error("no options declared")
	}
	if err := c.NewGame(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := c.Go(ctx, Position{}, GoParams{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	start := cc.StartPosition()
	if !start.IsLegal(res.BestMove) || !res.Info.HasScore || res.Info.Depth != 4 {
		t.Errorf("go depth 4: %+v", res)
	}

	g := cc.NewGame(cc.StartPosition(), dead.Decider{})
	for ply := 0; ply < 4; ply++ {
		m, err := c.BestMove(ctx, g, &engine.TimeLeft{Remaining: 2 * time.Second, Increment: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("engine move %s: %v", m, err)
		}
	}
	lines, err := c.Analyse(ctx, g, GoParams{Depth: 4}, 3)
	if err != nil || len(lines) != 3 {
		t.Fatalf("analyse: %d lines, %v", len(lines), err)
	}
	pos := g.Position()
	for _, l := range lines {
		if !pos.IsLegal(l.Move) || l.PV[0] != l.Move {
			t.Errorf("analysis line %+v", l)
		}
	}
	// go infinite ends when the context does, with a move and no error.
	cctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
	defer cancel()
	res, err = c.Go(cctx, PositionOf(g), GoParams{Infinite: true})
	if err != nil || !pos.IsLegal(res.BestMove) {
		t.Errorf("go infinite then cancel: %+v, %v", res, err)
	}
	// Untimed: the configured think time.
	if m, err := c.BestMove(ctx, g, nil); err != nil || !pos.IsLegal(m) {
		t.Errorf("untimed: %s, %v", m, err)
	}
	over := cc.NewGame(mustFENPos(t, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), dead.Decider{})
	if _, err := c.BestMove(ctx, over, nil); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("game over: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Error(err)
	}
	if _, err := c.Go(ctx, Position{}, GoParams{Depth: 1}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

func mustFENPos(t *testing.T, fen string) cc.Position {
	t.Helper()
	p, err := cc.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestClientHungEngineIsKilledAndRestarted(t *testing.T) {
	var logs syncbuf.Buffer
	cfg := fakeConfig(t, "hang", &logs)
	cfg.MaxRestarts = 1
	ctx := context.Background()
	c, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	begin := time.Now()
	_, err = c.Go(ctx, Position{}, GoParams{MoveTime: 100 * time.Millisecond})
	if !errors.Is(err, ErrHung) {
		t.Fatalf("hung engine: error %v, want ErrHung", err)
	}
	// movetime 100 ms + grace 300 ms, then stop + grace 300 ms.
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("gave up after %v", d)
	}
	// The next request restarts it (and it hangs again); then the client gives up.
	if _, err := c.Go(ctx, Position{}, GoParams{MoveTime: 50 * time.Millisecond}); !errors.Is(err, ErrHung) {
		t.Errorf("second request: %v, want ErrHung after a restart", err)
	}
	if _, err := c.Go(ctx, Position{}, GoParams{MoveTime: 50 * time.Millisecond}); !errors.Is(err, ErrGivenUp) {
		t.Errorf("third request: %v, want ErrGivenUp", err)
	}
	for _, want := range []string{"engine is late; sending stop", "engine failed", "restarting engine", "engine=fake-hang"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

func TestClientCrashIsRetried(t *testing.T) {
	var logs syncbuf.Buffer
	c, err := Start(context.Background(), fakeConfig(t, "crash-once", &logs))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g := cc.NewGame(cc.StartPosition(), dead.Decider{})
	m, err := c.BestMove(context.Background(), g, &engine.TimeLeft{Remaining: 5 * time.Second})
	if err != nil {
		t.Fatalf("BestMove after a crash: %v", err)
	}
	start := cc.StartPosition()
	if !start.IsLegal(m) {
		t.Errorf("move %s", m)
	}
	for _, want := range []string{"engine crashed during search", "crashing once", "retrying the move"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

func TestClientCrashEveryTime(t *testing.T) {
	cfg := fakeConfig(t, "crash", nil)
	cfg.MaxRestarts = 2
	c, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Go(context.Background(), Position{}, GoParams{Depth: 1})
	if !errors.Is(err, ErrCrashed) {
		t.Errorf("error %v, want ErrCrashed", err)
	}
}

func TestClientLateEngineAnswersStop(t *testing.T) {
	var logs syncbuf.Buffer
	c, err := Start(context.Background(), fakeConfig(t, "late", &logs))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Go(context.Background(), Position{}, GoParams{MoveTime: 20 * time.Millisecond})
	start := cc.StartPosition()
	if err != nil || !start.IsLegal(res.BestMove) {
		t.Errorf("late engine: %+v, %v", res, err)
	}
	if !strings.Contains(logs.String(), "engine is late") {
		t.Errorf("no warning logged:\n%s", logs.String())
	}
}

func TestClientStartFailures(t *testing.T) {
	cfg := fakeConfig(t, "nouciok", nil)
	cfg.StartTimeout = 200 * time.Millisecond
	if _, err := Start(context.Background(), cfg); !errors.Is(err, ErrHung) {
		t.Errorf("no uciok: %v, want ErrHung", err)
	}
	if _, err := Start(context.Background(), Config{Path: "/nonexistent/engine"}); err == nil {
		t.Error("missing binary accepted")
	}
	c, err := Start(context.Background(), fakeConfig(t, "illegal", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Go(context.Background(), Position{}, GoParams{Depth: 1}); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("illegal answer: %v, want ErrIllegalMove", err)
	}
	if _, err := c.Go(context.Background(), Position{Moves: []cc.Move{cc.NewMove(cc.E2, cc.E5)}}, GoParams{Depth: 1}); !errors.Is(err, ErrBadPosition) {
		t.Errorf("illegal position: %v", err)
	}
}
