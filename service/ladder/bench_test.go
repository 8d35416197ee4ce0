package ladder

import (
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// benchStore is a store with n rated blitz games among 50 players of guild g, rated
// through Record as the game service would.
func benchStore(b *testing.B, n int) (*bolt.DB, *Service) {
	b.Helper()
	db := storagetest.Open(b)
	lad := NewService(db, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	tc, _ := clock.Parse("3+2")
	for i := range n {
		g := benchGame(uint64(i+1), tc, i)
		if err := db.Update(b.Context(), func(w storage.Tx) error { return lad.Record(w, g) }); err != nil {
			b.Fatal(err)
		}
	}
	return db, lad
}

func benchGame(id uint64, tc clock.TimeControl, i int) *storage.Game {
	results := []chesscore.Result{chesscore.WhiteWins, chesscore.Draw, chesscore.BlackWins}
	return &storage.Game{ID: id, GuildID: "g", Rated: true, Control: tc,
		White: storage.Player{ID: fmt.Sprint("u", i%50)}, Black: storage.Player{ID: fmt.Sprint("u", (i*7+1)%50)},
		Created: t0, Ended: t0.Add(time.Duration(i) * time.Minute),
		Moves:   []chesscore.Move{chesscore.NewMove(chesscore.E2, chesscore.E4), chesscore.NewMove(chesscore.E7, chesscore.E5)},
		Outcome: chesscore.Outcome{Result: results[i%3], Termination: chesscore.Adjudication}}
}

// BenchmarkRecordGame measures the ladder's share of ending a rated game: read the
// settings and both players, rate, write the result and both players (one transaction
// per game, no fsync).
func BenchmarkRecordGame(b *testing.B) {
	db, lad := benchStore(b, 0)
	tc, _ := clock.Parse("3+2")
	b.ResetTimer()
	for i := range b.N {
		g := benchGame(uint64(i+1), tc, i)
		if err := db.Update(b.Context(), func(w storage.Tx) error { return lad.Record(w, g) }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkRecompute replays a guild's 5,000 rated games (a settings change).
func BenchmarkRecompute(b *testing.B) {
	const games = 5000
	_, lad := benchStore(b, games)
	b.ResetTimer()
	for range b.N {
		if _, err := lad.Recompute(b.Context(), "g"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(games*b.N)/b.Elapsed().Seconds(), "games/s")
}
