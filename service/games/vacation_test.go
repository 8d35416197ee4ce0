// vacation_test.go: vacations on both backends with a manual clock: the clocks they
// hold, the days they count (exactly, across a restart and a takeover), the refusals,
// auto vacation at a flag, and the tournaments that do not allow them.

package games

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

const day = storage.VacationDay

// vacationEnv is a service on one backend with a manual clock.
type vacationEnv struct {
	t   *testing.T
	db  storage.Store
	clk *timers.ManualClock
	rec *Recorder
	s   *Service
	seq int
}

// onBothBackends runs fn on a service over bbolt and over PostgreSQL.
func onBothBackends(t *testing.T, fn func(t *testing.T, env *vacationEnv)) {
	for _, be := range []struct {
		name string
		open func(t *testing.T) storage.Store
	}{
		{"bolt", func(t *testing.T) storage.Store { return storagetest.Open(t) }},
		{"postgres", func(t *testing.T) storage.Store { return storagetest.OpenPostgres(t) }},
	} {
		t.Run(be.name, func(t *testing.T) {
			env := &vacationEnv{t: t, db: be.open(t), clk: timers.NewManualClock(t0), rec: &Recorder{}}
			s, err := New(env.db, Options{Clock: env.clk, Notifier: env.rec, Logger: quietLogger(), Rand: func() uint64 { return 0 }})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			env.s = s
			fn(t, env)
		})
	}
}

func (env *vacationEnv) rid() string {
	env.seq++
	return fmt.Sprint("vac-", env.seq)
}

// corr starts a correspondence game (1 day a move) in server g between white and black.
func (env *vacationEnv) corr(white, black storage.Player, control string) uint64 {
	env.t.Helper()
	r, err := env.s.StartGame(ctx, StartRequest{RequestID: env.rid(), GuildID: "g", ChannelID: "ch", White: white, Black: black, Control: control})
	if err != nil {
		env.t.Fatal(err)
	}
	return r.Game.ID
}

func (env *vacationEnv) move(id uint64, who storage.Player, mv string) error {
	_, err := env.s.Move(ctx, MoveRequest{Action: Action{RequestID: env.rid(), GameID: id, UserID: who.ID}, Move: mv})
	return err
}

func (env *vacationEnv) stored(id uint64) *storage.Game {
	env.t.Helper()
	g, err := storage.Read(ctx, env.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	if err != nil {
		env.t.Fatal(err)
	}
	return g
}

func (env *vacationEnv) record(user storage.Player) *storage.Vacation {
	env.t.Helper()
	v, err := env.s.readVacation(ctx, "g", user.ID)
	if err != nil {
		env.t.Fatal(err)
	}
	return v
}

// A vacation pauses the clock of the player to move (their time stays as it was at the
// start), survives the deadline, and its end gives them that time back; the days
// begun are counted.
func TestVacationHoldsTheClockOfThePlayerToMove(t *testing.T) {
	onBothBackends(t, func(t *testing.T, env *vacationEnv) {
		id := env.corr(alice, bob, "1d")
		env.clk.Advance(6 * time.Hour) // alice has thought 6 hours: 18 left
		st, err := env.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: alice.ID, Days: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !st.On || st.Paused != 1 || st.Left != 13 || !st.Until.Equal(env.clk.Now().Add(3*day)) {
			t.Fatalf("status after start = %+v; want on, 1 game paused, 13 days left, until 3 days on", st)
		}
		if c := env.stored(id).Clock; c.State != clock.Paused || c.Remaining(chesscore.White, env.clk.Now().Add(2*day)) != 18*time.Hour {
			t.Fatalf("clock after start: %v with %v left; want paused with 18h", c.State, c.Remaining(chesscore.White, env.clk.Now()))
		}
		env.clk.Advance(2*day + time.Hour) // past the move's deadline
		env.s.FireDue()
		if g := env.stored(id); !g.Live() {
			t.Fatalf("the game ended during the vacation: %v", g.Outcome)
		}
		if vs, _ := env.s.VacationsOf(ctx, env.stored(id)); vs[chesscore.White].IsZero() || !vs[chesscore.Black].IsZero() {
			t.Errorf("VacationsOf = %v; want white's end only", vs)
		}
		st, err = env.s.EndVacation(ctx, "g", alice.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.On || st.Used != 3 || st.Left != 11 {
			t.Errorf("status after 2 days and an hour = %+v; want off, 3 days used, 11 left", st)
		}
		c := env.stored(id).Clock
		if c.State != clock.Running || !c.FlagAt().Equal(env.clk.Now().Add(18*time.Hour)) {
			t.Fatalf("clock after the end: %v, flag at %v; want running with 18h from now", c.State, c.FlagAt())
		}
		if err := env.move(id, alice, "e4"); err != nil {
			t.Fatal(err)
		}
		// Bob's clock runs as usual: his flag falls a day after his turn began.
		env.clk.Advance(25 * time.Hour)
		env.s.FireDue()
		if g := env.stored(id); g.Live() || !g.Ended.Equal(env.clk.Now().Add(-time.Hour)) {
			t.Errorf("bob's flag did not fall a day after his turn began: %+v at %v", g.Outcome, g.Ended)
		}
	})
}

// A move by the opponent into the turn of a player on vacation pauses the clock at once;
// the player may still move (the clock is theirs to press), and a live game is never paused.
func TestVacationPausesTheTurnTheOpponentHandsOver(t *testing.T) {
	onBothBackends(t, func(t *testing.T, env *vacationEnv) {
		id := env.corr(alice, bob, "1d")
		live := env.corr(alice, carol, "5+0")
		if err := env.move(id, alice, "e4"); err != nil {
			t.Fatal(err)
		}
		if _, err := env.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: alice.ID, Days: 2}); err != nil {
			t.Fatal(err)
		}
		if c := env.stored(id).Clock; c.State != clock.Running {
			t.Fatalf("bob's clock is %v; want running (alice's vacation is not his)", c.State)
		}
		if c := env.stored(live).Clock; c.State != clock.Running {
			t.Fatalf("the live game's clock is %v; want running", c.State)
		}
		env.clk.Advance(time.Hour)
		if err := env.move(id, bob, "e5"); err != nil {
			t.Fatal(err)
		}
		if c := env.stored(id).Clock; c.State != clock.Paused || c.Turn != chesscore.White {
			t.Fatalf("after bob's move: %v, turn %v; want alice's clock paused", c.State, c.Turn)
		}
		env.clk.Advance(30 * time.Hour)
		env.s.FireDue()
		if err := env.move(id, alice, "Nf3"); err != nil {
			t.Fatalf("alice's move on vacation: %v", err)
		}
		c := env.stored(id).Clock
		if c.State != clock.Running || c.Turn != chesscore.Black || c.Left[chesscore.White] != day {
			t.Errorf("after alice's move: %v, turn %v, alice %v; want bob's clock running and alice's allowance whole", c.State, c.Turn, c.Left[chesscore.White])
		}
	})
}

// Bad requests are refused with their reason and change nothing.
func TestVacationRefusals(t *testing.T) {
	onBothBackends(t, func(t *testing.T, env *vacationEnv) {
		for _, c := range []struct {
			name string
			r    VacationRequest
			want error
		}{
			{"more days than the year has left", VacationRequest{GuildID: "g", UserID: alice.ID, Days: 15}, ErrVacationDays},
			{"negative days", VacationRequest{GuildID: "g", UserID: alice.ID, Days: -1}, ErrVacationDays},
			{"outside a server", VacationRequest{UserID: alice.ID, Days: 1}, ErrBadRequest},
			{"no user", VacationRequest{GuildID: "g", Days: 1}, ErrBadRequest},
		} {
			_, err := env.s.StartVacation(ctx, c.r)
			wantErr(t, err, c.want)
			if v := env.record(alice); v.Version != 0 {
				t.Fatalf("%s: the refused vacation was written: %+v", c.name, v)
			}
		}
		_, err := env.s.EndVacation(ctx, "g", alice.ID)
		wantErr(t, err, ErrNotOnVacation)
		if _, err := env.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: alice.ID}); err != nil {
			t.Fatal(err)
		}
		_, err = env.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: alice.ID, Days: 1})
		wantErr(t, err, ErrOnVacation)
		env.clk.Advance(14 * day) // every day taken: the vacation ends by itself
		env.s.FireDue()
		_, err = env.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: alice.ID, Days: 1})
		wantErr(t, err, ErrNoVacationDays)
		// A server that allows none.
		if _, err := env.s.opts.Settings.UpdateGuild(ctx, "h", func(gs *storage.GuildSettings) error {
			gs.VacationDays = storage.VacationNone
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		_, err = env.s.StartVacation(ctx, VacationRequest{GuildID: "h", UserID: bob.ID, Days: 1})
		wantErr(t, err, ErrNoVacationDays)
		// A server with its own number.
		if _, err := env.s.opts.Settings.UpdateGuild(ctx, "k", func(gs *storage.GuildSettings) error {
			gs.VacationDays = 30
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if st, err := env.s.StartVacation(ctx, VacationRequest{GuildID: "k", UserID: bob.ID, Days: 20}); err != nil || st.Left != 29 {
			t.Errorf("20 of 30 days: %+v, %v; want 29 left (a day begun)", st, err)
		}
	})
}

// A vacation ends by itself when its days are over, counting exactly them, and the
// clocks run again; a new year gives the days back.
func TestVacationEndsWhenItsDaysAreOver(t *testing.T) {
	onBothBackends(t, func(t *testing.T, env *vacationEnv) {
		id := env.corr(alice, bob, "1d")
		if _, err := env.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: alice.ID, Days: 2}); err != nil {
			t.Fatal(err)
		}
		env.clk.Advance(2*day - time.Second)
		env.s.FireDue()
		if !env.record(alice).On(env.clk.Now()) || env.stored(id).Clock.State != clock.Paused {
			t.Fatal("the vacation ended before its days were over")
		}
		env.clk.Advance(time.Second)
		env.s.FireDue()
		v := env.record(alice)
		if v.Open() || v.Used != 2 || v.Year != 2026 {
			t.Fatalf("record at the end = %+v; want closed with 2 days used in 2026", v)
		}
		if c := env.stored(id).Clock; c.State != clock.Running || !c.FlagAt().Equal(env.clk.Now().Add(day)) {
			t.Fatalf("clock after the end: %v, flag at %v; want running, a whole day", c.State, c.FlagAt())
		}
		env.clk.Set(time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC))
		if st, err := env.s.Vacation(ctx, "g", alice.ID); err != nil || st.Left != 14 {
			t.Errorf("in the next year: %+v, %v; want 14 days left", st, err)
		}
	})
}

// Auto vacation: a correspondence flag that would fall starts a vacation instead for
// a player who opted in, recorded and announced; the move's allowance starts afresh
// when they come back, and their other games pause too. Without opting in, the flag
// falls.
func TestAutoVacationAtTheFlag(t *testing.T) {
	onBothBackends(t, func(t *testing.T, env *vacationEnv) {
		if _, err := env.s.SetAutoVacation(ctx, "g", alice.ID, true); err != nil {
			t.Fatal(err)
		}
		id := env.corr(alice, bob, "1d")
		other := env.corr(alice, carol, "2d")
		noOpt := env.corr(carol, bob, "1d")
		deadline := env.stored(id).Clock.FlagAt()
		env.clk.Set(deadline.Add(time.Minute))
		env.s.FireDue()
		env.s.FireDue() // the vacation's own timer: the other games
		if g := env.stored(id); !g.Live() || g.Clock.State != clock.Paused || g.Clock.Left[chesscore.White] != day {
			t.Fatalf("game at the flag: live %v, clock %v, %v; want live, paused with a whole day", g.Live(), g.Clock.State, g.Clock.Left[chesscore.White])
		}
		if g := env.stored(other); g.Clock.State != clock.Paused {
			t.Errorf("alice's other game: %v; want paused", g.Clock.State)
		}
		if g := env.stored(noOpt); g.Live() {
			t.Errorf("carol did not opt in, yet her flag did not fall")
		}
		v := env.record(alice)
		if !v.Automatic || !v.Start.Equal(deadline) || !v.Until.Equal(deadline.Add(14*day)) {
			t.Fatalf("record = %+v; want an automatic vacation from the deadline, 14 days", v)
		}
		started := 0
		if err := env.s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		for _, e := range env.rec.Events() {
			if vs, ok := e.(VacationStarted); ok && vs.Game.ID == id && vs.Player.ID == alice.ID && vs.Until.Equal(v.Until) {
				started++
			}
			if f, ok := e.(FlagFell); ok && f.Game.ID != noOpt {
				t.Errorf("a flag fell in game %d", f.Game.ID)
			}
		}
		if started != 1 {
			t.Errorf("%d VacationStarted events for the game, want 1", started)
		}
		env.clk.Advance(3 * time.Hour)
		st, err := env.s.EndVacation(ctx, "g", alice.ID)
		if err != nil || st.Used != 1 {
			t.Fatalf("end: %+v, %v; want 1 day used", st, err)
		}
		if c := env.stored(id).Clock; c.State != clock.Running || !c.FlagAt().Equal(env.clk.Now().Add(day)) {
			t.Errorf("after coming back: %v, flag %v; want a whole day from now", c.State, c.FlagAt())
		}
	})
}

// A tournament whose organiser does not allow vacations keeps its games' clocks running.
func TestVacationNotInATournamentThatForbidsIt(t *testing.T) {
	onBothBackends(t, func(t *testing.T, env *vacationEnv) {
		for _, c := range []struct {
			name       string
			noVacation bool
			want       clock.State
		}{{"allowed", false, clock.Paused}, {"forbidden", true, clock.Running}} {
			user := storage.Player{ID: fmt.Sprint("40", len(c.name)), Name: c.name}
			var tid uint64
			if err := env.db.Update(ctx, func(tx storage.Tx) error {
				tr := &storage.Tournament{GuildID: "g", ChannelID: "ch", Name: c.name, Format: "swiss", Status: storage.TournamentRunning,
					CreatedBy: alice.ID, Created: t0, State: []byte("{}"), NoVacation: c.noVacation}
				err := tx.PutTournament(tr)
				tid = tr.ID
				return err
			}); err != nil {
				t.Fatal(err)
			}
			r, err := env.s.StartGame(ctx, StartRequest{RequestID: env.rid(), GuildID: "g", ChannelID: "ch", White: user, Black: bob, Control: "1d", NoShow: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			if err := env.db.Update(ctx, func(tx storage.Tx) error {
				return tx.PutTournamentGame(storage.TournamentGame{GameID: r.Game.ID, TournamentID: tid, Round: 1, Board: 1})
			}); err != nil {
				t.Fatal(err)
			}
			if _, err := env.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: user.ID, Days: 1}); err != nil {
				t.Fatal(err)
			}
			if got := env.stored(r.Game.ID).Clock.State; got != c.want {
				t.Errorf("%s: clock %v, want %v", c.name, got, c.want)
			}
		}
	})
}

// A vacation across a restart and a crash: the days are counted from the record, and a
// process that stopped between the vacation's write and its games' has the clock
// paused at start-up from the vacation's start.
func TestVacationAcrossRestartAndCrash(t *testing.T) {
	h := newHarness(t, Options{Logger: quietLogger()})
	id := h.start("1d", "").ID
	if _, err := h.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: alice.ID, Days: 3}); err != nil {
		t.Fatal(err)
	}
	h.clk.Advance(day)
	h.restart()
	if c := storedClock(t, h, id); c.State != clock.Paused {
		t.Fatalf("after the restart: %v, want paused", c.State)
	}
	h.clk.Advance(2 * day)
	h.s.FireDue()
	v, err := h.s.readVacation(ctx, "g", alice.ID)
	if err != nil || v.Open() || v.Used != 3 {
		t.Fatalf("after its days: %+v, %v; want closed, 3 days", v, err)
	}
	// A crash between the vacation's write and the pause: the record alone is there.
	h.clk.Advance(time.Hour)
	start := h.clk.Now()
	before := storedClock(t, h, id).Remaining(chesscore.White, start)
	if err := h.db.Update(ctx, func(tx storage.Tx) error {
		w := v.Clone()
		w.Start, w.Until = start, start.Add(2*day)
		return tx.PutVacation(w)
	}); err != nil {
		t.Fatal(err)
	}
	h.clk.Advance(time.Hour)
	h.s.FireDue() // a heartbeat after the vacation's start: the clock ran while alive
	h.kill()
	h.clk.Advance(time.Hour)
	h.open()
	c := storedClock(t, h, id)
	if c.State != clock.Paused || c.Remaining(chesscore.White, h.clk.Now()) != before {
		t.Fatalf("after the crash: %v with %v; want paused with %v (from the vacation's start)", c.State, c.Remaining(chesscore.White, h.clk.Now()), before)
	}
}

func storedClock(t *testing.T, h *harness, id uint64) *clock.Clock {
	t.Helper()
	g, err := storage.Read(ctx, h.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	if err != nil {
		t.Fatal(err)
	}
	return g.Clock
}

// A takeover on PostgreSQL: the vacation is started in the server's owner, which stops;
// the other process does not close it until it owns the server, and then counts its
// days exactly once, even with the old owner still firing too.
func TestPostgresVacationTakeoverCountsOnce(t *testing.T) {
	svcs, _, clk, owner := ownedProcesses(t, map[string]string{"g1": "a"})
	a, b := svcs[0], svcs[1]
	p := storage.Player{ID: "1001", Name: "alice"}
	r, err := a.StartGame(ctx, StartRequest{RequestID: "start", GuildID: "g1", ChannelID: "c", White: p, Black: storage.Player{ID: "1002", Name: "bob"}, Control: "1d"})
	if err != nil {
		t.Fatal(err)
	}
	id := r.Game.ID
	if _, err := a.StartVacation(ctx, VacationRequest{GuildID: "g1", UserID: p.ID, Days: 2}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2*day + lease.DefaultTTL)
	b.FireDue()
	if v, _ := b.readVacation(ctx, "g1", p.ID); !v.Open() {
		t.Fatal("b closed a vacation of a server it does not own")
	}
	// b takes the server over while a still believes it owns it: both close it.
	owner.set("g1", "b")
	bOwns := owner.owns("b")
	a.opts.Owns = func(g string) bool { return g == "g1" || bOwns(g) }
	if _, err := b.Adopt(ctx); err != nil {
		t.Fatal(err)
	}
	a.FireDue()
	b.FireDue()
	v, err := b.readVacation(ctx, "g1", p.ID)
	if err != nil || v.Open() || v.Used != 2 || v.Version != 2 {
		t.Fatalf("after the takeover: %+v, %v; want closed once (version 2) with exactly 2 days", v, err)
	}
	if c := storedGame(t, b, id).Clock; c.State != clock.Running {
		t.Fatalf("clock after the takeover: %v, want running", c.State)
	}
}

// Two flags of one player falling together (two games past their deadline) start one
// vacation: the second game waits with the first's, and the days are counted once.
func TestAutoVacationTwoFlagsOneVacation(t *testing.T) {
	onBothBackends(t, func(t *testing.T, env *vacationEnv) {
		if _, err := env.s.SetAutoVacation(ctx, "g", alice.ID, true); err != nil {
			t.Fatal(err)
		}
		first := env.corr(alice, bob, "1d")
		env.clk.Advance(time.Hour)
		second := env.corr(alice, carol, "1d")
		env.clk.Advance(2 * day)
		env.s.FireDue()
		env.s.FireDue()
		for _, id := range []uint64{first, second} {
			if g := env.stored(id); !g.Live() || g.Clock.State != clock.Paused {
				t.Errorf("game %d: live %v, clock %v; want waiting", id, g.Live(), g.Clock.State)
			}
		}
		v := env.record(alice)
		if v.Taken != 1 || !v.Start.Equal(t0.Add(day)) {
			t.Errorf("record = %+v; want one vacation from the first deadline", v)
		}
	})
}

// Two /vacation start racing (a double click, or two processes) start one vacation;
// the other is told the player is already on one.
func TestVacationStartsRacingGiveOne(t *testing.T) {
	onBothBackends(t, func(t *testing.T, env *vacationEnv) {
		env.corr(alice, bob, "1d")
		const n = 6
		errs := make(chan error, n)
		for range n {
			go func() {
				_, err := env.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: alice.ID, Days: 2})
				errs <- err
			}()
		}
		ok := 0
		for range n {
			switch err := <-errs; {
			case err == nil:
				ok++
			case !errors.Is(err, ErrOnVacation):
				t.Errorf("a racing start failed with %v, want ErrOnVacation", err)
			}
		}
		if v := env.record(alice); ok != 1 || v.Taken != 1 {
			t.Errorf("%d starts succeeded, %d vacations recorded; want 1 and 1", ok, v.Taken)
		}
	})
}

// Rated correspondence games pause as casual ones do.
func TestVacationPausesRatedGames(t *testing.T) {
	onBothBackends(t, func(t *testing.T, env *vacationEnv) {
		r, err := env.s.StartGame(ctx, StartRequest{RequestID: env.rid(), GuildID: "g", ChannelID: "ch", White: alice, Black: bob, Control: "2d", Rated: true})
		if err != nil {
			t.Fatal(err)
		}
		st, err := env.s.StartVacation(ctx, VacationRequest{GuildID: "g", UserID: alice.ID, Days: 5})
		if err != nil || st.Paused != 1 {
			t.Fatalf("start: %+v, %v; want the rated game paused", st, err)
		}
		env.clk.Advance(4 * day)
		env.s.FireDue()
		if g := env.stored(r.Game.ID); !g.Live() || !g.Rated || g.Clock.State != clock.Paused {
			t.Errorf("rated game after 4 days: live %v, clock %v; want waiting", g.Live(), g.Clock.State)
		}
	})
}
