package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
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

// TestGameCodecVariant: a Chess960 record keeps its variant; a standard record is written
// as before the variant existed (no flag, no byte), so old records read as standard.
func TestGameCodecVariant(t *testing.T) {
	g := testrecords.Chess960Game()
	g.ID = 9
	b := EncodeGame(g)
	got, err := DecodeGame(g.ID, b)
	if err != nil || !reflect.DeepEqual(got, g) {
		t.Fatalf("Chess960 round trip: %+v, %v", got, err)
	}
	std := *g
	std.Variant, std.StartFEN, std.Moves = chesscore.Standard, "", nil
	old := EncodeGame(&std)
	if flags, _ := binary.Uvarint(old[1:]); flags&flagVariant != 0 {
		t.Errorf("standard record has the variant flag: %#x", flags)
	}
	if got, err := DecodeGame(1, old); err != nil || got.Variant != chesscore.Standard {
		t.Errorf("standard record read as %v, %v", got, err)
	}
	bad := append([]byte(nil), b...)
	bad[len(bad)-1] = 7
	if _, err := DecodeGame(1, bad); !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "variant 7") {
		t.Errorf("variant 7: %v, want ErrCorrupt", err)
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
	f.Add(EncodeGame(testrecords.Chess960Game()))
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

// TestGameCodecGuest: a guest game keeps its mark; a game of a server is written as
// before the mark existed (no flag), so old records read as not guest.
func TestGameCodecGuest(t *testing.T) {
	g := testrecords.NewGame("w", "b", "c")
	g.ID, g.GuildID, g.Guest = 4, "", true
	b := EncodeGame(g)
	if flags, _ := binary.Uvarint(b[1:]); flags&flagGuest == 0 {
		t.Errorf("guest record lacks the flag: %#x", flags)
	}
	got, err := DecodeGame(g.ID, b)
	if err != nil || !reflect.DeepEqual(got, g) {
		t.Fatalf("guest round trip: %+v, %v", got, err)
	}
	g.Guest, g.GuildID = false, "g1"
	plain := EncodeGame(g)
	if flags, _ := binary.Uvarint(plain[1:]); flags&flagGuest != 0 {
		t.Errorf("server record has the guest flag: %#x", flags)
	}
	if got, err := DecodeGame(g.ID, plain); err != nil || got.Guest {
		t.Errorf("server record read as %+v, %v", got, err)
	}
}
