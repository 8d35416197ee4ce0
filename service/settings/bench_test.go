package settings

import (
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// BenchmarkAnswerSettings measures what a move's answer spends on settings: the
// server's settings and the preferences of the player to move, read from the store (as
// every answer did before the cache: FreshGuild and FreshPrefs) and from memory (Guild
// and Prefs), on each backend. Compare the two lines of a backend in one run:
//
//	nice -n 19 go test -run '^$' -bench BenchmarkAnswerSettings ./service/settings
func BenchmarkAnswerSettings(b *testing.B) {
	backends := []struct {
		name string
		open func(b *testing.B) storage.Store
	}{
		{"bbolt", func(b *testing.B) storage.Store { return storagetest.Open(b) }},
		{"postgres", func(b *testing.B) storage.Store { return storagetest.OpenPostgres(b) }},
	}
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			s := New(be.open(b), Options{})
			if _, err := s.UpdateGuild(ctx, "g", func(gs *storage.GuildSettings) error { gs.BoardTheme = "blue"; return nil }); err != nil {
				b.Fatal(err)
			}
			if err := s.SetPrefs(ctx, "u", storage.DefaultUserPrefs()); err != nil {
				b.Fatal(err)
			}
			for _, c := range []struct {
				name  string
				guild func() (storage.GuildSettings, error)
				prefs func() (storage.UserPrefs, error)
			}{
				{"store", func() (storage.GuildSettings, error) { return s.FreshGuild(ctx, "g") }, func() (storage.UserPrefs, error) { return s.FreshPrefs(ctx, "u") }},
				{"cached", func() (storage.GuildSettings, error) { return s.Guild(ctx, "g") }, func() (storage.UserPrefs, error) { return s.Prefs(ctx, "u") }},
			} {
				b.Run(c.name, func(b *testing.B) {
					for b.Loop() {
						if _, err := c.guild(); err != nil {
							b.Fatal(err)
						}
						if _, err := c.prefs(); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/answer")
				})
			}
		})
	}
}
