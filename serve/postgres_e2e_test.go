package serve

import (
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// The bot on storage.driver postgres: a game from challenge to checkmate, every move
// stored in the database, the services none the wiser.
func TestStoryOnPostgres(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	w := newWorld(t)
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
	w.start()
	g := w.startGame("5+3")
	g.played(g.move(w.alice, "f3"), "f3", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	g.played(g.move(w.alice, "g4"), "g4", w.bob)
	res := g.move(w.bob, "Qh4#")
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "0-1") || !strings.Contains(d.Content, "checkmate") {
		t.Fatalf("mate answered %q", d.Content)
	}
	db := storagetest.OpenPostgresDSN(t, dsn, nil)
	games, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]*storage.Game, error) {
		return tx.GamesInChannel(w.f.ChannelID, storage.Query{})
	})
	if err != nil || len(games) != 1 {
		t.Fatalf("the database holds %d games in the channel, %v", len(games), err)
	}
	if got := games[0]; got.Live() || got.Ply() != 4 || got.Outcome.Result != chesscore.BlackWins {
		t.Errorf("stored game: %d plies, %v", got.Ply(), got.Outcome)
	}
}
