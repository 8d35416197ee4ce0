// Tests of `gambit play` and `gambit games`: transcripts, resuming, refusals.
package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
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
	db := storagetest.OpenFile(t, path, nil)
	defer db.Close() // the next command opens the file
	gs, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) { return tx.GamesByUser(user, storage.Query{}) })
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// contains reports the wants that out lacks.
func contains(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
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
		"Nf3", "takeback", "yes", // the last mover (white) asks for Nf3 back, black agrees
		"Nf3", "Nc6", "draw", "Bb5", // white offers with Bb5
		"draw", // black accepts
	}, "\n") + "\n"
	out, err := playScript(t, input, "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out,
		"Black asks to take back the last move. White, accept? (yes/no): Please answer yes or no.",
		"Takeback declined.",
		"White asks to take back the last move. Black, accept? (yes/no): Move taken back.",
		"Your draw offer goes with your next move.",
		"3. Bb5 (draw offered)",
		"White offers a draw: type draw to accept or decline to refuse",
		"Game over: 1/2-1/2 (agreement).",
		`[Result "1/2-1/2"]`)

	out, err = playScript(t, "d4\nd5\nc4\nresign\n", "--db", db) // a game resigned before both sides moved is aborted
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "Game over: 1-0 (Black resigned).")
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
	contains(t, out, "Incorrect draw claim: the position has appeared twice", "Game over: 1/2-1/2 (threefold repetition).")
	out, err = playScript(t, "abort\n", "--db", db, "--time", "3+2")
	if err != nil || !strings.Contains(out, "Game over: * (aborted).") {
		t.Errorf("abort: %v\n%s", err, out)
	}
}

// TestPlayDrawOfferTooEarly: a draw offer refused with its move does not stick to the
// moves after it (it used to refuse every later move).
func TestPlayDrawOfferTooEarly(t *testing.T) {
	out, err := playScript(t, "draw\ne4\ne4\ne5\n", "--db", tempDB(t))
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "Too early", "Your draw offer is withdrawn", "1. e4\n", "1... e5\n")
}

// TestPlayClocksQuitAndResume: the clocks stand above every prompt; quit leaves the
// game open, gambit games lists it, and --resume goes on with it where it stopped.
func TestPlayClocksQuitAndResume(t *testing.T) {
	db := tempDB(t)
	out, err := playScript(t, "e4\nquit\n", "--db", db, "--time", "5+3", "--unicode")
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "5+3 blitz", "White 5:00 | Black 5:00\nWhite to move: ", "White 5:00 | Black 5:00\nBlack to move: ", "♔",
		"Game 1 stays open in "+db+": gambit play --db "+db+" --resume 1 goes on with it.")

	// A new game says the first is still open.
	out, err = playScript(t, "", "--db", db, "--fen", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "Another terminal game is open: gambit games lists it")

	var list, errOut bytes.Buffer
	if code := run([]string{"games", "--db", db}, &list, &errOut); code != 0 {
		t.Fatalf("gambit games: exit %d: %s", code, errOut.String())
	}
	contains(t, list.String(), "5+3 blitz", "5:00 | 5:00", "1, last 1. e4, Black to move", "0, Black to move")

	out, err = playScript(t, "e5\nquit\n", "--db", db, "--resume", "1")
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "Resuming game 1: White vs Black, 5+3 blitz.", "Moves so far: 1. e4", "last move 1. e4", "1... e5")
	gs := storedGames(t, db, "local:white")
	if len(gs) != 2 || !gs[1].Live() || gs[1].Ply() != 2 || gs[0].StartFEN == "" {
		t.Errorf("stored %+v", gs)
	}
}

// TestPlayResumeAgainstEngine: the engine comes back at its level, on its side.
func TestPlayResumeAgainstEngine(t *testing.T) {
	db := tempDB(t)
	out, err := playScript(t, "quit\n", "--db", db, "--engine", "1", "--color", "black")
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "Gambit engine (level 1) vs You", "1. ", "Black to move: ")
	out, err = playScript(t, "e5\nresign\n", "--db", db, "--resume", "1", "--unicode")
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "Resuming game 1: Gambit engine (level 1) vs You", "1... e5", "2. ", "Game over: 1-0 (Black resigned).")
	if !strings.Contains(out, "  h g f e d c b a") {
		t.Errorf("the board is not from Black's side:\n%s", out)
	}
}

func TestPlayAgainstEngine(t *testing.T) {
	db := tempDB(t)
	out, err := playScript(t, "e5\ntakeback\ne5\nresign\n", "--db", db, "--engine", "1", "--color", "black")
	if err != nil {
		t.Fatal(err)
	}
	contains(t, out, "Gambit engine (level 1) vs You", "1. ", "The engine agrees to the takeback.", "Game over: 1-0 (Black resigned).")
	gs := storedGames(t, db, "local:engine")
	if len(gs) != 1 || gs[0].White.ID != "local:engine" || gs[0].Black.ID != "local:you" {
		t.Errorf("stored %+v", gs)
	}
}

func TestPlayRefuses(t *testing.T) {
	db := tempDB(t)
	if _, err := playScript(t, "e4\nresign\n", "--db", db); err != nil { // game 1, over
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--time", "soon"}, ""},
		{[]string{"--engine", "9"}, "--engine"},
		{[]string{"--engine", "2", "--color", "green"}, "--color"},
		{[]string{"--fen", "not a fen"}, ""},
		{[]string{"stray"}, "unexpected argument"},
		{[]string{"--resume", "1"}, "the game is over"},
		{[]string{"--resume", "99"}, "no such game"},
		{[]string{"--resume", "1", "--time", "5+3"}, "--time does not apply"},
	} {
		_, err := playScript(t, "", append([]string{"--db", db}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
	// A store that another process holds fails fast, with a message that says so; so
	// does gambit games.
	storagetest.OpenFile(t, db, nil) // held until the test ends
	start := time.Now()
	_, err := playScript(t, "", "--db", db)
	if !errors.Is(err, storage.ErrLocked) || time.Since(start) > 5*time.Second {
		t.Errorf("locked store: %v after %v", err, time.Since(start))
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"games", "--db", db}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "holds the file") {
		t.Errorf("gambit games on a held store: exit %d: %s", code, errOut.String())
	}
}
