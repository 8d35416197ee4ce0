package storage

import (
	"errors"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
)

func TestGameVersionRefusesStaleCopies(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		g := newGame("a", "b", "c")
		if err := db.Commit(&Change{Game: g}); err != nil || g.Version != 1 {
			t.Fatalf("create: version %d, %v; want 1", g.Version, err)
		}
		stale := g.Clone()
		g.Moves = append(g.Moves, chesscore.NewMove(chesscore.E2, chesscore.E4))
		if err := db.Commit(&Change{Game: g}); err != nil || g.Version != 2 {
			t.Fatalf("move: version %d, %v; want 2", g.Version, err)
		}
		stale.Outcome = chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.Resignation}
		err := db.Commit(&Change{Game: stale, Receipt: &Receipt{RequestID: "late", At: t0}})
		if !errors.Is(err, ErrConflict) {
			t.Fatalf("a write from a stale copy: %v, want ErrConflict", err)
		}
		if stale.Version != 1 {
			t.Errorf("a failed commit left the copy at version %d, want its own 1", stale.Version)
		}
		stored, err := Read(db, func(tx Tx) (*Game, error) { return tx.Game(g.ID) })
		if err != nil || !stored.Live() || stored.Ply() != 1 || stored.Version != 2 {
			t.Fatalf("stored %+v, %v: the stale write must change nothing", stored, err)
		}
		if _, err := Read(db, func(tx Tx) (*Receipt, error) { return tx.Receipt("late") }); !errors.Is(err, ErrNotFound) {
			t.Errorf("the refused change's receipt: %v, want ErrNotFound", err)
		}
		// Read again, the same change goes through.
		stored.Outcome = stale.Outcome
		if err := db.Commit(&Change{Game: stored}); err != nil || stored.Version != 3 {
			t.Errorf("from a fresh copy: version %d, %v", stored.Version, err)
		}
		// A change that fails for another reason gives back its new id too.
		fresh := newGame("a", "b", "c")
		if err := db.Commit(&Change{Game: fresh, After: func(Tx) error { return errors.New("no") }}); err == nil {
			t.Fatal("the failing hook committed")
		}
		if fresh.ID != 0 || fresh.Version != 0 {
			t.Errorf("after a failed commit: id %d version %d, want 0 and 0", fresh.ID, fresh.Version)
		}
		if err := db.Commit(&Change{Game: fresh}); err != nil || fresh.Version != 1 {
			t.Errorf("committed again: version %d, %v", fresh.Version, err)
		}
	})
}

func TestRepeatedReceiptActsOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		first := &Change{Game: newGame("a", "b", "c"), Receipt: &Receipt{RequestID: "r1", At: t0, Effect: "started"}}
		if err := db.Commit(first); err != nil {
			t.Fatal(err)
		}
		again := &Change{Game: newGame("a", "b", "c"), Receipt: &Receipt{RequestID: "r1", At: t0, Effect: "started"}}
		if err := db.Commit(again); !errors.Is(err, ErrRepeatedRequest) {
			t.Fatalf("the same request again: %v, want ErrRepeatedRequest", err)
		}
		if total, _, _ := countGames(db); total != 1 {
			t.Errorf("%d games: the repeated request acted again", total)
		}
		r, err := Read(db, func(tx Tx) (*Receipt, error) { return tx.Receipt("r1") })
		if err != nil || r.GameID != first.Game.ID {
			t.Errorf("receipt %+v, %v; want the first game's", r, err)
		}
	})
}
