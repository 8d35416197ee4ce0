// ratings.go: the conformance suite's ladders: players validated, rated results once
// and in end order, atomic updates, replacing a guild's ladders.

package storagetest

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func testLadderPlayerValidation(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		good := testrecords.LadderPlayer("g", clock.Blitz, "u", 1500, 1, 0, 0)
		cases := map[string]func(p *storage.LadderPlayer){
			"no guild":          func(p *storage.LadderPlayer) { p.GuildID = "" },
			"long guild":        func(p *storage.LadderPlayer) { p.GuildID = strings.Repeat("9", storage.MaxIDLen+1) },
			"no category":       func(p *storage.LadderPlayer) { p.Category = clock.NoCategory },
			"bad category":      func(p *storage.LadderPlayer) { p.Category = 9 },
			"no user":           func(p *storage.LadderPlayer) { p.UserID = "" },
			"record":            func(p *storage.LadderPlayer) { p.Wins = 3 },
			"negative":          func(p *storage.LadderPlayer) { p.Rating = -1 },
			"below the floor":   func(p *storage.LadderPlayer) { p.Rating = 99 },
			"above the ceiling": func(p *storage.LadderPlayer) { p.Rating = 4001 },
			"rating NaN":        func(p *storage.LadderPlayer) { p.Rating = math.NaN() },
			"long history":      func(p *storage.LadderPlayer) { p.History = make([]storage.RatingPoint, storage.MaxRatingHistory+1) },
			"negative games":    func(p *storage.LadderPlayer) { p.Games, p.Wins, p.Losses = 0, 1, -1 },
		}
		for name, spoil := range cases {
			p := good
			spoil(&p)
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutLadderPlayer(p) }); err == nil {
				t.Errorf("%s: accepted %+v", name, p)
			}
		}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutLadderPlayer(good) }); err != nil {
			t.Errorf("good player refused: %v", err)
		}
	})
}

func testRatedResultsOnceInEndOrder(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		rs := []storage.RatedResult{
			testrecords.Result("g", 7, "a", "b", 1, testrecords.T0.Add(2*time.Minute)),
			testrecords.Result("g", 3, "b", "a", 0.5, testrecords.T0.Add(time.Minute)),
			testrecords.Result("g", 9, "a", "c", 0, testrecords.T0.Add(2*time.Minute)), // same end as game 7: by id
			testrecords.Result("h", 4, "a", "b", 1, testrecords.T0),
		}
		for _, r := range rs {
			var added bool
			err := db.Update(t.Context(), func(w storage.Tx) (err error) {
				added, err = w.AddRatedResult(r)
				return err
			})
			if err != nil || !added {
				t.Fatalf("add %+v: added %v, %v", r, added, err)
			}
		}
		// A second result for game 7, even with another end time, is refused.
		again := testrecords.Result("g", 7, "a", "b", 0, testrecords.T0.Add(time.Hour))
		err := db.Update(t.Context(), func(w storage.Tx) error {
			added, err := w.AddRatedResult(again)
			if added {
				t.Error("game 7 was added twice")
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.RatedResult, error) { return tx.RatedResults("g") })
		if err != nil {
			t.Fatal(err)
		}
		var order []uint64
		for _, r := range got {
			order = append(order, r.GameID)
		}
		if !reflect.DeepEqual(order, []uint64{3, 7, 9}) {
			t.Errorf("results of g in order %v, want [3 7 9]", order)
		}
		if !got[1].Ended.Equal(rs[0].Ended) || got[1].Score != 1 || got[1].WhiteAfter != 1520 {
			t.Errorf("game 7 reads back as %+v", got[1])
		}
		one, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.RatedResult, error) { return tx.RatedResult(9) })
		if err != nil || one.White != "a" || one.Black != "c" || one.Score != 0 {
			t.Errorf("RatedResult(9) = %+v, %v", one, err)
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.RatedResult, error) { return tx.RatedResult(5) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("RatedResult of a game without one: %v, want ErrNotFound", err)
		}
		// Rewriting the ratings of a result works; changing what the game was does not.
		err = db.Update(t.Context(), func(w storage.Tx) error {
			r := got[0]
			r.WhiteAfter, r.BlackAfter = 1499, 1501
			if err := w.ReplaceRatedResult(r); err != nil {
				return err
			}
			r.Score = 1
			if err := w.ReplaceRatedResult(r); err == nil {
				t.Error("ReplaceRatedResult changed a score")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.RatedResult, error) { return tx.RatedResult(3) }); r.WhiteAfter != 1499 || r.Score != 0.5 {
			t.Errorf("game 3 after its ratings were rewritten: %+v", r)
		}

		bad := map[string]storage.RatedResult{
			"no game":  testrecords.Result("g", 0, "a", "b", 1, testrecords.T0),
			"no guild": testrecords.Result("", 11, "a", "b", 1, testrecords.T0),
			"same":     testrecords.Result("g", 11, "a", "a", 1, testrecords.T0),
			"no black": testrecords.Result("g", 11, "a", "", 1, testrecords.T0),
			"score":    testrecords.Result("g", 11, "a", "b", 0.25, testrecords.T0),
			"no end":   testrecords.Result("g", 11, "a", "b", 1, time.Time{}),
			"untimed": func() storage.RatedResult {
				r := testrecords.Result("g", 11, "a", "b", 1, testrecords.T0)
				r.Category = clock.NoCategory
				return r
			}(),
			"before1970": testrecords.Result("g", 11, "a", "b", 1, time.Unix(-5, 0)),
		}
		for name, r := range bad {
			err := db.Update(t.Context(), func(w storage.Tx) error {
				_, err := w.AddRatedResult(r)
				return err
			})
			if err == nil {
				t.Errorf("%s: accepted %+v", name, r)
			}
		}
	})
}

func testUpdateIsAtomic(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		boom := errors.New("boom")
		err := db.Update(t.Context(), func(w storage.Tx) error {
			if _, err := w.AddRatedResult(testrecords.Result("g", 1, "a", "b", 1, testrecords.T0)); err != nil {
				return err
			}
			if err := w.PutLadderPlayer(testrecords.LadderPlayer("g", clock.Blitz, "a", 1520, 1, 0, 0)); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("err %v, want boom", err)
		}
		if rs, _ := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.RatedResult, error) { return tx.RatedResults("g") }); len(rs) != 0 {
			t.Errorf("a failed update left %d results", len(rs))
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.LadderPlayer, error) { return tx.LadderPlayer("g", clock.Blitz, "a") }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a failed update left a player: %v", err)
		}
	})
}

func testReplaceLaddersAndSettings(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		for _, p := range []storage.LadderPlayer{
			testrecords.LadderPlayer("g", clock.Blitz, "a", 1520, 1, 0, 0),
			testrecords.LadderPlayer("g", clock.Rapid, "b", 1480, 0, 0, 1),
			testrecords.LadderPlayer("gg", clock.Blitz, "a", 1700, 1, 0, 0),
		} {
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutLadderPlayer(p) }); err != nil {
				t.Fatal(err)
			}
		}
		repl := []storage.LadderPlayer{testrecords.LadderPlayer("g", clock.Bullet, "c", 1600, 1, 0, 0)}
		err := db.Update(t.Context(), func(w storage.Tx) error {
			old, err := w.GuildLadders("g")
			if err != nil {
				return err
			}
			if len(old) != 2 || old[0].UserID != "a" || old[1].UserID != "b" {
				t.Errorf("GuildLadders(g) = %+v", old)
			}
			gs, err := w.GuildSettings("g")
			if err != nil {
				return err
			}
			gs.RatingSystem, gs.StartRating = storage.RatingGlicko2, 1200
			if err := w.PutGuildSettings(gs); err != nil {
				return err
			}
			return w.ReplaceLadders("g", repl)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, cat := range []clock.Category{clock.Blitz, clock.Rapid} {
			if l, _ := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.Ladder("g", cat) }); len(l) != 0 {
				t.Errorf("%s ladder of g still has %+v", cat, l)
			}
		}
		if l, _ := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.Ladder("g", clock.Bullet) }); len(l) != 1 || l[0].UserID != "c" {
			t.Errorf("bullet ladder of g = %+v", l)
		}
		if l, _ := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.Ladder("gg", clock.Blitz) }); len(l) != 1 {
			t.Errorf("another guild's ladder was touched: %+v", l)
		}
		if gs, _ := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings("g") }); gs.RatingSystem != storage.RatingGlicko2 || gs.StartRating != 1200 {
			t.Errorf("settings %+v", gs)
		}
		err = db.Update(t.Context(), func(w storage.Tx) error {
			return w.ReplaceLadders("g", []storage.LadderPlayer{testrecords.LadderPlayer("gg", clock.Blitz, "x", 1500, 0, 0, 0)})
		})
		if err == nil {
			t.Error("ReplaceLadders took a player of another guild")
		}
		err = db.Update(t.Context(), func(w storage.Tx) error {
			gs := storage.DefaultGuildSettings("g")
			gs.StartRating = 5
			return w.PutGuildSettings(gs)
		})
		if err == nil {
			t.Error("a start rating of 5 was stored")
		}
	})
}

// testUserLadders: a user's records in every guild and category, and no one else's (a
// user id that ends another's is not theirs).
func testUserLadders(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		players := []storage.LadderPlayer{
			testrecords.LadderPlayer("g2", clock.Rapid, "42", 1600, 1, 0, 0),
			testrecords.LadderPlayer("g1", clock.Blitz, "42", 1810, 1, 0, 0),
			testrecords.LadderPlayer("g1", clock.Bullet, "42", 1700, 0, 1, 0),
			testrecords.LadderPlayer("g1", clock.Blitz, "142", 2000, 1, 0, 0),
			testrecords.LadderPlayer("g1", clock.Blitz, "4", 1200, 0, 0, 1),
		}
		if err := db.Update(t.Context(), func(tx storage.Tx) error {
			for _, p := range players {
				if err := tx.PutLadderPlayer(p); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		got, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.UserLadders("42") })
		var keys []string
		for _, p := range got {
			keys = append(keys, p.GuildID+"/"+p.Category.String()+"/"+p.UserID)
		}
		if want := []string{"g1/bullet/42", "g1/blitz/42", "g2/rapid/42"}; err != nil || !reflect.DeepEqual(keys, want) {
			t.Errorf("UserLadders(42) = %v, %v; want %v", keys, err, want)
		}
		if got, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.UserLadders("7") }); err != nil || len(got) != 0 {
			t.Errorf("a user with no ladder: %v, %v", got, err)
		}
	})
}
