package storagetest

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
	"github.com/gambitchess/gambit/storage/transfer"
)

// TestCopyAcrossBackends copies a store of every family from bbolt to PostgreSQL and
// back: counts, games, versions and every record read the same, and new ids continue
// after the copied ones.
func TestCopyAcrossBackends(t *testing.T) {
	dir := t.TempDir()
	src := Open(t)
	testrecords.FillStore(t.Context(), t, src)
	pg := OpenPostgres(t)
	back, err := bolt.Open(filepath.Join(dir, "back.db"), &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()

	want, err := transfer.CountRecords(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range want {
		if f.N == 0 {
			t.Errorf("the fixture has no %s", f.Family)
		}
	}
	for _, step := range []struct {
		name     string
		dst, src storage.Store
	}{{"bbolt to postgres", pg, src}, {"postgres to bbolt", back, pg}} {
		copied, err := transfer.Copy(t.Context(), step.dst, step.src)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if err := transfer.SameCounts(want, copied); err != nil {
			t.Errorf("%s: copied %v", step.name, err)
		}
		got, err := transfer.CountRecords(t.Context(), step.dst)
		if err != nil {
			t.Fatal(err)
		}
		if err := transfer.SameCounts(want, got); err != nil {
			t.Errorf("%s: the copy holds %v", step.name, err)
		}
		checked := 0
		n, err := transfer.CompareGames(t.Context(), step.src, step.dst, func(*storage.Game) error { checked++; return nil })
		if err != nil || n != len(testrecords.FillGames) || checked != n {
			t.Errorf("%s: compared %d games (checked %d), %v", step.name, n, checked, err)
		}
		testrecords.CheckStore(t, step.dst)
	}
	// Every record reads back the same from the round trip, through the typed reads.
	for _, read := range []func(tx storage.Tx) (any, error){
		func(tx storage.Tx) (any, error) { return tx.Game(2) },
		func(tx storage.Tx) (any, error) { return tx.OpenGames() },
		func(tx storage.Tx) (any, error) { return tx.Challenge(2) },
		func(tx storage.Tx) (any, error) { return tx.PendingChallenges() },
		func(tx storage.Tx) (any, error) { return tx.Guilds() },
		func(tx storage.Tx) (any, error) { return tx.User("pref") },
		func(tx storage.Tx) (any, error) { return tx.DigestUsers() },
		func(tx storage.Tx) (any, error) { return tx.Receipt("fill1") },
		func(tx storage.Tx) (any, error) { return tx.Heartbeat("bot") },
		func(tx storage.Tx) (any, error) { return tx.GuildLadders("g1") },
		func(tx storage.Tx) (any, error) { return tx.RatedResults("g1") },
		func(tx storage.Tx) (any, error) { return tx.Puzzle("gm1-5") },
		func(tx storage.Tx) (any, error) { return tx.Dailies("g1") },
		func(tx storage.Tx) (any, error) { return tx.PuzzlePlayers("g1") },
		func(tx storage.Tx) (any, error) { return tx.PuzzleAttempt("g1", "1001", "a1") },
		func(tx storage.Tx) (any, error) { return tx.LiveEngineGames() },
		func(tx storage.Tx) (any, error) { return tx.Tournaments("", false) },
		func(tx storage.Tx) (any, error) { return tx.TournamentGame(4) },
		func(tx storage.Tx) (any, error) { return tx.GamesByUser("1001", storage.Query{}) },
	} {
		a, errA := storage.Read(t.Context(), src, read)
		b, errB := storage.Read(t.Context(), back, read)
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("source %+v (%v)\nround trip %+v (%v)", a, errA, b, errB)
		}
	}
	// New records take ids after the copied ones, in each backend.
	for _, st := range []storage.Store{pg, back} {
		g := testrecords.NewGame("a", "b", "c")
		if err := st.Commit(t.Context(), &storage.Change{Game: g}); err != nil || g.ID != uint64(len(testrecords.FillGames)+1) {
			t.Errorf("%T: a new game after the copy got id %d, %v", st, g.ID, err)
		}
		c := &storage.Challenge{From: storage.Player{ID: "a", Name: "A"}, Status: storage.ChallengePending}
		if err := st.Commit(t.Context(), &storage.Change{Challenge: c}); err != nil || c.ID != 3 {
			t.Errorf("%T: a new challenge after the copy got id %d, %v", st, c.ID, err)
		}
		tm := &storage.Tournament{GuildID: "g1", Status: storage.TournamentOpen}
		if err := st.Update(t.Context(), func(tx storage.Tx) error { return tx.PutTournament(tm) }); err != nil || tm.ID != 2 {
			t.Errorf("%T: a new tournament after the copy got id %d, %v", st, tm.ID, err)
		}
	}
	// A store that holds records is not a destination.
	if _, err := transfer.Copy(t.Context(), pg, src); err == nil {
		t.Error("copied into a store that is not empty")
	}
	// A store that differs is found out.
	g, _ := storage.Read(t.Context(), back, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(1) })
	g.Moves = append(g.Moves, chesscore.NewMove(chesscore.E2, chesscore.E4))
	if err := back.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
		t.Fatal(err)
	}
	if _, err := transfer.CompareGames(t.Context(), src, back, nil); !errors.Is(err, transfer.ErrMismatch) {
		t.Errorf("compare with a changed game: %v, want ErrMismatch", err)
	}
}
