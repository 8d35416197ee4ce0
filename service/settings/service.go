// Package settings owns the servers' settings (storage.GuildSettings) and the users'
// notification preferences (storage.UserPrefs): every read and write of them by the
// commands goes through its Service, which keeps what it read in memory so that the
// answer to a move, which needs the server's board theme and pings and the preferences
// of the player to move, reads neither from the store.
//
// # Staying fresh
//
// A value is cached when read and dropped when written through the Service (the next
// read goes to the store: two writes at once may finish in either order, and only the
// store knows which came last), so a process always sees its own writes at once. On a store other processes share
// (PostgreSQL, storage.Store.Shared) another process may write meanwhile, and nothing
// tells this one: a cached value is used for at most Options.TTL after it was read
// (DefaultTTL, a few seconds), then read again. A version check instead would cost a
// store read on every use, which is what the cache is there to remove; settings and
// preferences change seldom, by hand, and what the cached reads decide is how a message
// looks and whom it mentions, so a change made in another process showing after a few
// seconds is the right trade. Reads that decide a write (the read-modify-write of
// UpdateGuild, the /notify form) and reads that grant a permission (FreshGuild) read
// the store. A bbolt file has a single writer, this process, so there cached values
// do not expire; writes made in a store transaction of another service (the ladder's
// rating system) tell the Service with Forget.
package settings

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// DefaultTTL is how long a cached value is used on a shared store when Options.TTL is 0.
const DefaultTTL = 5 * time.Second

// DefaultSize is how many servers, and how many users, are kept when Options.Size is 0.
const DefaultSize = 10000

// ErrInvalid wraps a write the store refused as invalid (its validation names why).
var ErrInvalid = errors.New("bad request")

// Options configure a Service.
type Options struct {
	// DefaultControl is the time control of a server that chose none
	// (games.default_time_control); the zero value leaves such servers with none.
	DefaultControl clock.TimeControl
	// TTL is how long a cached value is used on a shared store (0: DefaultTTL). On a
	// store that is not shared, values do not expire.
	TTL time.Duration
	// Size is the most servers, and the most users, kept in memory (0: DefaultSize).
	Size int
	// Now is the clock of the expiries (default time.Now).
	Now func() time.Time
}

// Service owns the servers' settings and the users' preferences. It is safe for
// concurrent use.
type Service struct {
	db      storage.Store
	control clock.TimeControl
	now     func() time.Time
	guilds  *cache[storage.GuildSettings]
	prefs   *cache[storage.UserPrefs]
}

// New returns the Service of db's settings and preferences.
func New(db storage.Store, o Options) *Service {
	ttl := o.TTL
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	if !db.Shared() {
		ttl = 0 // this process is the store's only writer
	}
	size := o.Size
	if size <= 0 {
		size = DefaultSize
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, control: o.DefaultControl, now: now,
		guilds: newCache[storage.GuildSettings](size, ttl), prefs: newCache[storage.UserPrefs](size, ttl)}
}

// WithDefaultControl gives settings that name no time control (a server that never
// chose one) the configured default.
func (s *Service) WithDefaultControl(gs storage.GuildSettings) storage.GuildSettings {
	if gs.DefaultControl.Kind() == clock.KindUnknown {
		gs.DefaultControl = s.control
	}
	return gs
}

// Guild returns a server's settings (the defaults if it never set any, and for a
// direct message, guildID ""), with the configured default time control when it chose
// none; from memory when it was read lately (see the package comment).
func (s *Service) Guild(ctx context.Context, guildID string) (storage.GuildSettings, error) {
	if err := ctx.Err(); err != nil {
		return storage.GuildSettings{}, err
	}
	if gs, ok := s.guilds.get(guildID, s.now()); ok {
		return gs, nil
	}
	return s.FreshGuild(ctx, guildID)
}

// FreshGuild is Guild read from the store, for a decision that must not rest on a
// value another process may have changed (a permission); it refreshes the cache.
func (s *Service) FreshGuild(ctx context.Context, guildID string) (storage.GuildSettings, error) {
	if err := ctx.Err(); err != nil {
		return storage.GuildSettings{}, err
	}
	gen := s.guilds.generation()
	gs, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings(guildID) })
	if err != nil {
		return storage.GuildSettings{}, fmt.Errorf("read the settings of guild %s: %w", guildID, err)
	}
	gs = s.WithDefaultControl(gs)
	s.guilds.fill(guildID, gs, gen, s.now())
	return gs, nil
}

// UpdateGuild changes a server's settings: fn changes the stored settings (read with
// the configured default time control when the server chose none), in one store
// transaction, so two changes at once never undo each other. An error from fn is
// returned as is and writes nothing; settings the store refuses are an ErrInvalid. A
// server that had not chosen a time control and still names the configured one keeps
// following the configuration. fn may run more than once (storage.Store.Update) and
// must not act outside gs. UpdateGuild returns the settings written.
func (s *Service) UpdateGuild(ctx context.Context, guildID string, fn func(gs *storage.GuildSettings) error) (storage.GuildSettings, error) {
	if err := ctx.Err(); err != nil {
		return storage.GuildSettings{}, err
	}
	var out storage.GuildSettings
	var fnErr error
	err := s.db.Update(ctx, func(tx storage.Tx) error {
		fnErr = nil
		stored, err := tx.GuildSettings(guildID)
		if err != nil {
			return fmt.Errorf("read the settings of guild %s: %w", guildID, err)
		}
		gs := s.WithDefaultControl(stored)
		if err := fn(&gs); err != nil {
			fnErr = err
			return err
		}
		gs.GuildID = guildID
		out = gs
		if stored.DefaultControl.Kind() == clock.KindUnknown && gs.DefaultControl.Equal(s.control) {
			gs.DefaultControl = clock.TimeControl{}
		}
		if err := tx.PutGuildSettings(gs); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		return nil
	})
	if fnErr != nil {
		return storage.GuildSettings{}, fnErr
	}
	s.Forget(guildID) // even after an error: the store may hold the change
	if err != nil {
		return storage.GuildSettings{}, err
	}
	return out, nil
}

// Forget drops what is cached of a server's settings: for a service that changed them
// in a store transaction of its own (the ladder's rating system).
func (s *Service) Forget(guildID string) { s.guilds.forget(guildID) }

// Prefs returns a user's notification preferences (storage.DefaultUserPrefs for a
// user the store has never seen); from memory when they were read lately.
func (s *Service) Prefs(ctx context.Context, userID string) (storage.UserPrefs, error) {
	if err := ctx.Err(); err != nil {
		return storage.UserPrefs{}, err
	}
	if p, ok := s.prefs.get(userID, s.now()); ok {
		return p, nil
	}
	return s.FreshPrefs(ctx, userID)
}

// FreshPrefs is Prefs read from the store, for a change to them; it refreshes the
// cache.
func (s *Service) FreshPrefs(ctx context.Context, userID string) (storage.UserPrefs, error) {
	if err := ctx.Err(); err != nil {
		return storage.UserPrefs{}, err
	}
	gen := s.prefs.generation()
	p, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.UserPrefs, error) { return userPrefs(tx, userID) })
	if err != nil {
		return storage.UserPrefs{}, fmt.Errorf("read the preferences of %s: %w", userID, err)
	}
	s.prefs.fill(userID, p, gen, s.now())
	return p, nil
}

// userPrefs reads a user's preferences: DefaultUserPrefs for a user the store has never
// seen.
func userPrefs(tx storage.UsersTx, userID string) (storage.UserPrefs, error) {
	u, err := tx.User(userID)
	if errors.Is(err, storage.ErrNotFound) {
		return storage.DefaultUserPrefs(), nil
	}
	return u.Prefs, err
}

// SetPrefs stores a user's notification preferences (idempotent by value), keeping the
// rest of the user's record; a write the store refuses is an ErrInvalid. It does not
// reschedule reminders: games.Service.SetUserPrefs does, calling it.
func (s *Service) SetPrefs(ctx context.Context, userID string, p storage.UserPrefs) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.now()
	err := s.db.Update(ctx, func(tx storage.Tx) error {
		u, err := tx.User(userID)
		if errors.Is(err, storage.ErrNotFound) {
			u, err = storage.User{ID: userID}, nil
		}
		if err != nil {
			return err
		}
		u.Prefs, u.Updated = p, now
		return tx.PutUser(u)
	})
	s.prefs.forget(userID) // even after an error: the store may hold the change
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

// UpdatePrefs changes a user's preferences in one store transaction: fn gets them as
// stored and reports whether it changed them; only then are they written. It reports
// whether fn changed them, so of several processes or requests racing to make the same
// change exactly one sees true (the digest's note shown once, the digest turned off
// once).
func (s *Service) UpdatePrefs(ctx context.Context, userID string, fn func(p *storage.UserPrefs) bool) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	now := s.now()
	changed, err := storage.Write(ctx, s.db, func(tx storage.Tx) (bool, error) {
		u, err := tx.User(userID)
		if errors.Is(err, storage.ErrNotFound) {
			u, err = storage.User{ID: userID, Prefs: storage.DefaultUserPrefs()}, nil
		}
		if err != nil {
			return false, err
		}
		if !fn(&u.Prefs) {
			return false, nil
		}
		u.Updated = now
		return true, tx.PutUser(u)
	})
	if changed || err != nil {
		s.prefs.forget(userID) // even after an error: the store may hold the change
	}
	if err != nil {
		return false, fmt.Errorf("update the preferences of %s: %w", userID, err)
	}
	return changed, nil
}

// cache holds values by key for at most ttl each (0: until forgotten or evicted), at
// most size of them. A fill that began before a Forget is not kept (see generation),
// so a value read before a change never outlives it.
type cache[V any] struct {
	mu   sync.Mutex
	ttl  time.Duration
	size int
	m    map[string]cached[V]
	// gen counts the forgets: fill keeps a value only if none happened since the read
	// began.
	gen uint64
}

type cached[V any] struct {
	v  V
	at time.Time
}

func newCache[V any](size int, ttl time.Duration) *cache[V] {
	return &cache[V]{ttl: ttl, size: size, m: make(map[string]cached[V])}
}

// get returns the value of k unless it is missing or expired.
func (c *cache[V]) get(k string, now time.Time) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || c.expired(e, now) {
		var zero V
		return zero, false
	}
	return e.v, true
}

func (c *cache[V]) expired(e cached[V], now time.Time) bool {
	return c.ttl > 0 && now.Sub(e.at) >= c.ttl
}

// generation is the count to give fill, taken before the read.
func (c *cache[V]) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// fill keeps v, read from the store, unless something was forgotten since generation
// returned gen.
func (c *cache[V]) fill(k string, v V, gen uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == gen {
		c.store(k, v, now)
	}
}

// forget drops k and voids the fills under way.
func (c *cache[V]) forget(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.m, k)
}

// store keeps v under k, making room when full: the expired entries go first, then,
// if that was not enough, half the entries (the map's order, which is as good as any
// for values that cost one store read to get back).
func (c *cache[V]) store(k string, v V, now time.Time) {
	if _, ok := c.m[k]; !ok && len(c.m) >= c.size {
		for key, e := range c.m {
			if c.expired(e, now) {
				delete(c.m, key)
			}
		}
		for key := range c.m {
			if len(c.m) < c.size/2+1 {
				break
			}
			delete(c.m, key)
		}
	}
	c.m[k] = cached[V]{v: v, at: now}
}
