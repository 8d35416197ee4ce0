package codec

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func FuzzDecodeLadderPlayer(f *testing.F) {
	p := testrecords.LadderPlayer("g", clock.Blitz, "u", 1520, 3, 1, 2)
	p.RD, p.Volatility, p.Seed = 92.25, 0.0601, 1800
	p.History = append(p.History, storage.RatingPoint{At: testrecords.T0.Add(time.Hour), Rating: 1533.5}, storage.RatingPoint{At: testrecords.T0.Add(time.Minute), Rating: 1490})
	f.Add(EncodeLadderPlayer(&p))
	empty := storage.LadderPlayer{}
	f.Add(EncodeLadderPlayer(&empty))
	f.Add([]byte("J{}"))
	f.Add([]byte{ladderFormat, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		var p storage.LadderPlayer
		if err := DecodeLadderPlayerValue(b, &p); err != nil {
			if !errors.Is(err, storage.ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		again := EncodeLadderPlayer(&p)
		var q storage.LadderPlayer
		if err := DecodeLadderPlayerValue(again, &q); err != nil {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip: %+v became %+v", p, q)
		}
	})
}

func TestLadderPlayerEncodingSize(t *testing.T) {
	p := testrecords.LadderPlayer("g", clock.Blitz, "u", 1500, 0, 0, 0)
	p.History = nil
	for i := range 500 {
		p.History = append(p.History, storage.RatingPoint{At: testrecords.T0.Add(time.Duration(i) * 17 * time.Minute), Rating: 1500 + float64(i%40)})
	}
	p.Games, p.Wins = 500, 500
	b := EncodeLadderPlayer(&p)
	if len(b) > 500*14+64 {
		t.Errorf("a 500-game history takes %d bytes", len(b))
	}
	var q storage.LadderPlayer
	if err := DecodeLadderPlayerValue(b, &q); err != nil {
		t.Fatal(err)
	}
	q.GuildID, q.Category, q.UserID = p.GuildID, p.Category, p.UserID
	if !reflect.DeepEqual(p, q) {
		t.Error("500-point history does not round-trip")
	}
}
