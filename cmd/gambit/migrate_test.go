package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// migrationSource writes a bbolt store with a game in progress, a finished game and a
// guild's settings, and returns its path.
func migrationSource(t *testing.T, moves ...chesscore.Move) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gambit.db")
	db := storagetest.OpenFile(t, path, nil)
	live := &storage.Game{GuildID: "g", ChannelID: "c", White: storage.Player{ID: "1", Name: "a"}, Black: storage.Player{ID: "2", Name: "b"},
		Moves: moves}
	over := &storage.Game{White: storage.Player{ID: "1", Name: "a"}, Black: storage.Player{ID: "3", Name: "c"},
		Moves:   []chesscore.Move{chesscore.NewMove(chesscore.F2, chesscore.F3), chesscore.NewMove(chesscore.E7, chesscore.E5)},
		Outcome: chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation}}
	for _, g := range []*storage.Game{live, over} {
		if err := db.Commit(t.Context(), &storage.Change{Game: g, Receipt: &storage.Receipt{RequestID: "r" + g.Black.ID, Effect: "started"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutGuildSettings(storage.DefaultGuildSettings("g")) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

var opening = []chesscore.Move{chesscore.NewMove(chesscore.E2, chesscore.E4), chesscore.NewMove(chesscore.E7, chesscore.E5)}

func TestMigrate(t *testing.T) {
	targets := []struct {
		name string
		to   func(t *testing.T) string
	}{
		{"bbolt", func(t *testing.T) string { return "bbolt:" + filepath.Join(t.TempDir(), "copy.db") }},
		{"postgres", func(t *testing.T) string { return "postgres:" + storagetest.PostgresDSN(t) }},
	}
	for _, target := range targets {
		t.Run(target.name, func(t *testing.T) {
			from := "bbolt:" + migrationSource(t, opening...)
			to := target.to(t)
			var out, errOut bytes.Buffer
			if err := runMigrate([]string{"--from", from, "--to", to}, &out, &errOut); err != nil {
				t.Fatalf("migrate: %v\n%s%s", err, out.String(), errOut.String())
			}
			for _, want := range []string{"copied: guild settings 1, users 0, games 2, challenges 0, receipts 2,",
				"verified: the counts match, 2 games are the same in both and replay"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
			loc, _ := backend.ParseLocation(to)
			st, err := backend.Open(loc, nil)
			if err != nil {
				t.Fatal(err)
			}
			g, err := storage.Read(t.Context(), st, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(1) })
			if err != nil || g.Ply() != 2 || !g.Live() {
				t.Errorf("the copied game: %+v, %v", g, err)
			}
			st.Close()
			// The destination now holds records: a second migration into it is refused.
			out.Reset()
			if err := runMigrate([]string{"--from", from, "--to", to}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "not empty") {
				t.Errorf("a migration into a store that holds records: %v", err)
			}
		})
	}
}

func TestMigrateRefuses(t *testing.T) {
	good := "bbolt:" + migrationSource(t, opening...)
	// A game whose moves do not replay fails the verification.
	illegal := "bbolt:" + migrationSource(t, chesscore.NewMove(chesscore.E2, chesscore.E5))
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no --to", []string{"--from", good}, "give both --from and --to"},
		{"a bad location", []string{"--from", "gambit.db", "--to", "bbolt:x.db"}, "want bbolt:FILE or postgres:DSN"},
		{"the same store", []string{"--from", good, "--to", good}, "the same store"},
		{"a missing source", []string{"--from", "bbolt:" + filepath.Join(dir, "none.db"), "--to", "bbolt:" + filepath.Join(dir, "a.db")}, "none.db"},
		{"a game that does not replay", []string{"--from", illegal, "--to", "bbolt:" + filepath.Join(dir, "b.db")}, "verify the games: game 1"},
	} {
		var out, errOut bytes.Buffer
		err := runMigrate(c.args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}
