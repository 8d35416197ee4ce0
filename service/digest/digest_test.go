package digest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/settings"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// t0 is 08:30 UTC: the tests' digests are at 09:00.
var t0 = time.Date(2026, 3, 1, 8, 30, 0, 0, time.UTC)

// recorder is a Sender that keeps what it was given and fails as told.
type recorder struct {
	mu   sync.Mutex
	sent []*Digest
	fail map[string]error // by user: the error of every send to them
}

func (r *recorder) SendDigest(_ context.Context, d *Digest) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.fail[d.UserID]; err != nil {
		return err
	}
	r.sent = append(r.sent, d)
	return nil
}

func (r *recorder) to(user string) []*Digest {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*Digest
	for _, d := range r.sent {
		if d.UserID == user {
			out = append(out, d)
		}
	}
	return out
}

// fixture is one process: its games, settings and digest services on a store.
type fixture struct {
	games    *games.Service
	settings *settings.Service
	digest   *Service
	sender   *recorder
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// logLines keeps every log line a service writes.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, string(p))
	return len(p), nil
}

func (l *logLines) with(s string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return out
}

func newFixture(t *testing.T, db storage.Store, clk *timers.ManualClock, instance string) *fixture {
	t.Helper()
	return newFixtureLog(t, db, clk, instance, quiet())
}

func newFixtureLog(t *testing.T, db storage.Store, clk *timers.ManualClock, instance string, log *slog.Logger) *fixture {
	t.Helper()
	set := settings.New(db, settings.Options{Now: clk.Now})
	g, err := games.New(db, games.Options{Clock: clk, Settings: set, Instance: instance, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	rec := &recorder{fail: map[string]error{}}
	d, err := New(db, Options{Games: g, Settings: set, Sender: rec, Clock: clk, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{games: g, settings: set, digest: d, sender: rec}
}

func (f *fixture) start(t *testing.T, id, white, black, control string) *games.Game {
	t.Helper()
	res, err := f.games.StartGame(context.Background(), games.StartRequest{RequestID: id, GuildID: "g1", ChannelID: "c1",
		White: storage.Player{ID: white, Name: white}, Black: storage.Player{ID: black, Name: black}, Control: control})
	if err != nil {
		t.Fatal(err)
	}
	return res.Game
}

func (f *fixture) move(t *testing.T, g *games.Game, user, move string) {
	t.Helper()
	if _, err := f.games.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: g.ID, UserID: user}, Move: move}); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) optIn(t *testing.T, user string, hour int) {
	t.Helper()
	p, err := f.settings.FreshPrefs(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	p.Digest, p.DigestHour = true, hour
	if err := f.games.SetUserPrefs(context.Background(), user, p); err != nil {
		t.Fatal(err)
	}
}

func ids(d *Digest) []uint64 {
	var out []uint64
	for _, g := range d.Games {
		out = append(out, g.ID)
	}
	return out
}

// The digest comes at the user's hour, once a day, with the games where it is their
// move, the nearest deadline first; none comes when there is nothing to list.
func TestDigestAtTheHourOnceADay(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		clk := timers.NewManualClock(t0)
		f := newFixture(t, db, clk, "bot")
		slow := f.start(t, "r1", "ann", "bob", "3d") // ann to move, 3 days
		fast := f.start(t, "r2", "bob", "ann", "1d") // bob to move
		f.move(t, fast, "bob", "e4")                 // now ann's, 1 day
		bobs := f.start(t, "r3", "bob", "ann", "2d") // bob to move: not in ann's digest
		f.optIn(t, "ann", 9)
		f.optIn(t, "bob", 10)
		f.optIn(t, "cat", 9) // no games: no digest

		if !f.digest.FireDue() || len(f.sender.sent) != 0 {
			t.Fatalf("at 08:30: %d digests, want none", len(f.sender.sent))
		}
		if at, _ := f.digest.NextSweep(); !at.Equal(t0.Add(30 * time.Minute)) {
			t.Fatalf("next sweep at %v, want 09:00", at)
		}
		clk.Advance(30 * time.Minute)
		f.digest.FireDue()
		got := f.sender.to("ann")
		if len(got) != 1 || len(f.sender.sent) != 1 {
			t.Fatalf("at 09:00: %d digests (%d to ann), want ann's alone", len(f.sender.sent), len(got))
		}
		if want := []uint64{fast.ID, slow.ID}; !slices.Equal(ids(got[0]), want) || got[0].Day != "2026-03-01" {
			t.Errorf("ann's digest lists %v on %s, want %v on 2026-03-01", ids(got[0]), got[0].Day, want)
		}
		if dl := got[0].Games[0].Deadline(); !dl.Equal(t0.Add(24 * time.Hour)) {
			t.Errorf("the first game's deadline is %v, want a day after its move", dl)
		}

		// A second sweep in the hour, and a restart (a new process on the store), send
		// nothing more.
		clk.Advance(20 * time.Minute)
		f.digest.sched.Set(sweepKey, clk.Now())
		f.digest.FireDue()
		again := newFixture(t, db, clk, "bot2")
		again.digest.FireDue()
		if n := len(f.sender.sent) + len(again.sender.sent); n != 1 {
			t.Fatalf("%d digests after a second sweep and a restart in the hour, want 1", n)
		}
		clk.Advance(40 * time.Minute) // 10:00: bob's hour
		f.digest.FireDue()
		if b := f.sender.to("bob"); len(b) != 1 || !slices.Equal(ids(b[0]), []uint64{bobs.ID}) {
			t.Fatalf("bob's digests: %d, want one with game %d alone", len(b), bobs.ID)
		}
		clk.Advance(23 * time.Hour) // 09:00 the next day
		f.digest.FireDue()
		if a := f.sender.to("ann"); len(a) != 2 || a[1].Day != "2026-03-02" {
			t.Fatalf("ann's digests after a day: %d, want a second on 2026-03-02", len(a))
		}
		if c := f.sender.to("cat"); len(c) != 0 {
			t.Errorf("cat, with no game, got %d digests", len(c))
		}
	})
}

// A refused direct message turns the digest off, once, with a note the next answer
// takes, once; a digest that never left is tried again within the hour; a send of
// unknown outcome is not.
func TestDigestRefusedAndFailedSends(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		clk := timers.NewManualClock(t0.Add(30 * time.Minute))
		logs := &logLines{}
		f := newFixtureLog(t, db, clk, "bot", slog.New(slog.NewTextHandler(logs, nil)))
		for i, u := range []string{"ann", "bob", "cat"} {
			f.start(t, fmt.Sprint("r", i), u, "zed", "1d")
			f.optIn(t, u, 9)
		}
		f.sender.fail["ann"] = fmt.Errorf("post: %w", ErrDMRefused)
		f.sender.fail["bob"] = fmt.Errorf("open the DM channel: %w", ErrNotSent)
		f.sender.fail["cat"] = errors.New("HTTP 500")
		f.digest.FireDue()
		ctx := context.Background()
		p, err := f.settings.FreshPrefs(ctx, "ann")
		if err != nil || p.Digest || !p.DigestRefused {
			t.Fatalf("ann's prefs after the refusal: %+v, %v; want the digest off and the note pending", p, err)
		}
		if at, _ := f.digest.NextSweep(); !at.Equal(clk.Now().Add(retryAfter)) {
			t.Errorf("next sweep %v, want a minute on (bob's digest did not leave)", at)
		}
		delete(f.sender.fail, "bob")
		delete(f.sender.fail, "cat")
		clk.Advance(retryAfter)
		f.digest.FireDue()
		if len(f.sender.to("bob")) != 1 || len(f.sender.to("cat")) != 0 || len(f.sender.to("ann")) != 0 {
			t.Fatalf("after the retry: ann %d, bob %d, cat %d digests; want bob's alone",
				len(f.sender.to("ann")), len(f.sender.to("bob")), len(f.sender.to("cat")))
		}

		// The refusal is logged once, naming the user alone; a restart in the hour sends
		// cat's digest of unknown outcome no more than the first process did.
		if refusals := logs.with("refused the direct message"); len(refusals) != 1 || !strings.Contains(refusals[0], "user=ann") {
			t.Errorf("the refusal's log lines: %q, want one naming ann", refusals)
		}
		restarted := newFixture(t, db, clk, "bot2")
		restarted.digest.FireDue()
		if n := len(restarted.sender.sent); n != 0 {
			t.Errorf("a restart in the hour sent %d digests, want none (bob's was sent, ann's refused, cat's of unknown outcome)", n)
		}

		// The note: of several answers at once, exactly one shows it.
		var shown sync.WaitGroup
		var mu sync.Mutex
		took := 0
		for range 8 {
			shown.Add(1)
			go func() {
				defer shown.Done()
				ok, err := f.digest.TakeRefusedNote(ctx, "ann")
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					took++
					mu.Unlock()
				}
			}()
		}
		shown.Wait()
		if took != 1 {
			t.Fatalf("the note was taken %d times, want once", took)
		}
		if ok, err := f.digest.TakeRefusedNote(ctx, "ann"); ok || err != nil {
			t.Errorf("the note again: %v, %v", ok, err)
		}
		if ok, err := f.digest.TakeRefusedNote(ctx, "bob"); ok || err != nil {
			t.Errorf("bob's note: %v, %v; he has none", ok, err)
		}
		// Off, ann gets no digest the next day, and nothing more is logged of her.
		clk.Advance(24 * time.Hour)
		f.digest.FireDue()
		if n := len(f.sender.to("ann")); n != 0 {
			t.Errorf("ann got %d digests with the digest off", n)
		}
		if n := len(logs.with("user=ann")); n != 1 {
			t.Errorf("%d log lines name ann, want the one refusal", n)
		}
	})
}

// Two processes on one store sweeping the same hour at once: each digest leaves once.
func TestDigestTwoProcessesSendOnce(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		clk := timers.NewManualClock(t0.Add(30 * time.Minute))
		a := newFixture(t, db, clk, "a")
		b := newFixture(t, db, clk, "b")
		users := []string{"u1", "u2", "u3", "u4", "u5", "u6"}
		for i, u := range users {
			a.start(t, fmt.Sprint("r", i), u, "zed", "1d")
			a.optIn(t, u, 9)
		}
		var wg sync.WaitGroup
		for _, f := range []*fixture{a, b} {
			wg.Add(1)
			go func() { defer wg.Done(); f.digest.FireDue() }()
		}
		wg.Wait()
		for _, u := range users {
			if n := len(a.sender.to(u)) + len(b.sender.to(u)); n != 1 {
				t.Errorf("%s got %d digests, want 1", u, n)
			}
		}
	})
}

func TestNextAt(t *testing.T) {
	for _, c := range []struct {
		hour int
		now  time.Time
		want time.Time
	}{
		{9, t0, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)},
		{8, t0, time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)},
		{9, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)},
		{0, time.Date(2026, 3, 1, 23, 59, 0, 0, time.FixedZone("east", 3*3600)), time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)},
	} {
		if got := NextAt(c.hour, c.now); !got.Equal(c.want) {
			t.Errorf("NextAt(%d, %v) = %v, want %v", c.hour, c.now, got, c.want)
		}
	}
}

// A sweep whose process is stopping claims nothing: the digests wait for a later sweep
// (of this process, restarted, or another) within the hour.
func TestDigestStoppingSweepClaimsNothing(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		clk := timers.NewManualClock(t0.Add(30 * time.Minute))
		f := newFixture(t, db, clk, "bot")
		f.start(t, "r", "ann", "zed", "1d")
		f.optIn(t, "ann", 9)
		stopped, cancel := context.WithCancel(context.Background())
		cancel()
		f.digest.sched.PopDue(clk.Now(), nil)
		f.digest.sweep(stopped)
		u, err := storage.Read(context.Background(), db, func(tx storage.Tx) (storage.User, error) { return tx.User("ann") })
		if err != nil || u.DigestSent != "" || len(f.sender.sent) != 0 {
			t.Fatalf("a stopping sweep: day claimed %q (%v), %d sent; want nothing", u.DigestSent, err, len(f.sender.sent))
		}
		if at, _ := f.digest.NextSweep(); !at.Equal(clk.Now().Add(retryAfter)) {
			t.Errorf("next sweep %v, want a minute on", at)
		}
		clk.Advance(retryAfter)
		f.digest.FireDue()
		if n := len(f.sender.to("ann")); n != 1 {
			t.Errorf("the next sweep sent ann %d digests, want 1", n)
		}
	})
}
