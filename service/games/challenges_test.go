package games

// challenges_test.go: the caps on one user's challenges (pending, to one person) and on
// the pings challenges give one person.

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// player returns a distinct player for tests that need many.
func player(n int) storage.Player {
	return storage.Player{ID: fmt.Sprint(1000 + n), Name: fmt.Sprint("P", n)}
}

// challenge makes a challenge from one player to another (an empty to: open) with
// the default expiry.
func (h *harness) challenge(from, to storage.Player) (*storage.Challenge, error) {
	h.t.Helper()
	r, err := h.s.CreateChallenge(ctx, ChallengeRequest{RequestID: h.rid(), GuildID: "g", ChannelID: "ch", From: from, To: to, Control: "5+3"})
	if err != nil {
		return nil, err
	}
	return r.Challenge, nil
}

// mustChallenge is challenge failing the test on an error.
func (h *harness) mustChallenge(from, to storage.Player) *storage.Challenge {
	h.t.Helper()
	c, err := h.challenge(from, to)
	if err != nil {
		h.t.Fatalf("challenge %s → %q: %v", from.ID, to.ID, err)
	}
	return c
}

// answerChallenge accepts, declines or cancels a challenge as who.
func (h *harness) answerChallenge(c *storage.Challenge, who storage.Player, how func(*Service) func(ChallengeAction) (*Result, error)) {
	h.t.Helper()
	if _, err := how(h.s)(ChallengeAction{RequestID: h.rid(), ChallengeID: c.ID, User: who}); err != nil {
		h.t.Fatalf("answer challenge %d as %s: %v", c.ID, who.ID, err)
	}
}

func accept(s *Service) func(ChallengeAction) (*Result, error) {
	return func(a ChallengeAction) (*Result, error) { return s.AcceptChallenge(ctx, a) }
}
func decline(s *Service) func(ChallengeAction) (*Result, error) {
	return func(a ChallengeAction) (*Result, error) { return s.DeclineChallenge(ctx, a) }
}
func cancel(s *Service) func(ChallengeAction) (*Result, error) {
	return func(a ChallengeAction) (*Result, error) { return s.CancelChallenge(ctx, a) }
}

// wantPendingLimit checks that err is the pending cap's refusal at limit.
func wantPendingLimit(t testing.TB, err error, limit int) {
	t.Helper()
	var pe *PendingLimitError
	if !errors.As(err, &pe) || !errors.Is(err, ErrChallengeLimit) || pe.Limit != limit {
		t.Fatalf("err = %v, want a PendingLimitError at %d", err, limit)
	}
}

// The sixth pending challenge of one user is refused, open challenges count, and the
// cap frees a place when a challenge is answered, cancelled or expires; it holds
// across a restart.
func TestChallengeCapPending(t *testing.T) {
	h := newHarness(t, Options{})
	var cs []*storage.Challenge
	for i := range 3 {
		cs = append(cs, h.mustChallenge(alice, player(i)))
	}
	cs = append(cs, h.mustChallenge(alice, storage.Player{}), h.mustChallenge(alice, storage.Player{}))
	_, err := h.challenge(alice, player(10))
	wantPendingLimit(t, err, 5)
	_, err = h.challenge(alice, storage.Player{})
	wantPendingLimit(t, err, 5)
	// Someone else is not affected.
	h.mustChallenge(bob, player(0))

	h.restart()
	_, err = h.challenge(alice, player(10))
	wantPendingLimit(t, err, 5)

	// An accepted challenge, a declined one and a cancelled one wait no more.
	h.answerChallenge(cs[0], player(0), accept)
	c := h.mustChallenge(alice, player(10))
	h.answerChallenge(cs[1], player(1), decline)
	h.answerChallenge(cs[3], alice, cancel)
	h.mustChallenge(alice, player(11))
	h.mustChallenge(alice, player(12))
	_, err = h.challenge(alice, player(13))
	wantPendingLimit(t, err, 5)

	// Expired challenges (their timers not yet run) wait no more either.
	h.clk.Advance(15 * time.Minute)
	h.mustChallenge(alice, player(13))
	if c, err := h.s.Challenge(ctx, c.ID); err != nil || c.Status != storage.ChallengePending {
		t.Fatalf("challenge %d: %+v, %v: its expiry was to be noticed by its timer only", c.ID, c, err)
	}
}

// A user may send one person 3 challenges within 10 minutes, whatever became of them
// but acceptance: the fourth is refused until the first leaves the window. It holds
// across a restart, and other opponents are not affected.
func TestChallengeCapPerOpponent(t *testing.T) {
	h := newHarness(t, Options{})
	first := h.mustChallenge(alice, bob)
	h.answerChallenge(first, bob, decline)
	h.clk.Advance(2 * time.Minute)
	second := h.mustChallenge(alice, bob)
	h.answerChallenge(second, alice, cancel)
	h.clk.Advance(time.Minute)
	h.mustChallenge(alice, bob)
	h.clk.Advance(time.Minute)

	_, err := h.challenge(alice, bob)
	var oe *OpponentLimitError
	if !errors.As(err, &oe) || !errors.Is(err, ErrChallengeLimit) {
		t.Fatalf("fourth challenge to bob: err = %v, want an OpponentLimitError", err)
	}
	if oe.Opponent != bob || oe.Count != 3 || oe.Window != 10*time.Minute || !oe.RetryAt.Equal(t0.Add(10*time.Minute)) {
		t.Errorf("refusal %+v, want bob, 3 in 10m, retry at %v", oe, t0.Add(10*time.Minute))
	}
	h.mustChallenge(alice, carol)
	h.mustChallenge(carol, bob)

	h.restart()
	_, err = h.challenge(alice, bob)
	wantErr(t, err, ErrChallengeLimit)

	h.clk.Set(oe.RetryAt.Add(-time.Second))
	_, err = h.challenge(alice, bob)
	wantErr(t, err, ErrChallengeLimit)
	h.clk.Set(oe.RetryAt)
	h.mustChallenge(alice, bob)
	_, err = h.challenge(alice, bob)
	if !errors.As(err, &oe) || !oe.RetryAt.Equal(t0.Add(12*time.Minute)) {
		t.Fatalf("err = %v, want a refusal until the second challenge leaves the window (%v)", err, t0.Add(12*time.Minute))
	}
}

// Accepted challenges are games, not pestering: they count toward neither cap on
// challenging one person nor on pinging them.
func TestChallengeCapsSkipAccepted(t *testing.T) {
	h := newHarness(t, Options{})
	for i := range 6 {
		c := h.mustChallenge(alice, bob)
		if c.Quiet {
			t.Fatalf("challenge %d is quiet: accepted challenges used up bob's pings", i+1)
		}
		h.answerChallenge(c, bob, accept)
	}
}

// Challenges mention their addressee at most 3 times within 10 minutes, whoever sends
// them: later ones are quiet (stored so), until the window passes.
func TestChallengePingCap(t *testing.T) {
	h := newHarness(t, Options{})
	for i := range 3 {
		if c := h.mustChallenge(player(i), bob); c.Quiet {
			t.Fatalf("challenge %d from %s is quiet", i+1, player(i).ID)
		}
		h.clk.Advance(time.Minute)
	}
	later := h.mustChallenge(player(3), bob)
	if !later.Quiet {
		t.Fatal("the fourth challenge to bob within 10 minutes mentions him")
	}
	if c, err := h.s.Challenge(ctx, later.ID); err != nil || !c.Quiet {
		t.Errorf("stored challenge %+v, %v: want it quiet", c, err)
	}
	if c := h.mustChallenge(player(3), carol); c.Quiet {
		t.Error("a challenge to carol is quiet: bob's pings are his")
	}

	h.restart()
	if c := h.mustChallenge(player(4), bob); !c.Quiet {
		t.Fatal("after a restart, a fifth challenge to bob mentions him")
	}
	h.clk.Set(t0.Add(10 * time.Minute))
	if c := h.mustChallenge(player(5), bob); c.Quiet {
		t.Fatal("when the first ping leaves the window, a challenge is still quiet")
	}
	if c := h.mustChallenge(player(6), bob); !c.Quiet {
		t.Fatal("the window's pings are back at 3, yet a challenge mentions bob")
	}
}

// A person who turned challenge pings off is never mentioned by a challenge, and
// quiet challenges leave their pings for when they turn them on again.
func TestChallengePingPreference(t *testing.T) {
	h := newHarness(t, Options{})
	p, err := h.s.Settings().Prefs(ctx, bob.ID)
	if err != nil || !p.PingOnChallenge {
		t.Fatalf("default preferences %+v, %v: want challenge pings on", p, err)
	}
	p.PingOnChallenge = false
	if err := h.s.SetUserPrefs(ctx, bob.ID, p); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if c := h.mustChallenge(player(i), bob); !c.Quiet {
			t.Fatalf("challenge %d mentions bob, who turned challenge pings off", i+1)
		}
	}
	p.PingOnChallenge = true
	if err := h.s.SetUserPrefs(ctx, bob.ID, p); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if c := h.mustChallenge(player(10+i), bob); c.Quiet {
			t.Fatalf("challenge %d after pings were turned on is quiet", i+1)
		}
	}
	if c := h.mustChallenge(player(20), bob); !c.Quiet {
		t.Fatal("a fourth ping within the window")
	}
}

// The limits can be chosen, and a negative one lifts its cap; a repeated request is
// answered from its receipt, not refused by the cap it filled.
func TestChallengeLimitsOptions(t *testing.T) {
	for _, c := range []struct {
		name          string
		lim           ChallengeLimits
		pending, same int // challenges allowed: to distinct people, to one person
		pings         int // challenges to one person that mention them
	}{
		{"defaults", ChallengeLimits{}, 5, 3, 3},
		{"chosen", ChallengeLimits{MaxPending: 2, PerOpponent: 1, Pings: 1, Window: time.Hour}, 2, 1, 1},
		{"no caps", ChallengeLimits{MaxPending: -1, PerOpponent: -1, Pings: -1}, 12, 12, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Options{ChallengeLimits: c.lim})
			for i := range 12 {
				_, err := h.challenge(alice, player(i))
				if (err == nil) != (i < c.pending) {
					t.Fatalf("challenge %d to distinct people: %v, want %d allowed", i+1, err, c.pending)
				}
			}
			pings := 0
			for i := range 12 {
				r, err := h.s.CreateChallenge(ctx, ChallengeRequest{RequestID: fmt.Sprint("same-", i), From: bob, To: carol, ExpiresIn: time.Second})
				if (err == nil) != (i < c.same) {
					t.Fatalf("challenge %d to carol: %v, want %d allowed", i+1, err, c.same)
				}
				if err != nil {
					continue
				}
				if !r.Challenge.Quiet {
					pings++
				}
				h.clk.Advance(time.Second) // each expires before the next: the pending cap stays out of it
				again, err := h.s.CreateChallenge(ctx, ChallengeRequest{RequestID: fmt.Sprint("same-", i), From: bob, To: carol, ExpiresIn: time.Second})
				if err != nil || !again.Replayed || again.Challenge.ID != r.Challenge.ID || again.Challenge.Quiet != r.Challenge.Quiet {
					t.Fatalf("repeated request: %+v, %v; want the first answer", again, err)
				}
			}
			if pings != c.pings {
				t.Errorf("%d challenges mentioned carol, want %d", pings, c.pings)
			}
		})
	}
}

// Many challenges at once from one user: exactly the cap's worth get through, on one
// service and on two services (two processes) sharing a PostgreSQL store.
func TestChallengeCapRace(t *testing.T) {
	race := func(t *testing.T, services ...*Service) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		made, refused := 0, 0
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := services[i%len(services)]
				_, err := s.CreateChallenge(ctx, ChallengeRequest{RequestID: fmt.Sprint("r", i), From: alice, To: player(i)})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					made++
				case errors.Is(err, ErrChallengeLimit):
					refused++
				default:
					t.Errorf("challenge %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		if made != 5 || refused != 15 {
			t.Errorf("%d challenges made, %d refused; want 5 and 15", made, refused)
		}
		pending, err := services[0].PendingChallenges(ctx)
		if err != nil || len(pending) != 5 {
			t.Errorf("%d pending challenges (%v), want 5", len(pending), err)
		}
	}
	t.Run("bbolt", func(t *testing.T) {
		h := newHarness(t, Options{})
		race(t, h.s)
	})
	t.Run("postgres two processes", func(t *testing.T) {
		dsn := storagetest.PostgresDSN(t)
		clk := timers.NewManualClock(t0)
		var services []*Service
		for _, name := range []string{"one", "two"} {
			s, err := New(storagetest.OpenPostgresDSN(t, dsn, nil), Options{Clock: clk, Instance: name, Logger: quietLogger()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			services = append(services, s)
		}
		race(t, services...)
	})
}

// eachSharedStore runs fn with two stores of one database: the same bbolt store twice
// (with bbolt one process applies) and two connections to one PostgreSQL schema (two
// processes).
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

// challengeProcesses starts a game service on each store, sharing a manual clock, each
// with its recorder and owns (nil: every server).
func challengeProcesses(t *testing.T, a, b storage.Store, owns [2]func(string) bool) ([2]*Service, [2]*Recorder, *timers.ManualClock) {
	t.Helper()
	clk := timers.NewManualClock(t0)
	var svcs [2]*Service
	var recs [2]*Recorder
	for i, db := range []storage.Store{a, b} {
		recs[i] = &Recorder{}
		s, err := New(db, Options{Clock: clk, Notifier: recs[i], Logger: quietLogger(), Instance: fmt.Sprint("p", i),
			Owns: owns[i], Rand: func() uint64 { return 0 }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		svcs[i] = s
	}
	return svcs, recs, clk
}

// expiredIDs flushes s and returns the ids of the challenges its recorder saw expire.
func expiredIDs(t *testing.T, s *Service, rec *Recorder) []uint64 {
	t.Helper()
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	for _, e := range rec.Events() {
		if x, ok := e.(ChallengeExpired); ok {
			ids = append(ids, x.Challenge.ID)
		}
	}
	return ids
}

// Both processes know every challenge and fire its expiry at once: each expiry is
// written and announced once, by one of them.
func TestChallengeExpiresOnceAcrossProcesses(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		svcs, recs, clk := challengeProcesses(t, a, b, [2]func(string) bool{})
		const n = 12
		for i := range n {
			if _, err := svcs[i%2].CreateChallenge(ctx, ChallengeRequest{RequestID: fmt.Sprint("c", i), GuildID: "g", ChannelID: "ch",
				From: player(i), To: player(100 + i), Control: "5+3"}); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range svcs {
			if got, err := s.AdoptChallenges(ctx); err != nil || got != n {
				t.Fatalf("adopt challenges: %d, %v; want %d", got, err, n)
			}
		}
		clk.Advance(15 * time.Minute)
		var wg sync.WaitGroup
		for _, s := range svcs {
			wg.Go(func() { s.FireDue() })
		}
		wg.Wait()
		seen := map[uint64]int{}
		for i, s := range svcs {
			for _, id := range expiredIDs(t, s, recs[i]) {
				seen[id]++
			}
		}
		if len(seen) != n {
			t.Fatalf("%d challenges announced expired, want %d", len(seen), n)
		}
		for id, k := range seen {
			if k != 1 {
				t.Errorf("challenge %d announced expired %d times", id, k)
			}
		}
		pending, err := storage.Read(ctx, b, storage.Tx.PendingChallenges)
		if err != nil || len(pending) != 0 {
			t.Fatalf("%d challenges still pending, %v", len(pending), err)
		}
	})
}

// Two people accept one open challenge at once in two processes: one game starts, the
// other is told the challenge is closed; the same accept (one request id) reaching both
// processes starts one game, which both answer with.
func TestChallengeAcceptedOnceAcrossProcesses(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		svcs, _, _ := challengeProcesses(t, a, b, [2]func(string) bool{})
		const n = 8
		for i := range n {
			r, err := svcs[0].CreateChallenge(ctx, ChallengeRequest{RequestID: fmt.Sprint("c", i), GuildID: "g", ChannelID: "ch",
				From: player(i), Control: "5+3"})
			if err != nil {
				t.Fatal(err)
			}
			id := r.Challenge.ID
			var res [2]*Result
			var errs [2]error
			var wg sync.WaitGroup
			for j, s := range svcs {
				rid := fmt.Sprint("accept", i, "-", j)
				if i%2 == 1 {
					rid = fmt.Sprint("accept", i) // one request delivered to both
				}
				wg.Go(func() {
					res[j], errs[j] = s.AcceptChallenge(ctx, ChallengeAction{RequestID: rid, ChallengeID: id, User: player(200 + i)})
				})
			}
			wg.Wait()
			games := map[uint64]bool{}
			for j := range svcs {
				switch {
				case errs[j] == nil && res[j].Game != nil:
					games[res[j].Game.ID] = true
				case errors.Is(errs[j], ErrChallengeClosed) && i%2 == 0:
				default:
					t.Fatalf("challenge %d, process %d: %+v, %v", id, j, res[j], errs[j])
				}
			}
			if len(games) != 1 {
				t.Fatalf("challenge %d started %d games", id, len(games))
			}
			c, err := storage.Read(ctx, b, func(tx storage.Tx) (*storage.Challenge, error) { return tx.Challenge(id) })
			if err != nil || c.Status != storage.ChallengeAccepted || !games[c.GameID] {
				t.Fatalf("stored challenge %+v, %v; games %v", c, err, games)
			}
		}
		total, _ := storagetest.CountGames(t, b)
		if total != n {
			t.Fatalf("%d games stored, want %d", total, n)
		}
	})
}

// AdoptChallenges schedules the pending challenges of the servers a service owns.
func TestAdoptChallengesFollowsOwns(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		svcs, recs, clk := challengeProcesses(t, a, b, [2]func(string) bool{
			func(g string) bool { return g == "g1" },
			func(g string) bool { return g == "g2" },
		})
		for i, g := range []string{"g1", "g2", "g2"} {
			if _, err := svcs[0].CreateChallenge(ctx, ChallengeRequest{RequestID: fmt.Sprint("c", i), GuildID: g, ChannelID: "ch",
				From: player(i), To: player(100 + i), Control: "5+3"}); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := svcs[1].AdoptChallenges(ctx); err != nil || got != 2 {
			t.Fatalf("b adopts %d, %v; want g2's 2", got, err)
		}
		svcs[0].Close() // the process that made them stops
		clk.Advance(15 * time.Minute)
		svcs[1].FireDue()
		if ids := expiredIDs(t, svcs[1], recs[1]); len(ids) != 2 {
			t.Fatalf("b announced %v expired, want g2's 2", ids)
		}
	})
}

// One start request (a tournament board's) reaching two processes at once starts one
// game, which both answer with.
func TestStartGameOnceAcrossProcesses(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		svcs, _, _ := challengeProcesses(t, a, b, [2]func(string) bool{})
		const n = 8
		for i := range n {
			var res [2]*Result
			var errs [2]error
			var wg sync.WaitGroup
			for j, s := range svcs {
				wg.Go(func() {
					res[j], errs[j] = s.StartGame(ctx, StartRequest{RequestID: fmt.Sprint("board", i), GuildID: "g", ChannelID: "ch",
						White: player(i), Black: player(100 + i), Control: "5+3"})
				})
			}
			wg.Wait()
			for j := range svcs {
				if errs[j] != nil || res[j].Game == nil {
					t.Fatalf("start %d in process %d: %+v, %v", i, j, res[j], errs[j])
				}
			}
			if res[0].Game.ID != res[1].Game.ID || res[0].Replayed == res[1].Replayed {
				t.Fatalf("start %d: games %d and %d (replayed %v, %v); want one game, replayed once", i,
					res[0].Game.ID, res[1].Game.ID, res[0].Replayed, res[1].Replayed)
			}
		}
		if total, _ := storagetest.CountGames(t, b); total != n {
			t.Fatalf("%d games stored, want %d", total, n)
		}
	})
}

// A guest challenge starts a guest game, kept after a reopening of the store; a guest
// challenge naming a server, or rated, is refused.
func TestGuestChallengeStartsAGuestGame(t *testing.T) {
	h := newHarness(t, Options{})
	a, b := player(1), player(2)
	for name, r := range map[string]ChallengeRequest{
		"in a server": {GuildID: "g", ChannelID: "ch", From: a, To: b, Control: "3d", Guest: true},
		"rated":       {ChannelID: "ch", From: a, To: b, Control: "3d", Guest: true, Rated: true},
	} {
		r.RequestID = h.rid()
		if _, err := h.s.CreateChallenge(ctx, r); !errors.Is(err, ErrBadRequest) {
			t.Errorf("%s: %v, want ErrBadRequest", name, err)
		}
	}
	res, err := h.s.CreateChallenge(ctx, ChallengeRequest{RequestID: h.rid(), ChannelID: "gdm", From: a, To: b, Control: "3d", Guest: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Challenge.Guest {
		t.Fatal("the challenge is not a guest challenge")
	}
	acc, err := h.s.AcceptChallenge(ctx, ChallengeAction{RequestID: h.rid(), ChallengeID: res.Challenge.ID, User: b})
	if err != nil {
		t.Fatal(err)
	}
	g, err := h.s.Game(ctx, acc.Game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Guest || g.GuildID != "" || g.ChannelID != "gdm" {
		t.Errorf("game: guest %v guild %q channel %q, want a guest game in gdm", g.Guest, g.GuildID, g.ChannelID)
	}
	h.restart()
	if g, err := h.s.Game(ctx, acc.Game.ID); err != nil || !g.Guest {
		t.Errorf("after a restart: %+v, %v", g, err)
	}
}
