// bolt.go: the bbolt backend of Store: one file, its options, its buckets, and its
// transactions (boltTx implements Tx in the bolt_*.go files).

package bolt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	bbolt "go.etcd.io/bbolt"
	bbolterrors "go.etcd.io/bbolt/errors"

	"github.com/gambitchess/gambit/storage"
)

// DefaultPath is the file the commands open when neither --db nor the config names one.
const DefaultPath = "gambit.db"

// Bucket names. Record buckets hold the records; index buckets are derived from them
// (schema version 2 rebuilds them from the records).
const (
	bucketMeta       = "meta"       // schema version, heartbeats
	bucketGames      = "games"      // id → game record (binary)
	bucketChallenges = "challenges" // id → challenge (JSON)
	bucketGuilds     = "guilds"     // guild id → settings (JSON)
	bucketUsers      = "users"      // user id → user (JSON)
	bucketRequests   = "requests"   // request id → receipt (JSON)

	// Schema version 3: ladders. Record layouts are documented in ratings.go.
	bucketRatings      = "ratings"       // guild·category·user → ladder player
	bucketRatedResults = "rated_results" // guild·end time·game id → rated result

	// Schema version 4: puzzles. Record layouts are documented in puzzles.go.
	bucketPuzzles        = "puzzles"         // puzzle id → puzzle
	bucketPuzzleDaily    = "puzzle_daily"    // guild·date → the day's puzzle and its solvers
	bucketPuzzleUsers    = "puzzle_users"    // guild·user → puzzle rating, solved count, streak
	bucketPuzzleAttempts = "puzzle_attempts" // guild·user·puzzle id → attempt

	// Schema version 5: games against the engine (engines.go); version 6:
	// tournaments (tournaments.go).
	bucketEngineGames     = "engine_games"     // game id → the engine's side, level and engine
	bucketTournaments     = "tournaments"      // tournament id → event
	bucketTournamentGames = "tournament_games" // game id → tournament id, round, board

	// Schema version 7: leases of work partitions (leases.go).
	bucketLeases     = "leases"      // set·partition → epoch, expiry, holder
	bucketLeaseBeats = "lease_beats" // set·instance → last beat

	// Schema version 9: the players' conditional moves (plans.go).
	bucketPlans = "conditional_plans" // game id·colour → plan

	// Schema version 10: vote chess (votegames.go).
	bucketVoteGames = "vote_games" // game id → vote game

	// Schema version 11: the players' vacations (vacations.go).
	bucketVacations = "vacations" // len·guild·user → vacation

	// Schema version 12: the users' Linked Roles connections (linkedaccounts.go).
	bucketLinkedAccounts = "linked_accounts" // user → linked account

	bucketLiveGames         = "idx_live_games"         // game id → empty: the games not over
	bucketUserGames         = "idx_user_games"         // len·user·game id → empty
	bucketChannelGames      = "idx_channel_games"      // len·channel·game id → empty
	bucketGuildGames        = "idx_guild_games"        // len·guild·game id → empty
	bucketPendingChallenges = "idx_pending_challenges" // challenge id → empty
	bucketRequestsByTime    = "idx_requests_by_time"   // unix nanos·request id → empty
)

// Meta keys.
const (
	metaSchema    = "schema"     // 8-byte big-endian schema version
	metaHeartbeat = "heartbeat/" // + instance name → 8-byte unix nanoseconds
)

// Options tune Open. The zero value is the production setting.
type Options struct {
	// LockTimeout is how long Open waits for another process to release the file before
	// failing with ErrLocked (default 500 ms).
	LockTimeout time.Duration
	// ReadOnly opens the file for reading (backups, inspection); other readers may share
	// it, writers may not.
	ReadOnly bool
	// NoSync skips fsync: for tests that do not measure durability only.
	NoSync bool
	// SoloCommits makes every Commit its own transaction and fsync instead of a group
	// commit (to measure what group commit gains).
	SoloCommits bool
	// BoltBatch groups commits with bbolt's DB.Batch (a batch closes BatchDelay after its
	// first writer) instead of Gambit's own group commit (a batch is whatever queued
	// while the previous one was written); for comparison.
	BoltBatch bool
	// BatchDelay is DB.Batch's gathering delay with BoltBatch (default 1 ms).
	BatchDelay time.Duration
	// MaxBatch is the most commits one transaction takes (default 1000).
	MaxBatch int
}

// DB is the bbolt backend: a Store in one file. Its methods are safe for concurrent use.
type DB struct {
	bbolt     *bbolt.DB
	path      string
	solo      bool
	boltBatch bool
	readOnly  bool
	group     *groupCommitter
}

// Open opens (creating it if needed) the store in the file at path and brings its schema
// up to date. A file another process holds fails fast with ErrLocked.
func Open(path string, opts *Options) (db *DB, err error) {
	defer restoreFaults(guardFaults())
	defer recoverDamage(&err, "open", path)
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = 500 * time.Millisecond
	}
	if o.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	}
	b, err := bbolt.Open(path, 0o600, &bbolt.Options{
		Timeout:      o.LockTimeout,
		ReadOnly:     o.ReadOnly,
		NoSync:       o.NoSync,
		FreelistType: bbolt.FreelistMapType,
	})
	if errors.Is(err, bbolterrors.ErrTimeout) {
		return nil, fmt.Errorf("open %s: %w", path, storage.ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if o.BatchDelay > 0 {
		b.MaxBatchDelay = o.BatchDelay
	} else {
		b.MaxBatchDelay = time.Millisecond
	}
	if o.MaxBatch > 0 {
		b.MaxBatchSize = o.MaxBatch
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 1000
	}
	defer func() {
		if p := recover(); p != nil {
			b.Close() // a damaged page met while checking the schema: release the file
			panic(p)
		}
	}()
	db = &DB{bbolt: b, path: path, solo: o.SoloCommits, boltBatch: o.BoltBatch, readOnly: o.ReadOnly,
		group: &groupCommitter{db: b, path: path, max: o.MaxBatch}}
	if o.ReadOnly {
		err = db.checkSchema()
	} else {
		err = db.migrate()
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// Shared reports false: a bbolt file has one writer, the process that holds it.
func (db *DB) Shared() bool { return false }

// Close closes the file.
func (db *DB) Close() error {
	if err := db.bbolt.Close(); err != nil {
		return fmt.Errorf("close %s: %w", db.path, err)
	}
	return nil
}

// The bbolt backend implements the whole surface.
var (
	_ storage.Store = (*DB)(nil)
	_ storage.Tx    = boltTx{}
)

// boltTx is a bbolt transaction seen as a Tx. It is one pointer, so making a Tx of it
// allocates nothing.
type boltTx struct{ tx *bbolt.Tx }

// View runs fn in a read-only transaction. A damaged page is an error wrapping
// ErrCorrupt (safe.go).
func (db *DB) View(ctx context.Context, fn func(tx storage.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("read %s: %w", db.path, err)
	}
	defer restoreFaults(guardFaults())
	defer recoverDamage(&err, "read", db.path)
	return db.bbolt.View(func(tx *bbolt.Tx) error { return fn(boltTx{tx}) })
}

// Update runs fn in a write transaction grouped with concurrent writers (Store.Update).
func (db *DB) Update(ctx context.Context, fn func(tx storage.Tx) error) error {
	return db.update(ctx, func(tx *bbolt.Tx) error { return fn(boltTx{tx}) })
}

// Bulk runs fn once in a write transaction of its own (Store.Bulk).
func (db *DB) Bulk(ctx context.Context, fn func(tx storage.Tx) error) (err error) {
	if db.readOnly {
		return storage.ErrReadOnly
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write %s: %w", db.path, err)
	}
	defer restoreFaults(guardFaults())
	defer recoverDamage(&err, "write", db.path)
	return diskFull(db.bbolt.Update(func(tx *bbolt.Tx) error { return fn(boltTx{tx}) }))
}

// Commit writes the change in one transaction, durably (fsync) unless the store was
// opened with NoSync. Concurrent commits share a transaction and its fsync (group
// commit); a change that fails is retried alone, so one failure does not fail the
// others.
func (db *DB) Commit(ctx context.Context, c *storage.Change) error {
	news := c.News()
	if err := c.Validate(); err != nil {
		return err
	}
	err := db.update(ctx, func(tx *bbolt.Tx) error { return c.Apply(boltTx{tx}, news) })
	if err != nil {
		c.Undo(news)
	}
	return err
}

// CommitAll writes many changes in a single transaction (not grouped with others), for
// bulk work: start-up adjustments, imports.
func (db *DB) CommitAll(ctx context.Context, cs []*storage.Change) error {
	return storage.CommitAllIn(cs, func(fn func(storage.Tx) error) error { return db.Bulk(ctx, fn) })
}

// update runs fn in a write transaction, grouped with concurrent writers (group.go)
// unless the store was opened with SoloCommits. fn may run more than once (when a batch
// is retried), each time in a fresh transaction: it must not act outside it.
func (db *DB) update(ctx context.Context, fn func(tx *bbolt.Tx) error) (err error) {
	safe := func(tx *bbolt.Tx) error { return safeCall(fn, tx) }
	switch {
	case db.readOnly:
		return storage.ErrReadOnly
	case ctx.Err() != nil:
		return fmt.Errorf("write %s: %w", db.path, ctx.Err())
	case db.solo:
		defer restoreFaults(guardFaults())
		defer recoverDamage(&err, "write", db.path)
		return diskFull(db.bbolt.Update(safe))
	case db.boltBatch:
		return diskFull(db.bbolt.Batch(safe))
	}
	return db.group.commit(ctx, fn) // the committer recovers panics itself
}
