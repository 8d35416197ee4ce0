package web

// The web's figures: a move's fan-out to 10,000 spectators over 1,000 games, the memory
// of an idle socket, and the weight of a game page. The sockets run the whole server
// path (HTTP upgrade, gorilla, the hub) over in-memory pipes, so that 10,000 of them fit
// in one process's file descriptors.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
)

// pipeListener is a net.Listener of in-memory connections.
type pipeListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error { l.once.Do(func() { close(l.closed) }); return nil }
func (l *pipeListener) Addr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}
}

// dial returns the client end of a new connection.
func (l *pipeListener) dial() net.Conn {
	c, s := net.Pipe()
	l.conns <- s
	return c
}

// bench is a web server on a bbolt store with live games.
type bench struct {
	svc   *games.Service
	srv   *Server
	ln    *pipeListener
	ids   []uint64
	token map[uint64]string
	stop  func()
}

func newBench(tb testing.TB, nGames int) *bench {
	tb.Helper()
	db, err := bolt.Open(filepath.Join(tb.TempDir(), "bench.db"), &bolt.Options{NoSync: true})
	if err != nil {
		tb.Fatal(err)
	}
	var srv atomic.Pointer[Server]
	svc, err := games.New(db, games.Options{Notifier: games.NotifierFunc(func(ctx context.Context, e games.Event) {
		if s := srv.Load(); s != nil {
			s.Notify(ctx, e)
		}
	})})
	if err != nil {
		tb.Fatal(err)
	}
	s, err := New(Options{Games: svc, BaseURL: "http://127.0.0.1", Secret: []byte(strings.Repeat("s", 32)),
		Limits: Limits{ConnsPerAddr: 1 << 20, Conns: 1 << 20, RequestsPerAddr: 1 << 30}})
	if err != nil {
		tb.Fatal(err)
	}
	srv.Store(s)
	b := &bench{svc: svc, srv: s, ln: newPipeListener(), token: map[uint64]string{}}
	ctx := context.Background()
	for i := range nGames {
		res, err := svc.StartGame(ctx, games.StartRequest{GuildID: "1", ChannelID: "2",
			White: storage.Player{ID: strconv.Itoa(1000 + 2*i), Name: "w"}, Black: storage.Player{ID: strconv.Itoa(1001 + 2*i), Name: "b"}, Control: "-"})
		if err != nil {
			tb.Fatal(err)
		}
		b.ids = append(b.ids, res.Game.ID)
		b.token[res.Game.ID] = s.keys.GameToken(res.Game.ID)
	}
	hs := &http.Server{Handler: s.Handler()}
	done := make(chan struct{})
	go func() { defer close(done); _ = hs.Serve(b.ln) }()
	b.stop = func() {
		s.hub.closeAll()
		_ = hs.Close()
		<-done
		_ = svc.Close()
		_ = db.Close()
	}
	return b
}

// upgrade opens game id's socket on a new pipe and returns the client's end, past
// the handshake.
func (b *bench) upgrade(tb testing.TB, id uint64) (net.Conn, *bufio.Reader) {
	c := b.ln.dial()
	req := fmt.Sprintf("GET /g/%d/%s/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", id, b.token[id])
	go func() { _, _ = io.WriteString(c, req) }()
	br := bufio.NewReaderSize(c, 512)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		tb.Fatalf("upgrade: %v %v", resp, err)
	}
	return c, br
}

// readFrame reads one unmasked server frame's payload.
func readFrame(br *bufio.Reader, buf []byte) ([]byte, error) {
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		return nil, err
	}
	n := int(h[1] & 0x7f)
	switch n {
	case 126:
		var ext [2]byte
		if _, err := io.ReadFull(br, ext[:]); err != nil {
			return nil, err
		}
		n = int(ext[0])<<8 | int(ext[1])
	case 127:
		return nil, errors.New("frame too large")
	}
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	_, err := io.ReadFull(br, buf)
	return buf, err
}

// opening is a line of 20 plies the games play in turn.
var opening = []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7"}

// BenchmarkSpectatorFanout: 10,000 sockets watch 1,000 live games (10 each); each
// iteration is a move in the next game, timed from the call to the service until each
// of the game's 10 spectators has the state of that ply. Reports the p50 and p99 of
// those deliveries. Run it with -benchtime up to 20000x (the opening's length per game).
func BenchmarkSpectatorFanout(b *testing.B) {
	const nGames, perGame = 1000, 10
	bn := newBench(b, nGames)
	defer bn.stop()
	type spectator struct {
		ply atomic.Int64
		at  atomic.Int64 // UnixNano of the state of ply
	}
	specs := make(map[uint64][]*spectator, nGames)
	var wg sync.WaitGroup
	var conns []net.Conn
	for _, id := range bn.ids {
		for range perGame {
			c, br := bn.upgrade(b, id)
			conns = append(conns, c)
			sp := &spectator{}
			specs[id] = append(specs[id], sp)
			wg.Add(1)
			go func() {
				defer wg.Done()
				var buf []byte
				for {
					p, err := readFrame(br, buf)
					if err != nil {
						return
					}
					buf = p[:0]
					if i := bytes.Index(p, []byte(`"ply":`)); i >= 0 {
						j := i + 6
						k := j
						for k < len(p) && p[k] >= '0' && p[k] <= '9' {
							k++
						}
						if n, err := strconv.Atoi(string(p[j:k])); err == nil {
							sp.at.Store(time.Now().UnixNano())
							sp.ply.Store(int64(n))
						}
					}
				}
			}()
		}
	}
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N*perGame)
	b.ResetTimer()
	for i := range b.N {
		id := bn.ids[i%nGames]
		ply := i / nGames
		if ply >= len(opening) {
			b.Fatal("more iterations than the opening has plies: lower -benchtime")
		}
		user := strconv.Itoa(1000 + 2*(i%nGames) + ply%2)
		start := time.Now()
		if _, err := bn.svc.Move(ctx, games.MoveRequest{Action: games.Action{GameID: id, UserID: user}, Move: opening[ply]}); err != nil {
			b.Fatal(err)
		}
		for _, sp := range specs[id] {
			for sp.ply.Load() < int64(ply+1) {
				runtime.Gosched()
			}
			lat = append(lat, time.Duration(sp.at.Load()-start.UnixNano()))
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(len(conns)), "sockets")
	for _, c := range conns {
		c.Close()
	}
	wg.Wait()
}

// BenchmarkIdleSocket: the memory one idle game socket holds (the server's goroutines,
// buffers and hub entry, and the client's end of the pipe, which only overstates it):
// b.N sockets are opened on 100 games and the in-use heap and stacks measured around
// them. Run it with -benchtime=2000x or more.
func BenchmarkIdleSocket(b *testing.B) {
	bn := newBench(b, 100)
	defer bn.stop()
	var conns []net.Conn
	measure := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse + m.StackInuse
	}
	before := measure()
	b.ResetTimer()
	for i := range b.N {
		c, _ := bn.upgrade(b, bn.ids[i%len(bn.ids)])
		conns = append(conns, c)
	}
	b.StopTimer()
	// Every socket is registered with the hub before measuring.
	for {
		n := 0
		bn.srv.hub.mu.Lock()
		for _, m := range bn.srv.hub.conns {
			n += len(m)
		}
		bn.srv.hub.mu.Unlock()
		if n == b.N {
			break
		}
		runtime.Gosched()
	}
	after := measure()
	b.ReportMetric(float64(after-before)/float64(b.N), "B/socket")
	for _, c := range conns {
		c.Close()
	}
}

// gamePageWeight returns the gzipped bytes of a game page's first render: the HTML
// (with the board and the piece art) and every file it loads.
func gamePageWeight(tb testing.TB) (total, html int) {
	bn := newBench(tb, 1)
	defer bn.stop()
	id := bn.ids[0]
	get := func(path string) int {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		bn.srv.Handler().ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			tb.Fatalf("GET %s: %d", path, rec.Code)
		}
		body := rec.Body.Bytes()
		if rec.Header().Get("Content-Encoding") != "gzip" {
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			_, _ = zw.Write(body)
			_ = zw.Close()
			return z.Len()
		}
		return len(body)
	}
	html = get(bn.srv.gamePath(id))
	total = html
	for _, name := range []string{"gambit.css", "themes.css", "site.js", "game.js"} {
		total += get(bn.srv.assets.URL(name))
	}
	return total, html
}

// BenchmarkPageWeight reports a game page's first render, gzipped.
func BenchmarkPageWeight(b *testing.B) {
	var total, html int
	for range b.N {
		total, html = gamePageWeight(b)
	}
	b.ReportMetric(float64(total), "gzip-bytes")
	b.ReportMetric(float64(html), "html-gzip-bytes")
}

// TestPageWeight keeps a game page's first render within 150 KB gzipped.
func TestPageWeight(t *testing.T) {
	if total, _ := gamePageWeight(t); total > 150<<10 {
		t.Fatalf("a game page weighs %d bytes gzipped, want at most %d", total, 150<<10)
	}
}
