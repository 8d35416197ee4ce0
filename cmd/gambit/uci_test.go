package main

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
)

// TestUCIScriptedSession runs `gambit uci` with a scripted GUI on its input: the CI
// check that the engine speaks UCI, including stop during go infinite.
func TestUCIScriptedSession(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	old := uciStdin
	uciStdin = inR
	defer func() { uciStdin = old }()
	done := make(chan error, 1)
	go func() {
		done <- runUCI([]string{"--hash", "4", "--seed", "1"}, outW, io.Discard)
		outW.Close()
	}()
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatalf("send %q: %v", s, err)
		}
	}
	expect := func(prefix string, wait time.Duration) string {
		t.Helper()
		deadline := time.After(wait)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("output ended before %q", prefix)
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-deadline:
				t.Fatalf("no %q within %v", prefix, wait)
			}
		}
	}
	legal := func(line string, pos chesscore.Position) {
		t.Helper()
		f := strings.Fields(line)
		if len(f) < 2 {
			t.Fatalf("bad line %q", line)
		}
		if _, err := pos.ParseUCI(f[1]); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
	}

	send("uci")
	expect("id name Gambit", 5*time.Second)
	expect("uciok", 5*time.Second)
	send("isready")
	expect("readyok", 5*time.Second)
	send("ucinewgame")
	send("position startpos moves d2d4 d7d5 c2c4")
	send("go depth 6")
	expect("info depth 6 ", 30*time.Second)
	pos := chesscore.StartPosition()
	for _, s := range []string{"d2d4", "d7d5", "c2c4"} {
		m, _ := pos.ParseUCI(s)
		pos = pos.Play(m)
	}
	legal(expect("bestmove ", 5*time.Second), pos)

	send("position startpos")
	send("go infinite")
	expect("info depth 4 ", 10*time.Second)
	stopped := time.Now()
	send("stop")
	legal(expect("bestmove ", 2*time.Second), chesscore.StartPosition())
	if d := time.Since(stopped); d > time.Second {
		t.Errorf("bestmove came %v after stop", d)
	}
	send("quit")
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("gambit uci: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("gambit uci did not quit")
	}
}

func TestUCIFlags(t *testing.T) {
	if err := runUCI([]string{"--level", "9"}, io.Discard, io.Discard); err == nil {
		t.Error("level 9 accepted")
	}
	if err := runUCI([]string{"stray"}, io.Discard, io.Discard); err == nil {
		t.Error("stray argument accepted")
	}
	old := uciStdin
	uciStdin = strings.NewReader("uci\nquit\n")
	defer func() { uciStdin = old }()
	var out strings.Builder
	if err := runUCI([]string{"--level", "3"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "option name Level type spin default 3") {
		t.Errorf("--level 3 not the Level default:\n%s", out.String())
	}
}
