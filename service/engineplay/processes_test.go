// processes_test.go: two engine services (each with its game service) on one store act
// as two processes of one bot: a turn both think about is played once, and Owns and
// Adopt divide the games.

package engineplay

import (
	"context"
	"sync/atomic"
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

// eproc is one process: a game service and the engine on a store; run starts the
// engine's workers (stopped when the test ends).
type eproc struct {
	svc *games.Service
	eng *Service
}

func newEProc(t *testing.T, db storage.Store, clk *timers.ManualClock, instance string, owns func(string) bool, run bool) *eproc {
	t.Helper()
	var eng atomic.Pointer[Service]
	svc, err := games.New(db, games.Options{Clock: clk, Instance: instance, Logger: quietLogger(),
		Notifier: games.NotifierFunc(func(ctx context.Context, e games.Event) {
			if s := eng.Load(); s != nil {
				s.Notify(ctx, e)
			}
		})})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), db, Options{Clock: clk, ReplyDelay: -1, Untimed: 100 * time.Millisecond, Owns: owns, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Bind(context.Background(), svc, enginePID); err != nil {
		t.Fatal(err)
	}
	eng.Store(s)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	if run {
		go func() {
			defer close(ran)
			s.Run(ctx)
		}()
	} else {
		close(ran)
	}
	t.Cleanup(func() {
		cancel()
		<-ran
		s.Close()
		svc.Close()
	})
	return &eproc{svc: svc, eng: s}
}

// plyAfter waits until game id reaches ply want in db (failing after 20 s), then
// checks that it stays there for settle.
func plyAfter(t *testing.T, db storage.Store, id uint64, want int, settle time.Duration) {
	t.Helper()
	ply := func() int {
		g, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
		if err != nil {
			t.Fatal(err)
		}
		return g.Ply()
	}
	deadline := time.Now().Add(20 * time.Second)
	for ply() < want {
		if time.Now().After(deadline) {
			t.Fatalf("game %d: at ply %d after 20 s, want %d", id, ply(), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(settle)
	if got := ply(); got != want {
		t.Fatalf("game %d: at ply %d, want %d (a move played twice?)", id, got, want)
	}
}

// Both processes think about the same turns (one hears the person's move, the other
// adopts the game): each engine move is played once.
func TestEngineMovePlayedOnceAcrossProcesses(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		clk := timers.NewManualClock(t0)
		ps := [2]*eproc{newEProc(t, a, clk, "a", nil, true), newEProc(t, b, clk, "b", nil, true)}
		res, err := ps[0].eng.Start(context.Background(), StartRequest{RequestID: "start", GuildID: "g", ChannelID: "c", Human: ana, Level: 1, Color: "white", Control: "-"})
		if err != nil {
			t.Fatal(err)
		}
		id := res.Game.ID
		for i, mv := range []string{"e4", "d4", "Nf3"} {
			if _, err := ps[0].svc.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: id, UserID: ana.ID}, Move: mv}); err != nil {
				t.Fatalf("move %s: %v", mv, err)
			}
			// a thinks about its reply (it heard the move); b takes the game up now.
			if n, err := ps[1].eng.Adopt(context.Background()); err != nil || n != 1 {
				t.Fatalf("b adopts %d games, %v; want 1", n, err)
			}
			plyAfter(t, b, id, 2*(i+1), 300*time.Millisecond)
		}
	})
}

// Run takes up at start-up only the games of the guilds the service owns; Adopt takes
// up the others once owned, and the engine's move is made.
func TestRunAndAdoptFollowOwns(t *testing.T) {
	eachSharedStore(t, func(t *testing.T, a, b storage.Store) {
		clk := timers.NewManualClock(t0)
		maker := newEProc(t, a, clk, "a", nil, false) // starts the game, never plays
		res, err := maker.eng.Start(context.Background(), StartRequest{RequestID: "start", GuildID: "g", ChannelID: "c", Human: ana, Level: 1, Color: "black", Control: "-"})
		if err != nil {
			t.Fatal(err)
		}
		var owned atomic.Bool
		q := newEProc(t, b, clk, "b", func(g string) bool { return owned.Load() && g == "g" }, true)
		plyAfter(t, b, res.Game.ID, 0, 300*time.Millisecond)
		owned.Store(true)
		if n, err := q.eng.Adopt(context.Background()); err != nil || n != 1 {
			t.Fatalf("adopt: %d, %v; want 1", n, err)
		}
		plyAfter(t, b, res.Game.ID, 1, 300*time.Millisecond)
	})
}
