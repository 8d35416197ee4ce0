// Package pgtest gives tests a fresh schema of the test cluster of PostgreSQL (the one
// scripts/postgres.sh starts), dropped when the test ends.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The environment of the PostgreSQL tests.
const (
	// EnvDSN names the test cluster's database (scripts/postgres.sh exports it).
	EnvDSN = "GAMBIT_TEST_POSTGRES_DSN"
	// EnvRequire set to 1 makes a test that needs PostgreSQL fail without EnvDSN
	// instead of skipping (scripts/test.sh, and so CI, set it).
	EnvRequire = "GAMBIT_TEST_REQUIRE_POSTGRES"
)

var (
	adminOnce sync.Once
	admin     *pgxpool.Pool
	adminErr  error
)

// pool returns the connections that create and drop the tests' schemas.
func pool(dsn string) (*pgxpool.Pool, error) {
	adminOnce.Do(func() {
		cfg, err := pgxpool.ParseConfig(dsn)
		if err != nil {
			adminErr = err
			return
		}
		cfg.MaxConns = 4
		admin, adminErr = pgxpool.NewWithConfig(context.Background(), cfg)
	})
	return admin, adminErr
}

// Available reports whether a test cluster is named, and fails t when one must be but
// is not (EnvRequire).
func Available(t testing.TB) bool {
	t.Helper()
	if os.Getenv(EnvDSN) != "" {
		return true
	}
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("%s=1 but %s is empty: start the cluster with `source scripts/postgres.sh`", EnvRequire, EnvDSN)
	}
	return false
}

// DSN returns the DSN of a new, empty schema of the test cluster (its search_path), so
// tests run side by side without seeing one another's records; the schema is dropped
// when the test ends, after the test's own cleanups (close the stores there). Without a
// cluster the test is skipped, or fails when EnvRequire is 1.
func DSN(t testing.TB) string {
	t.Helper()
	if !Available(t) {
		t.Skipf("no PostgreSQL test cluster: set %s (`source scripts/postgres.sh` starts one)", EnvDSN)
	}
	base := os.Getenv(EnvDSN)
	p, err := pool(base)
	if err != nil {
		t.Fatalf("connect to the PostgreSQL test cluster: %v", err)
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	schema := "test_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	if _, err := p.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		t.Fatalf("create a test schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := p.Exec(context.Background(), "DROP SCHEMA "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("drop test schema %s: %v", schema, err)
		}
	})
	return WithSearchPath(base, schema)
}

// WithSearchPath returns dsn with its search_path set to schema.
func WithSearchPath(dsn, schema string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err == nil {
			q := u.Query()
			q.Set("search_path", schema)
			u.RawQuery = q.Encode()
			return u.String()
		}
	}
	return fmt.Sprintf("%s search_path=%s", dsn, schema)
}
