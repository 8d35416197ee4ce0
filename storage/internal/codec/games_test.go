package codec

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func TestGameCodecRoundTrip(t *testing.T) {
	for i, g := range testrecords.SampleGames(t) {
		g.ID = uint64(i + 1)
		b := EncodeGame(g)
		got, err := DecodeGame(g.ID, b)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, g) {
			t.Errorf("game %d round trip:\n got %+v\nwant %+v", i, got, g)
		}
		if again := EncodeGame(got); !bytes.Equal(again, b) {
			t.Errorf("game %d: re-encoding differs", i)
		}
	}
}

func TestGameCodecRejects(t *testing.T) {
	good := EncodeGame(testrecords.SampleGames(t)[1])
	cases := map[string][]byte{
		"empty":          {},
		"unknown format": append([]byte{9}, good[1:]...),
		"truncated":      good[:len(good)-3],
		"trailing":       append(append([]byte(nil), good...), 0),
	}
	for name, b := range cases {
		if _, err := DecodeGame(1, b); !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

func FuzzDecodeGame(f *testing.F) {
	for _, g := range testrecords.SampleGames(f) {
		f.Add(EncodeGame(g))
	}
	f.Add([]byte{1})
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodeGame(1, b)
		if err != nil {
			if !errors.Is(err, storage.ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		again, err := DecodeGame(1, EncodeGame(g))
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !reflect.DeepEqual(again, g) {
			t.Fatalf("round trip changed the record:\n%+v\n%+v", g, again)
		}
	})
}
