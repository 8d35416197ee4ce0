// Package backend opens the store a configuration or a location names: a bbolt file
// (storage/bolt) or a PostgreSQL database (storage/pg). It is the one package that names
// both backends; the services never import it, and take the storage.Store it opens.
package backend

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/redact"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/pg"
)

// The drivers of the configuration's storage.driver.
const (
	DriverBbolt    = "bbolt"
	DriverPostgres = "postgres"
)

// EnvDSN is the environment variable that gives the PostgreSQL DSN when the
// configuration names none (it keeps the password out of the file).
const EnvDSN = "GAMBIT_STORAGE_DSN"

// Location says which store to open: a bbolt file (Path) or a PostgreSQL database
// (DSN).
type Location struct {
	// Driver is DriverBbolt (also for "") or DriverPostgres.
	Driver string
	// Path is the bbolt file.
	Path string
	// DSN is the PostgreSQL database, a libpq URL or key=value string; empty means
	// GAMBIT_STORAGE_DSN.
	DSN string
}

// ParseLocation reads "bbolt:FILE" or "postgres:DSN" (gambit migrate's --from and
// --to); a bare DSN URL (postgres://... or postgresql://...) is a PostgreSQL location,
// and "postgres:" alone the database of GAMBIT_STORAGE_DSN.
func ParseLocation(s string) (Location, error) {
	if strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://") {
		return Location{Driver: DriverPostgres, DSN: s}, nil
	}
	driver, rest, ok := strings.Cut(s, ":")
	switch {
	case ok && driver == DriverBbolt && rest != "":
		return Location{Driver: DriverBbolt, Path: rest}, nil
	case ok && driver == DriverPostgres:
		return Location{Driver: DriverPostgres, DSN: rest}, nil
	}
	return Location{}, fmt.Errorf("store %q: want bbolt:FILE or postgres:DSN", redact.DSN(s))
}

// String names the location without a password: "bbolt:gambit.db", or the database
// host and name.
func (l Location) String() string {
	if l.Driver == DriverPostgres {
		return "postgres:" + redact.DSN(l.dsn())
	}
	return "bbolt:" + l.Path
}

func (l Location) dsn() string {
	if l.DSN != "" {
		return l.DSN
	}
	return os.Getenv(EnvDSN)
}

// Options tune Open and OpenConfig: each backend takes its own.
type Options struct {
	// Bolt are the bbolt backend's options.
	Bolt *bolt.Options
	// Postgres are the PostgreSQL backend's options.
	Postgres *pg.Options
	// ReadOnly opens either backend read-only.
	ReadOnly bool
}

// Open opens the store at l: the bbolt file (bolt.Open) or the PostgreSQL database
// (pg.Open).
func Open(l Location, opts *Options) (storage.Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	switch l.Driver {
	case "", DriverBbolt:
		bo := bolt.Options{}
		if o.Bolt != nil {
			bo = *o.Bolt
		}
		bo.ReadOnly = bo.ReadOnly || o.ReadOnly
		return bolt.Open(l.Path, &bo)
	case DriverPostgres:
		dsn := l.dsn()
		if dsn == "" {
			return nil, fmt.Errorf("storage: driver postgres needs a DSN: set storage.dsn or %s", EnvDSN)
		}
		po := pg.Options{}
		if o.Postgres != nil {
			po = *o.Postgres
		}
		po.ReadOnly = po.ReadOnly || o.ReadOnly
		return pg.Open(dsn, &po)
	}
	return nil, fmt.Errorf("storage: driver %q: want %s or %s", l.Driver, DriverBbolt, DriverPostgres)
}

// OpenConfig opens the store of the configuration's storage section: the PostgreSQL
// database of storage.dsn (or GAMBIT_STORAGE_DSN) with driver postgres, else the bbolt
// file at storage.path, made absolute for the logs and the errors. It returns the
// location it opened, to name in the logs; an error names the configuration key.
func OpenConfig(cfg config.Storage, opts *Options) (storage.Store, Location, error) {
	if cfg.Driver == DriverPostgres {
		loc := Location{Driver: DriverPostgres, DSN: cfg.DSN}
		var o Options
		if opts != nil {
			o = *opts
		}
		if o.Postgres == nil {
			o.Postgres = &pg.Options{ConnectTimeout: cfg.ConnectTimeout, AcquireTimeout: cfg.AcquireTimeout,
				StatementTimeout: off(cfg.StatementTimeout), LockTimeout: off(cfg.LockTimeout),
				IdleInTransactionTimeout: off(cfg.IdleInTransactionTimeout)}
		}
		db, err := Open(loc, &o)
		if err != nil {
			return nil, loc, fmt.Errorf("storage.dsn: %w", err)
		}
		return db, loc, nil
	}
	abs, err := filepath.Abs(cfg.Path)
	if err != nil {
		return nil, Location{}, fmt.Errorf("storage.path %q: %w", cfg.Path, err)
	}
	loc := Location{Driver: DriverBbolt, Path: abs}
	db, err := Open(loc, opts)
	if err != nil {
		return nil, loc, fmt.Errorf("storage.path %q: %w", abs, err)
	}
	return db, loc, nil
}

// off maps a configured server timeout to pg.Options: 0 in the configuration is off,
// which pg.Options spells as negative (its 0 is the default).
func off(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}
