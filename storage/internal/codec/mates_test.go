package codec

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func TestGameCodecMates(t *testing.T) {
	for name, k := range map[string]chesscore.MateKnowledge{
		"yes and no":  testrecords.Knowing(t).Mates,
		"black yes":   {Ply: 3, Verdict: [2]chesscore.Verdict{chesscore.Unknown, chesscore.Yes}, Line: [2][]chesscore.Move{nil, {chesscore.NewMove(chesscore.D8, chesscore.H4)}}},
		"no only":     {Ply: 3, Verdict: [2]chesscore.Verdict{chesscore.No, chesscore.Unknown}},
		"nothing":     {},
		"longest yes": {Ply: 3, Verdict: [2]chesscore.Verdict{chesscore.Yes, chesscore.Unknown}, Line: [2][]chesscore.Move{make([]chesscore.Move, chesscore.MaxKnownLine)}},
	} {
		t.Run(name, func(t *testing.T) {
			g := testrecords.Knowing(t)
			g.Mates = k
			if err := g.Validate(); err != nil {
				t.Fatalf("validate: %v", err)
			}
			got, err := DecodeGame(g.ID, EncodeGame(g))
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
	plain := testrecords.SampleGames(t)[1]
	if !reflect.DeepEqual(EncodeGame(plain), EncodeGame(func() *storage.Game { g := testrecords.Knowing(t); g.Mates = chesscore.MateKnowledge{}; return g }())) {
		t.Error("a record without mate knowledge changed its bytes")
	}
	b := EncodeGame(testrecords.Knowing(t))
	for name, bad := range map[string][]byte{
		"truncated line":  b[:len(b)-1],
		"verdict 3":       append(append([]byte(nil), b[:len(b)-9]...), 3, 2),
		"nothing known":   append(append([]byte(nil), b[:len(b)-9]...), 0, 0),
		"a yes, no moves": append(append([]byte(nil), b[:len(b)-9]...), 1, 0, 2),
		"trailing":        append(append([]byte(nil), b...), 0),
	} {
		if _, err := DecodeGame(7, bad); !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestGameMatesValidated(t *testing.T) {
	for name, spoil := range map[string]func(*storage.Game){
		"another ply": func(g *storage.Game) { g.Mates.Ply = 2 },
		"a finished game": func(g *storage.Game) {
			g.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation}
		},
		"a yes, no line":   func(g *storage.Game) { g.Mates.Line[chesscore.White] = nil },
		"a line with a no": func(g *storage.Game) { g.Mates.Line[chesscore.Black] = g.Mates.Line[chesscore.White] },
		"a line too long": func(g *storage.Game) {
			g.Mates.Line[chesscore.White] = make([]chesscore.Move, chesscore.MaxKnownLine+1)
		},
		"verdict 3":         func(g *storage.Game) { g.Mates.Verdict[chesscore.Black] = 3 },
		"a line, no answer": func(g *storage.Game) { g.Mates.Verdict = [2]chesscore.Verdict{} },
	} {
		g := testrecords.Knowing(t)
		spoil(g)
		if err := g.Validate(); err == nil {
			t.Errorf("%s: validated", name)
		}
	}
}
