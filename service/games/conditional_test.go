package games

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// planBed is a service on one store (either backend) with a manual clock, and helpers
// for the two players of its games: alice (white) and bob (black).
type planBed struct {
	t   *testing.T
	db  storage.Store
	clk *timers.ManualClock
	rec *Recorder
	s   *Service
	seq int
}

func newPlanBed(t *testing.T, db storage.Store) *planBed {
	b := &planBed{t: t, db: db, clk: timers.NewManualClock(t0), rec: &Recorder{}}
	s, err := New(db, Options{Clock: b.clk, Notifier: b.rec, Logger: quietLogger(), Rand: func() uint64 { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	b.s = s
	return b
}

func (b *planBed) rid() string { b.seq++; return fmt.Sprint("plan-req-", b.seq) }

func (b *planBed) start(control string) uint64 {
	b.t.Helper()
	r, err := b.s.StartGame(ctx, StartRequest{RequestID: b.rid(), GuildID: "g", ChannelID: "ch", White: alice, Black: bob, Control: control})
	if err != nil {
		b.t.Fatal(err)
	}
	return r.Game.ID
}

func (b *planBed) move(id uint64, who storage.Player, mv string) (*Result, error) {
	return b.s.Move(ctx, MoveRequest{Action: Action{RequestID: b.rid(), GameID: id, UserID: who.ID}, Move: mv})
}

func (b *planBed) mustMove(id uint64, who storage.Player, mv string) *Result {
	b.t.Helper()
	r, err := b.move(id, who, mv)
	if err != nil {
		b.t.Fatalf("%s plays %s: %v", who.Name, mv, err)
	}
	return r
}

func (b *planBed) add(id uint64, who storage.Player, line string) error {
	_, err := b.s.AddPlanLine(ctx, PlanRequest{Action: Action{RequestID: b.rid(), GameID: id, UserID: who.ID}, Line: line})
	return err
}

func (b *planBed) plan(id uint64, who storage.Player) [][]string {
	b.t.Helper()
	v, err := b.s.Plan(ctx, id, who.ID)
	if err != nil {
		b.t.Fatal(err)
	}
	return v.Lines
}

func (b *planBed) events() []Event {
	b.t.Helper()
	if err := b.s.Flush(ctx); err != nil {
		b.t.Fatal(err)
	}
	return b.rec.Events()
}

func (b *planBed) stored(id uint64) *storage.Game {
	b.t.Helper()
	g, err := storage.Read(ctx, b.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	if err != nil {
		b.t.Fatal(err)
	}
	return g
}

// A plan over several days of a correspondence game: each foreseen move is answered
// at once, in the same commit, with the clock pressed for the reply; a move the plan
// does not foresee drops it and tells the planner.
func TestConditionalLineOverDays(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		b := newPlanBed(t, db)
		id := b.start("2d")
		b.mustMove(id, alice, "e4")
		b.mustMove(id, bob, "e5")
		b.events()
		// Alice is to move; Bob plans the Ruy Lopez and, against 2.Bc4, 2...Nf6.
		for _, line := range []string{"Nf3 Nc6 Bb5 a6", "1. Bc4 Nf6", "2.Nf3 Nc6 3.Bc4 Bc5"} {
			if err := b.add(id, bob, line); err != nil {
				t.Fatalf("add %q: %v", line, err)
			}
		}
		want := [][]string{{"Nf3", "Nc6", "Bb5", "a6"}, {"Bc4", "Nf6"}, {"Nf3", "Nc6", "Bc4", "Bc5"}}
		if got := b.plan(id, bob); !reflect.DeepEqual(got, want) {
			t.Fatalf("bob's plan %v, want %v", got, want)
		}
		if got := b.plan(id, alice); len(got) != 0 {
			t.Fatalf("alice sees the plan %v: a plan is its author's only", got)
		}
		if evs := b.events(); len(evs) != 0 {
			t.Fatalf("planning sent %s: nobody hears of a plan", eventTypes(evs))
		}

		// Day 1: alice plays 2.Nf3; 2...Nc6 follows in the same commit.
		b.clk.Advance(20 * time.Hour)
		res := b.mustMove(id, alice, "Nf3")
		if res.SAN != "Nf3" || res.Ply != 4 || res.Game.Ply() != 4 || res.Game.SAN[3] != "Nc6" {
			t.Fatalf("after 2.Nf3: result %q at ply %d, game %v", res.SAN, res.Ply, res.Game.SAN)
		}
		g := b.stored(id)
		if g.Ply() != 4 || g.Clock.Turn != chesscore.White {
			t.Fatalf("stored game at ply %d, %v to move", g.Ply(), g.Clock.Turn)
		}
		if left := g.Clock.Remaining(chesscore.Black, b.clk.Now()); left != 48*time.Hour {
			t.Errorf("bob's allowance after the reply: %v, want the full 48h", left)
		}
		if left := g.Clock.Remaining(chesscore.White, b.clk.Now()); left != 48*time.Hour {
			t.Errorf("alice's clock after the reply: %v, want a fresh 48h", left)
		}
		evs := b.events()
		if eventTypes(evs) != "ConditionalPlayed" {
			t.Fatalf("events after 2.Nf3: %s, want ConditionalPlayed alone", eventTypes(evs))
		}
		if cp := evs[0].(ConditionalPlayed); cp.Move != "Nf3" || cp.Reply != "Nc6" || cp.Player != bob || cp.Color != chesscore.Black {
			t.Errorf("ConditionalPlayed %+v", cp)
		}
		want = [][]string{{"Bb5", "a6"}, {"Bc4", "Bc5"}}
		if got := b.plan(id, bob); !reflect.DeepEqual(got, want) {
			t.Fatalf("bob's plan after the reply %v, want %v", got, want)
		}
		// Bob cannot move now (it is alice's turn): the reply happened once.
		if _, err := b.move(id, bob, "a6"); !errors.Is(err, ErrNotYourTurn) {
			t.Fatalf("bob moving after his reply: %v, want ErrNotYourTurn", err)
		}

		// Day 2: alice deviates with 3.d4: the plan goes, and bob hears of it.
		b.clk.Advance(30 * time.Hour)
		res = b.mustMove(id, alice, "d4")
		if res.Game.Ply() != 5 {
			t.Fatalf("after the deviation the game is at ply %d, want 5 (no reply)", res.Game.Ply())
		}
		evs = b.events()
		if eventTypes(evs) != "YourTurn PlanDropped" {
			t.Fatalf("events after the deviation: %s", eventTypes(evs))
		}
		if pd := evs[1].(PlanDropped); pd.Player != bob || pd.Move != "d4" || pd.Off {
			t.Errorf("PlanDropped %+v", pd)
		}
		if got := b.plan(id, bob); len(got) != 0 {
			t.Errorf("bob's plan after the deviation: %v, want none", got)
		}
		if _, err := storage.Read(ctx, db, func(tx storage.Tx) (*storage.Plan, error) { return tx.Plan(id, chesscore.Black) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("stored plan after the deviation: %v, want ErrNotFound", err)
		}
		// Bob moves himself as usual.
		b.mustMove(id, bob, "exd4")
	})
}

// A plan is checked when entered: each refusal is specific and changes nothing.
func TestConditionalRefusals(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		b := newPlanBed(t, db)
		id := b.start("1d")
		b.mustMove(id, alice, "e4")
		live := b.start("5+3")
		b.mustMove(live, alice, "e4")
		hours := b.start("6h")
		b.mustMove(hours, alice, "e4")
		if err := b.add(id, bob, "Nf3 Nc6"); err == nil {
			t.Fatal("bob planned on his own turn")
		}
		b.mustMove(id, bob, "e5")
		before := b.stored(id).Version
		for _, c := range []struct {
			name, line string
			who        storage.Player
			game       uint64
			want       error
			text       string
		}{
			{"own turn", "e5 Nf3", alice, id, ErrNotYourTurn, "it is your move"},
			{"illegal reply", "Nf3 Ke6 Bb5 Nc6", bob, id, ErrBadRequest, "move 2 of the line (Ke6, your move)"},
			{"illegal opponent's move", "Nf3 Nc6 Bb6 a6", bob, id, ErrBadRequest, "move 3 of the line (Bb6, your opponent's move)"},
			{"no reply", "Nf3", bob, id, ErrBadRequest, "add your reply"},
			{"draw offer", "Nf3 Nc6 draw", bob, id, ErrBadRequest, "cannot offer or claim a draw"},
			{"draw sign", "Nf3 (=)", bob, id, ErrBadRequest, "cannot offer or claim a draw"},
			{"not a move", "Nf3 hello", bob, id, ErrBadRequest, `"hello" is not a move`},
			{"empty", "  1. ", bob, id, ErrBadRequest, "no moves"},
			{"spectator", "Nf3 Nc6", carol, id, ErrNotAPlayer, ""},
			{"live game", "Nf3 Nc6", bob, live, ErrPlansOff, "correspondence"},
		} {
			err := b.add(c.game, c.who, c.line)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
				t.Errorf("%s: %v, want %v saying %q", c.name, err, c.want, c.text)
			}
		}
		if v := b.stored(id).Version; v != before {
			t.Errorf("refused plans wrote the game (version %d, was %d)", v, before)
		}
		if got := b.plan(id, bob); len(got) != 0 {
			t.Errorf("plan after the refusals: %v", got)
		}
		// A second reply to the same move, and a line already held, are refused; a line
		// going further replaces the one it extends.
		if err := b.add(id, bob, "Nf3 Nc6"); err != nil {
			t.Fatal(err)
		}
		if err := b.add(id, bob, "Nf3 Nf6"); !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "another reply") {
			t.Errorf("a second reply to Nf3: %v", err)
		}
		if err := b.add(id, bob, "Nf3 Nc6"); !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "already has that line") {
			t.Errorf("the same line again: %v", err)
		}
		if err := b.add(id, bob, "Nf3 Nc6 Bb5 a6"); err != nil {
			t.Fatal(err)
		}
		if got := b.plan(id, bob); !reflect.DeepEqual(got, [][]string{{"Nf3", "Nc6", "Bb5", "a6"}}) {
			t.Errorf("plan after the extension: %v", got)
		}
		// Remove a branch, then clear.
		if _, err := b.s.RemovePlanLines(ctx, PlanRequest{Action: Action{RequestID: b.rid(), GameID: id, UserID: bob.ID}, Line: "Nc3"}); !errors.Is(err, ErrBadRequest) {
			t.Errorf("removing a line the plan lacks: %v", err)
		}
		if _, err := b.s.RemovePlanLines(ctx, PlanRequest{Action: Action{RequestID: b.rid(), GameID: id, UserID: bob.ID}, Line: "Nf3"}); err != nil {
			t.Fatal(err)
		}
		if got := b.plan(id, bob); len(got) != 0 {
			t.Errorf("plan after removing its only branch: %v", got)
		}
		if _, err := b.s.ClearPlan(ctx, Action{RequestID: b.rid(), GameID: id, UserID: bob.ID}); !errors.Is(err, ErrNoPlan) {
			t.Errorf("clearing an empty plan: %v, want ErrNoPlan", err)
		}

		// The server's scope: daily only refuses a 6-hour game; off refuses every game,
		// and a plan made before it was turned off is dropped when its move comes.
		if err := b.add(id, bob, "Nf3 Nc6"); err != nil {
			t.Fatal(err)
		}
		setScope := func(sc storage.ConditionalScope) {
			t.Helper()
			if err := db.Update(ctx, func(tx storage.Tx) error {
				gs, err := tx.GuildSettings("g")
				if err != nil {
					return err
				}
				gs.ConditionalMoves = sc
				return tx.PutGuildSettings(gs)
			}); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.add(hours, alice, "d5 exd5"); err != nil {
			t.Errorf("a 6-hour game by default: %v", err)
		}
		setScope(storage.ConditionalDaily)
		if err := b.add(hours, alice, "c5 Nf3"); !errors.Is(err, ErrPlansOff) || !strings.Contains(err.Error(), "daily games only") {
			t.Errorf("a 6-hour game with daily only: %v", err)
		}
		setScope(storage.ConditionalOff)
		if err := b.add(id, bob, "d4 d5"); !errors.Is(err, ErrPlansOff) || !strings.Contains(err.Error(), "turned them off") {
			t.Errorf("with conditional moves off: %v", err)
		}
		b.events()
		res := b.mustMove(id, alice, "Nf3")
		if res.Game.Ply() != 3 {
			t.Errorf("a plan answered although the server turned them off (ply %d)", res.Game.Ply())
		}
		evs := b.events()
		if eventTypes(evs) != "YourTurn PlanDropped" || !evs[1].(PlanDropped).Off {
			t.Errorf("events: %s %+v, want the plan dropped as off", eventTypes(evs), evs)
		}
	})
}

// A reply that mates ends the game with it; a takeback drops the plans; an ending
// deletes them.
func TestConditionalEndsAndTakebacks(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		b := newPlanBed(t, db)
		id := b.start("1d")
		b.mustMove(id, alice, "f3")
		b.mustMove(id, bob, "e5")
		if err := b.add(id, bob, "g4 Qh4#"); err != nil {
			t.Fatal(err)
		}
		b.events()
		res := b.mustMove(id, alice, "g4")
		if res.Game.Live() || res.Outcome.Result != chesscore.BlackWins || res.Game.SAN[3] != "Qh4#" {
			t.Fatalf("the mating reply: %v, %v", res.Game.SAN, res.Outcome)
		}
		if evs := b.events(); eventTypes(evs) != "GameOver" {
			t.Errorf("events of the mating reply: %s", eventTypes(evs))
		}
		if _, err := storage.Read(ctx, db, func(tx storage.Tx) (*storage.Plan, error) { return tx.Plan(id, chesscore.Black) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a finished game keeps a plan: %v", err)
		}

		// A takeback undoes the move the plan was made on: the plan goes.
		tb := b.start("1d")
		b.mustMove(tb, alice, "e4")
		b.mustMove(tb, bob, "e5")
		if err := b.add(tb, bob, "Nf3 Nc6"); err != nil {
			t.Fatal(err)
		}
		if _, err := b.s.RequestTakeback(ctx, Action{RequestID: b.rid(), GameID: tb, UserID: bob.ID}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.s.AcceptTakeback(ctx, Action{RequestID: b.rid(), GameID: tb, UserID: alice.ID}); err != nil {
			t.Fatal(err)
		}
		if _, err := storage.Read(ctx, db, func(tx storage.Tx) (*storage.Plan, error) { return tx.Plan(tb, chesscore.Black) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a plan outlived the takeback: %v", err)
		}
	})
}

// A planner editing the plan while the opponent's move commits: exactly one outcome.
// With a plan of one reply, either the clear came first (no reply) or the reply did
// (the clear finds the plan used up). On PostgreSQL the two requests come from two
// processes.
func TestConditionalReplyRacesPlanEdit(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		b := newPlanBed(t, storagetest.Open(t))
		raceReplyAndEdit(t, b, b.s)
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := storagetest.PostgresDSN(t)
		b := newPlanBed(t, storagetest.OpenPostgresDSN(t, dsn, nil))
		other, err := New(storagetest.OpenPostgresDSN(t, dsn, nil), Options{Clock: b.clk, Notifier: &Recorder{}, Logger: quietLogger(), Instance: "other"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { other.Close() })
		raceReplyAndEdit(t, b, other)
	})
}

// raceReplyAndEdit races, in fresh games, alice's move on b's service against bob
// clearing his plan of one reply to it on other.
func raceReplyAndEdit(t *testing.T, b *planBed, other *Service) {
	db := b.db
	replies, clears := 0, 0
	for round := range 8 {
		id := b.start("1d")
		b.mustMove(id, alice, "e4")
		b.mustMove(id, bob, "e5")
		if err := b.add(id, bob, "Nf3 Nc6"); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var moveErr, clearErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, moveErr = b.s.Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprint("race-move-", round), GameID: id, UserID: alice.ID}, Move: "Nf3"})
		}()
		go func() {
			defer wg.Done()
			_, clearErr = other.ClearPlan(ctx, Action{RequestID: fmt.Sprint("race-clear-", round), GameID: id, UserID: bob.ID})
		}()
		wg.Wait()
		if moveErr != nil {
			t.Fatalf("round %d: the move: %v", round, moveErr)
		}
		g := b.stored(id)
		replied := g.Ply() == 4
		switch {
		case replied && errors.Is(clearErr, ErrNoPlan):
			replies++
		case !replied && g.Ply() == 3 && clearErr == nil:
			clears++
		default:
			t.Fatalf("round %d: ply %d and the clear answered %v: not one outcome", round, g.Ply(), clearErr)
		}
		if _, err := storage.Read(ctx, db, func(tx storage.Tx) (*storage.Plan, error) { return tx.Plan(id, chesscore.Black) }); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("round %d: a plan is left: %v", round, err)
		}
	}
	t.Logf("%d replies first, %d clears first", replies, clears)
}

// A process killed right after the opponent's move commits: the reply is in that
// commit, so the restarted service has both moves, the request sent again is answered
// from its receipt, and nothing is played twice.
func TestConditionalReplySurvivesAKill(t *testing.T) {
	h := newHarness(t, Options{Logger: quietLogger()})
	g := h.start("1d", "")
	h.play(g.ID, "e4 e5")
	if _, err := h.s.AddPlanLine(ctx, PlanRequest{Action: h.act(g.ID, bob), Line: "Nf3 Nc6 Bb5 a6"}); err != nil {
		t.Fatal(err)
	}
	req := MoveRequest{Action: h.act(g.ID, alice), Move: "Nf3"}
	if _, err := h.s.Move(ctx, req); err != nil {
		t.Fatal(err)
	}
	h.kill()
	h.open()
	after := h.game(g.ID)
	if strings.Join(after.SAN, " ") != "e4 e5 Nf3 Nc6" {
		t.Fatalf("after the kill: %v", after.SAN)
	}
	again, err := h.s.Move(ctx, req)
	if err != nil || !again.Replayed || again.Ply != 4 {
		t.Fatalf("the move sent again: %+v, %v; want it answered from its receipt at ply 4", again, err)
	}
	if h.game(g.ID).Ply() != 4 {
		t.Fatalf("the move sent again played something")
	}
	v, err := h.s.Plan(ctx, g.ID, bob.ID)
	if err != nil || !reflect.DeepEqual(v.Lines, [][]string{{"Bb5", "a6"}}) {
		t.Fatalf("bob's plan after the restart: %+v, %v", v, err)
	}
	// The rest of the plan answers the next move, in the new process.
	h.play(g.ID, "Bb5")
	if got := strings.Join(h.game(g.ID).SAN, " "); got != "e4 e5 Nf3 Nc6 Bb5 a6" {
		t.Fatalf("after 3.Bb5: %s", got)
	}
}
