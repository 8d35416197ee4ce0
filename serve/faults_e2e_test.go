// End-to-end stories of the bot when its database fails: PostgreSQL stalls (a
// loopback proxy stops forwarding), and the bot must answer within its operation
// budget, apply nothing its user was told failed, report unhealthy, leak no goroutines,
// and recover by itself.

package serve

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/internal/stallproxy"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// viaProxy returns dsn with its host replaced by a stalling proxy to it.
func viaProxy(t *testing.T, dsn string) (string, *stallproxy.Proxy) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p, err := stallproxy.Start(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	u.Host = p.Addr()
	return u.String(), p
}

// healthz returns the status and body of GET /healthz.
func healthz(t *testing.T, addr string) (int, string) {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatalf("GET /healthz: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestStoryDatabaseStalls: PostgreSQL stops answering (the proxy holds every byte)
// while a player moves. The player is told within the operation budget that the move
// was not done; /healthz says 503 and the store is not answering; the goroutines of the
// failed requests are gone; and when the database answers again, what the proxy held is
// delivered, yet the move is not played, /healthz is 200 again, and the same move then
// plays.
func TestStoryDatabaseStalls(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	proxied, proxy := viaProxy(t, dsn)
	w := newWorld(t)
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, proxied
	w.cfg.Storage.AcquireTimeout = 500 * time.Millisecond
	w.cfg.Storage.ConnectTimeout = time.Second
	w.cfg.Commands.OperationTimeout = time.Second
	w.cfg.Metrics.Address = "127.0.0.1:0"
	r := w.start()
	g := w.startGame("5+3")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	if code, body := healthz(t, r.bot.OpsAddr); code != http.StatusOK || !strings.Contains(body, `"store":"ok"`) {
		t.Fatalf("/healthz before the stall: %d %s", code, body)
	}
	baseline := runtime.NumGoroutine() - proxy.Pumps()

	proxy.Stall()
	const tries = 6 // the failing requests once left about 4.5 goroutines each behind
	for i := range tries {
		start := time.Now()
		res := g.move(w.bob, "e5")
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("try %d: the failure took %v to be answered", i, took)
		}
		// On a loaded machine the bot may defer first and then fill the answer in.
		if c := w.answer(res).Content; !strings.Contains(c, commands.MsgStoreNotAnswering) {
			t.Fatalf("try %d: a move while the database stalls answered %q", i, c)
		}
	}
	if code, body := healthz(t, r.bot.OpsAddr); code != http.StatusServiceUnavailable || !strings.Contains(body, "not answering") {
		t.Errorf("/healthz while the database stalls: %d %s", code, body)
	}
	// The requests that failed left nothing waiting behind them (the proxy's own
	// goroutines, which hold the bytes, are not the bot's; the pool's connection
	// attempts end within storage.connect_timeout).
	var extra int
	if !w.f.WaitFor(func() bool {
		extra = runtime.NumGoroutine() - proxy.Pumps() - baseline
		return extra <= 15
	}, hangGuard) {
		t.Errorf("%d more goroutines than before the stall after %d failed moves", extra, tries)
	}

	proxy.Resume()
	w.waitFor("the held bytes to be delivered", func() bool { return proxy.Holding() == 0 })
	w.waitFor("/healthz to be 200 again", func() bool {
		code, _ := healthz(t, r.bot.OpsAddr)
		return code == http.StatusOK
	})
	// Read the game straight from the database, past the proxy and the bot.
	db := storagetest.OpenPostgresDSN(t, dsn, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	games, err := storage.Read(ctx, db, func(tx storage.Tx) ([]*storage.Game, error) {
		return tx.GamesInChannel(g.thread, storage.Query{})
	})
	if err != nil || len(games) != 1 {
		games, err = storage.Read(ctx, db, storage.Tx.OpenGames)
	}
	if err != nil || len(games) != 1 {
		t.Fatalf("the database holds %d games: %v", len(games), err)
	}
	if got := games[0]; !got.Live() || got.Ply() != 1 {
		t.Fatalf("after the stall the game has %d plies (live %v): a move told failed was played", got.Ply(), got.Live())
	}
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
}
