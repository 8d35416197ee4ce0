package backend

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/pg"
	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

func TestParseLocation(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Location
		ok   bool
	}{
		{"bbolt:gambit.db", Location{Driver: DriverBbolt, Path: "gambit.db"}, true},
		{"bbolt:/var/lib/gambit/x:y.db", Location{Driver: DriverBbolt, Path: "/var/lib/gambit/x:y.db"}, true},
		{"postgres:postgres://u@h/db", Location{Driver: DriverPostgres, DSN: "postgres://u@h/db"}, true},
		{"postgres:host=h dbname=db", Location{Driver: DriverPostgres, DSN: "host=h dbname=db"}, true},
		{"postgresql://u@h/db", Location{Driver: DriverPostgres, DSN: "postgresql://u@h/db"}, true},
		{"postgres:", Location{Driver: DriverPostgres}, true},
		{"gambit.db", Location{}, false},
		{"bbolt:", Location{}, false},
		{"mysql:x", Location{}, false},
	} {
		got, err := ParseLocation(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseLocation(%q) = %+v, %v", c.in, got, err)
		}
	}
}

func TestLocationHidesThePassword(t *testing.T) {
	for _, c := range []struct{ dsn, want string }{
		{"postgres://gambit:s3cret@db:5432/gambit?sslmode=require", "postgres:postgres://gambit:[redacted]@db:5432/gambit?sslmode=require"},
		{"postgres://gambit@db/gambit", "postgres:postgres://gambit@db/gambit"},
		{"host=db user=gambit password=s3cret dbname=gambit", "postgres:host=db user=gambit password=[redacted] dbname=gambit"},
		{"postgres://gambit@db/gambit?sslmode=require&password=s3cret", ""},
		{"host=db password='s3cret with spaces' dbname=gambit", ""},
		{"host=db password = s3cret dbname=gambit", ""},
	} {
		got := Location{Driver: DriverPostgres, DSN: c.dsn}.String()
		if (c.want != "" && got != c.want) || strings.Contains(got, "s3cret") {
			t.Errorf("%q shows as %q, want %q", c.dsn, got, c.want)
		}
	}
}

func TestOpenLocation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.db")
	st, err := Open(Location{Path: path}, &Options{Bolt: &bolt.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.(*bolt.DB); !ok {
		t.Errorf("the default driver opened %T", st)
	}
	st.Close()
	t.Setenv(EnvDSN, "")
	if _, err := Open(Location{Driver: DriverPostgres}, nil); err == nil || !strings.Contains(err.Error(), EnvDSN) {
		t.Errorf("postgres without a DSN: %v", err)
	}
	if _, err := Open(Location{Driver: "sqlite"}, nil); err == nil {
		t.Error("opened an unknown driver")
	}
	if !pgtest.Available(t) {
		return
	}
	t.Setenv(EnvDSN, pgtest.DSN(t)) // the environment stands in for an empty DSN
	st, err = Open(Location{Driver: DriverPostgres}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, ok := st.(*pg.DB); !ok {
		t.Errorf("driver postgres opened %T", st)
	}
}

func TestOpenConfig(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	st, loc, err := OpenConfig(config.Storage{Driver: "bbolt", Path: "g.db"}, &Options{Bolt: &bolt.Options{NoSync: true}})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if want := filepath.Join(dir, "g.db"); loc.Path != want || loc.Driver != DriverBbolt {
		t.Errorf("opened %+v, want the bbolt file %s", loc, want)
	}
	if _, ok := st.(*bolt.DB); !ok {
		t.Errorf("driver bbolt opened %T", st)
	}
	if _, _, err := OpenConfig(config.Storage{Path: filepath.Join(dir, "missing", "g.db")}, nil); err == nil || !strings.HasPrefix(err.Error(), "storage.path ") {
		t.Errorf("a file in a missing folder: %v, want an error naming storage.path", err)
	}
	t.Setenv(EnvDSN, "")
	if _, _, err := OpenConfig(config.Storage{Driver: "postgres"}, nil); err == nil || !strings.HasPrefix(err.Error(), "storage.dsn: ") {
		t.Errorf("postgres without a DSN: %v, want an error naming storage.dsn", err)
	}
	if !pgtest.Available(t) {
		return
	}
	st, loc, err = OpenConfig(config.Storage{Driver: "postgres", DSN: pgtest.DSN(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, ok := st.(*pg.DB); !ok || loc.Driver != DriverPostgres {
		t.Errorf("driver postgres opened %T at %v", st, loc)
	}
}
