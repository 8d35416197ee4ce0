package games

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// harness is a service on a temporary store with a manual clock and a recorder.
type harness struct {
	t    testing.TB
	path string
	db   *bolt.DB
	clk  *timers.ManualClock
	rec  *Recorder
	s    *Service
	opts Options
	seq  int
}

func newHarness(t testing.TB, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "gambit.db"), clk: timers.NewManualClock(t0), rec: &Recorder{}}
	h.opts = opts
	h.open()
	t.Cleanup(func() {
		if h.s != nil {
			h.s.Close()
		}
		if h.db != nil {
			h.db.Close()
		}
	})
	return h
}

// open opens the store and starts a service on it.
func (h *harness) open() {
	h.t.Helper()
	db := storagetest.OpenFile(h.t, h.path, &bolt.Options{NoSync: true})
	h.db = db
	h.startService()
}

func (h *harness) startService() {
	h.t.Helper()
	opts := h.opts
	opts.Clock, opts.Notifier = h.clk, h.rec
	if opts.Rand == nil {
		opts.Rand = func() uint64 { return 0 }
	}
	s, err := New(h.db, opts)
	if err != nil {
		h.t.Fatal(err)
	}
	h.s = s
}

// kill abandons the service without Close (no last heartbeat) and closes the store,
// as a crash would.
func (h *harness) kill() {
	h.t.Helper()
	h.s.closed.Store(true)
	h.s.events.close()
	h.s = nil
	h.db.Close()
	h.db = nil
}

// restart closes the service cleanly and starts a new one.
func (h *harness) restart() {
	h.t.Helper()
	if err := h.s.Close(); err != nil {
		h.t.Fatal(err)
	}
	h.db.Close()
	h.open()
}

func (h *harness) rid() string {
	h.seq++
	return fmt.Sprint("req-", h.seq)
}

var (
	alice = storage.Player{ID: "100", Name: "Alice"}
	bob   = storage.Player{ID: "200", Name: "Bob"}
	carol = storage.Player{ID: "300", Name: "Carol"}
)

// start creates a game between alice (white) and bob (black).
func (h *harness) start(control, fen string) *Game {
	h.t.Helper()
	r, err := h.s.StartGame(context.Background(), StartRequest{RequestID: h.rid(), GuildID: "g", ChannelID: "ch",
		White: alice, Black: bob, Control: control, FEN: fen})
	if err != nil {
		h.t.Fatal(err)
	}
	return r.Game
}

func (h *harness) act(id uint64, user storage.Player) Action {
	return Action{RequestID: h.rid(), GameID: id, UserID: user.ID}
}

func (h *harness) move(id uint64, user storage.Player, mv string) (*Result, error) {
	return h.s.Move(context.Background(), MoveRequest{Action: h.act(id, user), Move: mv})
}

// play plays moves alternately for white (alice) and black (bob), failing on error.
func (h *harness) play(id uint64, moves string) *Result {
	h.t.Helper()
	var r *Result
	for _, mv := range strings.Fields(moves) {
		g, err := h.s.Game(context.Background(), id)
		if err != nil {
			h.t.Fatal(err)
		}
		p := alice
		if g.Turn() == 1 {
			p = bob
		}
		if r, err = h.move(id, p, mv); err != nil {
			h.t.Fatalf("move %s: %v", mv, err)
		}
	}
	return r
}

func (h *harness) game(id uint64) *Game {
	h.t.Helper()
	g, err := h.s.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// events flushes and returns the events since the last call.
func (h *harness) events() []Event {
	h.t.Helper()
	if err := h.s.Flush(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	return h.rec.Events()
}

// eventTypes names the types of events, e.g. "YourTurn DrawOffered".
func eventTypes(evs []Event) string {
	var names []string
	for _, e := range evs {
		names = append(names, reflect.TypeOf(e).Name())
	}
	return strings.Join(names, " ")
}

func wantErr(t testing.TB, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("err = %v, want %v", err, want)
	}
}
