// version.go: the conformance suite's guards against acting twice: a game written from
// a stale copy is refused, a repeated request acts once.

package storagetest

import (
	"errors"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func testGameVersionRefusesStaleCopies(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g := testrecords.NewGame("a", "b", "c")
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil || g.Version != 1 {
			t.Fatalf("create: version %d, %v; want 1", g.Version, err)
		}
		stale := g.Clone()
		g.Moves = append(g.Moves, chesscore.NewMove(chesscore.E2, chesscore.E4))
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil || g.Version != 2 {
			t.Fatalf("move: version %d, %v; want 2", g.Version, err)
		}
		stale.Outcome = chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.Resignation}
		err := db.Commit(t.Context(), &storage.Change{Game: stale, Receipt: &storage.Receipt{RequestID: "late", At: testrecords.T0}})
		if !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("a write from a stale copy: %v, want ErrConflict", err)
		}
		if stale.Version != 1 {
			t.Errorf("a failed commit left the copy at version %d, want its own 1", stale.Version)
		}
		stored, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
		if err != nil || !stored.Live() || stored.Ply() != 1 || stored.Version != 2 {
			t.Fatalf("stored %+v, %v: the stale write must change nothing", stored, err)
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Receipt, error) { return tx.Receipt("late") }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("the refused change's receipt: %v, want ErrNotFound", err)
		}
		// Read again, the same change goes through.
		stored.Outcome = stale.Outcome
		if err := db.Commit(t.Context(), &storage.Change{Game: stored}); err != nil || stored.Version != 3 {
			t.Errorf("from a fresh copy: version %d, %v", stored.Version, err)
		}
		// A change that fails for another reason gives back its new id too.
		fresh := testrecords.NewGame("a", "b", "c")
		if err := db.Commit(t.Context(), &storage.Change{Game: fresh, After: func(storage.Tx) error { return errors.New("no") }}); err == nil {
			t.Fatal("the failing hook committed")
		}
		if fresh.ID != 0 || fresh.Version != 0 {
			t.Errorf("after a failed commit: id %d version %d, want 0 and 0", fresh.ID, fresh.Version)
		}
		if err := db.Commit(t.Context(), &storage.Change{Game: fresh}); err != nil || fresh.Version != 1 {
			t.Errorf("committed again: version %d, %v", fresh.Version, err)
		}
	})
}

func testRepeatedReceiptActsOnce(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		first := &storage.Change{Game: testrecords.NewGame("a", "b", "c"), Receipt: &storage.Receipt{RequestID: "r1", At: testrecords.T0, Effect: "started"}}
		if err := db.Commit(t.Context(), first); err != nil {
			t.Fatal(err)
		}
		again := &storage.Change{Game: testrecords.NewGame("a", "b", "c"), Receipt: &storage.Receipt{RequestID: "r1", At: testrecords.T0, Effect: "started"}}
		if err := db.Commit(t.Context(), again); !errors.Is(err, storage.ErrRepeatedRequest) {
			t.Fatalf("the same request again: %v, want ErrRepeatedRequest", err)
		}
		if total, _, _ := testrecords.CountGames(t.Context(), db); total != 1 {
			t.Errorf("%d games: the repeated request acted again", total)
		}
		r, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Receipt, error) { return tx.Receipt("r1") })
		if err != nil || r.GameID != first.Game.ID {
			t.Errorf("receipt %+v, %v; want the first game's", r, err)
		}
	})
}
