package games

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// Starting a game holds the request's lock (StartGame) or the challenge's
// (AcceptChallenge) and then takes the new game's. With every key of each lock table on
// one stripe, that nesting still cannot meet itself or another request's in the other
// order: the tables are separate and always taken request, challenge, game. (With one
// shared table a request id and its new game's id hashing alike deadlocked; CI met it
// one run in about a thousand.)
func TestStartingGamesWithEveryKeyOnOneStripe(t *testing.T) {
	h := newHarness(t, Options{})
	h.s.stripeMask = 0
	done := make(chan error, 1)
	go func() { done <- startGamesEveryWay(h.s) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("starting games with every key on one stripe did not finish: a lock is taken twice or out of order")
	}
	if n, _ := storagetest.CountGames(t, h.db); n != 4*20 {
		t.Errorf("%d games, want %d", n, 4*20)
	}
}

// startGamesEveryWay starts 20 games in each of four goroutines: direct starts,
// accepted challenges, and moves on the games as they appear.
func startGamesEveryWay(s *Service) error {
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				rid := fmt.Sprintf("w%d-%d", w, i)
				var g *Game
				if w%2 == 0 {
					r, err := s.StartGame(ctx, StartRequest{RequestID: rid, GuildID: "g", ChannelID: "ch", White: alice, Black: bob, Control: "5+3"})
					if err != nil {
						errs <- fmt.Errorf("start %s: %w", rid, err)
						return
					}
					g = r.Game
				} else {
					c, err := s.CreateChallenge(ctx, ChallengeRequest{RequestID: rid + "c", GuildID: "g", ChannelID: "ch", From: alice, To: bob, Control: "5+3", Color: storage.ChooseWhite})
					if err != nil {
						errs <- fmt.Errorf("challenge %s: %w", rid, err)
						return
					}
					r, err := s.AcceptChallenge(ctx, ChallengeAction{RequestID: rid + "a", ChallengeID: c.Challenge.ID, User: bob})
					if err != nil {
						errs <- fmt.Errorf("accept %s: %w", rid, err)
						return
					}
					g = r.Game
				}
				if _, err := s.Move(ctx, MoveRequest{Action: Action{RequestID: rid + "m", GameID: g.ID, UserID: alice.ID}, Move: "e4"}); err != nil {
					errs <- fmt.Errorf("move in game %d: %w", g.ID, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}
