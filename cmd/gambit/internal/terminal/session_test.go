// Tests of a terminal session: input handling, the draw-offer regression, flag falls,
// and fuzzed input.
package terminal

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/syncbuf"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// output is a buffer safe for a writer and a reader on two goroutines.
type output struct{ syncbuf.Buffer }

// waitFor waits until the output contains want.
func (o *output) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(o.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("output never showed %q:\n%s", want, o.String())
		}
		time.Sleep(time.Millisecond)
	}
}

// fixture is a game service on a temporary store, driven by a manual clock; over is
// signalled when a game ends.
type fixture struct {
	svc  *games.Service
	db   *bolt.DB
	clk  *timers.ManualClock
	over chan struct{}
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	db := storagetest.Open(t)
	f := &fixture{db: db, clk: timers.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)), over: make(chan struct{}, 1)}
	var err error
	f.svc, err = games.New(db, games.Options{Clock: f.clk, Scope: games.LocalScope, Instance: "play",
		Notifier: games.NotifierFunc(func(_ context.Context, e games.Event) {
			if _, ok := e.(games.GameOver); ok {
				select {
				case f.over <- struct{}{}:
				default:
				}
			}
		})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.svc.Close() })
	return f
}

// start begins a game between white and black with the control, and returns a session
// on it writing to out.
func (f *fixture) start(t testing.TB, white, black storage.Player, control string, out io.Writer) *Session {
	t.Helper()
	res, err := f.svc.StartGame(context.Background(), games.StartRequest{White: white, Black: black, Control: control})
	if err != nil {
		t.Fatal(err)
	}
	return &Session{Out: out, Games: f.svc, GameID: res.Game.ID, Where: "DB", Now: f.clk.Now}
}

// script runs a session over the lines and returns when the input is used up.
func script(t *testing.T, s *Session, lines ...string) {
	t.Helper()
	in := make(chan string, len(lines))
	for _, l := range lines {
		in <- l
	}
	close(in)
	if err := s.Run(context.Background(), in, nil); err != nil {
		t.Fatal(err)
	}
}

// TestDrawOfferRefusalDropsOffer is the regression test of a draw offer the rules
// refuse: the move that carried it is refused with it, and the offer used to stay
// set, so every later move was refused too. Now the offer is dropped and the move,
// typed again, is played.
func TestDrawOfferRefusalDropsOffer(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		why   string // the refusal
		then  string // the move played once typed again
	}{
		{"too early", []string{"draw", "e4", "e4", "e5"}, "Too early", "1... e5"},
		{"too many offers", []string{
			"e4", "e5",
			"draw", "Nf3", "decline", "Nc6",
			"draw", "Bc4", "decline", "Bc5",
			"draw", "d3", "decline", "Nf6",
			"draw", "Nc3", "Nc3", "d6",
		}, "Too many draw offers", "5... d6"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			var out bytes.Buffer
			s := f.start(t, White, Black, "-", &out)
			script(t, s, c.lines...)
			got := out.String()
			for _, want := range []string{c.why, "Your draw offer is withdrawn and the move was not played: type it again.", c.then} {
				if !strings.Contains(got, want) {
					t.Errorf("output lacks %q:\n%s", want, got)
				}
			}
			g, err := f.svc.Game(context.Background(), s.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.SAN) == 0 {
				t.Fatal("no move was played")
			}
			if last := g.SAN[len(g.SAN)-1]; !strings.HasSuffix(c.then, " "+last) || g.DrawOffer.Pending {
				t.Errorf("last move %s, offer pending %v", last, g.DrawOffer.Pending)
			}
		})
	}
}

// TestFlagFallsWhileWaiting: the session ends when the clock runs out at the prompt,
// without any input.
func TestFlagFallsWhileWaiting(t *testing.T) {
	f := newFixture(t)
	out := &output{}
	s := f.start(t, White, Black, "1+0", out)
	lines := make(chan string)
	done := make(chan error)
	go func() { done <- s.Run(context.Background(), lines, f.over) }()
	lines <- "e4"
	lines <- "e5"
	out.waitFor(t, "1... e5")
	out.waitFor(t, "White to move")
	f.clk.Advance(time.Minute)
	f.svc.FireDue()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the session did not end when the flag fell:\n%s", out.String())
	}
	for _, want := range []string{"Game over: 0-1 (White's time ran out).", "White 0:00.0 | Black 1:00\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// FuzzSessionInput feeds arbitrary lines to a session: it must never fail or panic,
// and the game it leaves in the store must replay.
func FuzzSessionInput(f *testing.F) {
	for _, seed := range []string{
		"e4\ne5\nQh5\nNc6\nBc4\nNf6\nQxf7#",
		"draw\ne4\ndraw\ne5\ndraw\ndecline\ntakeback\nyes\ntakeback\nno\nclaim\nclaim Nf3\nresign",
		"abort", "help\nboard\npgn\nquit", "takeback\nO-O\n0-0-0\ne8=Q\ne2e4\nxx\n\n  \n",
		"Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nclaim Ng8",
	} {
		f.Add(seed)
	}
	fx := newFixture(f)
	f.Fuzz(func(t *testing.T, input string) {
		s := fx.start(t, White, Black, "-", io.Discard)
		lines := make(chan string)
		go func() {
			defer close(lines)
			for _, l := range strings.Split(input, "\n") {
				lines <- l
			}
		}()
		if err := s.Run(context.Background(), lines, nil); err != nil {
			t.Fatal(err)
		}
		for range lines { // drain what the session left unread
		}
		rec, err := storage.Read(t.Context(), fx.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(s.GameID) })
		if err != nil {
			t.Fatal(err)
		}
		if _, err := games.Replay(rec); err != nil {
			t.Fatal(err)
		}
	})
}
