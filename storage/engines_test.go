package storage

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
)

func TestEngineGames(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		// Game 1 against the engine, created with its record in one transaction; game 2
		// between people; game 3 against the engine, finished.
		var first EngineGame
		g1 := &Game{White: Player{"100", "ana"}, Black: Player{"999", "Gambit engine"}, Control: mustTC(t, "5+3"), Created: t0}
		err := db.Commit(&Change{Game: g1, After: func(w Tx) error {
			first = EngineGame{GameID: g1.ID, Color: chesscore.Black, Level: 3, Engine: EngineBuiltin, Created: t0}
			return w.PutEngineGame(first)
		}})
		if err != nil {
			t.Fatal(err)
		}
		g2 := &Game{White: Player{"100", "ana"}, Black: Player{"101", "bo"}, Control: mustTC(t, "-"), Created: t0}
		if err := db.Commit(&Change{Game: g2}); err != nil {
			t.Fatal(err)
		}
		g3 := &Game{White: Player{"999", "Gambit engine"}, Black: Player{"101", "bo"}, Control: mustTC(t, "-"), Created: t0,
			Outcome: chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation}, Ended: t0}
		if err := db.Commit(&Change{Game: g3}); err != nil {
			t.Fatal(err)
		}
		third := EngineGame{GameID: g3.ID, Color: chesscore.White, Level: 9, Engine: EngineExternal, Created: t0}
		if err := db.Update(func(tx Tx) error { return tx.PutEngineGame(third) }); err != nil {
			t.Fatal(err)
		}

		if got, err := Read(db, func(tx Tx) (EngineGame, error) { return tx.EngineGame(g1.ID) }); err != nil || !reflect.DeepEqual(got, first) {
			t.Errorf("EngineGame(%d) = %+v, %v; want %+v", g1.ID, got, err, first)
		}
		if got, err := Read(db, func(tx Tx) (EngineGame, error) { return tx.EngineGame(g3.ID) }); err != nil || !reflect.DeepEqual(got, third) {
			t.Errorf("EngineGame(%d) = %+v, %v; want %+v", g3.ID, got, err, third)
		}
		if _, err := Read(db, func(tx Tx) (EngineGame, error) { return tx.EngineGame(g2.ID) }); !errors.Is(err, ErrNotFound) {
			t.Errorf("EngineGame of a game between people: %v, want ErrNotFound", err)
		}
		live, err := Read(db, Tx.LiveEngineGames)
		if err != nil || !reflect.DeepEqual(live, []EngineGame{first}) {
			t.Errorf("LiveEngineGames = %+v, %v; want only game %d", live, err, g1.ID)
		}
		// Game 1 ends: its record stays, and it is no longer live.
		g1.Outcome, g1.Ended = chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Agreement}, t0
		if err := db.Commit(&Change{Game: g1}); err != nil {
			t.Fatal(err)
		}
		if got, err := Read(db, func(tx Tx) (EngineGame, error) { return tx.EngineGame(g1.ID) }); err != nil || !reflect.DeepEqual(got, first) {
			t.Errorf("after the end: %+v, %v; want %+v", got, err, first)
		}
		if live, err := Read(db, Tx.LiveEngineGames); err != nil || len(live) != 0 {
			t.Errorf("LiveEngineGames after the end = %+v, %v", live, err)
		}
	})
}

func TestEngineGameRefusals(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		g := &Game{White: Player{"100", "ana"}, Black: Player{"999", "engine"}, Control: mustTC(t, "-"), Created: t0}
		if err := db.Commit(&Change{Game: g}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			e    EngineGame
		}{
			{"no such game", EngineGame{GameID: 77, Color: chesscore.Black, Level: 1, Engine: EngineBuiltin}},
			{"no game id", EngineGame{Color: chesscore.Black, Level: 1, Engine: EngineBuiltin}},
			{"bad colour", EngineGame{GameID: g.ID, Color: 2, Level: 1, Engine: EngineBuiltin}},
			{"bad level", EngineGame{GameID: g.ID, Color: chesscore.Black, Level: 0, Engine: EngineBuiltin}},
			{"bad engine", EngineGame{GameID: g.ID, Color: chesscore.Black, Level: 1, Engine: "deep blue"}},
		} {
			if err := db.Update(func(tx Tx) error { return tx.PutEngineGame(c.e) }); err == nil {
				t.Errorf("%s: PutEngineGame(%+v) succeeded", c.name, c.e)
			}
		}
		// A failing hook leaves neither the game nor the record.
		g2 := &Game{White: Player{"100", "ana"}, Black: Player{"999", "engine"}, Control: mustTC(t, "-"), Created: t0}
		err := db.Commit(&Change{Game: g2, After: func(w Tx) error {
			return w.PutEngineGame(EngineGame{GameID: g2.ID, Color: chesscore.Black, Level: 0, Engine: EngineBuiltin})
		}})
		if err == nil {
			t.Fatal("a change whose engine record is invalid committed")
		}
		if live, _ := Read(db, Tx.LiveEngineGames); len(live) != 0 {
			t.Errorf("LiveEngineGames = %+v after a failed creation", live)
		}
	})
}
