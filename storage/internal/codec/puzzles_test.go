package codec

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func TestPuzzleCodecRoundTrip(t *testing.T) {
	ps := []*storage.Puzzle{
		testrecords.SamplePuzzle("00abc", 1234),
		{ID: "gm7-12", FEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Moves: []string{"a1a2", "h1h2", "a2a3", "h2h3"}, Rating: 0,
			Source: "game:g1:7", White: "1", Black: "2", Played: testrecords.T0.Add(-time.Hour)},
	}
	for _, p := range ps {
		got, err := DecodePuzzle(p.ID, EncodePuzzle(p))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, p) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, p)
		}
	}
	b := EncodePuzzle(ps[0])
	for _, bad := range [][]byte{nil, {2}, b[:len(b)-1], append(append([]byte(nil), b...), 0)} {
		if _, err := DecodePuzzle("x", bad); !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("decode %x: %v, want ErrCorrupt", bad, err)
		}
	}
}

func FuzzDecodePuzzle(f *testing.F) {
	f.Add(EncodePuzzle(testrecords.SamplePuzzle("a", 1500)))
	f.Add([]byte{1, 0, 0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := DecodePuzzle("id", b)
		if err != nil {
			return
		}
		again, err := DecodePuzzle("id", EncodePuzzle(p))
		if err != nil || !reflect.DeepEqual(again, p) {
			t.Fatalf("re-encoding %+v: %+v, %v", p, again, err)
		}
	})
}
