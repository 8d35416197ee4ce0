package serve

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// TestLeasesDivideTheServersOnPostgres runs two gambit serve processes on one
// PostgreSQL store: the first alone holds every partition; with the second they share
// them 32 and 32 within a few renewals (the first gives up its excess, the second takes
// it), and Owns answers from the partitions each holds; when the first stops, it
// releases its leases and the second takes them all at its next tick and adopts the
// games of the servers it gains: the flag of a game it never saw falls there, once.
func TestLeasesDivideTheServersOnPostgres(t *testing.T) {
	overHTTP(t) // two processes, one endpoint at a time: the second takes the interactions over
	dsn := storagetest.PostgresDSN(t)
	w := newWorld(t)
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
	db := storagetest.OpenPostgresDSN(t, dsn, nil)
	held := func() map[string]int {
		leases, err := storage.LeaseTable(db, storage.LeaseSetGames).Leases()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, l := range leases {
			if w.clock.Now().Before(l.Expires) {
				out[l.Holder]++
			}
		}
		return out
	}
	waitHeld := func(what string, want map[string]int) {
		t.Helper()
		deadline := time.Now().Add(4 * lease.DefaultTTL / 3 * 2) // a few renewals
		for !equalCounts(held(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: leases held %v, want %v", what, held(), want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	cfg1 := w.cfg
	cfg1.Instance = "web-1"
	r1 := w.startWith(cfg1, Deps{})
	if got := held(); got["web-1"] != lease.DefaultPartitions {
		t.Fatalf("alone, web-1 holds %v", got)
	}
	if !r1.bot.Owns(w.f.GuildID) {
		t.Fatal("alone, web-1 does not own the server")
	}
	g := w.startGame("1+0")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)

	cfg2 := w.cfg
	cfg2.Instance = "web-2"
	r2 := w.startWith(cfg2, Deps{})
	waitHeld("two processes", map[string]int{"web-1": 32, "web-2": 32})
	owners := 0
	for i := range 200 {
		guild := "guild-" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		one, two := r1.bot.Owns(guild), r2.bot.Owns(guild)
		if one == two {
			t.Fatalf("server %s: web-1 owns it %v, web-2 %v; want exactly one", guild, one, two)
		}
		if one {
			owners++
		}
	}
	if owners < 50 || owners > 150 {
		t.Errorf("web-1 owns %d of 200 servers; want about half", owners)
	}

	r1.stop() // releases its leases
	waitHeld("after web-1 stopped", map[string]int{"web-2": lease.DefaultPartitions})
	if !r2.bot.Owns(w.f.GuildID) {
		t.Fatal("web-2 holds every partition but does not own the server")
	}
	// The game web-2 never handled is adopted: White's flag falls there, once.
	w.clock.Advance(61 * time.Second)
	w.waitFor("the adopted game's flag", func() bool {
		r2.bot.Games.FireDue()
		return r2.bot.mustGame(t, 1).Outcome == chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.TimeForfeit}
	})
	w.waitFor("the flag's announcement", func() bool { return flagNotes(w, g.thread) >= 1 })
	time.Sleep(200 * time.Millisecond)
	if n := flagNotes(w, g.thread); n != 1 {
		t.Errorf("the flag fall was announced %d times, want once", n)
	}
}

// equalCounts reports whether two holder counts are the same.
func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// flagNotes counts the messages of a thread that announce a flag fall.
func flagNotes(w *world, thread string) int {
	n := 0
	for _, m := range w.f.Messages(thread) {
		if strings.Contains(m.Content, "flag fell") {
			n++
		}
	}
	return n
}

// TestStuckHolderStopsOwningOnPostgres: web-1's tick hangs in the store (the test holds
// the row of its beat locked, so its first statement waits), past its leases' end.
// web-1 stops owning its servers by its own clock, before web-2 takes its partitions,
// and at no moment is a server owned by both: before owning was bounded on the
// holder's side, web-1 answered Owns from its last completed tick and owned its share
// of the 200 servers twice (with web-2) until the lock went.
func TestStuckHolderStopsOwningOnPostgres(t *testing.T) {
	overHTTP(t)
	dsn := storagetest.PostgresDSN(t)
	w := newWorld(t)
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
	db := storagetest.OpenPostgresDSN(t, dsn, nil)
	cfg1, cfg2 := w.cfg, w.cfg
	cfg1.Instance, cfg2.Instance = "web-1", "web-2"
	r1 := w.startWith(cfg1, Deps{})
	r2 := w.startWith(cfg2, Deps{})
	guilds := make([]string, 200)
	for i := range guilds {
		guilds[i] = fmt.Sprintf("guild-%d", 100000+i*7919)
	}
	// owned counts the servers each process owns and those both own.
	owned := func() (one, two, both int) {
		for _, g := range guilds {
			a, b := r1.bot.Owns(g), r2.bot.Owns(g)
			switch {
			case a && b:
				both++
				fallthrough
			case a:
				one++
			}
			if b {
				two++
			}
		}
		return
	}
	deadline := time.Now().Add(4 * lease.DefaultTTL)
	for one, two, _ := owned(); one+two != len(guilds) || one == 0 || two == 0; one, two, _ = owned() {
		if time.Now().After(deadline) {
			t.Fatalf("the two processes own %d and %d of %d servers; want them divided", one, two, len(guilds))
		}
		time.Sleep(50 * time.Millisecond)
	}

	release := pgtest.HoldRowLock(t, dsn, `SELECT 1 FROM lease_beats WHERE lease_set = 'games' AND instance = 'web-1' FOR UPDATE`)
	// The games' clock (the leases' wall clock) moves with real time from now on, so
	// web-1's leases end in the store as they would.
	worst, oneOwnedAfter := 0, time.Duration(0)
	stuck := time.Now()
	deadline = stuck.Add(4 * lease.DefaultTTL)
	for {
		w.clock.Advance(50 * time.Millisecond)
		time.Sleep(50 * time.Millisecond)
		one, two, both := owned()
		worst = max(worst, both)
		if one > 0 {
			oneOwnedAfter = time.Since(stuck)
		}
		if one == 0 && two == len(guilds) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v after web-1 got stuck: web-1 owns %d servers, web-2 %d, both %d", time.Since(stuck), one, two, both)
		}
	}
	if worst != 0 {
		t.Errorf("up to %d of %d servers owned by both processes while web-1 was stuck; want 0", worst, len(guilds))
	}
	if limit := lease.DefaultTTL; oneOwnedAfter > limit {
		t.Errorf("web-1 owned servers %v after it got stuck; want at most the lease's lifetime, %v", oneOwnedAfter, limit)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	// Unstuck, web-1's renewals are refused: it owns nothing, web-2 everything.
	w.waitFor("web-1's tick after the lock", func() bool {
		leases, err := storage.LeaseTable(db, storage.LeaseSetGames).Leases()
		if err != nil {
			return false
		}
		for _, l := range leases {
			if l.Holder != "web-2" {
				return false
			}
		}
		return true
	})
	if one, two, both := owned(); one != 0 || two != len(guilds) || both != 0 {
		t.Errorf("after web-1 came back: web-1 owns %d, web-2 %d, both %d", one, two, both)
	}
}
