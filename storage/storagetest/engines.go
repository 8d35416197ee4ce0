// engines.go: the conformance suite's games against the engine: stored with their game,
// listed while live, refused when they cannot be kept.

package storagetest

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func testEngineGames(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		// Game 1 against the engine, created with its record in one transaction; game 2
		// between people; game 3 against the engine, finished.
		var first storage.EngineGame
		g1 := &storage.Game{White: storage.Player{ID: "100", Name: "ana"}, Black: storage.Player{ID: "999", Name: "Gambit engine"}, Control: testrecords.MustTC(t, "5+3"), Created: testrecords.T0}
		err := db.Commit(t.Context(), &storage.Change{Game: g1, After: func(w storage.Tx) error {
			first = storage.EngineGame{GameID: g1.ID, Color: chesscore.Black, Level: 3, Engine: storage.EngineBuiltin, Created: testrecords.T0}
			return w.PutEngineGame(first)
		}})
		if err != nil {
			t.Fatal(err)
		}
		g2 := &storage.Game{White: storage.Player{ID: "100", Name: "ana"}, Black: storage.Player{ID: "101", Name: "bo"}, Control: testrecords.MustTC(t, "-"), Created: testrecords.T0}
		if err := db.Commit(t.Context(), &storage.Change{Game: g2}); err != nil {
			t.Fatal(err)
		}
		g3 := &storage.Game{White: storage.Player{ID: "999", Name: "Gambit engine"}, Black: storage.Player{ID: "101", Name: "bo"}, Control: testrecords.MustTC(t, "-"), Created: testrecords.T0,
			Outcome: chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation}, Ended: testrecords.T0}
		if err := db.Commit(t.Context(), &storage.Change{Game: g3}); err != nil {
			t.Fatal(err)
		}
		third := storage.EngineGame{GameID: g3.ID, Color: chesscore.White, Level: 9, Engine: storage.EngineExternal, Created: testrecords.T0}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutEngineGame(third) }); err != nil {
			t.Fatal(err)
		}

		if got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(g1.ID) }); err != nil || !reflect.DeepEqual(got, first) {
			t.Errorf("EngineGame(%d) = %+v, %v; want %+v", g1.ID, got, err, first)
		}
		if got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(g3.ID) }); err != nil || !reflect.DeepEqual(got, third) {
			t.Errorf("EngineGame(%d) = %+v, %v; want %+v", g3.ID, got, err, third)
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(g2.ID) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("EngineGame of a game between people: %v, want ErrNotFound", err)
		}
		live, err := storage.Read(t.Context(), db, storage.Tx.LiveEngineGames)
		if err != nil || !reflect.DeepEqual(live, []storage.EngineGame{first}) {
			t.Errorf("LiveEngineGames = %+v, %v; want only game %d", live, err, g1.ID)
		}
		// Game 1 ends: its record stays, and it is no longer live.
		g1.Outcome, g1.Ended = chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Agreement}, testrecords.T0
		if err := db.Commit(t.Context(), &storage.Change{Game: g1}); err != nil {
			t.Fatal(err)
		}
		if got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(g1.ID) }); err != nil || !reflect.DeepEqual(got, first) {
			t.Errorf("after the end: %+v, %v; want %+v", got, err, first)
		}
		if live, err := storage.Read(t.Context(), db, storage.Tx.LiveEngineGames); err != nil || len(live) != 0 {
			t.Errorf("LiveEngineGames after the end = %+v, %v", live, err)
		}
	})
}

func testEngineGameRefusals(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g := &storage.Game{White: storage.Player{ID: "100", Name: "ana"}, Black: storage.Player{ID: "999", Name: "engine"}, Control: testrecords.MustTC(t, "-"), Created: testrecords.T0}
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			e    storage.EngineGame
		}{
			{"no such game", storage.EngineGame{GameID: 77, Color: chesscore.Black, Level: 1, Engine: storage.EngineBuiltin}},
			{"no game id", storage.EngineGame{Color: chesscore.Black, Level: 1, Engine: storage.EngineBuiltin}},
			{"bad colour", storage.EngineGame{GameID: g.ID, Color: 2, Level: 1, Engine: storage.EngineBuiltin}},
			{"bad level", storage.EngineGame{GameID: g.ID, Color: chesscore.Black, Level: 0, Engine: storage.EngineBuiltin}},
			{"bad engine", storage.EngineGame{GameID: g.ID, Color: chesscore.Black, Level: 1, Engine: "deep blue"}},
		} {
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutEngineGame(c.e) }); err == nil {
				t.Errorf("%s: PutEngineGame(%+v) succeeded", c.name, c.e)
			}
		}
		// A failing hook leaves neither the game nor the record.
		g2 := &storage.Game{White: storage.Player{ID: "100", Name: "ana"}, Black: storage.Player{ID: "999", Name: "engine"}, Control: testrecords.MustTC(t, "-"), Created: testrecords.T0}
		err := db.Commit(t.Context(), &storage.Change{Game: g2, After: func(w storage.Tx) error {
			return w.PutEngineGame(storage.EngineGame{GameID: g2.ID, Color: chesscore.Black, Level: 0, Engine: storage.EngineBuiltin})
		}})
		if err == nil {
			t.Fatal("a change whose engine record is invalid committed")
		}
		if live, _ := storage.Read(t.Context(), db, storage.Tx.LiveEngineGames); len(live) != 0 {
			t.Errorf("LiveEngineGames = %+v after a failed creation", live)
		}
	})
}
