package bolt

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func TestLadderPlayersRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	players := []storage.LadderPlayer{
		testrecords.LadderPlayer("g1", clock.Blitz, "ann", 1520, 1, 0, 0),
		testrecords.LadderPlayer("g1", clock.Blitz, "bob", 1480, 0, 0, 1),
		testrecords.LadderPlayer("g1", clock.Blitz, "cid", 1520, 2, 0, 1),
		testrecords.LadderPlayer("g1", clock.Rapid, "ann", 1610.25, 3, 1, 0),
		testrecords.LadderPlayer("g10", clock.Blitz, "zed", 2000, 1, 0, 0), // a guild whose id extends g1's
		testrecords.LadderPlayer("g", clock.Blitz, "yan", 2100, 1, 0, 0),   // a guild whose id g1's extends
	}
	players[3].RD, players[3].Volatility, players[3].Seed = 80.5, 0.0599, 1600
	for _, p := range players {
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutLadderPlayer(p) }); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	db, err = Open(path, nil) // read back from the file
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.LadderPlayer, error) { return tx.LadderPlayer("g1", clock.Rapid, "ann") })
	if err != nil || !reflect.DeepEqual(got, players[3]) {
		t.Errorf("LadderPlayer = %+v, %v; want %+v", got, err, players[3])
	}
	if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.LadderPlayer, error) { return tx.LadderPlayer("g1", clock.Bullet, "ann") }); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a player not in the bullet ladder: err %v, want ErrNotFound", err)
	}
	lad, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.Ladder("g1", clock.Blitz) })
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range lad {
		ids = append(ids, p.UserID)
	}
	if strings.Join(ids, " ") != "ann bob cid" {
		t.Errorf("blitz ladder of g1 = %v, want ann bob cid (user id order)", ids)
	}
	all, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.GuildLadders("g1") })
	if err != nil || !reflect.DeepEqual(all, []storage.LadderPlayer{players[0], players[1], players[2], players[3]}) {
		t.Errorf("GuildLadders = %+v, %v; want g1's blitz players, then its rapid one", all, err)
	}
	if lad, _ := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.Ladder("nobody", clock.Blitz) }); len(lad) != 0 {
		t.Errorf("an empty guild has %d players", len(lad))
	}
}
