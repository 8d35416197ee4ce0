// store.go: the store as the services see it: a Store runs transactions, a Tx reads and
// writes the records; which database is underneath is the backend's business.

package storage

import (
	"context"
	"errors"
	"io"
)

// Store is a backend: the bbolt file of storage/bolt, or the PostgreSQL database of
// storage/pg (storage/backend opens either). Services take a Store and reach every
// record through the Tx of View, Update or Bulk, and do not know which backend is
// underneath.
// Its methods are safe for concurrent use.
//
// ctx bounds each call: the caller's request (a Discord interaction within its answer
// budget) or a background job with its own deadline. A call whose ctx ends before its
// transaction commits returns an error wrapping ctx's and writes nothing, so a request
// whose user was told it failed is never applied later; once a commit is under way the
// call reports what happened.
type Store interface {
	// View runs fn in a read-only transaction: one consistent view of the store while
	// writers go on. Writes through its Tx fail.
	View(ctx context.Context, fn func(tx Tx) error) error
	// Update runs fn in a write transaction, durably committed before it returns. An
	// error from fn writes nothing. fn may run more than once, each time in a fresh
	// transaction, so it must not act outside it: bbolt groups concurrent writers in one
	// transaction and retries a failed group without the failing writer; PostgreSQL runs
	// a transaction again when it failed to serialize with another.
	Update(ctx context.Context, fn func(tx Tx) error) error
	// Bulk runs fn in a write transaction of its own, not grouped with others: for
	// imports and start-up work that write much at once. bbolt runs fn once; PostgreSQL
	// runs it again if it failed to serialize with a concurrent writer.
	Bulk(ctx context.Context, fn func(tx Tx) error) error
	// Commit writes one request's Change atomically and durably, like Update (bbolt
	// groups it with concurrent commits, and a change that fails is retried alone, so
	// one failure does not fail the others). A commit that fails gives back what it
	// assigned: the new records' ids are 0 again and the game's Version is the one given.
	Commit(ctx context.Context, c *Change) error
	// CommitAll writes many changes in one transaction of its own (not grouped): all of
	// them or none.
	CommitAll(ctx context.Context, cs []*Change) error
	// Backup writes a consistent copy of the whole store to w, as of the moment it
	// began, while writers go on, and returns the bytes written: a bbolt file, whatever
	// the backend (PostgreSQL's is built from one snapshot with Copy).
	Backup(ctx context.Context, w io.Writer) (int64, error)
	// Shared reports whether other processes may change the store while this one has it
	// open (PostgreSQL): what a process keeps in memory may then be out of date. A bbolt
	// file has a single writer, the process that holds it.
	Shared() bool
	// Close releases the store.
	Close() error
}

// Read runs fn in a read-only transaction of st and returns its result: the one-line
// form of a single read, e.g.
//
//	g, err := storage.Read(ctx, st, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
func Read[T any](ctx context.Context, st Store, fn func(tx Tx) (T, error)) (T, error) {
	var out T
	err := st.View(ctx, func(tx Tx) (err error) {
		out, err = fn(tx)
		return err
	})
	return out, err
}

// Write runs fn in a write transaction of st (Store.Update: grouped, and fn may run
// more than once) and returns the result of the run that committed.
func Write[T any](ctx context.Context, st Store, fn func(tx Tx) (T, error)) (T, error) {
	var out T
	err := st.Update(ctx, func(tx Tx) (err error) {
		out, err = fn(tx)
		return err
	})
	return out, err
}

// Errors of the store, for errors.Is. Every backend returns these.
var (
	// ErrNotFound: no record with that key.
	ErrNotFound = errors.New("not found")
	// ErrLocked: another process has the database open.
	ErrLocked = errors.New("the database is in use by another process (is another gambit running on it?)")
	// ErrNewerSchema: the database was written by a newer gambit.
	ErrNewerSchema = errors.New("the database was written by a newer version of gambit")
	// ErrReadOnly: a write on a store opened read-only.
	ErrReadOnly = errors.New("the database is open read-only")
	// ErrCorrupt is wrapped by every decoding error: a record that cannot be read back.
	ErrCorrupt = errors.New("corrupt record")
	// ErrConflict: a write of a game from a stale copy (its Version is not the stored
	// one: another writer, maybe another process, changed the game since it was read).
	// Read the game again and redo the request.
	ErrConflict = errors.New("the record changed since it was read")
	// ErrRepeatedRequest: a receipt for a request id that already has one: the request
	// was handled (maybe by another process), and the change that carried the receipt
	// is not written. Answer from the stored receipt.
	ErrRepeatedRequest = errors.New("the request was already handled")
	// ErrUnavailable: the database could not be reached in time (no connection could be
	// opened or taken from the pool): nothing was done.
	ErrUnavailable = errors.New("the database is not answering")
	// ErrDiskFull: the store's disk has no room for the write (ENOSPC): nothing of it
	// was written, the store stays readable, and writes work again once space is freed.
	ErrDiskFull = errors.New("the database's disk is full")
	// ErrOutcomeUnknown: the request's time ran out after its commit was sent and
	// before the database confirmed it: it may or may not have been applied.
	ErrOutcomeUnknown = errors.New("the database did not confirm the write in time")
	// ErrStale is returned by an UpdateTournament function that found nothing to change;
	// UpdateTournament then writes nothing and returns nil.
	ErrStale = errors.New("nothing to change")
)

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// Pinger is a Store that can check cheaply that its database answers (PostgreSQL: an
// empty statement on a pooled connection); /healthz asks it.
type Pinger interface {
	Ping(ctx context.Context) error
}

// longRunningKey marks a context of LongRunning.
type longRunningKey struct{}

// LongRunning marks ctx as the context of work over the whole store (a backup, a copy,
// a check): the backend lifts its per-statement limits for it (PostgreSQL's
// statement_timeout and idle_in_transaction_session_timeout), and ctx alone bounds it.
func LongRunning(ctx context.Context) context.Context {
	return context.WithValue(ctx, longRunningKey{}, true)
}

// IsLongRunning reports whether ctx was marked by LongRunning.
func IsLongRunning(ctx context.Context) bool {
	v, _ := ctx.Value(longRunningKey{}).(bool)
	return v
}
