// plans.go: the conformance suite's conditional plans: kept per game and side,
// replaced, deleted, refused when they cannot be kept.

package storagetest

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

// planGame stores a game to hang plans on.
func planGame(t *testing.T, db storage.Store) *storage.Game {
	t.Helper()
	g := &storage.Game{White: storage.Player{ID: "100", Name: "ana"}, Black: storage.Player{ID: "101", Name: "bo"}, Control: testrecords.MustTC(t, "3d"), Created: testrecords.T0}
	if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
		t.Fatal(err)
	}
	return g
}

// planMoves reads moves in UCI for a plan's lines.
func planMoves(t *testing.T, ucis ...string) []chesscore.Move {
	t.Helper()
	g := chesscore.NewGame(chesscore.StartPosition(), nil)
	out := make([]chesscore.Move, len(ucis))
	for i, u := range ucis {
		m, err := g.PlaySAN(u)
		if err != nil {
			t.Fatalf("move %s: %v", u, err)
		}
		out[i] = m
	}
	return out
}

func testPlans(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g := planGame(t, db)
		other := planGame(t, db)
		black := &storage.Plan{GameID: g.ID, Color: chesscore.Black, UserID: "101", Ply: 0, Updated: testrecords.T0,
			Lines: [][]chesscore.Move{planMoves(t, "e2e4", "e7e5", "g1f3", "b8c6"), planMoves(t, "d2d4", "d7d5")}}
		white := &storage.Plan{GameID: g.ID, Color: chesscore.White, UserID: "100", Ply: 1, Updated: testrecords.T0,
			Lines: [][]chesscore.Move{planMoves(t, "e2e4", "e7e5", "g1f3")[1:]}}
		white.Lines[0] = append(white.Lines[0], planMoves(t, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5")[3:]...)
		put := func(p *storage.Plan) {
			t.Helper()
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutPlan(p) }); err != nil {
				t.Fatalf("PutPlan(%+v): %v", p, err)
			}
		}
		get := func(id uint64, c chesscore.Color) (*storage.Plan, error) {
			return storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Plan, error) { return tx.Plan(id, c) })
		}
		put(black)
		put(white)
		for _, want := range []*storage.Plan{black, white} {
			if got, err := get(g.ID, want.Color); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("Plan(%d, %v) = %+v, %v; want %+v", g.ID, want.Color, got, err, want)
			}
		}
		if _, err := get(other.ID, chesscore.Black); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("Plan of a game without one: %v, want ErrNotFound", err)
		}
		// A new plan replaces the side's plan.
		repl := black.Clone()
		repl.Lines = repl.Lines[1:]
		put(repl)
		if got, err := get(g.ID, chesscore.Black); err != nil || !reflect.DeepEqual(got, repl) {
			t.Errorf("after the replacement: %+v, %v; want %+v", got, err, repl)
		}
		// Deleting one side keeps the other; deleting none given deletes both.
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.DeletePlans(g.ID, chesscore.Black) }); err != nil {
			t.Fatal(err)
		}
		if _, err := get(g.ID, chesscore.Black); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("black's plan after its deletion: %v, want ErrNotFound", err)
		}
		if _, err := get(g.ID, chesscore.White); err != nil {
			t.Errorf("white's plan after black's deletion: %v", err)
		}
		put(black)
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.DeletePlans(g.ID) }); err != nil {
			t.Fatal(err)
		}
		for _, c := range []chesscore.Color{chesscore.White, chesscore.Black} {
			if _, err := get(g.ID, c); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("plan of %v after deleting both: %v, want ErrNotFound", c, err)
			}
		}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.DeletePlans(other.ID) }); err != nil {
			t.Errorf("deleting the plans of a game without any: %v", err)
		}
	})
}

func testPlanRefusals(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		g := planGame(t, db)
		pair := planMoves(t, "e2e4", "e7e5")
		for _, c := range []struct {
			name string
			p    storage.Plan
		}{
			{"no such game", storage.Plan{GameID: 77, Color: chesscore.Black, UserID: "101", Lines: [][]chesscore.Move{pair}}},
			{"no game id", storage.Plan{Color: chesscore.Black, UserID: "101", Lines: [][]chesscore.Move{pair}}},
			{"bad colour", storage.Plan{GameID: g.ID, Color: 2, UserID: "101", Lines: [][]chesscore.Move{pair}}},
			{"no user", storage.Plan{GameID: g.ID, Color: chesscore.Black, Lines: [][]chesscore.Move{pair}}},
			{"no lines", storage.Plan{GameID: g.ID, Color: chesscore.Black, UserID: "101"}},
			{"odd line", storage.Plan{GameID: g.ID, Color: chesscore.Black, UserID: "101", Lines: [][]chesscore.Move{pair[:1]}}},
			{"negative ply", storage.Plan{GameID: g.ID, Color: chesscore.Black, UserID: "101", Ply: -1, Lines: [][]chesscore.Move{pair}}},
			{"two replies", storage.Plan{GameID: g.ID, Color: chesscore.Black, UserID: "101",
				Lines: [][]chesscore.Move{pair, {pair[0], planMoves(t, "e2e4", "c7c5")[1]}}}},
		} {
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutPlan(&c.p) }); err == nil {
				t.Errorf("%s: PutPlan(%+v) succeeded", c.name, c.p)
			}
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Plan, error) { return tx.Plan(g.ID, chesscore.Black) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("after the refusals: %v, want ErrNotFound", err)
		}
	})
}
