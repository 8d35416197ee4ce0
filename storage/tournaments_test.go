package storage

import (
	"encoding/hex"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
)

// oldGameRecords are sampleGames(t) as the encoder wrote them before the no-show time
// existed (produced by that version of encodeGame): they must still decode, unchanged.
var oldGameRecords = []string{
	"01000000000b6c6f63616c3a77686974650557686974650b6c6f63616c3a626c61636b05426c61636b012d00008080b4bdb6f6da983100000000000000000000000000",
	"011f123131313131313131313131313131313131311232323232323232323232323232323232323203333333043130303107416e6120e2999e043130303202426f03352b33004d8080b4bdb6f6da98310000000101d683f1e6b21180e0a596bb110201aacceec6ebf6da9831000003000301000300030080e0d9d3f187db98310003070c0934054603e0a712e0a712c08812",
	"010200000001310161013201620233641e382f382f382f382f382f356b322f382f344b32522077204b202d20302031008080b4bdb6f6da98318080f9c8fcc7dc9831020901008080e8beb6ef758080e8beb6ef7500008080b4bdb6f6da98310000000000000000010000",
}

func TestGameCodecOldRecordsDecode(t *testing.T) {
	samples := sampleGames(t)
	for i, h := range oldGameRecords {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeGame(uint64(i+1), b)
		if err != nil {
			t.Fatalf("old record %d: %v", i, err)
		}
		want := samples[i]
		want.ID = uint64(i + 1)
		if !reflect.DeepEqual(got, want) || got.NoShow != 0 {
			t.Errorf("old record %d:\n got %+v\nwant %+v", i, got, want)
		}
		if again := hex.EncodeToString(encodeGame(got)); again != h {
			t.Errorf("old record %d re-encodes differently:\n%s", i, again)
		}
	}
}

func TestGameCodecNoShow(t *testing.T) {
	g := sampleGames(t)[1]
	g.ID = 9
	g.NoShow = 90 * time.Second
	g.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.NoShow}
	b := encodeGame(g)
	got, err := decodeGame(9, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, g) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, g)
	}
	// The flag without the field, and a field that is not positive, are corrupt.
	if _, err := decodeGame(9, b[:len(b)-1]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("truncated no-show time: %v", err)
	}
	bad := append(append([]byte(nil), b[:len(b)-len(encodeDur(g.NoShow))]...), encodeDur(-time.Second)...)
	if _, err := decodeGame(9, bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("negative no-show time: %v", err)
	}
}

func encodeDur(d time.Duration) []byte {
	e := encoder{}
	e.dur(d)
	return e.b
}

func TestTournaments(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		a := &Tournament{GuildID: "g1", ChannelID: "c1", Name: "Spring Swiss", Format: "swiss", Status: TournamentOpen,
			CreatedBy: "u1", Created: t0, State: []byte(`{"rounds":3}`)}
		if err := db.Update(func(tx Tx) error { return tx.PutTournament(a) }); err != nil || a.ID != 1 || a.Version != 1 {
			t.Fatalf("put: %v, id %d, version %d", err, a.ID, a.Version)
		}
		b := &Tournament{GuildID: "g1", ChannelID: "c1", Name: "Arena", Format: "arena", Status: TournamentFinished, Created: t0}
		c := &Tournament{GuildID: "g2", ChannelID: "c9", Name: "Other", Format: "knockout", Status: TournamentRunning, Created: t0}
		for _, x := range []*Tournament{b, c} {
			if err := db.Update(func(tx Tx) error { return tx.PutTournament(x) }); err != nil {
				t.Fatal(err)
			}
		}
		got, err := Read(db, func(tx Tx) (*Tournament, error) { return tx.Tournament(1) })
		if err != nil || !reflect.DeepEqual(got, a) {
			t.Fatalf("get: %+v, %v; want %+v", got, err, a)
		}
		if _, err := Read(db, func(tx Tx) (*Tournament, error) { return tx.Tournament(99) }); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing tournament: %v", err)
		}
		for _, tc := range []struct {
			guild string
			live  bool
			want  []uint64
		}{{"g1", false, []uint64{2, 1}}, {"g1", true, []uint64{1}}, {"g2", true, []uint64{3}}, {"", true, []uint64{3, 1}}, {"g3", false, nil}} {
			ts, err := Read(db, func(tx Tx) ([]*Tournament, error) { return tx.Tournaments(tc.guild, tc.live) })
			var ids []uint64
			for _, x := range ts {
				ids = append(ids, x.ID)
			}
			if err != nil || !reflect.DeepEqual(ids, tc.want) {
				t.Errorf("Tournaments(%q, %v) = %v, %v; want %v", tc.guild, tc.live, ids, err, tc.want)
			}
		}

		// An update reads, changes and writes in one transaction, with the game map.
		up, err := UpdateTournament(db, 1, func(w Tx, x *Tournament) error {
			x.Status = TournamentRunning
			return w.PutTournamentGame(TournamentGame{GameID: 42, TournamentID: x.ID, Round: 1, Board: 2})
		})
		if err != nil || up.Status != TournamentRunning || up.Version != 2 {
			t.Fatalf("update: %+v, %v", up, err)
		}
		tg, err := Read(db, func(tx Tx) (*TournamentGame, error) { return tx.TournamentGame(42) })
		if err != nil || *tg != (TournamentGame{GameID: 42, TournamentID: 1, Round: 1, Board: 2}) {
			t.Errorf("tournament game: %+v, %v", tg, err)
		}
		if _, err := Read(db, func(tx Tx) (*TournamentGame, error) { return tx.TournamentGame(43) }); !errors.Is(err, ErrNotFound) {
			t.Errorf("game outside tournaments: %v", err)
		}
		// ErrStale writes nothing; another error writes nothing and is returned.
		if _, err := UpdateTournament(db, 1, func(w Tx, x *Tournament) error { x.Name = "x"; return ErrStale }); err != nil {
			t.Errorf("stale update: %v", err)
		}
		boom := errors.New("boom")
		if _, err := UpdateTournament(db, 1, func(w Tx, x *Tournament) error {
			x.Name = "y"
			_ = w.PutTournamentGame(TournamentGame{GameID: 50, TournamentID: 1})
			return boom
		}); !errors.Is(err, boom) {
			t.Errorf("failed update: %v", err)
		}
		if got, _ := Read(db, func(tx Tx) (*Tournament, error) { return tx.Tournament(1) }); got.Name != "Spring Swiss" || got.Version != 2 {
			t.Errorf("after refused updates: %+v", got)
		}
		if _, err := Read(db, func(tx Tx) (*TournamentGame, error) { return tx.TournamentGame(50) }); !errors.Is(err, ErrNotFound) {
			t.Errorf("a refused update's game map was written: %v", err)
		}
		// Bad records are refused.
		for name, bad := range map[string]*Tournament{
			"no guild":   {Status: TournamentOpen},
			"bad status": {GuildID: "g", Status: "paused"},
			"long name":  {GuildID: "g", Status: TournamentOpen, Name: string(make([]byte, 201))},
		} {
			if err := db.Update(func(tx Tx) error { return tx.PutTournament(bad) }); err == nil {
				t.Errorf("%s: accepted", name)
			}
		}
		if _, err := UpdateTournament(db, 99, func(Tx, *Tournament) error { return nil }); !errors.Is(err, ErrNotFound) {
			t.Errorf("update of a missing tournament: %v", err)
		}
	})
}

func TestTournamentInGameTransaction(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db Store) {
		tr := &Tournament{GuildID: "g", Status: TournamentRunning, Format: "swiss"}
		if err := db.Update(func(tx Tx) error { return tx.PutTournament(tr) }); err != nil {
			t.Fatal(err)
		}
		g := sampleGames(t)[0]
		// A game's end and its tournament result commit together: the hook's failure
		// leaves neither.
		err := db.Commit(&Change{Game: g, After: func(w Tx) error {
			x, err := w.Tournament(tr.ID)
			if err != nil {
				return err
			}
			x.State = []byte(`{"result":1}`)
			if err := w.PutTournament(x); err != nil {
				return err
			}
			return errors.New("refused")
		}})
		if err == nil {
			t.Fatal("the refused hook committed")
		}
		if got, _ := Read(db, func(tx Tx) (*Tournament, error) { return tx.Tournament(tr.ID) }); got.State != nil {
			t.Errorf("state written by a failed commit: %s", got.State)
		}
	})
}
