// instance.go: what a process checks against the database when it starts: that no
// other process runs under its instance name (an advisory lock held by a connection of
// its own for its lifetime), and how far its wall clock is from the database's.

package pg

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrInstanceTaken is HoldInstance's error when another process holds the name.
var ErrInstanceTaken = errors.New("another process runs under this instance name on the database")

// instanceLock takes the session lock of an instance name in the current schema (the
// schema is part of the key: schemas of one database are separate stores).
const instanceLock = `SELECT pg_try_advisory_lock(hashtextextended('gambit instance ' || current_schema() || ' ' || $1, 0))`

// InstanceHold is the lock on an instance name that HoldInstance took: kept by one
// connection of the pool for as long as the process runs, taken again on a fresh
// connection when that one breaks (a database restart ends the session and its lock).
type InstanceHold struct {
	db     *DB
	name   string
	log    *slog.Logger
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	conn   *pgxpool.Conn
}

// HoldInstance takes the database's lock on the instance name for this process, and
// fails with ErrInstanceTaken when another process (one that connects to the same
// database and schema) holds it: two processes under one name would take each other's
// leases and reservations for their own. The lock is held until Release; while it
// runs, the hold checks its connection every few seconds and, when it broke, takes the
// lock again on a fresh one (logging an error if another process took the name
// meanwhile).
func (db *DB) HoldInstance(ctx context.Context, name string, log *slog.Logger) (*InstanceHold, error) {
	h := &InstanceHold{db: db, name: name, log: log, done: make(chan struct{})}
	if err := h.take(ctx); err != nil {
		return nil, err
	}
	hctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go h.keep(hctx)
	return h, nil
}

// take acquires a connection and the lock on it.
func (h *InstanceHold) take(ctx context.Context) error {
	conn, err := h.db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("hold instance %q: %w", h.name, err)
	}
	var ok bool
	if err := conn.QueryRow(ctx, instanceLock, h.name).Scan(&ok); err != nil {
		conn.Release()
		return fmt.Errorf("hold instance %q: %w", h.name, err)
	}
	if !ok {
		conn.Release()
		return fmt.Errorf("instance %q: %w", h.name, ErrInstanceTaken)
	}
	h.mu.Lock()
	h.conn = conn
	h.mu.Unlock()
	return nil
}

// instanceCheck is how often the hold checks its connection.
const instanceCheck = 5 * time.Second

// keep checks the held connection until ctx ends, taking the lock again when it broke.
func (h *InstanceHold) keep(ctx context.Context) {
	defer close(h.done)
	t := time.NewTicker(instanceCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		h.mu.Lock()
		conn := h.conn
		h.mu.Unlock()
		if conn != nil {
			pctx, cancel := context.WithTimeout(ctx, instanceCheck)
			err := conn.Ping(pctx)
			cancel()
			if err == nil || ctx.Err() != nil {
				continue
			}
			h.mu.Lock()
			h.conn = nil
			h.mu.Unlock()
			conn.Hijack().Close(context.Background()) // the session, and its lock, are gone
		}
		tctx, cancel := context.WithTimeout(ctx, instanceCheck)
		err := h.take(tctx)
		cancel()
		switch {
		case errors.Is(err, ErrInstanceTaken):
			h.log.Error("instance: another process took this instance name while the database was unreachable; give each process its own `instance`", "instance", h.name)
		case err != nil && ctx.Err() == nil:
			h.log.Warn("instance: take the instance's lock again", "instance", h.name, "err", err)
		}
	}
}

// Release gives the name up (the lock ends with its session).
func (h *InstanceHold) Release() {
	h.cancel()
	<-h.done
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conn != nil {
		h.conn.Hijack().Close(context.Background())
		h.conn = nil
	}
}

// ClockSample is one reading of the database's clock against this process's.
type ClockSample struct {
	// Offset is the database's clock minus this process's wall clock, taken at the
	// middle of the round trip.
	Offset time.Duration
	// Uncertainty is half the round trip: the true offset is within Offset ±
	// Uncertainty.
	Uncertainty time.Duration
}

// MeasureClock reads the database's clock (clock_timestamp()) n times against now
// and returns the reading of the shortest round trip.
func (db *DB) MeasureClock(ctx context.Context, now func() time.Time, n int) (ClockSample, error) {
	best := ClockSample{Uncertainty: -1}
	for range max(n, 1) {
		sent := now()
		var micros int64
		err := db.pool.QueryRow(ctx, `SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint`).Scan(&micros)
		received := now()
		if err != nil {
			return ClockSample{}, fmt.Errorf("read the database's clock: %w", err)
		}
		rtt := received.Sub(sent)
		mid := sent.Add(rtt / 2)
		s := ClockSample{Offset: time.UnixMicro(micros).Sub(mid), Uncertainty: rtt / 2}
		if best.Uncertainty < 0 || s.Uncertainty < best.Uncertainty {
			best = s
		}
	}
	return best, nil
}
