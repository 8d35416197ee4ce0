// tournaments.go: the conformance suite's tournaments and the boards of their games,
// written in the transaction of a game.

package storagetest

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func testTournaments(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		a := &storage.Tournament{GuildID: "g1", ChannelID: "c1", Name: "Spring Swiss", Format: "swiss", Status: storage.TournamentOpen,
			CreatedBy: "u1", Created: testrecords.T0, State: []byte(`{"rounds":3}`), ScheduledEvent: "1180000000000000001"}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutTournament(a) }); err != nil || a.ID != 1 || a.Version != 1 {
			t.Fatalf("put: %v, id %d, version %d", err, a.ID, a.Version)
		}
		b := &storage.Tournament{GuildID: "g1", ChannelID: "c1", Name: "Arena", Format: "arena", Status: storage.TournamentFinished, Created: testrecords.T0}
		c := &storage.Tournament{GuildID: "g2", ChannelID: "c9", Name: "Other", Format: "knockout", Status: storage.TournamentRunning, Created: testrecords.T0}
		for _, x := range []*storage.Tournament{b, c} {
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutTournament(x) }); err != nil {
				t.Fatal(err)
			}
		}
		got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Tournament, error) { return tx.Tournament(1) })
		if err != nil || !reflect.DeepEqual(got, a) {
			t.Fatalf("get: %+v, %v; want %+v", got, err, a)
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Tournament, error) { return tx.Tournament(99) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("missing tournament: %v", err)
		}
		for _, tc := range []struct {
			guild string
			live  bool
			want  []uint64
		}{{"g1", false, []uint64{2, 1}}, {"g1", true, []uint64{1}}, {"g2", true, []uint64{3}}, {"", true, []uint64{3, 1}}, {"g3", false, nil}} {
			ts, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Tournament, error) { return tx.Tournaments(tc.guild, tc.live) })
			var ids []uint64
			for _, x := range ts {
				ids = append(ids, x.ID)
			}
			if err != nil || !reflect.DeepEqual(ids, tc.want) {
				t.Errorf("Tournaments(%q, %v) = %v, %v; want %v", tc.guild, tc.live, ids, err, tc.want)
			}
		}

		// An update reads, changes and writes in one transaction, with the game map.
		up, err := storage.UpdateTournament(t.Context(), db, 1, func(w storage.Tx, x *storage.Tournament) error {
			x.Status = storage.TournamentRunning
			return w.PutTournamentGame(storage.TournamentGame{GameID: 42, TournamentID: x.ID, Round: 1, Board: 2})
		})
		if err != nil || up.Status != storage.TournamentRunning || up.Version != 2 {
			t.Fatalf("update: %+v, %v", up, err)
		}
		tg, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.TournamentGame, error) { return tx.TournamentGame(42) })
		if err != nil || *tg != (storage.TournamentGame{GameID: 42, TournamentID: 1, Round: 1, Board: 2}) {
			t.Errorf("tournament game: %+v, %v", tg, err)
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.TournamentGame, error) { return tx.TournamentGame(43) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("game outside tournaments: %v", err)
		}
		// ErrStale writes nothing; another error writes nothing and is returned.
		if _, err := storage.UpdateTournament(t.Context(), db, 1, func(w storage.Tx, x *storage.Tournament) error { x.Name = "x"; return storage.ErrStale }); err != nil {
			t.Errorf("stale update: %v", err)
		}
		boom := errors.New("boom")
		if _, err := storage.UpdateTournament(t.Context(), db, 1, func(w storage.Tx, x *storage.Tournament) error {
			x.Name = "y"
			_ = w.PutTournamentGame(storage.TournamentGame{GameID: 50, TournamentID: 1})
			return boom
		}); !errors.Is(err, boom) {
			t.Errorf("failed update: %v", err)
		}
		if got, _ := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Tournament, error) { return tx.Tournament(1) }); got.Name != "Spring Swiss" || got.Version != 2 {
			t.Errorf("after refused updates: %+v", got)
		}
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.TournamentGame, error) { return tx.TournamentGame(50) }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a refused update's game map was written: %v", err)
		}
		// Bad records are refused.
		for name, bad := range map[string]*storage.Tournament{
			"no guild":   {Status: storage.TournamentOpen},
			"bad status": {GuildID: "g", Status: "paused"},
			"long name":  {GuildID: "g", Status: storage.TournamentOpen, Name: string(make([]byte, 201))},
			"long event": {GuildID: "g", Status: storage.TournamentOpen, ScheduledEvent: string(make([]byte, storage.MaxIDLen+1))},
		} {
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutTournament(bad) }); err == nil {
				t.Errorf("%s: accepted", name)
			}
		}
		if _, err := storage.UpdateTournament(t.Context(), db, 99, func(storage.Tx, *storage.Tournament) error { return nil }); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("update of a missing tournament: %v", err)
		}
	})
}

func testTournamentInGameTransaction(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		tr := &storage.Tournament{GuildID: "g", Status: storage.TournamentRunning, Format: "swiss"}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutTournament(tr) }); err != nil {
			t.Fatal(err)
		}
		g := testrecords.SampleGames(t)[0]
		// A game's end and its tournament result commit together: the hook's failure
		// leaves neither.
		err := db.Commit(t.Context(), &storage.Change{Game: g, After: func(w storage.Tx) error {
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
		if got, _ := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Tournament, error) { return tx.Tournament(tr.ID) }); got.State != nil {
			t.Errorf("state written by a failed commit: %s", got.State)
		}
	})
}
