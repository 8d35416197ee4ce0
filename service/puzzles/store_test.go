package puzzles

import (
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

func TestLeaderboardOrder(t *testing.T) {
	db := storagetest.Open(t)
	players := []storage.PuzzlePlayer{ // stored by user id; ranked otherwise
		{UserID: "a", Rating: 1500, RD: 100, Volatility: 0.06, Rated: 2, Solved: 1},
		{UserID: "b", Rating: 1600, RD: 100, Volatility: 0.06, Rated: 2, Solved: 1},
		{UserID: "c", Rating: 1500, RD: 100, Volatility: 0.06, Rated: 3, Solved: 3}, // a's rating, more solved: first
		{UserID: "d", Rating: 1900, RD: 350, Volatility: 0.06},                      // no rated attempt: not ranked
		{UserID: "e", Rating: 1500, RD: 100, Volatility: 0.06, Rated: 1, Solved: 1}, // a's rating and solved: after a
	}
	err := db.Update(ctx, func(tx storage.Tx) error {
		for _, p := range players {
			p.GuildID = "g1"
			if err := tx.PutPuzzlePlayer(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limit int
		want  []string
	}{{0, []string{"b", "c", "a", "e"}}, {2, []string{"b", "c"}}} {
		lb, err := leaderboard(ctx, db, "g1", c.limit)
		var got []string
		for _, p := range lb {
			got = append(got, p.UserID)
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("leaderboard of %d = %v, %v; want %v", c.limit, got, err, c.want)
		}
	}
}

func TestPuzzleGuildsHaveAChannel(t *testing.T) {
	db := storagetest.Open(t)
	with, without := storage.DefaultGuildSettings("g1"), storage.DefaultGuildSettings("g2")
	with.Puzzle.Channel = "c1"
	err := db.Update(ctx, func(tx storage.Tx) error {
		if err := tx.PutGuildSettings(with); err != nil {
			return err
		}
		return tx.PutGuildSettings(without)
	})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := puzzleGuilds(ctx, db)
	if err != nil || len(gs) != 1 || gs[0].GuildID != "g1" {
		t.Errorf("puzzle guilds %+v, %v; want g1's only", gs, err)
	}
}
