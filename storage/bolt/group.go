// group.go: group commit in the bbolt backend: concurrent writers share a transaction
// and its fsync.

package bolt

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	bbolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/storage"
)

// groupCommitter runs write functions in shared transactions. While one transaction is
// being written, new writers queue; when it is done, the queue becomes the next
// transaction. A lone writer pays one transaction and no waiting; under load the
// transactions grow with the load (up to max functions each), so the fsyncs per second
// stay about constant while the writes per second grow. bbolt's DB.Batch instead closes
// each batch after a fixed delay, so under load its batches stay small and queue behind
// each other for the write lock.
type groupCommitter struct {
	db   *bbolt.DB
	path string // for the errors of a damaged file
	max  int

	mu      sync.Mutex
	queue   []*groupCall
	running bool
}

type groupCall struct {
	fn   func(*bbolt.Tx) error
	done chan error
	// state is callQueued until either the committer takes the call into a batch
	// (callTaken) or its caller gives up waiting (callAbandoned): exactly one of them
	// wins, so an abandoned call is never written and a taken one always reports.
	state atomic.Int32
}

const (
	callQueued int32 = iota
	callTaken
	callAbandoned
)

// commit runs fn in a shared write transaction and returns once that transaction is
// committed (or fn's error, fn having been run alone to get it). fn may run more than
// once, each time in a fresh transaction. A caller whose ctx ends while the call still
// waits in the queue gets ctx's error and fn is never run; once the committer has taken
// the call, commit waits for its outcome, so what it returns is what happened.
func (g *groupCommitter) commit(ctx context.Context, fn func(*bbolt.Tx) error) error {
	c := &groupCall{fn: fn, done: make(chan error, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, c)
	if !g.running {
		g.running = true
		go g.loop()
	}
	g.mu.Unlock()
	select {
	case err := <-c.done:
		return err
	case <-ctx.Done():
		if c.state.CompareAndSwap(callQueued, callAbandoned) {
			return fmt.Errorf("write %s: %w", g.path, ctx.Err())
		}
		return <-c.done
	}
}

// loop commits the queue until it is empty.
func (g *groupCommitter) loop() {
	for {
		g.mu.Lock()
		n := min(len(g.queue), g.max)
		if n == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		batch := make([]*groupCall, 0, n)
		for _, c := range g.queue[:n] {
			if c.state.CompareAndSwap(callQueued, callTaken) {
				batch = append(batch, c)
			}
		}
		g.queue = append(g.queue[:0], g.queue[n:]...)
		g.mu.Unlock()
		if len(batch) > 0 {
			g.run(batch)
		}
	}
}

// run commits one batch. A function that fails takes the transaction down with it: it is
// taken out and run alone (to give its caller its own error), and the rest run again.
func (g *groupCommitter) run(batch []*groupCall) {
	defer restoreFaults(guardFaults())
	for len(batch) > 0 {
		failed := -1
		err := g.update(func(tx *bbolt.Tx) error {
			for i, c := range batch {
				if err := safeCall(c.fn, tx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if failed < 0 {
			for _, c := range batch {
				c.done <- err
			}
			return
		}
		c := batch[failed]
		batch = append(batch[:failed], batch[failed+1:]...)
		c.done <- g.update(func(tx *bbolt.Tx) error { return safeCall(c.fn, tx) })
	}
}

// update runs one write transaction; a damaged page met while committing it (bbolt
// reads pages to rebalance and spill) is an error, not a panic of the committer.
func (g *groupCommitter) update(fn func(*bbolt.Tx) error) (err error) {
	defer recoverDamage(&err, "write", g.path)
	return diskFull(g.db.Update(fn))
}

// safeCall runs fn, turning a panic into an error so one bad writer cannot take the
// committer down. bbolt panics on a damaged page it meets while fn reads or writes, so
// the error wraps ErrCorrupt.
func safeCall(fn func(*bbolt.Tx) error, tx *bbolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in a write transaction: %w (a damaged page?): %v", storage.ErrCorrupt, p)
		}
	}()
	return fn(tx)
}
