package storage

// mates_test.go: the game record's mate knowledge (Game.Mates): encoded, validated and
// stored by both backends.

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
)

// knowing is sampleGames(t)[1] (three moves played, live) with mate knowledge: White's
// line (any moves: the record does not replay it) and Black proven unable.
func knowing(t testing.TB) *Game {
	g := sampleGames(t)[1]
	g.Mates = chesscore.MateKnowledge{Ply: len(g.Moves), Verdict: [2]chesscore.Verdict{chesscore.Yes, chesscore.No},
		Line: [2][]chesscore.Move{{chesscore.NewMove(chesscore.D1, chesscore.H5), chesscore.NewMove(chesscore.B8, chesscore.C6), chesscore.NewMove(chesscore.H5, chesscore.F7)}}}
	return g
}

func TestGameCodecMates(t *testing.T) {
	for name, k := range map[string]chesscore.MateKnowledge{
		"yes and no":  knowing(t).Mates,
		"black yes":   {Ply: 3, Verdict: [2]chesscore.Verdict{chesscore.Unknown, chesscore.Yes}, Line: [2][]chesscore.Move{nil, {chesscore.NewMove(chesscore.D8, chesscore.H4)}}},
		"no only":     {Ply: 3, Verdict: [2]chesscore.Verdict{chesscore.No, chesscore.Unknown}},
		"nothing":     {},
		"longest yes": {Ply: 3, Verdict: [2]chesscore.Verdict{chesscore.Yes, chesscore.Unknown}, Line: [2][]chesscore.Move{make([]chesscore.Move, chesscore.MaxKnownLine)}},
	} {
		t.Run(name, func(t *testing.T) {
			g := knowing(t)
			g.Mates = k
			if err := g.validate(); err != nil {
				t.Fatalf("validate: %v", err)
			}
			got, err := decodeGame(g.ID, encodeGame(g))
			if err != nil {
				t.Fatal(err)
			}
			if !k.Known() {
				g.Mates = chesscore.MateKnowledge{} // nothing known reads back as the zero value
			}
			if !reflect.DeepEqual(got, g) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got.Mates, g.Mates)
			}
		})
	}
	// A record without knowledge keeps the bytes of a record written before it existed.
	plain := sampleGames(t)[1]
	if !reflect.DeepEqual(encodeGame(plain), encodeGame(func() *Game { g := knowing(t); g.Mates = chesscore.MateKnowledge{}; return g }())) {
		t.Error("a record without mate knowledge changed its bytes")
	}
	b := encodeGame(knowing(t))
	for name, bad := range map[string][]byte{
		"truncated line":  b[:len(b)-1],
		"verdict 3":       append(append([]byte(nil), b[:len(b)-9]...), 3, 2),
		"nothing known":   append(append([]byte(nil), b[:len(b)-9]...), 0, 0),
		"a yes, no moves": append(append([]byte(nil), b[:len(b)-9]...), 1, 0, 2),
		"trailing":        append(append([]byte(nil), b...), 0),
	} {
		if _, err := decodeGame(7, bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestGameMatesValidated(t *testing.T) {
	for name, spoil := range map[string]func(*Game){
		"another ply": func(g *Game) { g.Mates.Ply = 2 },
		"a finished game": func(g *Game) {
			g.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation}
		},
		"a yes, no line":    func(g *Game) { g.Mates.Line[chesscore.White] = nil },
		"a line with a no":  func(g *Game) { g.Mates.Line[chesscore.Black] = g.Mates.Line[chesscore.White] },
		"a line too long":   func(g *Game) { g.Mates.Line[chesscore.White] = make([]chesscore.Move, chesscore.MaxKnownLine+1) },
		"verdict 3":         func(g *Game) { g.Mates.Verdict[chesscore.Black] = 3 },
		"a line, no answer": func(g *Game) { g.Mates.Verdict = [2]chesscore.Verdict{} },
	} {
		g := knowing(t)
		spoil(g)
		if err := g.validate(); err == nil {
			t.Errorf("%s: validated", name)
		}
	}
}

// TestStoreKeepsMates: both backends store the knowledge with the game and give it back.
func TestStoreKeepsMates(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		g := knowing(t)
		if err := db.Commit(&Change{Game: g}); err != nil {
			t.Fatal(err)
		}
		got, err := Read(db, func(tx Tx) (*Game, error) { return tx.Game(g.ID) })
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
		if err := db.Commit(&Change{Game: g}); err != nil {
			t.Fatal(err)
		}
		got, err = Read(db, func(tx Tx) (*Game, error) { return tx.Game(g.ID) })
		if err != nil {
			t.Fatal(err)
		}
		if got.Mates.Known() {
			t.Fatalf("a rewrite without knowledge kept %+v", got.Mates)
		}
		checkStore(t, db)
	})
}
