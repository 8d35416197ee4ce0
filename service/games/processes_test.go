// processes_test.go: two game services on one PostgreSQL database act as two processes
// of one bot: each game stays serialised across them and each request acts once.

package games

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// twoProcesses starts two services ("a" and "b") on one PostgreSQL database, sharing a
// manual clock, each with its own recorder of events.
func twoProcesses(t *testing.T) ([]*Service, []*Recorder, *timers.ManualClock) {
	t.Helper()
	dsn := storagetest.PostgresDSN(t)
	clk := timers.NewManualClock(t0)
	var svcs []*Service
	var recs []*Recorder
	for _, instance := range []string{"a", "b"} {
		db := storagetest.OpenPostgresDSN(t, dsn, nil)
		rec := &Recorder{}
		s, err := New(db, Options{Clock: clk, Notifier: rec, Logger: quietLogger(), Instance: instance, Rand: func() uint64 { return 0 }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		svcs = append(svcs, s)
		recs = append(recs, rec)
	}
	return svcs, recs, clk
}

// startOnFirst starts a casual game without clock between alice (White) and bob in the
// first process.
func startOnFirst(t *testing.T, svcs []*Service) (alice, bob storage.Player, id uint64) {
	t.Helper()
	alice, bob = storage.Player{ID: "1001", Name: "alice"}, storage.Player{ID: "1002", Name: "bob"}
	res, err := svcs[0].StartGame(ctx, StartRequest{RequestID: "start", GuildID: "g", ChannelID: "c", White: alice, Black: bob, Control: "-"})
	if err != nil {
		t.Fatal(err)
	}
	return alice, bob, res.Game.ID
}

// storedGame reads game id from s's database.
func storedGame(t *testing.T, s *Service, id uint64) *storage.Game {
	t.Helper()
	g, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The moves of one game, alternating between two processes, each go through although
// the other process's cached copy is stale by then.
func TestPostgresMovesAlternateBetweenProcesses(t *testing.T) {
	svcs, _, _ := twoProcesses(t)
	alice, bob, id := startOnFirst(t, svcs)
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"}
	for i, m := range moves {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		// Pairs of moves per process (a a b b a a …), so each process's copy is stale on
		// its turn: the other process moved twice since.
		s := svcs[(i/2)%2]
		r, err := s.Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprint("m", i), GameID: id, UserID: who.ID}, Move: m})
		if err != nil || r.Replayed || r.Ply != i+1 {
			t.Fatalf("move %d (%s) in process %d: %+v, %v", i, m, (i/2)%2, r, err)
		}
	}
	if g := storedGame(t, svcs[0], id); g.Ply() != len(moves) || !g.Live() {
		t.Fatalf("stored game at ply %d (live %v), want %d", g.Ply(), g.Live(), len(moves))
	}
}

// The same request sent to both processes at once acts once; the other process answers
// it from the stored receipt, whichever one is first.
func TestPostgresSameRequestInTwoProcesses(t *testing.T) {
	svcs, _, _ := twoProcesses(t)
	alice, bob, id := startOnFirst(t, svcs)
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "d2d3", "d7d6"}
	for i, m := range moves {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		req := MoveRequest{Action: Action{RequestID: fmt.Sprint("req", i), GameID: id, UserID: who.ID}, Move: m}
		results := make([]*Result, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for j, s := range svcs {
			wg.Go(func() { results[j], errs[j] = s.Move(ctx, req) })
		}
		wg.Wait()
		acted, replayed := 0, 0
		for j := range svcs {
			if errs[j] != nil {
				t.Fatalf("move %s in process %d: %v", m, j, errs[j])
			}
			if results[j].Ply != i+1 || results[j].SAN == "" {
				t.Errorf("move %s in process %d answered %+v", m, j, results[j])
			}
			if results[j].Replayed {
				replayed++
			} else {
				acted++
			}
		}
		if acted != 1 || replayed != 1 {
			t.Fatalf("move %s: acted in %d processes, replayed in %d", m, acted, replayed)
		}
	}
	g := storedGame(t, svcs[1], id)
	if g.Ply() != len(moves) {
		t.Fatalf("stored game at ply %d, want %d", g.Ply(), len(moves))
	}
	if _, err := Replay(g); err != nil {
		t.Fatal(err)
	}
}

// Two different requests for one turn, one in each process at once: exactly one is
// played, the other is refused as out of turn; no move is lost or doubled.
func TestPostgresConcurrentMovesInTwoProcesses(t *testing.T) {
	svcs, _, _ := twoProcesses(t)
	alice, bob, id := startOnFirst(t, svcs)
	// Each turn the mover sends two different moves, one through each process; every
	// move is legal whichever of the earlier pairs was played.
	turns := [][2]string{{"e2e4", "d2d4"}, {"e7e5", "d7d5"}, {"g1f3", "b1c3"}, {"b8c6", "g8f6"}, {"a2a3", "h2h3"}, {"a7a6", "h7h6"}}
	var played []string
	for i, pair := range turns {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		results := make([]*Result, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for j, s := range svcs {
			req := MoveRequest{Action: Action{RequestID: fmt.Sprint("turn", i, "-", j), GameID: id, UserID: who.ID}, Move: pair[j]}
			wg.Go(func() { results[j], errs[j] = s.Move(ctx, req) })
		}
		wg.Wait()
		won := -1
		for j := range svcs {
			switch {
			case errs[j] == nil && !results[j].Replayed && won < 0:
				won = j
			case errs[j] == nil:
				t.Fatalf("turn %d: both moves played (%+v, %+v)", i, results[0], results[1])
			case !errors.Is(errs[j], ErrNotYourTurn):
				t.Fatalf("turn %d in process %d: %v, want ErrNotYourTurn", i, j, errs[j])
			}
		}
		if won < 0 {
			t.Fatalf("turn %d: neither move played (%v, %v)", i, errs[0], errs[1])
		}
		played = append(played, pair[won])
	}
	g := storedGame(t, svcs[0], id)
	if g.Ply() != len(turns) {
		t.Fatalf("stored game at ply %d, want %d", g.Ply(), len(turns))
	}
	if _, err := Replay(g); err != nil {
		t.Fatal(err)
	}
	for i, m := range played {
		if got := g.Moves[i].UCI(); got != m {
			t.Errorf("stored ply %d is %s, the move played was %s", i+1, got, m)
		}
	}
}

// A flag that falls while the other process plays a move for the flagged side ends the
// game once: one stored result, one FlagFell and one GameOver across both processes,
// and the move is refused as too late.
func TestPostgresFlagRacesMoveAcrossProcesses(t *testing.T) {
	svcs, recs, clk := twoProcesses(t)
	alice, bob := storage.Player{ID: "1001", Name: "alice"}, storage.Player{ID: "1002", Name: "bob"}
	for round := range 5 {
		res, err := svcs[0].StartGame(ctx, StartRequest{RequestID: fmt.Sprint("start", round), GuildID: "g", ChannelID: "c",
			White: alice, Black: bob, Control: "1+0"})
		if err != nil {
			t.Fatal(err)
		}
		id := res.Game.ID
		if _, err := svcs[0].Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprint("w", round), GameID: id, UserID: alice.ID}, Move: "e2e4"}); err != nil {
			t.Fatal(err)
		}
		if _, err := svcs[1].Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprint("b", round), GameID: id, UserID: bob.ID}, Move: "e7e5"}); err != nil {
			t.Fatal(err)
		}
		clk.Advance(61 * time.Second) // white's minute is gone
		var moveErr error
		var wg sync.WaitGroup
		wg.Go(func() { svcs[0].FireDue() })
		wg.Go(func() {
			_, moveErr = svcs[1].Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprint("late", round), GameID: id, UserID: alice.ID}, Move: "g1f3"})
		})
		wg.Wait()
		if !errors.Is(moveErr, ErrGameOver) {
			t.Fatalf("round %d: the late move answered %v, want ErrGameOver", round, moveErr)
		}
		// The process whose flag lost the race tries again a second later and finds the
		// game over.
		clk.Advance(2 * time.Second)
		svcs[0].FireDue()
		svcs[1].FireDue()
		g := storedGame(t, svcs[0], id)
		if g.Live() || g.Ply() != 2 || g.Outcome.Result != chesscore.BlackWins || g.Outcome.Termination != chesscore.TimeForfeit {
			t.Fatalf("round %d: stored game live %v at ply %d, outcome %+v; want black winning on time at ply 2", round, g.Live(), g.Ply(), g.Outcome)
		}
		flags, overs := 0, 0
		for j, s := range svcs {
			if err := s.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			for _, e := range recs[j].Events() {
				switch e := e.(type) {
				case FlagFell:
					if e.Game.ID == id {
						flags++
					}
				case GameOver:
					if e.Game.ID == id {
						overs++
					}
				}
			}
		}
		if flags != 1 || overs != 1 {
			t.Fatalf("round %d: %d FlagFell and %d GameOver events, want one each", round, flags, overs)
		}
	}
}

// Recording a game's thread in a process whose copy of the game is stale (the other
// process moved since) reloads the game and keeps both the move and the thread.
func TestPostgresThreadAfterMoveInOtherProcess(t *testing.T) {
	svcs, _, _ := twoProcesses(t)
	alice, _, id := startOnFirst(t, svcs)
	if _, err := svcs[1].Move(ctx, MoveRequest{Action: Action{RequestID: "m0", GameID: id, UserID: alice.ID}, Move: "e2e4"}); err != nil {
		t.Fatal(err)
	}
	v, err := svcs[0].SetGameThread(ctx, id, "thread")
	if err != nil {
		t.Fatalf("set the thread in the stale process: %v", err)
	}
	if v.Ply() != 1 {
		t.Errorf("the answer shows ply %d, want 1", v.Ply())
	}
	if g := storedGame(t, svcs[0], id); g.Ply() != 1 || g.ThreadID != "thread" {
		t.Fatalf("stored game at ply %d with thread %q, want ply 1 and the thread", g.Ply(), g.ThreadID)
	}
}

// With the servers divided between two processes (Options.Owns), a process fires only
// the deadlines of its own servers; when the owner of a game's server stops and the
// other process takes the server over (a lease's lifetime later) and adopts its games,
// the flag that fell meanwhile is announced once, within the lease's lifetime and a
// second of its deadline.
func TestPostgresFlagOfStoppedOwnerFallsOnce(t *testing.T) {
	svcs, recs, clk, owner := ownedProcesses(t, map[string]string{"g1": "a"})
	a, b := svcs[0], svcs[1]
	// The game's requests reach a, whose server it is.
	id := startedGame(t, a, "g1")
	deadline := storedGame(t, b, id).Clock.FlagAt()
	if err := a.Close(); err != nil { // the owner stops
		t.Fatal(err)
	}
	clk.Set(deadline.Add(time.Second))
	b.FireDue()
	if g := storedGame(t, b, id); !g.Live() {
		t.Fatalf("b fired the flag of a server it does not own: %+v", g.Outcome)
	}
	// a's leases expire a lifetime after its last renewal; b takes the server over.
	clk.Set(deadline.Add(lease.DefaultTTL))
	owner.set("g1", "b")
	if n, err := b.Adopt(ctx); err != nil || n != 1 {
		t.Fatalf("adopt: %d games, %v; want 1", n, err)
	}
	b.FireDue()
	g := storedGame(t, b, id)
	if g.Live() || g.Outcome.Termination != chesscore.TimeForfeit || g.Outcome.Result != chesscore.BlackWins {
		t.Fatalf("after the takeover: live %v, outcome %+v; want black winning on time", g.Live(), g.Outcome)
	}
	if late := clk.Now().Sub(deadline); late > lease.DefaultTTL+time.Second {
		t.Errorf("the flag fell %v after its deadline, want at most %v", late, lease.DefaultTTL+time.Second)
	}
	if !g.Ended.Equal(deadline) {
		t.Errorf("the game ended at %v, want its deadline %v", g.Ended, deadline)
	}
	clk.Advance(5 * time.Second)
	b.FireDue()
	flags := 0
	for j, s := range svcs {
		if err := s.Flush(ctx); err != nil && j == 1 {
			t.Fatal(err)
		}
		for _, e := range recs[j].Events() {
			if f, ok := e.(FlagFell); ok && f.Game.ID == id {
				flags++
			}
		}
	}
	if flags != 1 {
		t.Fatalf("%d FlagFell events, want 1", flags)
	}
}

// owners maps servers to the instance that owns them, for Options.Owns.
type owners struct {
	mu sync.Mutex
	m  map[string]string
}

func (o *owners) set(guildID, instance string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.m[guildID] = instance
}

func (o *owners) owns(instance string) func(string) bool {
	return func(guildID string) bool {
		o.mu.Lock()
		defer o.mu.Unlock()
		return o.m[guildID] == instance
	}
}

// ownedProcesses starts two services ("a" and "b") on one PostgreSQL database, sharing a
// manual clock, each owning the servers owner gives it.
func ownedProcesses(t *testing.T, owner map[string]string) ([]*Service, []*Recorder, *timers.ManualClock, *owners) {
	t.Helper()
	dsn := storagetest.PostgresDSN(t)
	clk := timers.NewManualClock(t0)
	o := &owners{m: owner}
	var svcs []*Service
	var recs []*Recorder
	for _, instance := range []string{"a", "b"} {
		db := storagetest.OpenPostgresDSN(t, dsn, nil)
		rec := &Recorder{}
		s, err := New(db, Options{Clock: clk, Notifier: rec, Logger: quietLogger(), Instance: instance, Owns: o.owns(instance),
			Rand: func() uint64 { return 0 }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		svcs = append(svcs, s)
		recs = append(recs, rec)
	}
	return svcs, recs, clk, o
}

// startedGame starts a 1+0 game in server guildID through s and plays 1. e4 e5 there:
// White's clock runs.
func startedGame(t *testing.T, s *Service, guildID string) uint64 {
	t.Helper()
	alice, bob := storage.Player{ID: "1001", Name: "alice"}, storage.Player{ID: "1002", Name: "bob"}
	res, err := s.StartGame(ctx, StartRequest{RequestID: "start-" + guildID, GuildID: guildID, ChannelID: "c", White: alice, Black: bob, Control: "1+0"})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Game.ID
	for i, m := range []string{"e2e4", "e7e5"} {
		who := alice
		if i == 1 {
			who = bob
		}
		if _, err := s.Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprint(guildID, "-m", i), GameID: id, UserID: who.ID}, Move: m}); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// flagEvents counts the FlagFell events, by game, that the services deliver from now on
// (a Recorder hands each event out once).
func flagEvents(t *testing.T, svcs []*Service, recs []*Recorder) map[uint64]int {
	t.Helper()
	n := map[uint64]int{}
	for j, s := range svcs {
		if err := s.Flush(ctx); err != nil && !errors.Is(err, ErrClosed) {
			t.Fatal(err)
		}
		for _, e := range recs[j].Events() {
			if f, ok := e.(FlagFell); ok {
				n[f.Game.ID]++
			}
		}
	}
	return n
}

// A game whose requests reach a process that does not own its server has its flag fired
// there, at its deadline (that process wrote the clock), even while the owner runs too;
// once the owner has seen the game both fire it, and it falls once.
func TestPostgresLastWriterFiresFlag(t *testing.T) {
	svcs, recs, clk, _ := ownedProcesses(t, map[string]string{"g1": "a", "g2": "a"})
	a, b := svcs[0], svcs[1]
	unseen := startedGame(t, b, "g1") // the owner does not know it by the deadline
	seen := startedGame(t, b, "g2")
	if _, err := a.Game(ctx, seen); err != nil { // the owner reads this one: both hold it
		t.Fatal(err)
	}
	deadline := storedGame(t, b, unseen).Clock.FlagAt()
	clk.Set(deadline)
	a.FireDue()
	b.FireDue()
	clk.Advance(2 * time.Second) // the loser of the race retries after a second
	a.FireDue()
	b.FireDue()
	flags := flagEvents(t, svcs, recs)
	for _, id := range []uint64{unseen, seen} {
		g := storedGame(t, a, id)
		if g.Live() || g.Outcome.Termination != chesscore.TimeForfeit || !g.Ended.Equal(deadline) {
			t.Fatalf("game %d: live %v, outcome %+v, ended %v; want lost on time at %v", id, g.Live(), g.Outcome, g.Ended, deadline)
		}
		if flags[id] != 1 {
			t.Fatalf("game %d: %d FlagFell events, want 1", id, flags[id])
		}
	}
}

// A game written by a process that stops before its deadline is found by its server's
// owner, which never saw it, within discoverEvery, and its flag falls there once, dated
// at its deadline.
func TestPostgresOwnerDiscoversGameOfStoppedWriter(t *testing.T) {
	svcs, recs, clk, _ := ownedProcesses(t, map[string]string{"g1": "a"})
	a, b := svcs[0], svcs[1]
	id := startedGame(t, b, "g1")
	deadline := storedGame(t, b, id).Clock.FlagAt()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	clk.Set(deadline.Add(time.Second))
	a.FireDue()
	if !storedGame(t, a, id).Live() {
		t.Fatal("the owner fired a flag it had not seen yet")
	}
	for clk.Now().Before(t0.Add(discoverEvery)) || storedGame(t, a, id).Live() {
		if clk.Now().After(deadline.Add(2 * discoverEvery)) {
			t.Fatalf("the owner did not find the game within %v of its deadline", 2*discoverEvery)
		}
		clk.Advance(time.Second)
		a.FireDue()
		a.FireDue() // the discovery schedules the flag; the next pass fires it
	}
	g := storedGame(t, a, id)
	if g.Outcome.Termination != chesscore.TimeForfeit || !g.Ended.Equal(deadline) {
		t.Fatalf("outcome %+v ended %v; want lost on time at %v", g.Outcome, g.Ended, deadline)
	}
	if n := flagEvents(t, svcs, recs)[id]; n != 1 {
		t.Fatalf("%d FlagFell events, want 1", n)
	}
}

// A process that cached a game reads it as stored after the other process moved in it:
// Game checks its copy's version on a shared store.
func TestPostgresGameReadsWhatTheOtherProcessCommitted(t *testing.T) {
	svcs, _, _ := twoProcesses(t)
	alice, bob, id := startOnFirst(t, svcs)
	for i, m := range []string{"e2e4", "e7e5", "g1f3"} {
		who := []storage.Player{alice, bob}[i%2]
		if g, err := svcs[0].Game(ctx, id); err != nil || len(g.Moves) != i {
			t.Fatalf("before move %d, process a reads %d moves (%v), want %d", i+1, len(g.Moves), err, i)
		}
		if _, err := svcs[1].Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprint("m", i), GameID: id, UserID: who.ID}, Move: m}); err != nil {
			t.Fatalf("move %d in process b: %v", i+1, err)
		}
	}
	g, err := svcs[0].Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if want := "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"; g.Position.FEN() != want || len(g.SAN) != 3 {
		t.Fatalf("process a reads %s after %v, want %s after 1.e4 e5 2.Nf3", g.Position.FEN(), g.SAN, want)
	}
}
