// processes_test.go: two puzzle services on one store act as two processes of one bot:
// a day is posted once although both fire its timer, a holder that dies does not lose
// the post, and Owns and Adopt divide the guilds.

package puzzles

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// eachSharedStore runs fn with two stores of one database: the same bbolt store twice
// (one process applies with bbolt), and two connections to one PostgreSQL schema.
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

// gatePoster posts like recPoster, but a post can be held at the door (hold) until
// released, and fails while fail is set.
type gatePoster struct {
	recPoster
	mu      sync.Mutex
	hold    chan struct{} // closed to let a held post through
	entered chan struct{} // receives when a post reaches the door
}

func (p *gatePoster) PostDaily(ctx context.Context, post *DailyPost) (string, error) {
	p.mu.Lock()
	hold, entered := p.hold, p.entered
	p.mu.Unlock()
	if hold != nil {
		entered <- struct{}{}
		<-hold
	}
	return p.recPoster.PostDaily(ctx, post)
}

// holdNext makes the next posts wait at the door.
func (p *gatePoster) holdNext() (entered <-chan struct{}, release func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hold, p.entered = make(chan struct{}), make(chan struct{}, 4)
	hold := p.hold
	return p.entered, func() {
		p.mu.Lock()
		p.hold = nil
		p.mu.Unlock()
		close(hold)
	}
}

// process is one puzzle service of a two-process test.
type process struct {
	svc  *Service
	post *gatePoster
}

// twoPuzzleProcesses imports the sample into a, gives g1 and g2 a 09:00 post set up at
// day0, and starts a service on each store with owns (nil: every guild).
func twoPuzzleProcesses(t *testing.T, a, b storage.Store, clk *timers.ManualClock, owns [2]func(string) bool) [2]*process {
	t.Helper()
	if _, err := Import(ctx, a, bytes.NewReader(sampleCSV(t)), ImportOptions{Now: day0}); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"g1", "g2"} {
		gs := storage.DefaultGuildSettings(g)
		gs.Puzzle = storage.PuzzleSettings{Channel: "c-" + g, Time: "09:00", Since: day0}
		if err := a.Update(ctx, func(tx storage.Tx) error { return tx.PutGuildSettings(gs) }); err != nil {
			t.Fatal(err)
		}
	}
	var out [2]*process
	for i, st := range []storage.Store{a, b} {
		p := &process{post: &gatePoster{}}
		seed := uint64(i) << 40
		svc, err := New(st, Options{Clock: clk, Poster: p.post, NoStarter: true, Mine: MineOptions{Off: true}, Logger: quiet,
			Owns: owns[i], Instance: []string{"a", "b"}[i], Rand: func() uint64 { seed += 0x9E3779B97F4A7C15; return seed }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { svc.Close() })
		p.svc = svc
		out[i] = p
	}
	return out
}

// posts counts the posts of both processes.
func posts(ps [2]*process) int { return ps[0].post.count() + ps[1].post.count() }

// Both processes fire the 09:00 posts while the first is still making one: the second
// makes the other guild's, finds the first's day reserved and looks again when the
// reservation expires, by when that day is posted; each day is posted once.
func TestDailyPostOnceAcrossProcesses(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		clk := timers.NewManualClock(day0)
		ps := twoPuzzleProcesses(t, a, b, clk, [2]func(string) bool{})
		clk.Set(day0.Add(time.Hour))
		entered, release := ps[0].post.holdNext()
		var wg sync.WaitGroup
		wg.Go(func() { ps[0].svc.FireDue() })
		select {
		case <-entered: // a reserved a day and is posting it
		case <-time.After(30 * time.Second):
			t.Fatal("a never posted")
		}
		if n := ps[1].svc.FireDue(); n != 2 {
			t.Fatalf("b fired %d timers at 09:00, want 2", n)
		}
		if at, ok := ps[1].svc.NextTimer(); !ok || !at.Equal(clk.Now().Add(dailyReservationTTL)) {
			t.Fatalf("b looks again at %v (%v), want when a's reservation expires, %v", at, ok, clk.Now().Add(dailyReservationTTL))
		}
		release()
		wg.Wait()
		if ps[0].post.count() != 1 || ps[1].post.count() != 1 || ps[0].post.last().Day.GuildID == ps[1].post.last().Day.GuildID {
			t.Fatalf("posts: a %d, b %d; want one each, of different guilds", ps[0].post.count(), ps[1].post.count())
		}
		clk.Set(day0.Add(time.Hour + dailyReservationTTL))
		ps[1].svc.FireDue()
		ps[0].svc.FireDue()
		if n := posts(ps); n != 2 {
			t.Fatalf("%d posts once the reservation expired, want 2 (one per guild)", n)
		}
		for _, g := range []string{"g1", "g2"} {
			d, err := storage.Read(ctx, b, func(tx storage.Tx) (*storage.Daily, error) { return tx.Daily(g, "2026-03-01") })
			if err != nil || d.State != storage.DailyPosted {
				t.Fatalf("%s's day: %+v, %v", g, d, err)
			}
		}
	})
}

// A process that reserves the day and dies before its post is made does not lose the
// post: the other makes it once the reservation expires.
func TestDailyPostOfADeadHolderIsMadeByTheOther(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		clk := timers.NewManualClock(day0)
		ps := twoPuzzleProcesses(t, a, b, clk, [2]func(string) bool{})
		clk.Set(day0.Add(time.Hour))
		ps[0].post.fail = true // the reservations are taken; the posts never reach Discord
		ps[0].svc.FireDue()
		ps[0].svc.Close() // and a dies
		ps[1].svc.FireDue()
		if n := posts(ps); n != 0 {
			t.Fatalf("%d posts while a's reservations hold", n)
		}
		at, ok := ps[1].svc.NextTimer()
		if !ok || !at.Equal(clk.Now().Add(dailyReservationTTL)) {
			t.Fatalf("b looks again at %v (%v), want %v", at, ok, clk.Now().Add(dailyReservationTTL))
		}
		clk.Set(at.Add(-time.Nanosecond))
		ps[1].svc.FireDue()
		if n := posts(ps); n != 0 {
			t.Fatalf("%d posts before a's reservations expire", n)
		}
		clk.Set(at)
		ps[1].svc.FireDue()
		if ps[1].post.count() != 2 {
			t.Fatalf("b made %d posts once a's reservations expired, want 2", ps[1].post.count())
		}
		clk.Set(at.Add(time.Hour))
		ps[1].svc.FireDue()
		if n := posts(ps); n != 2 {
			t.Fatalf("%d posts in all, want 2", n)
		}
	})
}

// Owns limits the guilds a service schedules at start-up; Adopt schedules those it
// gains, and a post due meanwhile is made at once.
func TestDailyPostOwnsAndAdopt(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		clk := timers.NewManualClock(day0)
		var mu sync.Mutex
		bOwns := map[string]bool{"g2": true}
		ps := twoPuzzleProcesses(t, a, b, clk, [2]func(string) bool{
			func(g string) bool { return g == "g1" },
			func(g string) bool { mu.Lock(); defer mu.Unlock(); return bOwns[g] },
		})
		ps[0].svc.Close() // a, g1's owner, stops before 09:00
		clk.Set(day0.Add(time.Hour))
		if n := ps[1].svc.FireDue(); n != 1 {
			t.Fatalf("b fired %d timers, want 1 (g2's)", n)
		}
		if got := ps[1].post.count(); got != 1 || ps[1].post.last().Day.GuildID != "g2" {
			t.Fatalf("b posted %d (want g2's only)", got)
		}
		mu.Lock()
		bOwns["g1"] = true
		mu.Unlock()
		n, err := ps[1].svc.Adopt(ctx)
		if err != nil || n != 2 {
			t.Fatalf("adopt: %d, %v; want 2 guilds", n, err)
		}
		clk.Advance(time.Minute)
		ps[1].svc.FireDue()
		if got := ps[1].post.count(); got != 2 || ps[1].post.last().Day.GuildID != "g1" {
			t.Fatalf("b posted %d after adopting g1 (want g1's too)", got)
		}
		if _, err := ps[0].svc.Adopt(ctx); !errors.Is(err, ErrClosed) {
			t.Fatalf("adopt on a closed service: %v", err)
		}
	})
}

// Mining is idempotent: two processes that mine the same finished game store each
// puzzle once (the ids come from the game and the position).
func TestMiningTheSameGameInTwoProcessesStoresItOnce(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		clk := timers.NewManualClock(day0)
		ps := twoPuzzleProcesses(t, a, b, clk, [2]func(string) bool{})
		g := playSAN(t, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3#")
		rec := &storage.Game{ID: 42, GuildID: "g1", White: storage.Player{ID: "111", Name: "alice"}, Black: storage.Player{ID: "222", Name: "bob"},
			Moves: g.Moves(), Ended: day0.Add(-time.Hour), Outcome: g.Outcome()}
		var added [2]int
		var errs [2]error
		var wg sync.WaitGroup
		for i, p := range ps {
			wg.Go(func() { added[i], errs[i] = p.svc.MineGame(ctx, rec.Clone()) })
		}
		wg.Wait()
		stored := 0
		err := b.View(ctx, func(tx storage.Tx) error {
			return tx.EachPuzzle(func(p *storage.Puzzle) error {
				if len(p.ID) > 5 && p.ID[:5] == "gm42-" {
					stored++
				}
				return nil
			})
		})
		if err != nil || errs[0] != nil || errs[1] != nil {
			t.Fatalf("mine: %v, %v; read: %v", errs[0], errs[1], err)
		}
		if stored == 0 || added[0]+added[1] != stored {
			t.Fatalf("the processes added %d and %d puzzles; %d are stored", added[0], added[1], stored)
		}
	})
}
