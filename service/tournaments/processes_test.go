// processes_test.go: two tournament services (each with its game service) on one store
// act as two processes of one bot: each round is paired, started and announced once
// although both move the event on, and Owns and Adopt divide the events.

package tournaments

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// eachSharedStore runs fn with two stores of one database: the same bbolt store twice
// (with bbolt one process applies) and two connections to one PostgreSQL schema.
func eachSharedStore(t *testing.T, fn func(t *testing.T, a, b storage.Store)) {
	t.Run("bbolt", func(t *testing.T) {
		db := storagetest.Open(t)
		fn(t, db, db)
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := storagetest.PostgresDSN(t)
		fn(t, storagetest.OpenPostgresDSN(t, dsn, nil), storagetest.OpenPostgresDSN(t, dsn, nil))
	})
}

// tproc is one process: a game service and a tournament service, recording the
// tournament events; a notification can be held at the door (holdNext).
type tproc struct {
	gs      *games.Service
	ts      *Service
	mu      sync.Mutex
	evs     []Event
	gate    chan struct{}
	entered chan struct{}
}

func (p *tproc) notify(_ context.Context, e Event) {
	p.mu.Lock()
	gate, entered := p.gate, p.entered
	p.mu.Unlock()
	if gate != nil {
		entered <- struct{}{}
		<-gate
	}
	p.mu.Lock()
	p.evs = append(p.evs, e)
	p.mu.Unlock()
}

// holdNext holds the next notifications at the door until release.
func (p *tproc) holdNext() (entered <-chan struct{}, release func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gate, p.entered = make(chan struct{}), make(chan struct{}, 8)
	gate := p.gate
	return p.entered, func() {
		p.mu.Lock()
		p.gate = nil
		p.mu.Unlock()
		close(gate)
	}
}

func (p *tproc) events() []Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Event(nil), p.evs...)
}

// newTProc starts a process on db.
func newTProc(t *testing.T, db storage.Store, clk *timers.ManualClock, instance string, owns func(string) bool) *tproc {
	t.Helper()
	p := &tproc{}
	var ts *Service
	gs, err := games.New(db, games.Options{
		Clock: clk, Rand: func() uint64 { return 0 }, Instance: instance,
		OnFinish: func(w storage.Tx, g *games.Game) error { return ts.OnFinish(w, &g.Game) },
		Notifier: games.NotifierFunc(func(_ context.Context, e games.Event) {
			if over, ok := e.(games.GameOver); ok {
				ts.GameOver(ctx, over.Game.ID)
			}
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gs.Close() })
	ts = New(db, gs, Options{Clock: clk, Notifier: NotifierFunc(p.notify), Owns: owns, Instance: instance})
	if err := ts.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	p.gs, p.ts = gs, ts
	return p
}

// announced counts the RoundStarted events of each round and the Finished events, over
// the processes.
func announced(ps ...*tproc) (rounds map[int]int, finished int) {
	rounds = map[int]int{}
	for _, p := range ps {
		for _, e := range p.events() {
			switch e := e.(type) {
			case RoundStarted:
				rounds[e.Round]++
			case Finished:
				finished++
			}
		}
	}
	return rounds, finished
}

// pendingGames returns the games of the event still being played.
func pendingGames(t *testing.T, ts *Service, id uint64) []uint64 {
	t.Helper()
	v, err := ts.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	_, ps, err := v.Pairings(0)
	if err != nil {
		t.Fatal(err)
	}
	var out []uint64
	for _, p := range ps {
		if p.GameID != 0 && p.Result == "…" {
			out = append(out, p.GameID)
		}
	}
	return out
}

// A Swiss of four players over three rounds, moved on by two processes at once: the
// first round's announcement is held in one process while the other moves the event on
// (it finds the announcement reserved and comes back when the reservation expires); the
// later rounds are moved on by both at the same time. Each round is paired, its games
// started and announced once, and the final standings posted once.
func TestRoundsPairedStartedAndAnnouncedOnceAcrossProcesses(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		clk := timers.NewManualClock(t0)
		ps := [2]*tproc{newTProc(t, a, clk, "a", nil), newTProc(t, b, clk, "b", nil)}
		v, err := ps[0].ts.Create(ctx, CreateRequest{RequestID: "create", GuildID: "g", ChannelID: "c", By: player(1),
			Settings: Settings{Format: Swiss, Control: "5+3", Rounds: 3}})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 4; i++ {
			if _, err := ps[i%2].ts.Join(ctx, v.ID, "g", player(i)); err != nil {
				t.Fatal(err)
			}
		}
		entered, release := ps[0].holdNext()
		started := make(chan error, 1)
		go func() {
			_, err := ps[0].ts.Start(ctx, v.ID, "g", "u1", false)
			started <- err
		}()
		select {
		case <-entered: // a paired round 1, started its games and is announcing it
		case <-time.After(30 * time.Second):
			t.Fatal("a never announced round 1")
		}
		if err := ps[1].ts.Advance(ctx, v.ID); err != nil {
			t.Fatal(err)
		}
		if e, ok := ps[1].ts.sched.Next(); !ok || e.Key.Kind != kindReservationRetry || !e.At.Equal(clk.Now().Add(announceReservationTTL)) {
			t.Fatalf("b's next timer %+v (%v), want a retry when a's reservation expires", e, ok)
		}
		release()
		if err := <-started; err != nil {
			t.Fatal(err)
		}
		if rounds, _ := announced(ps[:]...); rounds[1] != 1 || len(ps[1].events()) != 0 {
			t.Fatalf("round 1 announced %v (b: %d events), want once by a", rounds, len(ps[1].events()))
		}
		for round := 1; round <= 3; round++ {
			ids := pendingGames(t, ps[0].ts, v.ID)
			if len(ids) != 2 {
				t.Fatalf("round %d: %d games under way, want 2", round, len(ids))
			}
			for i, id := range ids {
				p := ps[i%2]
				g, err := p.gs.Game(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				rid := fmt.Sprint("r", round, "g", id)
				if _, err := p.gs.Move(ctx, games.MoveRequest{Action: games.Action{RequestID: rid + "m", GameID: id, UserID: g.White.ID}, Move: "e4"}); err != nil {
					t.Fatal(err)
				}
				if _, err := p.gs.Resign(ctx, games.Action{RequestID: rid + "r", GameID: id, UserID: g.Black.ID}); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range ps {
				if err := p.gs.Flush(ctx); err != nil {
					t.Fatal(err)
				}
			}
			var wg sync.WaitGroup
			for _, p := range ps {
				wg.Go(func() {
					if err := p.ts.Advance(ctx, v.ID); err != nil {
						t.Error(err)
					}
					p.ts.FireDue(ctx)
				})
			}
			wg.Wait()
		}
		clk.Advance(announceReservationTTL) // any retry after a reservation held by the other
		for _, p := range ps {
			p.ts.FireDue(ctx)
		}
		rounds, finished := announced(ps[:]...)
		if rounds[1] != 1 || rounds[2] != 1 || rounds[3] != 1 || len(rounds) != 3 || finished != 1 {
			t.Fatalf("announcements per round %v and %d final standings; want each once", rounds, finished)
		}
		if total, _ := storagetest.CountGames(t, b); total != 6 {
			t.Fatalf("%d games stored, want 6 (2 per round)", total)
		}
	})
}

// Restore and Adopt take up only the events of the guilds a service owns.
func TestRestoreAndAdoptFollowOwns(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		clk := timers.NewManualClock(t0)
		p := newTProc(t, a, clk, "a", nil)
		v, err := p.ts.Create(ctx, CreateRequest{RequestID: "create", GuildID: "g", ChannelID: "c", By: player(1),
			Settings: Settings{Format: RoundRobin, Control: "5+3"}})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 3; i++ {
			if _, err := p.ts.Join(ctx, v.ID, "g", player(i)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := p.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		owned := false
		q := newTProc(t, b, clk, "b", func(g string) bool { mu.Lock(); defer mu.Unlock(); return owned && g == "g" })
		if n := q.ts.FireDue(ctx); n != 0 {
			t.Fatalf("b took up %d events of a guild it does not own", n)
		}
		mu.Lock()
		owned = true
		mu.Unlock()
		if n, err := q.ts.Adopt(ctx); err != nil || n != 1 {
			t.Fatalf("adopt: %d, %v; want 1", n, err)
		}
		if n := q.ts.FireDue(ctx); n != 1 {
			t.Fatalf("b moved on %d events after adopting, want 1", n)
		}
		if rounds, _ := announced(q); len(rounds) != 0 {
			t.Fatalf("b announced %v again", rounds)
		}
	})
}
