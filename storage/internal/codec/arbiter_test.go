package codec

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func TestGameCodecArbiterFields(t *testing.T) {
	g := testrecords.Arbitrated(t)
	b := EncodeGame(g)
	got, err := DecodeGame(g.ID, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, g) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, g)
	}
	// Each later field alone round-trips too, and a record without them keeps its old
	// bytes (TestGameCodecOldRecordsDecode).
	for name, spoil := range map[string]func(*storage.Game){
		"draw with move only": func(g *storage.Game) { g.Moved, g.Notes = time.Time{}, nil },
		"moved only":          func(g *storage.Game) { g.DrawWithMove, g.Notes = false, nil },
		"notes only":          func(g *storage.Game) { g.DrawWithMove, g.Moved = false, time.Time{} },
	} {
		one := testrecords.Arbitrated(t)
		spoil(one)
		got, err := DecodeGame(one.ID, EncodeGame(one))
		if err != nil || !reflect.DeepEqual(got, one) {
			t.Errorf("%s: %v\n got %+v\nwant %+v", name, err, got, one)
		}
	}
	// Truncated notes, an unknown flag bit and trailing bytes are corrupt.
	for name, bad := range map[string][]byte{
		"truncated notes": b[:len(b)-4],
		"unknown flag":    append([]byte{b[0], 0x80 | b[1], 0x04 | b[2]}, b[3:]...),
		"trailing":        append(append([]byte(nil), b...), 0),
	} {
		if _, err := DecodeGame(g.ID, bad); !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}
