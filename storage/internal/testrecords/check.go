package testrecords

import (
	"context"
	"testing"

	"github.com/gambitchess/gambit/storage"
)

// CheckStore runs the backend's consistency check.
func CheckStore(t testing.TB, db storage.Store) {
	t.Helper()
	c, ok := db.(interface{ Check(context.Context) error })
	if !ok {
		t.Fatalf("%T has no Check", db)
	}
	if err := c.Check(t.Context()); err != nil {
		t.Error(err)
	}
}
