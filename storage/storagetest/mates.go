// mates.go: the conformance suite's mate knowledge of a game record, kept with the
// game.

package storagetest

import (
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

// testStoreKeepsMates: a backend stores the knowledge with the game and gives it back.
func testStoreKeepsMates(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g := testrecords.Knowing(t)
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
			t.Fatal(err)
		}
		got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Mates, g.Mates) {
			t.Fatalf("stored %+v, read %+v", g.Mates, got.Mates)
		}
		g = got.Clone()
		g.Mates = chesscore.MateKnowledge{Ply: 5}
		g.Moves = append(g.Moves, chesscore.NewMove(chesscore.B8, chesscore.C6))
		g.MoveClocks = append(g.MoveClocks, g.MoveClocks[len(g.MoveClocks)-1])
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
			t.Fatal(err)
		}
		got, err = storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
		if err != nil {
			t.Fatal(err)
		}
		if got.Mates.Known() {
			t.Fatalf("a rewrite without knowledge kept %+v", got.Mates)
		}
		testrecords.CheckStore(t, db)
	})
}
