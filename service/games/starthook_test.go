package games

import (
	"context"
	"errors"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// StartRequest.After writes in the transaction that creates the game: with the game's
// id, and nothing at all when it fails.
func TestStartGameAfterHook(t *testing.T) {
	h := newHarness(t, Options{})
	ctx := context.Background()
	white, engine := storage.Player{ID: "100", Name: "ana"}, storage.Player{ID: "999", Name: "Gambit engine"}
	res, err := h.s.StartGame(ctx, StartRequest{White: white, Black: engine, Control: "5+3",
		After: func(w storage.Tx, g *storage.Game) error {
			if g.ID == 0 {
				return errors.New("the hook ran before the game had an id")
			}
			return w.PutEngineGame(storage.EngineGame{GameID: g.ID, Color: chesscore.Black, Level: 2, Engine: storage.EngineBuiltin, Created: g.Created})
		}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := storage.Read(ctx, h.db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(res.Game.ID) })
	if err != nil || e.Level != 2 || e.Color != chesscore.Black {
		t.Errorf("engine record of game %d = %+v, %v", res.Game.ID, e, err)
	}
	before, _ := storagetest.CountGames(t, h.db)
	boom := errors.New("boom")
	_, err = h.s.StartGame(ctx, StartRequest{White: white, Black: engine, After: func(storage.Tx, *storage.Game) error { return boom }})
	if !errors.Is(err, boom) {
		t.Errorf("StartGame with a failing hook: %v, want boom", err)
	}
	if after, _ := storagetest.CountGames(t, h.db); after != before {
		t.Errorf("a failed hook left a game: %d games, want %d", after, before)
	}
}
