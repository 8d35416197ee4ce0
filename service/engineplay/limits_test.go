package engineplay

// Tests of the limit on live games against the engine per person.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

func TestMaxGamesPerUser(t *testing.T) {
	r := newRig(t, Options{}) // the default: 2
	ctx := context.Background()
	n := 0
	start := func(p storage.Player) (*games.Result, error) {
		n++
		return r.eng.Start(ctx, StartRequest{RequestID: fmt.Sprint("cap", n), GuildID: "s1", Human: p, Level: 1, Color: "white", Control: "-"})
	}
	var ids []uint64
	for range 2 {
		res, err := start(ana)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Game.ID)
	}
	_, err := start(ana)
	var many *TooManyGamesError
	if !errors.As(err, &many) || many.Max != 2 || many.UserID != ana.ID || !errors.Is(err, ErrTooManyGames) {
		t.Fatalf("a third game: %v, want a TooManyGamesError with Max 2", err)
	}
	if got := r.eng.LiveGames(ana.ID); got != 2 {
		t.Errorf("LiveGames = %d, want 2", got)
	}
	// Another person is not limited by ana's games.
	if _, err := start(flooder); err != nil {
		t.Errorf("another person's game: %v", err)
	}
	// A game that ends frees its place.
	if _, err := r.svc.Resign(ctx, games.Action{GameID: ids[0], UserID: ana.ID}); err != nil {
		t.Fatal(err)
	}
	if err := r.svc.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := start(ana)
	if err != nil {
		t.Fatalf("a game after one ended: %v", err)
	}
	// An end the service missed (the game over event never came) is found in the store
	// when the limit is reached.
	if _, err := r.svc.Resign(ctx, games.Action{GameID: res.Game.ID, UserID: ana.ID}); err != nil {
		t.Fatal(err)
	}
	if err := r.svc.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	r.eng.mu.Lock()
	r.eng.known[res.Game.ID] = engineGame{EngineGame: storage.EngineGame{GameID: res.Game.ID}, guild: "s1", human: ana.ID}
	r.eng.mu.Unlock()
	if _, err := start(ana); err != nil {
		t.Fatalf("a game after an end that was missed: %v", err)
	}
	if got := r.eng.LiveGames(ana.ID); got != 2 {
		t.Errorf("LiveGames = %d, want 2", got)
	}
}

// TestMaxGamesPerUserConcurrent: requests at once from one person get the limit, no
// more.
func TestMaxGamesPerUserConcurrent(t *testing.T) {
	r := newRig(t, Options{MaxGamesPerUser: 3})
	var wg sync.WaitGroup
	var mu sync.Mutex
	won, refused := 0, 0
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.eng.Start(context.Background(), StartRequest{RequestID: fmt.Sprint("rush", i), GuildID: "s1", Human: ana, Level: 1, Color: "white", Control: "-"})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.Is(err, ErrTooManyGames):
				refused++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if won != 3 || refused != 7 {
		t.Errorf("%d started, %d refused; want 3 and 7", won, refused)
	}
}

// TestMaxGamesPerUserRestart: the games read from the store at start-up count.
func TestMaxGamesPerUserRestart(t *testing.T) {
	r := newRig(t, Options{MaxGamesPerUser: 1})
	g := r.start(1, "white", "-")
	r.close()
	r.open(true)
	_, err := r.eng.Start(context.Background(), StartRequest{RequestID: "after", GuildID: "s1", Human: ana, Level: 1, Color: "white", Control: "-"})
	if !errors.Is(err, ErrTooManyGames) {
		t.Fatalf("a second game after a restart: %v", err)
	}
	r.eng.mu.Lock()
	e := r.eng.known[g.ID]
	r.eng.mu.Unlock()
	if e.human != ana.ID || e.EngineGame.GameID != g.ID {
		t.Errorf("the game read at start-up: %+v", e)
	}
}

// TestNoGameLimit: a negative limit is none.
func TestNoGameLimit(t *testing.T) {
	r := newRig(t, Options{MaxGamesPerUser: -1})
	for i := range 4 {
		if _, err := r.eng.Start(context.Background(), StartRequest{RequestID: fmt.Sprint("free", i), Human: ana, Level: 1, Color: "white", Control: "-"}); err != nil {
			t.Fatal(err)
		}
	}
}
