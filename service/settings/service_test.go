package settings

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

var ctx = context.Background()

func mustControl(t *testing.T, s string) clock.TimeControl {
	t.Helper()
	tc, err := clock.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

// Two processes on one PostgreSQL store, each with its connections and its Service:
// each sees its own writes at once; the other sees them once its cached value is TTL
// old, or at once through FreshGuild and FreshPrefs.
func TestTwoProcessesOnPostgres(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	stA, stB := storagetest.OpenPostgresDSN(t, dsn, nil), storagetest.OpenPostgresDSN(t, dsn, nil)
	clk := timers.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	a := New(stA, Options{Now: clk.Now, TTL: time.Second})
	b := New(stB, Options{Now: clk.Now, TTL: time.Second})
	if gs, err := b.Guild(ctx, "g"); err != nil || gs.BoardTheme != storage.DefaultGuildSettings("g").BoardTheme {
		t.Fatalf("b.Guild = %+v, %v; want the defaults", gs, err)
	}
	if _, err := b.Prefs(ctx, "u"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UpdateGuild(ctx, "g", func(gs *storage.GuildSettings) error {
		gs.BoardTheme, gs.PingOnTurn = "blue", false
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := a.SetPrefs(ctx, "u", storage.UserPrefs{DMOnTurn: true}); err != nil {
		t.Fatal(err)
	}
	if gs, _ := a.Guild(ctx, "g"); gs.BoardTheme != "blue" {
		t.Errorf("the writer reads %q, want its own blue", gs.BoardTheme)
	}
	if p, _ := a.Prefs(ctx, "u"); !p.DMOnTurn {
		t.Error("the writer does not see its own preferences")
	}
	if gs, _ := b.FreshGuild(ctx, "g"); gs.BoardTheme != "blue" {
		t.Errorf("FreshGuild reads %q, want blue", gs.BoardTheme)
	}
	b.Forget("g")
	if _, err := b.Guild(ctx, "g"); err != nil { // cached again, as of now
		t.Fatal(err)
	}
	if _, err := a.UpdateGuild(ctx, "g", func(gs *storage.GuildSettings) error { gs.BoardTheme = "green"; return nil }); err != nil {
		t.Fatal(err)
	}
	gs, _ := b.Guild(ctx, "g")
	p, _ := b.Prefs(ctx, "u")
	if gs.BoardTheme != "blue" || p.DMOnTurn {
		t.Errorf("within the TTL the other process reads %q and %+v: want what it cached (blue, no DM)", gs.BoardTheme, p)
	}
	clk.Advance(time.Second)
	gs, _ = b.Guild(ctx, "g")
	p, _ = b.Prefs(ctx, "u")
	if gs.BoardTheme != "green" || !p.DMOnTurn || gs.PingOnTurn {
		t.Errorf("the other process reads %+v and %+v, want the green theme, no pings and DMs", gs, p)
	}
	if fresh, _ := b.FreshPrefs(ctx, "u"); !fresh.DMOnTurn {
		t.Error("FreshPrefs does not read the store")
	}
}

// On a bbolt file the cache never expires: a second read a day later is not a store
// read (the value cached is the one written, even though the store was changed behind
// the service's back, which only another service's transaction may do, and it calls
// Forget).
func TestNoExpiryOnAFileOfOneProcess(t *testing.T) {
	st := storagetest.Open(t)
	clk := timers.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	s := New(st, Options{Now: clk.Now})
	if _, err := s.Guild(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	if err := st.Update(ctx, func(tx storage.Tx) error {
		gs, _ := tx.GuildSettings("g")
		gs.BoardTheme = "blue"
		return tx.PutGuildSettings(gs)
	}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(24 * time.Hour)
	if gs, _ := s.Guild(ctx, "g"); gs.BoardTheme == "blue" {
		t.Error("the cached value expired on a store of one process")
	}
	s.Forget("g")
	if gs, _ := s.Guild(ctx, "g"); gs.BoardTheme != "blue" {
		t.Errorf("after Forget: %q, want blue", gs.BoardTheme)
	}
}

// UpdateGuild: an error from fn writes nothing and comes back as is; settings the store
// refuses are an ErrInvalid and leave the cache alone; the configured default time
// control is not written into a guild that chose none.
func TestUpdateGuild(t *testing.T) {
	st := storagetest.Open(t)
	s := New(st, Options{DefaultControl: mustControl(t, "3+2")})
	stop := errors.New("stop")
	if _, err := s.UpdateGuild(ctx, "g", func(gs *storage.GuildSettings) error {
		gs.BoardTheme = "blue"
		return stop
	}); err != stop {
		t.Errorf("fn's error came back as %v", err)
	}
	if gs, _ := s.FreshGuild(ctx, "g"); gs.BoardTheme == "blue" {
		t.Error("a failed fn wrote")
	}
	_, err := s.UpdateGuild(ctx, "g", func(gs *storage.GuildSettings) error {
		gs.ChallengeRole = string(make([]byte, 10*storage.MaxIDLen))
		return nil
	})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("an invalid role: %v, want ErrInvalid", err)
	}
	if gs, _ := s.Guild(ctx, "g"); gs.ChallengeRole != "" {
		t.Error("the refused settings are cached")
	}
	gs, err := s.UpdateGuild(ctx, "g", func(gs *storage.GuildSettings) error { gs.PingOnTurn = false; return nil })
	if err != nil || gs.DefaultControl.String() != "3+2" {
		t.Fatalf("UpdateGuild = %v, %v; want the configured 3+2", gs.DefaultControl, err)
	}
	stored, _ := storage.Read(ctx, st, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings("g") })
	if stored.DefaultControl.Kind() != clock.KindUnknown {
		t.Errorf("stored %v: the configured default was written", stored.DefaultControl)
	}
	if gs, _ := s.Guild(ctx, ""); gs.DefaultControl.String() != "3+2" {
		t.Errorf("a direct message's settings have %v, want 3+2", gs.DefaultControl)
	}
}

// A value read before a write (which forgets its key), and filled after it, is not
// kept: the next read goes to the store.
func TestFillAfterAWriteIsDropped(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ca := newCache[string](10, 0)
	gen := ca.generation() // a read begins
	ca.forget("k")         // a write commits
	ca.fill("k", "old", gen, now)
	if _, ok := ca.get("k", now); ok {
		t.Error("the value read before the write was kept")
	}
	ca.fill("k", "new", ca.generation(), now)
	if v, ok := ca.get("k", now); !ok || v != "new" {
		t.Errorf("a fill after the write: %q, %v", v, ok)
	}
}

// The cache holds at most its size, the expired entries going first.
func TestCacheSize(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := newCache[int](4, time.Second)
	put := func(k string, v int, now time.Time) { c.fill(k, v, c.generation(), now) }
	for i, k := range []string{"a", "b", "c", "d"} {
		put(k, i, now)
	}
	put("e", 5, now.Add(time.Second)) // all four have expired
	if len(c.m) != 1 {
		t.Errorf("%d entries after the expired ones went, want 1", len(c.m))
	}
	for i := range 20 {
		put(string(rune('f'+i)), i, now.Add(time.Second))
		if len(c.m) > 4 {
			t.Fatalf("%d entries, over 4", len(c.m))
		}
	}
	if v, ok := c.get(string(rune('f'+19)), now.Add(time.Second)); !ok || v != 19 {
		t.Errorf("the last value put is %d, %v", v, ok)
	}
}

// Readers and writers at once: every read gives one of the values written, and once
// the writers are done every reader sees the last one.
func TestConcurrentReadsAndWrites(t *testing.T) {
	s := New(storagetest.Open(t), Options{})
	themes := []string{"blue", "green", "brown"}
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				theme := themes[(w+i)%len(themes)]
				if _, err := s.UpdateGuild(ctx, "g", func(gs *storage.GuildSettings) error { gs.BoardTheme = theme; return nil }); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				gs, err := s.Guild(ctx, "g")
				if err != nil {
					t.Error(err)
					return
				}
				if gs.BoardTheme != storage.DefaultGuildSettings("g").BoardTheme && !slices.Contains(themes, gs.BoardTheme) {
					t.Errorf("read theme %q, which nobody wrote", gs.BoardTheme)
					return
				}
			}
		}()
	}
	wg.Wait()
	gs, err := s.Guild(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	stored, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings("g") })
	if err != nil {
		t.Fatal(err)
	}
	if gs.BoardTheme != stored.BoardTheme {
		t.Errorf("after the writes the cache has %q, the store %q", gs.BoardTheme, stored.BoardTheme)
	}
}
