// Tests of the ops endpoint: the live backup's token, Host check, staging and timeouts,
// and a shutdown that no client holds up.

package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/internal/syncbuf"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

const testBackupToken = "test-backup-token-0123456789abcdef"

// logBuffer collects log lines for a test to read.
type logBuffer struct{ syncbuf.Buffer }

func (b *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// opsRig is an ops endpoint over a store, stopped when the test ends.
type opsRig struct {
	db   *bolt.DB
	addr string
	stop func()
	logs *logBuffer
	dir  string
}

func startOps(t *testing.T, o opsOptions, db *bolt.DB) *opsRig {
	t.Helper()
	rig := &opsRig{db: db, logs: &logBuffer{}, dir: t.TempDir()}
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Backup == nil && db != nil {
		o.Backup = db.Backup
	}
	o.Metrics = bot.NewMetrics(nil)
	o.Health = &bot.Health{}
	o.StageDir = rig.dir
	o.Log = rig.logs.logger()
	addr, stop, err := serveOps(o)
	if err != nil {
		t.Fatal(err)
	}
	rig.addr, rig.stop = addr, sync.OnceFunc(stop)
	t.Cleanup(rig.stop)
	return rig
}

// get sends GET path with a Host header and an Authorization header (when not "").
func (rig *opsRig) get(t *testing.T, path, host, auth string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+rig.addr+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read: %v", path, err)
	}
	return resp, body
}

func TestOpsBackupIsOffWithoutAToken(t *testing.T) {
	rig := startOps(t, opsOptions{}, storagetest.Open(t))
	resp, body := rig.get(t, "/backup", "", "Bearer anything-at-all-0123456789")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "backups.endpoint_token") {
		t.Errorf("/backup without a token configured: %d %q, want 404 naming backups.endpoint_token", resp.StatusCode, body)
	}
	// Metrics and health stay open.
	if resp, _ := rig.get(t, "/metrics", "", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("/metrics: %d", resp.StatusCode)
	}
	if resp, _ := rig.get(t, "/healthz", "", ""); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/healthz of a bot not ready: %d", resp.StatusCode)
	}
}

func TestOpsBackupToken(t *testing.T) {
	db := backupStore(t, 3)
	rig := startOps(t, opsOptions{BackupToken: testBackupToken}, db)
	cases := []struct {
		name string
		auth string
		want int
	}{
		{"no credential", "", http.StatusUnauthorized},
		{"the wrong token", "Bearer wrong-token-0123456789abcdef0", http.StatusUnauthorized},
		{"a prefix of the token", "Bearer " + testBackupToken[:20], http.StatusUnauthorized},
		{"the token and more", "Bearer " + testBackupToken + "x", http.StatusUnauthorized},
		{"the token as a password", "Basic " + testBackupToken, http.StatusUnauthorized},
		{"the bare token", testBackupToken, http.StatusUnauthorized},
		{"the token", "Bearer " + testBackupToken, http.StatusOK},
		{"the scheme in lower case", "bearer " + testBackupToken, http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := rig.get(t, "/backup", "", c.auth)
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d: %.200s", resp.StatusCode, c.want, body)
			}
			if c.want == http.StatusUnauthorized {
				if !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("401 without WWW-Authenticate: Bearer: %q", resp.Header.Get("WWW-Authenticate"))
				}
				return
			}
			if resp.ContentLength != int64(len(body)) {
				t.Errorf("Content-Length %d, body %d bytes", resp.ContentLength, len(body))
			}
			if n := countBackupGames(t, body); n != 3 {
				t.Errorf("the copy has %d games, want 3", n)
			}
		})
	}
	if strings.Contains(rig.logs.String(), testBackupToken) || strings.Contains(rig.logs.String(), "wrong-token") {
		t.Errorf("a token was logged:\n%s", rig.logs)
	}
	if !strings.Contains(rig.logs.String(), "no or wrong token") {
		t.Errorf("refusals are not logged:\n%s", rig.logs)
	}
	// Nothing staged is left behind.
	if left, _ := os.ReadDir(rig.dir); len(left) != 0 {
		t.Errorf("staging left %v", left)
	}
}

// countBackupGames opens a copy and counts its games, after bbolt's check.
func countBackupGames(t *testing.T, data []byte) int {
	t.Helper()
	path := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the copy does not open: %v", err)
	}
	defer db.Close()
	if err := db.Check(t.Context()); err != nil {
		t.Errorf("the copy fails its check: %v", err)
	}
	var total int
	if err := db.View(t.Context(), func(tx storage.Tx) (err error) { total, _, err = tx.CountGames(); return err }); err != nil {
		t.Fatal(err)
	}
	return total
}

func TestOpsBackupHostCheck(t *testing.T) {
	rig := startOps(t, opsOptions{Addr: "localhost:0", BackupToken: testBackupToken}, backupStore(t, 1))
	_, port, _ := net.SplitHostPort(rig.addr)
	auth := "Bearer " + testBackupToken
	cases := []struct {
		host string
		want int
	}{
		{"127.0.0.1:" + port, http.StatusOK},
		{"localhost:" + port, http.StatusOK},
		{"LocalHost", http.StatusOK},
		{"[::1]:" + port, http.StatusOK},
		{"127.0.0.1:19090", http.StatusOK}, // a port published elsewhere on the host
		{"attacker.example:" + port, http.StatusMisdirectedRequest},
		{"attacker.example", http.StatusMisdirectedRequest},
		{"localhost.attacker.example:" + port, http.StatusMisdirectedRequest},
		{"127.0.0.1.nip.example:" + port, http.StatusMisdirectedRequest},
	}
	for _, c := range cases {
		t.Run(c.host, func(t *testing.T) {
			resp, body := rig.get(t, "/backup", c.host, auth)
			if resp.StatusCode != c.want {
				t.Errorf("Host %s: %d, want %d: %.100s", c.host, resp.StatusCode, c.want, body)
			}
		})
	}
	// Metrics answer any Host (a scraper may use a name).
	if resp, _ := rig.get(t, "/metrics", "gambit.internal:9090", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("/metrics with a named Host: %d", resp.StatusCode)
	}
}

func TestOpsBackupOfAStoreThatCannotCopyItself(t *testing.T) {
	unsupported := func(context.Context, io.Writer) (int64, error) {
		return 0, fmt.Errorf("back up: %w", errors.ErrUnsupported)
	}
	rig := startOps(t, opsOptions{BackupToken: testBackupToken, Backup: unsupported}, nil)
	resp, body := rig.get(t, "/backup", "", "Bearer "+testBackupToken)
	if resp.StatusCode != http.StatusNotImplemented || !strings.Contains(string(body), "pg_dump") {
		t.Errorf("%d %q, want 501 pointing at pg_dump", resp.StatusCode, body)
	}
	failing := func(context.Context, io.Writer) (int64, error) { return 0, errors.New("disk on fire") }
	rig = startOps(t, opsOptions{BackupToken: testBackupToken, Backup: failing}, nil)
	resp, body = rig.get(t, "/backup", "", "Bearer "+testBackupToken)
	if resp.StatusCode != http.StatusInternalServerError || strings.Contains(string(body), "fire") {
		t.Errorf("%d %q, want 500 without the error's text", resp.StatusCode, body)
	}
}

// bigStore is a store of about mb MiB, so a copy outlasts the sockets' buffers; it
// returns the store and its file.
func bigStore(t *testing.T, mb int) (*bolt.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.db")
	db := storagetest.OpenFile(t, path, &bolt.Options{NoSync: true})
	addUsers(t, db, "seed", mb*256)
	return db, path
}

// addUsers commits n users with 4 KiB names, 64 per transaction.
func addUsers(t *testing.T, db *bolt.DB, prefix string, n int) {
	t.Helper()
	name := strings.Repeat("x", 4096)
	for i := 0; i < n; i += 64 {
		err := db.Update(t.Context(), func(tx storage.Tx) error {
			for j := i; j < min(i+64, n); j++ {
				if err := tx.PutUser(storage.User{ID: fmt.Sprintf("%s-%d", prefix, j), Name: name}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// stalledBackup asks for /backup on a connection with a small receive buffer, reads the
// answer's status line and then stops reading. It returns the connection.
func stalledBackup(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET /backup HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", addr, testBackupToken)
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := bufio.NewReaderSize(conn, 64).ReadString('\n')
	if err != nil || !strings.Contains(line, "200") {
		t.Fatalf("status line %q, %v", line, err)
	}
	return conn
}

// TestOpsStalledClientBlocksNoWriter: a client that starts a download and stops reading
// holds no transaction of the store: commits that make the file grow (a bbolt remap,
// which waits for every read transaction) go on while it stalls, and stopping the
// endpoint and closing the store are not held up by it.
func TestOpsStalledClientBlocksNoWriter(t *testing.T) {
	db, path := bigStore(t, 24)
	rig := startOps(t, opsOptions{BackupToken: testBackupToken, Stall: time.Hour}, db)
	before, _ := os.Stat(path)
	stalledBackup(t, rig.addr)

	committed := make(chan struct{})
	go func() {
		defer close(committed)
		addUsers(t, db, "while-stalled", 24*256) // doubles the file: it must grow
	}()
	select {
	case <-committed:
	case <-time.After(60 * time.Second):
		t.Fatal("commits that grow the file waited for a client that stopped reading")
	}
	after, _ := os.Stat(path)
	if after.Size() <= before.Size() {
		t.Fatalf("the file did not grow (%d to %d bytes): the test proves nothing", before.Size(), after.Size())
	}

	stopped := make(chan struct{})
	go func() {
		rig.stop()
		db.Close()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("a stalled client held up the shutdown")
	}
}

// TestOpsStalledClientIsCutOff: a client that stops reading is cut off after the stall
// timeout, and the staged copy is removed. The timeout (2 s) is far above what a chunk
// takes to reach a client that reads, even one slowed by the race detector on a busy
// machine, so the next client's download is not cut off too.
func TestOpsStalledClientIsCutOff(t *testing.T) {
	db, _ := bigStore(t, 24)
	rig := startOps(t, opsOptions{BackupToken: testBackupToken, Stall: 2 * time.Second}, db)
	stalledBackup(t, rig.addr)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(rig.logs.String(), "too slow or went away") {
		if time.Now().After(deadline) {
			t.Fatalf("the stalled client was not cut off; logs:\n%s", rig.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if left, _ := os.ReadDir(rig.dir); len(left) != 0 {
		t.Errorf("staging left %v", left)
	}
	// The endpoint serves the next client (once the cut-off handler has returned).
	resp, body := rig.get(t, "/backup", "", "Bearer "+testBackupToken)
	for resp.StatusCode == http.StatusServiceUnavailable && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		resp, body = rig.get(t, "/backup", "", "Bearer "+testBackupToken)
	}
	if resp.StatusCode != http.StatusOK || int64(len(body)) != resp.ContentLength {
		t.Errorf("the next backup: %d, %d of %d bytes", resp.StatusCode, len(body), resp.ContentLength)
	}
}

func TestOpsStopsWithTheContext(t *testing.T) {
	rig := startOps(t, opsOptions{}, nil)
	rig.stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var d net.Dialer
	if c, err := d.DialContext(ctx, "tcp", rig.addr); err == nil {
		c.Close()
		t.Error("the endpoint still accepts connections after stop")
	}
}
