package games

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// rateOnFinish is an OnFinish hook that records a rated game's result and moves both
// players' ladder records, as the ladder service does, in the transaction that ends
// the game; it fails while *refuse is set.
func rateOnFinish(refuse *bool) func(tx storage.Tx, g *Game) error {
	return func(tx storage.Tx, g *Game) error {
		if *refuse {
			return errors.New("the ladder refuses")
		}
		if !g.Rated {
			return nil
		}
		score := 0.5
		switch g.Outcome.Result {
		case chesscore.WhiteWins:
			score = 1
		case chesscore.BlackWins:
			score = 0
		}
		added, err := tx.AddRatedResult(storage.RatedResult{GuildID: g.GuildID, GameID: g.ID, White: g.White.ID, Black: g.Black.ID,
			Score: score, Category: g.Control.Category(), Ended: g.Ended, WhiteBefore: 1500, BlackBefore: 1500,
			WhiteAfter: 1500 + 20*(score*2-1), BlackAfter: 1500 - 20*(score*2-1)})
		if err != nil || !added {
			return err
		}
		for _, side := range []struct {
			id    string
			score float64
		}{{g.White.ID, score}, {g.Black.ID, 1 - score}} {
			p, err := tx.LadderPlayer(g.GuildID, g.Control.Category(), side.id)
			if errors.Is(err, storage.ErrNotFound) {
				p, err = storage.LadderPlayer{GuildID: g.GuildID, Category: g.Control.Category(), UserID: side.id, Rating: 1500, Peak: 1500}, nil
			}
			if err != nil {
				return err
			}
			p.Games++
			switch side.score {
			case 1:
				p.Wins++
			case 0:
				p.Losses++
			default:
				p.Draws++
			}
			p.Rating += 20 * (side.score*2 - 1)
			if err := tx.PutLadderPlayer(p); err != nil {
				return err
			}
		}
		return nil
	}
}

// On PostgreSQL, a game's moves, its result, the rating change and each request's
// receipt commit together: a refused rating leaves the game as it was, and the same
// request then goes through once.
func TestPostgresMoveResultAndRatingCommitTogether(t *testing.T) {
	db := storagetest.OpenPostgres(t)
	refuse := false
	s, err := New(db, Options{Clock: timers.NewManualClock(t0), Notifier: &Recorder{}, Logger: quietLogger(),
		OnFinish: rateOnFinish(&refuse), Rand: func() uint64 { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	alice, bob := storage.Player{ID: "1001", Name: "alice"}, storage.Player{ID: "1002", Name: "bob"}
	res, err := s.StartGame(ctx, StartRequest{RequestID: "start", GuildID: "g", ChannelID: "c", White: alice, Black: bob,
		Control: "5+3", Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Game.ID
	// Fool's mate: the fourth move ends the game.
	moves := []string{"f2f3", "e7e5", "g2g4", "d8h4"}
	for i, m := range moves[:3] {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		if _, err := s.Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprint("m", i), GameID: id, UserID: who.ID}, Move: m}); err != nil {
			t.Fatal(err)
		}
	}
	mate := MoveRequest{Action: Action{RequestID: "mate", GameID: id, UserID: bob.ID}, Move: moves[3]}
	refuse = true
	if _, err := s.Move(ctx, mate); err == nil {
		t.Fatal("the mating move committed although its rating was refused")
	}
	g, err := storage.Read(ctx, db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	if err != nil || !g.Live() || g.Ply() != 3 {
		t.Fatalf("after the refused ending: %+v, %v; want the game live at ply 3", g, err)
	}
	for _, read := range []func(tx storage.Tx) error{
		func(tx storage.Tx) error { _, err := tx.Receipt("mate"); return err },
		func(tx storage.Tx) error { _, err := tx.RatedResult(id); return err },
		func(tx storage.Tx) error { _, err := tx.LadderPlayer("g", clock.Blitz, bob.ID); return err },
	} {
		if err := db.View(ctx, read); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a record of the refused ending: %v, want ErrNotFound", err)
		}
	}
	refuse = false
	done, err := s.Move(ctx, mate)
	if err != nil || done.Outcome.Result != chesscore.BlackWins {
		t.Fatalf("the mate again: %+v, %v", done, err)
	}
	again, err := s.Move(ctx, mate)
	if err != nil || !again.Replayed {
		t.Errorf("the same request a third time: %+v, %v; want it answered from its receipt", again, err)
	}
	g, _ = storage.Read(ctx, db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	if g.Live() || g.Ply() != 4 {
		t.Errorf("stored game: live %v at ply %d", g.Live(), g.Ply())
	}
	r, err := storage.Read(ctx, db, func(tx storage.Tx) (storage.RatedResult, error) { return tx.RatedResult(id) })
	if err != nil || r.Score != 0 {
		t.Errorf("rated result %+v, %v", r, err)
	}
	p, err := storage.Read(ctx, db, func(tx storage.Tx) (storage.LadderPlayer, error) { return tx.LadderPlayer("g", clock.Blitz, bob.ID) })
	if err != nil || p.Games != 1 || p.Wins != 1 {
		t.Errorf("bob's ladder record %+v, %v: the rating must move once", p, err)
	}
}

// Two game services on one PostgreSQL database are two processes: a request that
// reaches both acts once.
func TestPostgresTwoServicesActOnce(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	var svcs []*Service
	for _, instance := range []string{"a", "b"} {
		db := storagetest.OpenPostgresDSN(t, dsn, nil)
		s, err := New(db, Options{Clock: timers.NewManualClock(t0), Notifier: &Recorder{}, Logger: quietLogger(),
			Instance: instance, Rand: func() uint64 { return 0 }})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		svcs = append(svcs, s)
	}
	alice, bob := storage.Player{ID: "1001", Name: "alice"}, storage.Player{ID: "1002", Name: "bob"}
	res, err := svcs[0].StartGame(ctx, StartRequest{RequestID: "start", GuildID: "g", ChannelID: "c", White: alice, Black: bob, Control: "-"})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Game.ID
	for round, m := range []string{"e2e4", "e7e5", "g1f3", "b8c6"} {
		who := alice
		if round%2 == 1 {
			who = bob
		}
		req := MoveRequest{Action: Action{RequestID: fmt.Sprint("req", round), GameID: id, UserID: who.ID}, Move: m}
		var wg sync.WaitGroup
		results := make([]*Result, 2)
		errs := make([]error, 2)
		for i, s := range svcs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = s.Move(ctx, req)
			}()
		}
		wg.Wait()
		// One process acts; the other answers from the receipt (after reloading the game
		// if its write was refused), and writes nothing.
		acted := 0
		for i := range svcs {
			if errs[i] != nil {
				t.Fatalf("move %s in process %d: %v", m, i, errs[i])
			}
			if !results[i].Replayed {
				acted++
			}
		}
		if acted != 1 {
			t.Fatalf("move %s acted in %d processes (errors %v)", m, acted, errs)
		}
		g, err := storage.Read(ctx, svcs[1].db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
		if err != nil || g.Ply() != round+1 {
			t.Fatalf("after move %s: ply %d, %v", m, g.Ply(), err)
		}
		if _, err := Replay(g); err != nil {
			t.Fatal(err)
		}
		// The process whose copy is now stale finds out on its next request (the stored
		// version differs) and reloads the game: no cache is dropped here.
	}
}
