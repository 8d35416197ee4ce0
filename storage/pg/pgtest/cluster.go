package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// Cluster is a throwaway PostgreSQL cluster of one test, on a free loopback port, for
// tests that restart or stop the server (the shared test cluster must stay up for the
// others). It is stopped and removed when the test ends.
type Cluster struct {
	// DSN names its database gambit.
	DSN string

	t    testing.TB
	bin  string   // the server's bin directory
	dir  string   // holds data/ and the server's log
	asPG []string // runs a command as the postgres user when the test runs as root
	port int
}

// StartCluster initialises and starts a cluster (initdb and pg_ctl, as
// scripts/postgres.sh does). Without the server's programs the test is skipped, or
// fails when EnvRequire is 1.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("%s=1 but no PostgreSQL server programs (initdb, pg_ctl) are installed", EnvRequire)
		}
		t.Skip("no PostgreSQL server programs (initdb, pg_ctl) to start a cluster of the test's own")
	}
	sort.Slice(bins, func(i, j int) bool { return version(bins[i]) < version(bins[j]) })
	c := &Cluster{t: t, bin: filepath.Dir(bins[len(bins)-1])}
	dir, err := os.MkdirTemp("", "gambit-pgcluster-")
	if err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	t.Cleanup(func() { os.RemoveAll(dir) })
	if os.Geteuid() == 0 { // initdb refuses root: the cluster runs as postgres
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("chown", "postgres:", dir).CombinedOutput(); err != nil {
			t.Fatalf("chown the cluster's directory: %v: %s", err, out)
		}
		c.asPG = []string{"runuser", "-u", "postgres", "--"}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	c.run("initdb", "-D", c.data(), "-U", "gambit", "--auth=trust", "-E", "UTF8", "--locale=C")
	c.ctl("start")
	t.Cleanup(func() { c.ctlQuiet("stop", "-m", "immediate") })
	c.run("createdb", "-h", "127.0.0.1", "-p", strconv.Itoa(c.port), "-U", "gambit", "gambit")
	c.DSN = fmt.Sprintf("postgres://gambit@127.0.0.1:%d/gambit?sslmode=disable", c.port)
	return c
}

// Restart restarts the server (pg_ctl restart -m fast: sessions are ended, the
// server comes back on the same port) and returns once it accepts connections.
func (c *Cluster) Restart() { c.t.Helper(); c.ctl("restart", "-m", "fast") }

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

func (c *Cluster) ctl(args ...string) {
	c.t.Helper()
	if err := c.ctlQuiet(args...); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
		c.t.Fatalf("pg_ctl %v: %v\n%s", args, err, log)
	}
}

func (c *Cluster) ctlQuiet(args ...string) error {
	args = append(args, "-D", c.data(), "-l", filepath.Join(c.dir, "server.log"), "-w", "-t", "60",
		"-o", fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=on", c.port, c.dir))
	out, err := c.command("pg_ctl", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}

func (c *Cluster) run(name string, args ...string) {
	c.t.Helper()
	if out, err := c.command(name, args...).CombinedOutput(); err != nil {
		c.t.Fatalf("%s: %v: %s", name, err, out)
	}
}

func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	argv := append(append(append([]string{}, c.asPG...), filepath.Join(c.bin, name)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.dir
	return cmd
}

// version is the major version in a path /usr/lib/postgresql/<major>/bin/pg_ctl.
func version(path string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(path))))
	return v
}
