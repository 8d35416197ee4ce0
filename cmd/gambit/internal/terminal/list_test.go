// Tests of the list of open terminal games.
package terminal

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

func TestWriteOpenGames(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	var out bytes.Buffer
	if err := WriteOpenGames(&out, nil, time.Time{}); err != nil || out.String() != "No open games: gambit play starts one.\n" {
		t.Errorf("empty list %q, %v", out.String(), err)
	}
	untimed := f.start(t, White, Black, "-", &out)
	timed := f.start(t, You, EnginePlayer(4), "5+3", &out)
	for _, m := range []struct {
		s    *Session
		user storage.Player
		move string
	}{{untimed, White, "e4"}, {timed, You, "d4"}, {timed, EnginePlayer(4), "d5"}, {timed, You, "c4"}} {
		if _, err := f.svc.Move(ctx, games.MoveRequest{Action: games.Action{GameID: m.s.GameID, UserID: m.user.ID}, Move: m.move}); err != nil {
			t.Fatal(err)
		}
	}
	f.clk.Advance(20 * time.Second) // Black thinks; the service stops 20 s later
	alive := f.clk.Now()
	f.clk.Advance(time.Hour) // and the list is read an hour after that
	recs, err := f.svc.OpenGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := WriteOpenGames(&out, recs, alive); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	want := [][]string{
		{"ID", "WHITE", "BLACK", "CONTROL", "CLOCKS (W | B)", "MOVES"},
		{"1", "White", "Black", "no clock", "-", "1, last 1. e4, Black to move"},
		{"2", "You", "Gambit engine (level 4)", "5+3 blitz", "5:03 | 4:40", "3, last 2. c4, Black to move"},
	}
	for i, cols := range want {
		for _, c := range cols {
			if !strings.Contains(lines[i], c) {
				t.Errorf("line %d %q lacks %q\n%s", i, lines[i], c, out.String())
			}
		}
	}
	if !strings.Contains(out.String(), "gambit play --resume ID goes on with one.") {
		t.Errorf("no hint:\n%s", out.String())
	}
}
