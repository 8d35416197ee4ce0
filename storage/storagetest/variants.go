// variants.go: the conformance suite's Chess960 records: a game and a challenge keep
// their variant and start position, and a game of standard chess reads as one.

package storagetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func testChess960Records(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g := testrecords.Chess960Game()
		std := testrecords.NewGame("s1", "s2", "c1")
		c := &storage.Challenge{From: storage.Player{ID: "a", Name: "A"}, Control: testrecords.MustTC(t, "5+3"), Color: storage.ChooseRandom,
			StartFEN: g.StartFEN, Variant: chesscore.Chess960, Created: testrecords.T0, ExpiresAt: testrecords.T0.Add(time.Hour), Status: storage.ChallengePending}
		if err := db.Commit(t.Context(), &storage.Change{Game: g, Challenge: c}); err != nil {
			t.Fatal(err)
		}
		if err := db.Commit(t.Context(), &storage.Change{Game: std}); err != nil {
			t.Fatal(err)
		}
		got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
		if err != nil || got.Variant != chesscore.Chess960 || got.StartFEN != g.StartFEN || !reflect.DeepEqual(got.Moves, g.Moves) {
			t.Fatalf("Chess960 game read back as %+v, %v", got, err)
		}
		if got.Moves[0].Kind() != chesscore.CastlingMove {
			t.Errorf("castling with the king staying on g1 read back as %v", got.Moves[0])
		}
		if s, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(std.ID) }); err != nil || s.Variant != chesscore.Standard {
			t.Errorf("standard game read back as %+v, %v", s, err)
		}
		ch, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Challenge, error) { return tx.Challenge(c.ID) })
		if err != nil || ch.Variant != chesscore.Chess960 || ch.StartFEN != c.StartFEN {
			t.Errorf("Chess960 challenge read back as %+v, %v", ch, err)
		}
		// A Chess960 game without its start position is refused, and nothing is written.
		bad := testrecords.Chess960Game()
		bad.StartFEN = ""
		if err := db.Commit(t.Context(), &storage.Change{Game: bad}); err == nil {
			t.Error("a Chess960 game without its start position was accepted")
		}
	})
}
