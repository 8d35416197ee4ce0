// notify.go: PostgreSQL's own publish and subscribe (NOTIFY and LISTEN), for the
// processes sharing the database to tell each other of changes as they commit: the
// web pages of one process hear of the moves made through another.

package pg

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// MaxNotifyPayload is the longest payload PostgreSQL carries (8000 bytes, less one).
const MaxNotifyPayload = 7999

// Notify sends payload on channel to every session listening on it, this process's
// included (pg_notify: delivered when the statement's transaction commits).
func (db *DB) Notify(ctx context.Context, channel, payload string) error {
	if len(payload) > MaxNotifyPayload {
		return fmt.Errorf("notify %s: payload of %d bytes, at most %d", channel, len(payload), MaxNotifyPayload)
	}
	if _, err := db.pool.Exec(ctx, "SELECT pg_notify($1, $2)", channel, payload); err != nil {
		return fmt.Errorf("notify %s: %w", channel, err)
	}
	return nil
}

// Listen listens on channel and calls fn with the payload of each notification, in
// order, until ctx ends (it returns ctx's error) or the connection fails. It holds one
// connection of the pool for its whole run, and closes it at the end (a connection
// that listened does not go back to the pool).
func (db *DB) Listen(ctx context.Context, channel string, fn func(payload string)) error {
	c, err := db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("listen %s: %w", channel, err)
	}
	conn := c.Hijack()
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return fmt.Errorf("listen %s: %w", channel, err)
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("listen %s: %w", channel, err)
		}
		fn(n.Payload)
	}
}
