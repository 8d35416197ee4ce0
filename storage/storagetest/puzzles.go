// puzzles.go: the conformance suite's puzzles (adding, indexes, picking), the puzzles
// of the day, the members' records and attempts, the puzzle settings.

package storagetest

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func testAddPuzzlesKeepsStoredOnesAndIndexes(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		var batch []*storage.Puzzle
		for i := range 50 {
			batch = append(batch, testrecords.SamplePuzzle(fmt.Sprintf("p%02d", i), 1000+20*i))
		}
		n, err := storage.Write(t.Context(), db, func(tx storage.Tx) (int, error) { return tx.AddPuzzles(batch) })
		if err != nil || n != 50 {
			t.Fatalf("added %d, %v", n, err)
		}
		changed := testrecords.SamplePuzzle("p00", 2999)
		n, err = storage.Write(t.Context(), db, func(tx storage.Tx) (int, error) {
			return tx.AddPuzzles([]*storage.Puzzle{changed, testrecords.SamplePuzzle("p50", 1500)})
		})
		if err != nil || n != 1 {
			t.Fatalf("second batch added %d, %v; want 1 (p00 is kept)", n, err)
		}
		if p, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Puzzle, error) { return tx.Puzzle("p00") }); err != nil || p.Rating != 1000 {
			t.Errorf("p00 = %+v, %v; want the first rating 1000", p, err)
		}
		if c, _ := storage.Read(t.Context(), db, storage.Tx.CountPuzzles); c != 51 {
			t.Errorf("count %d, want 51", c)
		}
		if _, err := storage.Write(t.Context(), db, func(tx storage.Tx) (int, error) {
			return tx.AddPuzzles([]*storage.Puzzle{{ID: "bad id", FEN: "x", Moves: []string{"a", "b"}}})
		}); err == nil {
			t.Error("a puzzle id with a space was stored")
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Puzzle, error) { return tx.Puzzle("nope") }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("missing puzzle: %v", err)
		}
		var seen []string
		if err := db.View(t.Context(), func(tx storage.Tx) error {
			return tx.EachPuzzle(func(p *storage.Puzzle) error { seen = append(seen, p.ID); return nil })
		}); err != nil {
			t.Fatal(err)
		}
		if len(seen) != 51 || seen[0] != "p00" || seen[50] != "p50" {
			t.Errorf("EachPuzzle saw %d puzzles: %v", len(seen), seen)
		}
		// A rating moved in a writer moves the index with it.
		err = db.Update(t.Context(), func(w storage.Tx) error {
			p, err := w.Puzzle("p01")
			if err != nil {
				return err
			}
			p.Rating = 3500
			isNew, err := w.PutPuzzle(p)
			if isNew {
				t.Error("rewriting p01 reported a new puzzle")
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(40) {
			p, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Puzzle, error) {
				return tx.PickPuzzle(storage.PuzzlePick{MinRating: 3400, MaxRating: 3600, Seed: seed})
			})
			if err != nil || p.ID != "p01" {
				t.Fatalf("pick 3400-3600 (seed %d): %+v, %v; want p01 only", seed, p, err)
			}
		}
		if c, _ := storage.Read(t.Context(), db, storage.Tx.CountPuzzles); c != 51 {
			t.Errorf("count after a rewrite %d, want 51", c)
		}
		testrecords.CheckStore(t, db)
	})
}

func testPickPuzzleRules(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		var batch []*storage.Puzzle
		for i := range 30 {
			batch = append(batch, testrecords.SamplePuzzle(fmt.Sprintf("l%02d", i), 1200+10*i)) // 1200..1490
		}
		mine := testrecords.SamplePuzzle("gm1-5", 1300)
		mine.Source = "game:g1:1"
		theirs := testrecords.SamplePuzzle("gm2-5", 1300)
		theirs.Source = "game:g2:2"
		batch = append(batch, mine, theirs)
		if _, err := storage.Write(t.Context(), db, func(tx storage.Tx) (int, error) { return tx.AddPuzzles(batch) }); err != nil {
			t.Fatal(err)
		}
		// Over many seeds: every pick is in range, never another guild's, and spreads out.
		seen := map[string]bool{}
		for seed := range uint64(300) {
			p, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Puzzle, error) {
				return tx.PickPuzzle(storage.PuzzlePick{GuildID: "g1", MinRating: 1250, MaxRating: 1400, Seed: seed * 7919})
			})
			if err != nil {
				t.Fatal(err)
			}
			if p.Rating < 1250 || p.Rating > 1400 || p.ID == "gm2-5" {
				t.Fatalf("picked %s rated %d", p.ID, p.Rating)
			}
			seen[p.ID] = true
		}
		if len(seen) < 12 {
			t.Errorf("300 picks found only %d of the 16 eligible puzzles: %v", len(seen), seen)
		}
		p, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Puzzle, error) {
			return tx.PickPuzzle(storage.PuzzlePick{GuildID: "g1", PreferOwn: true, Seed: 3})
		})
		if err != nil || p.ID != "gm1-5" {
			t.Errorf("PreferOwn picked %+v, %v; want gm1-5", p, err)
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Puzzle, error) {
			return tx.PickPuzzle(storage.PuzzlePick{GuildID: "g1", MinRating: 2000, MaxRating: 2100})
		}); !errors.Is(err, storage.ErrNoPuzzle) {
			t.Errorf("empty range: %v, want ErrNoPuzzle", err)
		}
		// Dailies and attempts exclude.
		err = db.Update(t.Context(), func(w storage.Tx) error {
			if err := w.PutDaily(&storage.Daily{GuildID: "g1", Date: "2026-03-01", PuzzleID: "l10", State: storage.DailyPosted}); err != nil {
				return err
			}
			return w.PutPuzzleAttempt(storage.PuzzleAttempt{GuildID: "g1", UserID: "u1", PuzzleID: "l11", Started: testrecords.T0})
		})
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(100) {
			p, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Puzzle, error) {
				return tx.PickPuzzle(storage.PuzzlePick{GuildID: "g1", MinRating: 1300, MaxRating: 1310, NotDailyIn: "g1", NotTriedBy: "u1", Seed: seed})
			})
			if err != nil {
				t.Fatal(err)
			}
			if p.ID != "gm1-5" {
				t.Fatalf("picked %s; l10 was a daily, l11 was tried, gm2-5 is another guild's", p.ID)
			}
		}
	})
}

func testDailiesPlayersAttempts(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		if _, err := storage.Write(t.Context(), db, func(tx storage.Tx) (int, error) {
			return tx.AddPuzzles([]*storage.Puzzle{testrecords.SamplePuzzle("a", 1500), testrecords.SamplePuzzle("b", 1600)})
		}); err != nil {
			t.Fatal(err)
		}
		days := []*storage.Daily{
			{GuildID: "g1", Date: "2026-02-27", PuzzleID: "a", State: storage.DailyPosted, MessageID: "m1"},
			{GuildID: "g1", Date: "2026-02-28", PuzzleID: "b", State: storage.DailyAbandoned},
			{GuildID: "g1", Date: "2026-03-01", PuzzleID: "b", State: storage.DailyPlanned, Prev: "2026-02-27",
				Solvers: []storage.DailySolver{{UserID: "u1", Name: "alice", At: testrecords.T0, Clean: true}}},
			{GuildID: "g10", Date: "2026-03-02", PuzzleID: "a", State: storage.DailySilent},
		}
		err := db.Update(t.Context(), func(w storage.Tx) error {
			for _, d := range days {
				if err := w.PutDaily(d); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Daily, error) { return tx.Dailies("g1") })
		if err != nil || len(got) != 3 || got[0].Date != "2026-02-27" || got[2].Solvers[0].Name != "alice" {
			t.Fatalf("dailies of g1: %+v, %v", got, err)
		}
		for _, c := range []struct{ date, want string }{{"", "2026-03-01"}, {"2026-03-05", "2026-03-01"}, {"2026-02-28", "2026-02-27"}, {"2026-02-27", "2026-02-27"}} {
			d, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Daily, error) { return tx.LatestDaily("g1", c.date) })
			if err != nil || d.Date != c.want {
				t.Errorf("latest at %q: %+v, %v; want %s", c.date, d, err, c.want)
			}
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Daily, error) { return tx.LatestDaily("g1", "2026-02-26") }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("latest before the first: %v", err)
		}
		if d, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Daily, error) { return tx.LatestDaily("g10", "") }); err != nil || d.Date != "2026-03-02" {
			t.Errorf("g10 (whose prefix extends g1's): %+v, %v", d, err)
		}
		if err := db.Update(t.Context(), func(w storage.Tx) error {
			return w.PutDaily(&storage.Daily{GuildID: "g1", Date: "1 March", PuzzleID: "a", State: storage.DailyPosted})
		}); err == nil {
			t.Error("a bad date was stored")
		}

		p, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.PuzzlePlayer, error) { return tx.PuzzlePlayer("g1", "u1") })
		if !errors.Is(err, storage.ErrNotFound) || p.GuildID != "g1" || p.UserID != "u1" {
			t.Errorf("new player %+v, %v", p, err)
		}
		players := []storage.PuzzlePlayer{
			{GuildID: "g1", UserID: "u1", Name: "alice", Rating: 1600, RD: 100, Volatility: 0.06, Rated: 3, Solved: 2, Streak: 1, Best: 2},
			{GuildID: "g1", UserID: "u2", Name: "bob", Rating: 1700, RD: 100, Volatility: 0.06, Rated: 1, Solved: 1},
			{GuildID: "g1", UserID: "u3", Name: "carol", Rating: 1800, RD: 350, Volatility: 0.06},
			{GuildID: "g2", UserID: "u4", Rating: 2000, RD: 100, Volatility: 0.06, Rated: 1},
		}
		err = db.Update(t.Context(), func(w storage.Tx) error {
			for _, p := range players {
				if err := w.PutPuzzlePlayer(p); err != nil {
					return err
				}
			}
			return w.PutPuzzleAttempt(storage.PuzzleAttempt{GuildID: "g1", UserID: "u1", PuzzleID: "a", Step: 1, Tries: 1, Result: storage.AttemptSolved, Started: testrecords.T0})
		})
		if err != nil {
			t.Fatal(err)
		}
		all, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.PuzzlePlayer, error) { return tx.PuzzlePlayers("g1") })
		if err != nil || !reflect.DeepEqual(all, players[:3]) {
			t.Errorf("puzzle players %+v, %v; want %+v (in user id order)", all, err, players)
		}
		bad := players[0]
		bad.Solved = 9
		if err := db.Update(t.Context(), func(w storage.Tx) error { return w.PutPuzzlePlayer(bad) }); err == nil {
			t.Error("a player who solved more than they tried was stored")
		}
		a, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.PuzzleAttempt, error) { return tx.PuzzleAttempt("g1", "u1", "a") })
		if err != nil || a.Result != storage.AttemptSolved || a.Step != 1 || a.PuzzleID != "a" {
			t.Errorf("attempt %+v, %v", a, err)
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.PuzzleAttempt, error) { return tx.PuzzleAttempt("g1", "u1", "b") }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("missing attempt: %v", err)
		}
	})
}

func testPuzzleSettings(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		gs := storage.DefaultGuildSettings("g1")
		gs.Puzzle = storage.PuzzleSettings{Channel: "c1", Time: "09:30", Zone: "Europe/Paris", MinRating: 1000, MaxRating: 1800, Since: testrecords.T0}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutGuildSettings(gs) }); err != nil {
			t.Fatal(err)
		}
		other := storage.DefaultGuildSettings("g2")
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutGuildSettings(other) }); err != nil {
			t.Fatal(err)
		}
		got, err := storage.Read(t.Context(), db, storage.Tx.Guilds)
		if err != nil || len(got) != 2 || !reflect.DeepEqual(got[0], gs) || !reflect.DeepEqual(got[1], other) {
			t.Errorf("guilds %+v, %v; want g1's and g2's settings", got, err)
		}
		for _, bad := range []storage.PuzzleSettings{
			{Time: "25:00"}, {Time: "9h"}, {Time: "7:05"}, {Time: "09:60"}, {Zone: "Mars/Olympus"}, {MinRating: 2000, MaxRating: 1000}, {MaxRating: 5000},
		} {
			s := storage.DefaultGuildSettings("g3")
			s.Puzzle = bad
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutGuildSettings(s) }); err == nil {
				t.Errorf("settings %+v accepted", bad)
			}
		}
	})
}
