package codec

import (
	"encoding/hex"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

// oldGameRecords are sampleGames(t) as the encoder wrote them before the no-show time
// existed (produced by that version of encodeGame): they must still decode, unchanged.
var oldGameRecords = []string{
	"01000000000b6c6f63616c3a77686974650557686974650b6c6f63616c3a626c61636b05426c61636b012d00008080b4bdb6f6da983100000000000000000000000000",
	"011f123131313131313131313131313131313131311232323232323232323232323232323232323203333333043130303107416e6120e2999e043130303202426f03352b33004d8080b4bdb6f6da98310000000101d683f1e6b21180e0a596bb110201aacceec6ebf6da9831000003000301000300030080e0d9d3f187db98310003070c0934054603e0a712e0a712c08812",
	"010200000001310161013201620233641e382f382f382f382f382f356b322f382f344b32522077204b202d20302031008080b4bdb6f6da98318080f9c8fcc7dc9831020901008080e8beb6ef758080e8beb6ef7500008080b4bdb6f6da98310000000000000000010000",
}

func TestGameCodecOldRecordsDecode(t *testing.T) {
	samples := testrecords.SampleGames(t)
	for i, h := range oldGameRecords {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeGame(uint64(i+1), b)
		if err != nil {
			t.Fatalf("old record %d: %v", i, err)
		}
		want := samples[i]
		want.ID = uint64(i + 1)
		if !reflect.DeepEqual(got, want) || got.NoShow != 0 {
			t.Errorf("old record %d:\n got %+v\nwant %+v", i, got, want)
		}
		if again := hex.EncodeToString(EncodeGame(got)); again != h {
			t.Errorf("old record %d re-encodes differently:\n%s", i, again)
		}
	}
}

func TestGameCodecNoShow(t *testing.T) {
	g := testrecords.SampleGames(t)[1]
	g.ID = 9
	g.NoShow = 90 * time.Second
	g.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.NoShow}
	b := EncodeGame(g)
	got, err := DecodeGame(9, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, g) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, g)
	}
	// The flag without the field, and a field that is not positive, are corrupt.
	if _, err := DecodeGame(9, b[:len(b)-1]); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("truncated no-show time: %v", err)
	}
	bad := append(append([]byte(nil), b[:len(b)-len(encodeDur(g.NoShow))]...), encodeDur(-time.Second)...)
	if _, err := DecodeGame(9, bad); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("negative no-show time: %v", err)
	}
}

func encodeDur(d time.Duration) []byte {
	e := encoder{}
	e.dur(d)
	return e.b
}
