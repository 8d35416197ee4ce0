// votegames.go: the conformance suite's vote games: kept per game, written only from
// their stored version, listed live, refused when they cannot be kept.

package storagetest

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

// sampleVoteGame is a vote record for game id.
func sampleVoteGame(id uint64) *storage.VoteGame {
	t0 := testrecords.T0
	return &storage.VoteGame{GameID: id, GuildID: "g1", ChannelID: "c1", TeamID: "team-7", Color: chesscore.Black,
		Window: 6 * time.Hour, Members: []string{"100", "101", "102"}, Created: t0,
		Round: storage.VoteRound{Ply: 1, Open: true, Opened: t0, Closes: t0.Add(6 * time.Hour),
			Ballots: []storage.Ballot{{UserID: "100", Move: "e7e5", At: t0}, {UserID: "102", Move: "c7c5", At: t0.Add(time.Minute)}}}}
}

func putVote(t *testing.T, db storage.Store, v *storage.VoteGame) error {
	t.Helper()
	return db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutVoteGame(v) })
}

func readVote(t *testing.T, db storage.Store, id uint64) (*storage.VoteGame, error) {
	t.Helper()
	return storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.VoteGame, error) { return tx.VoteGame(id) })
}

func testVoteGames(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g, other := planGame(t, db), planGame(t, db)
		if _, err := readVote(t, db, g.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("VoteGame of a game without one: %v, want ErrNotFound", err)
		}
		v := sampleVoteGame(g.ID)
		if err := putVote(t, db, v); err != nil {
			t.Fatal(err)
		}
		if v.Version != 0 {
			t.Errorf("PutVoteGame changed the version of its argument to %d", v.Version)
		}
		got, err := readVote(t, db, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != 1 {
			t.Errorf("a new vote game is stored at version %d, want 1", got.Version)
		}
		v.Version = 1
		if !reflect.DeepEqual(got, v) {
			t.Errorf("read back:\n%+v\nwant\n%+v", got, v)
		}
		// A ballot changed from the stored version lands and moves the version on.
		got.Round.Ballots[0].Move = "d7d5"
		if err := putVote(t, db, got); err != nil {
			t.Fatal(err)
		}
		if again, err := readVote(t, db, g.ID); err != nil || again.Version != 2 {
			t.Errorf("version after a write: %v (%v), want 2", again, err)
		}
		o := sampleVoteGame(other.ID)
		o.Over = true
		if err := putVote(t, db, o); err != nil {
			t.Fatal(err)
		}
		live, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.VoteGame, error) { return tx.LiveVoteGames() })
		if err != nil {
			t.Fatal(err)
		}
		if len(live) != 1 || live[0].GameID != g.ID || live[0].Round.Ballots[0].Move != "d7d5" {
			t.Errorf("LiveVoteGames = %+v, want only game %d with the changed ballot", live, g.ID)
		}
		var all []uint64
		if err := db.View(t.Context(), func(tx storage.Tx) error {
			return tx.EachVoteGame(func(v *storage.VoteGame) error { all = append(all, v.GameID); return nil })
		}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(all, []uint64{g.ID, other.ID}) {
			t.Errorf("EachVoteGame = %v, want %v", all, []uint64{g.ID, other.ID})
		}
	})
}

func testVoteGameRefusals(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g := planGame(t, db)
		for _, c := range []struct {
			name string
			edit func(v *storage.VoteGame)
			want error
		}{
			{"no such game", func(v *storage.VoteGame) { v.GameID = 999 }, storage.ErrNotFound},
			{"no team id", func(v *storage.VoteGame) { v.TeamID = "" }, nil},
			{"no window", func(v *storage.VoteGame) { v.Window = 0 }, nil},
			{"members unsorted", func(v *storage.VoteGame) { v.Members = []string{"102", "100", "101"} }, nil},
			{"member twice", func(v *storage.VoteGame) { v.Members = []string{"100", "100", "102"} }, nil},
			{"ballot of an outsider", func(v *storage.VoteGame) { v.Round.Ballots[1].UserID = "109" }, nil},
			{"two ballots of one member", func(v *storage.VoteGame) { v.Round.Ballots[1].UserID = "100" }, nil},
			{"ballot not a move", func(v *storage.VoteGame) { v.Round.Ballots[0].Move = "e" }, nil},
			{"colour", func(v *storage.VoteGame) { v.Color = 7 }, nil},
		} {
			t.Run(c.name, func(t *testing.T) {
				v := sampleVoteGame(g.ID)
				c.edit(v)
				err := putVote(t, db, v)
				if err == nil || (c.want != nil && !errors.Is(err, c.want)) {
					t.Fatalf("PutVoteGame = %v, want an error (%v)", err, c.want)
				}
				if _, err := readVote(t, db, g.ID); !errors.Is(err, storage.ErrNotFound) {
					t.Errorf("a refused vote game was stored (%v)", err)
				}
			})
		}
		v := sampleVoteGame(g.ID)
		if err := putVote(t, db, v); err != nil {
			t.Fatal(err)
		}
		stale := sampleVoteGame(g.ID) // version 0, the stored one is 1
		if err := putVote(t, db, stale); !errors.Is(err, storage.ErrConflict) {
			t.Errorf("a write from a stale version: %v, want ErrConflict", err)
		}
	})
}

// testVoteGameOneWriterPerVersion: writers racing from one read of the record (two
// ballots, or a ballot and the vote's close) land exactly one write.
func testVoteGameOneWriterPerVersion(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g := planGame(t, db)
		if err := putVote(t, db, sampleVoteGame(g.ID)); err != nil {
			t.Fatal(err)
		}
		read, err := readVote(t, db, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		const writers = 8
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for i := range writers {
			wg.Go(func() {
				v := read.Clone()
				v.Round.Ballots[0].Move = []string{"a7a6", "b7b6", "c7c6", "d7d6", "e7e6", "f7f6", "g7g6", "h7h6"}[i]
				errs[i] = putVote(t, db, v)
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, storage.ErrConflict):
				t.Errorf("a racing writer failed with %v, want nil or ErrConflict", err)
			}
		}
		if won != 1 {
			t.Errorf("%d writers from one version landed, want exactly 1", won)
		}
		got, err := readVote(t, db, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != read.Version+1 {
			t.Errorf("version %d after the race, want %d", got.Version, read.Version+1)
		}
	})
}
