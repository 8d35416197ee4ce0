package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// HoldRowLock runs query (a SELECT … FOR UPDATE) in a transaction of its own connection
// and keeps the rows locked until the returned release is called (or the test ends):
// a writer that needs those rows waits, as behind a process stuck in a transaction.
func HoldRowLock(t testing.TB, dsn, query string) (release func() error) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect to hold a row lock: %v", err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		conn.Close(ctx)
		t.Fatalf("begin to hold a row lock: %v", err)
	}
	if _, err := tx.Exec(ctx, query); err != nil {
		conn.Close(ctx)
		t.Fatalf("lock rows with %q: %v", query, err)
	}
	done := false
	release = func() error {
		if done {
			return nil
		}
		done = true
		defer conn.Close(ctx)
		return tx.Rollback(ctx)
	}
	t.Cleanup(func() { _ = release() })
	return release
}
