package pg

import (
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

// TestServerTimeoutsOnEveryConnection: every connection carries the server-side
// limits (the options', else the defaults), the server enforces them, and a
// LongRunning context lifts the statement limit for its own transaction only.
func TestServerTimeoutsOnEveryConnection(t *testing.T) {
	db, err := Open(pgtest.DSN(t), &Options{StatementTimeout: 300 * time.Millisecond, MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	show := func(name string) string {
		t.Helper()
		var v string
		err := db.View(t.Context(), func(tx storage.Tx) error {
			_, err := tx.(*pgTx).scanOne(`SELECT current_setting($1)`, []any{name}, &v)
			return err
		})
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		return v
	}
	for _, c := range []struct{ name, want string }{
		{"statement_timeout", "300ms"},
		{"lock_timeout", "5s"},
		{"idle_in_transaction_session_timeout", "30s"},
	} {
		if got := show(c.name); got != c.want {
			t.Errorf("%s = %q, want %q", c.name, got, c.want)
		}
	}
	var pe *pgconn.PgError
	if err := db.View(t.Context(), func(tx storage.Tx) error {
		_, err := tx.(*pgTx).exec(`SELECT pg_sleep(1)`)
		return err
	}); !errors.As(err, &pe) || pe.Code != "57014" {
		t.Errorf("a statement past statement_timeout: %v, want query_canceled (57014)", err)
	}
	if err := db.View(storage.LongRunning(t.Context()), func(tx storage.Tx) error {
		_, err := tx.(*pgTx).exec(`SELECT pg_sleep(0.5)`)
		return err
	}); err != nil {
		t.Errorf("a long statement of a LongRunning transaction: %v", err)
	}
	if got := show("statement_timeout"); got != "300ms" {
		t.Errorf("after a LongRunning transaction statement_timeout = %q, want it back at 300ms", got)
	}
}
