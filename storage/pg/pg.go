// pg.go: the PostgreSQL backend of Store: a connection pool, serializable transactions
// retried on serialization failures, and its pgTx (which implements Tx in the pg_*.go
// files).

package pg

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/gambitchess/gambit/storage"
)

// Options tune Open. The zero value is the production setting.
type Options struct {
	// ReadOnly refuses every write (ErrReadOnly) and does not migrate: the database
	// must be at SchemaVersion already.
	ReadOnly bool
	// MaxConns bounds the pool's connections (default: pool_max_conns of the DSN, else
	// 16). Each concurrent transaction holds one.
	MaxConns int32
	// MaxAttempts bounds the runs of one transaction that fails to serialize (default
	// 50); the last failure is returned.
	MaxAttempts int
	// ConnectTimeout bounds opening one connection (default DefaultConnectTimeout, or
	// connect_timeout of the DSN).
	ConnectTimeout time.Duration
	// AcquireTimeout bounds the wait for a connection of the pool when all are busy
	// (default DefaultAcquireTimeout); the caller's context may end it sooner.
	AcquireTimeout time.Duration
	// StatementTimeout, LockTimeout and IdleInTransactionTimeout are the server's
	// statement_timeout, lock_timeout and idle_in_transaction_session_timeout on every
	// connection (defaults DefaultStatementTimeout, DefaultLockTimeout,
	// DefaultIdleInTransactionTimeout; a value the DSN sets wins). They hold on the
	// server even when the bot cannot reach it: a stalled network or a stopped bot
	// leaves no transaction holding locks for ever. Negative: off.
	StatementTimeout, LockTimeout, IdleInTransactionTimeout time.Duration
}

// Defaults of Options.
const (
	DefaultConnectTimeout           = 5 * time.Second
	DefaultAcquireTimeout           = 5 * time.Second
	DefaultStatementTimeout         = 15 * time.Second
	DefaultLockTimeout              = 5 * time.Second
	DefaultIdleInTransactionTimeout = 30 * time.Second
)

// serverTimeouts sets the server-side timeouts of o on every connection of cfg (as
// startup parameters: no round trip), leaving those the DSN sets.
func serverTimeouts(cfg *pgxpool.Config, o Options) {
	for _, p := range []struct {
		name string
		v, d time.Duration
	}{
		{"statement_timeout", o.StatementTimeout, DefaultStatementTimeout},
		{"lock_timeout", o.LockTimeout, DefaultLockTimeout},
		{"idle_in_transaction_session_timeout", o.IdleInTransactionTimeout, DefaultIdleInTransactionTimeout},
	} {
		if _, set := cfg.ConnConfig.RuntimeParams[p.name]; set {
			continue
		}
		v := p.v
		if v == 0 {
			v = p.d
		}
		cfg.ConnConfig.RuntimeParams[p.name] = strconv.FormatInt(max(v.Milliseconds(), 0), 10)
	}
}

// DB is the PostgreSQL backend: a Store in one database (or one schema of it: the
// search_path of the DSN). Many processes may share it; each transaction is
// serializable, so every committed transaction acts as if it ran alone.
type DB struct {
	pool        *pgxpool.Pool
	name        string // the database and schema, for messages
	readOnly    bool
	maxAttempts int
	retries     atomic.Int64
	// acquireTimeout bounds the wait for a pooled connection (Options.AcquireTimeout).
	acquireTimeout time.Duration
}

// The PostgreSQL backend implements the whole surface.
var (
	_ storage.Store = (*DB)(nil)
	_ storage.Tx    = (*pgTx)(nil)
)

// Open connects to the database of dsn (a libpq URL or key=value string, e.g.
// postgres://gambit@127.0.0.1:5432/gambit?sslmode=disable; a search_path parameter
// selects a schema) and brings its schema up to date.
func Open(dsn string, opts *Options) (*DB, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 50
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", redactDSN(err))
	}
	switch {
	case o.MaxConns > 0:
		cfg.MaxConns = o.MaxConns
	case !strings.Contains(dsn, "pool_max_conns"):
		cfg.MaxConns = 16
	}
	if !strings.Contains(dsn, "connect_timeout") {
		cfg.ConnConfig.ConnectTimeout = DefaultConnectTimeout
		if o.ConnectTimeout > 0 {
			cfg.ConnConfig.ConnectTimeout = o.ConnectTimeout
		}
	}
	if o.AcquireTimeout <= 0 {
		o.AcquireTimeout = DefaultAcquireTimeout
	}
	serverTimeouts(cfg, o)
	name := cfg.ConnConfig.Database
	if sp := cfg.ConnConfig.RuntimeParams["search_path"]; sp != "" {
		name += " (schema " + sp + ")"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open postgres %s: %w", name, err)
	}
	db := &DB{pool: pool, name: name, readOnly: o.ReadOnly, maxAttempts: o.MaxAttempts, acquireTimeout: o.AcquireTimeout}
	if o.ReadOnly {
		err = db.checkSchema(ctx)
	} else {
		err = db.migrate(ctx)
	}
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("open postgres %s: %w", name, err)
	}
	return db, nil
}

// redactDSN keeps a parse error from echoing a password: pgx's parse errors quote the
// connection string with the password masked, but be sure.
func redactDSN(err error) error {
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		return errors.New("the DSN does not parse: want a URL such as postgres://user@host:5432/db?sslmode=disable")
	}
	return err
}

// Close closes the pool.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// Options of the transactions: writers are serializable; readers see a snapshot and
// never fail to serialize (a read-only transaction at REPEATABLE READ takes no
// predicate locks, so readers and writers do not abort one another).
var (
	pgWrite = pgx.TxOptions{IsoLevel: pgx.Serializable, AccessMode: pgx.ReadWrite}
	pgRead  = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
)

// View runs fn in a read-only snapshot.
func (db *DB) View(ctx context.Context, fn func(tx storage.Tx) error) error {
	return db.run(ctx, pgRead, fn)
}

// Update runs fn in a serializable transaction, committed before it returns. A
// transaction that fails to serialize with another (SQLSTATE 40001, or a deadlock,
// 40P01) is run again, in a fresh transaction: fn may run more than once.
func (db *DB) Update(ctx context.Context, fn func(tx storage.Tx) error) error {
	if db.readOnly {
		return storage.ErrReadOnly
	}
	return db.run(ctx, pgWrite, fn)
}

// Bulk runs fn in a serializable transaction of its own; like Update, it is run again
// if it fails to serialize with a concurrent writer.
func (db *DB) Bulk(ctx context.Context, fn func(tx storage.Tx) error) error {
	return db.Update(ctx, fn)
}

// Commit writes the change in one serializable transaction (run again on a
// serialization failure, so its After hook may run more than once).
func (db *DB) Commit(ctx context.Context, c *storage.Change) error {
	if db.readOnly {
		return storage.ErrReadOnly
	}
	news := c.News()
	if err := c.Validate(); err != nil {
		return err
	}
	err := db.run(ctx, pgWrite, func(tx storage.Tx) error { return c.Apply(tx, news) })
	if err != nil {
		c.Undo(news)
	}
	return err
}

// Shared reports true: many processes may share one PostgreSQL database.
func (db *DB) Shared() bool { return true }

// CommitAll writes many changes in one transaction: all of them or none.
func (db *DB) CommitAll(ctx context.Context, cs []*storage.Change) error {
	if db.readOnly {
		return storage.ErrReadOnly
	}
	return storage.CommitAllIn(cs, func(fn func(storage.Tx) error) error { return db.run(ctx, pgWrite, fn) })
}

// run runs fn in a transaction with opts until it commits, fails for another reason
// than serialization, or has failed maxAttempts times. Between attempts it waits a
// random while that grows with the attempts, so two transactions that keep colliding
// drift apart.
func (db *DB) run(ctx context.Context, opts pgx.TxOptions, fn func(tx storage.Tx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = db.once(ctx, opts, fn)
		// A transaction that failed before anything reached the server (a pooled
		// connection the server closed, as across a restart) is safe to run again.
		if err == nil || !(retryable(err) || pgconn.SafeToRetry(err)) || attempt >= db.maxAttempts {
			break
		}
		db.retries.Add(1)
		backoff := time.Duration(min(1<<min(attempt, 10), 200)) * 100 * time.Microsecond
		wait := time.NewTimer(rand.N(backoff) + backoff/4)
		select {
		case <-wait.C:
		case <-ctx.Done():
			wait.Stop()
			return fmt.Errorf("postgres %s: %w (after %w)", db.name, ctx.Err(), err)
		}
	}
	return err
}

// Retries returns how many transactions were run again after failing to serialize,
// since the store was opened.
func (db *DB) Retries() int64 { return db.retries.Load() }

// once runs fn in one transaction.
func (db *DB) once(ctx context.Context, opts pgx.TxOptions, fn func(tx storage.Tx) error) (err error) {
	conn, err := db.acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	ptx, err := conn.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("postgres %s: begin: %w", db.name, err)
	}
	t := &pgTx{tx: ptx, ctx: ctx}
	if storage.IsLongRunning(ctx) {
		// A copy of the whole store: its listing statements may run long, and the
		// transaction waits while each batch is written elsewhere. ctx still bounds it.
		if _, err := t.exec(`SET LOCAL statement_timeout = 0`); err != nil {
			_ = ptx.Rollback(context.WithoutCancel(ctx))
			return fmt.Errorf("postgres %s: lift the statement timeout: %w", db.name, err)
		}
		if _, err := t.exec(`SET LOCAL idle_in_transaction_session_timeout = 0`); err != nil {
			_ = ptx.Rollback(context.WithoutCancel(ctx))
			return fmt.Errorf("postgres %s: lift the idle timeout: %w", db.name, err)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in a transaction: %v", p)
		}
		if err != nil {
			_ = ptx.Rollback(ctx)
			// A statement that failed to serialize aborted the transaction, whatever
			// fn made of its error: the attempt is retried.
			if t.dbErr != nil && retryable(t.dbErr) && !retryable(err) {
				err = fmt.Errorf("%w (after %w)", t.dbErr, err)
			}
		}
	}()
	if err := fn(t); err != nil {
		return err
	}
	if t.dbErr != nil { // fn went on after a failed statement
		return fmt.Errorf("postgres %s: a statement failed: %w", db.name, t.dbErr)
	}
	if err := ctx.Err(); err != nil {
		// The caller gave up (its user is told the request failed): never commit now.
		return fmt.Errorf("postgres %s: not committed: %w", db.name, err)
	}
	if err := ptx.Commit(ctx); err != nil {
		if ctx.Err() != nil && opts.AccessMode != pgx.ReadOnly {
			// COMMIT was sent but its answer did not come in time: the server may
			// have committed.
			return fmt.Errorf("postgres %s: commit: %w: %w", db.name, storage.ErrOutcomeUnknown, err)
		}
		return fmt.Errorf("postgres %s: commit: %w", db.name, err)
	}
	return nil
}

// acquire takes a connection of the pool, waiting at most acquireTimeout (or until ctx
// ends) when all are busy.
func (db *DB) acquire(ctx context.Context) (*pgxpool.Conn, error) {
	actx, cancel := context.WithTimeout(ctx, db.acquireTimeout)
	defer cancel()
	conn, err := db.pool.Acquire(actx)
	if err == nil {
		return conn, nil
	}
	if ctx.Err() == nil && actx.Err() != nil {
		st := db.pool.Stat()
		return nil, fmt.Errorf("postgres %s: no connection free after %v (%d of %d in use): %w",
			db.name, db.acquireTimeout, st.AcquiredConns(), st.MaxConns(), storage.ErrUnavailable)
	}
	return nil, fmt.Errorf("postgres %s: connect: %w: %w", db.name, storage.ErrUnavailable, err)
}

// Ping checks that the database answers: a connection of the pool runs an empty
// statement, within ctx.
func (db *DB) Ping(ctx context.Context) error {
	conn, err := db.acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if err := conn.Ping(ctx); err != nil {
		return fmt.Errorf("postgres %s: ping: %w", db.name, err)
	}
	return nil
}

// retryable reports whether err is a failure to serialize: the transaction may succeed
// if run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case "40001", "40P01": // serialization_failure, deadlock_detected
		return true
	}
	return false
}

// pgTx is a transaction of the PostgreSQL backend seen as a Tx. dbErr keeps the first
// error the database returned: after it the transaction is aborted, and run decides
// from it whether to retry.
type pgTx struct {
	tx    pgx.Tx
	ctx   context.Context
	dbErr error
}

// note records a database error and returns err, with ErrReadOnly for a write in a
// read-only transaction.
func (t *pgTx) note(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		if t.dbErr == nil {
			t.dbErr = err
		}
		if pe.Code == "25006" { // read_only_sql_transaction
			return fmt.Errorf("%w: %w", storage.ErrReadOnly, err)
		}
	}
	return err
}

// exec runs a statement and returns the rows it affected.
func (t *pgTx) exec(sql string, args ...any) (int64, error) {
	tag, err := t.tx.Exec(t.ctx, sql, args...)
	if err != nil {
		return 0, t.note(err)
	}
	return tag.RowsAffected(), nil
}

// scanOne runs a query of one row into dest and reports whether there was a row.
func (t *pgTx) scanOne(sql string, args []any, dest ...any) (bool, error) {
	err := t.tx.QueryRow(t.ctx, sql, args...).Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, t.note(err)
	}
	return true, nil
}

// value returns the record column of the one row of a query, nil for none.
func (t *pgTx) value(sql string, args ...any) ([]byte, error) {
	var v []byte
	ok, err := t.scanOne(sql, args, &v)
	if !ok || err != nil {
		return nil, err
	}
	return v, nil
}

// Each runs a query and calls scan for each row. scan must only scan: the connection
// is busy with the rows until they are all read (collect, then use the transaction).
func (t *pgTx) Each(sql string, args []any, scan func(rows pgx.Rows) error) error {
	rows, err := t.tx.Query(t.ctx, sql, args...)
	if err != nil {
		return t.note(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return t.note(err)
	}
	return nil
}
