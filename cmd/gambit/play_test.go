package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

var updatePlay = flag.Bool("update-play", false, "rewrite the golden transcripts of gambit play")

// playScript runs gambit play with input as its standard input.
func playScript(t *testing.T, input string, args ...string) (string, error) {
	t.Helper()
	old := playStdin
	playStdin = strings.NewReader(input)
	defer func() { playStdin = old }()
	var out, errb bytes.Buffer
	err := runPlay(args, &out, &errb)
	if errb.Len() > 0 {
		t.Logf("stderr: %s", errb.String())
	}
	return out.String(), err
}

func tempDB(t *testing.T) string { return filepath.Join(t.TempDir(), "gambit.db") }

func storedGames(t *testing.T, path, user string) []*storage.Game {
	t.Helper()
	db, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	gs, err := db.GamesByUser(user, storage.Query{})
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

func TestPlayTranscript(t *testing.T) {
	db := tempDB(t)
	input := strings.Join([]string{
		"help", "Bc4", "e4", "e5", "board", "Bc4", "Nc6", "draw", "Qh5", "decline", "Nf6", "pgn", "Qxf7#",
	}, "\n") + "\n"
	out, err := playScript(t, input, "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(out, db, "DB")
	got = regexp.MustCompile(`\[Date "[0-9.]+"\]`).ReplaceAllString(got, `[Date "DATE"]`)
	golden := filepath.Join("testdata", "play_scholars_mate.txt")
	if *updatePlay {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update-play to create it)", err)
	}
	if got != string(want) {
		t.Errorf("transcript differs from %s (run with -update-play to accept):\n%s", golden, got)
	}
	gs := storedGames(t, db, "local:white")
	if len(gs) != 1 || gs[0].Live() || gs[0].Outcome.Termination != chesscore.Checkmate || gs[0].Black.ID != "local:black" {
		t.Fatalf("stored games %+v", gs)
	}
}

func TestPlayDrawsTakebacksAndResignation(t *testing.T) {
	db := tempDB(t)
	input := strings.Join([]string{
		"e4", "e5",
		"takeback", "maybe", "no", // black asks for e5 back; white refuses
		"Nf3", "takeback", "yes", // black asks for... white's Nf3? no: the last mover (white) asks, black agrees
		"Nf3", "Nc6", "draw", "Bb5", // white offers with Bb5
		"draw", // black accepts
	}, "\n") + "\n"
	out, err := playScript(t, input, "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Black asks to take back the last move. White, accept? (yes/no): Please answer yes or no.",
		"Takeback declined.",
		"White asks to take back the last move. Black, accept? (yes/no): Move taken back.",
		"Your draw offer goes with your next move.",
		"3. Bb5 (draw offered)",
		"White offers a draw: type draw to accept or decline to refuse",
		"Game over: 1/2-1/2 (agreement).",
		`[Result "1/2-1/2"]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, err = playScript(t, "d4\nresign\n", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Game over: 1-0 (Black resigned).") {
		t.Errorf("resignation:\n%s", out)
	}
	if gs := storedGames(t, db, "local:black"); len(gs) != 2 {
		t.Errorf("%d games stored", len(gs))
	}
}

func TestPlayClaimAndAbort(t *testing.T) {
	db := tempDB(t)
	out, err := playScript(t, "Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nclaim\nclaim Ng8\n", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Incorrect draw claim: the position has appeared twice") ||
		!strings.Contains(out, "Game over: 1/2-1/2 (threefold repetition).") {
		t.Errorf("claims:\n%s", out)
	}
	out, err = playScript(t, "abort\n", "--db", db, "--time", "3+2")
	if err != nil || !strings.Contains(out, "Game over: * (aborted).") {
		t.Errorf("abort: %v\n%s", err, out)
	}
}

func TestPlayClockAndQuit(t *testing.T) {
	db := tempDB(t)
	out, err := playScript(t, "e4\nquit\n", "--db", db, "--time", "5+3", "--unicode")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"5+3 blitz", "White to move (5:00): ", "Black to move (5:00): ", "♔", "Game 1 stays open in " + db} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The open game waits in the store; a second session starts a new game and leaves the
	// first alone (its clock is not run by gambit play's next session either way).
	if _, err := playScript(t, "", "--db", db, "--fen", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1"); err != nil {
		t.Fatal(err)
	}
	gs := storedGames(t, db, "local:white")
	if len(gs) != 2 || !gs[1].Live() || gs[1].Ply() != 1 || gs[0].StartFEN == "" {
		t.Errorf("stored %+v", gs)
	}
}

func TestPlayAgainstEngine(t *testing.T) {
	db := tempDB(t)
	out, err := playScript(t, "e5\ntakeback\nresign\n", "--db", db, "--engine", "1", "--color", "black")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Gambit engine (level 1) vs You", "1. ", "The engine agrees to the takeback.", "Game over: 1-0 (Black resigned)."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	gs := storedGames(t, db, "local:engine")
	if len(gs) != 1 || gs[0].White.ID != "local:engine" || gs[0].Black.ID != "local:you" {
		t.Errorf("stored %+v", gs)
	}
}

func TestPlayRefuses(t *testing.T) {
	db := tempDB(t)
	for _, args := range [][]string{
		{"--time", "soon"},
		{"--engine", "9"},
		{"--engine", "2", "--color", "green"},
		{"--fen", "not a fen"},
		{"stray"},
	} {
		if _, err := playScript(t, "", append([]string{"--db", db}, args...)...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	// A store that another process holds fails fast, with a message that says so.
	held, err := storage.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	start := time.Now()
	_, err = playScript(t, "", "--db", db)
	if !errors.Is(err, storage.ErrLocked) || time.Since(start) > 5*time.Second {
		t.Errorf("locked store: %v after %v", err, time.Since(start))
	}
}

// playOutput is a bytes.Buffer safe for a writer and a reader on two goroutines.
type playOutput struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *playOutput) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *playOutput) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPlayFlagFallsWhileWaiting: the session ends when the clock runs out at the prompt,
// without any input.
func TestPlayFlagFallsWhileWaiting(t *testing.T) {
	db, err := storage.Open(tempDB(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clk := timers.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	over := make(chan struct{}, 1)
	svc, err := games.New(db, games.Options{Clock: clk, Scope: games.LocalScope, Instance: "play",
		Notifier: games.NotifierFunc(func(_ context.Context, e games.Event) {
			if _, ok := e.(games.GameOver); ok {
				over <- struct{}{}
			}
		})})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	res, err := svc.StartGame(context.Background(), games.StartRequest{White: localWhite, Black: localBlack, Control: "1+0"})
	if err != nil {
		t.Fatal(err)
	}
	out := &playOutput{}
	p := &playSession{out: out, dbPath: "DB", svc: svc, id: res.Game.ID, white: localWhite, black: localBlack}
	lines := make(chan string)
	done := make(chan error)
	go func() { done <- p.loop(context.Background(), lines, over) }()
	lines <- "e4"
	lines <- "e5" // both first moves are free; white's clock runs from here
	for !strings.Contains(out.String(), "White to move") || !strings.Contains(out.String(), "1... e5") {
		time.Sleep(time.Millisecond)
	}
	clk.Advance(time.Minute)
	svc.FireDue()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the session did not end when the flag fell:\n%s", out.String())
	}
	if got := out.String(); !strings.Contains(got, "Game over: 0-1 (White's time ran out).") {
		t.Errorf("output:\n%s", got)
	}
}

// FuzzPlayInput feeds arbitrary lines to a terminal session: it must never fail or
// panic, and the game it leaves in the store must replay.
func FuzzPlayInput(f *testing.F) {
	for _, seed := range []string{
		"e4\ne5\nQh5\nNc6\nBc4\nNf6\nQxf7#",
		"draw\ne4\ndraw\ne5\ndraw\ndecline\ntakeback\nyes\ntakeback\nno\nclaim\nclaim Nf3\nresign",
		"abort", "help\nboard\npgn\nquit", "takeback\nO-O\n0-0-0\ne8=Q\ne2e4\nxx\n\n  \n",
		"Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nclaim Ng8",
	} {
		f.Add(seed)
	}
	db, err := storage.Open(filepath.Join(f.TempDir(), "fuzz.db"), &storage.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	svc, err := games.New(db, games.Options{Scope: games.LocalScope, Instance: "play"})
	if err != nil {
		f.Fatal(err)
	}
	defer svc.Close()
	f.Fuzz(func(t *testing.T, input string) {
		res, err := svc.StartGame(context.Background(), games.StartRequest{White: localWhite, Black: localBlack, Control: "-"})
		if err != nil {
			t.Fatal(err)
		}
		p := &playSession{out: io.Discard, dbPath: "DB", svc: svc, id: res.Game.ID, white: localWhite, black: localBlack}
		lines := make(chan string)
		go func() {
			defer close(lines)
			for _, l := range strings.Split(input, "\n") {
				lines <- l
			}
		}()
		if err := p.loop(context.Background(), lines, nil); err != nil {
			t.Fatal(err)
		}
		for range lines { // drain what the session left unread
		}
		rec, err := db.Game(res.Game.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := games.Replay(rec); err != nil {
			t.Fatal(err)
		}
	})
}
