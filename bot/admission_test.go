// Tests of the interactions endpoint under unauthenticated load: the memory held by
// requests that announce big bodies and send little, the slots per address and in
// all, the byte budget, the addresses that keep failing, and signed traffic flowing
// through all of it.

package bot

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/commands"
)

// rawConn is a connection to the endpoint made by hand, from a chosen loopback
// address, that sends a request's head and part of its body and then waits.
type rawConn struct {
	net.Conn
	br *bufio.Reader
}

// openRaw connects from the loopback address from and sends a POST that announces a
// body of announce bytes, with headers (name: value lines), then the first bytes of
// the body.
func (e *endpoint) openRaw(t *testing.T, from string, headers []string, announce int, first string) *rawConn {
	t.Helper()
	u, err := url.Parse(e.url)
	if err != nil {
		t.Fatal(err)
	}
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 30 * time.Second}
	c, err := d.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var b strings.Builder
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", u.Path, u.Host, announce)
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n" + first)
	if _, err := c.Write([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	return &rawConn{Conn: c, br: bufio.NewReader(c)}
}

// answer reads the connection's HTTP answer, waiting at most a generous bound.
func (c *rawConn) answer(t *testing.T) *http.Response {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	resp.Body.Close()
	return resp
}

// forgedHeaders are signature headers of the right form and a fresh timestamp,
// signed by nobody: they pass every check made before the body is read.
func forgedHeaders() []string {
	return []string{headerSignature + ": " + strings.Repeat("ab", 64), headerTimestamp + ": " + strconv.FormatInt(time.Now().Unix(), 10)}
}

// waitFor polls cond until it holds, failing the test after a bound long enough for
// any machine.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited 30 s for %s", what)
		}
	}
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestInteractionsEndpointMemoryUnderUnsignedLoad: 256 connections (from 8 loopback
// addresses, 32 each) that announce a megabyte, send a few bytes of body under forged
// signature headers and wait, hold at most 16 MiB of heap while their bodies are
// being read (before, the buffer was the announced size: 256 MiB); signed
// interactions are answered meanwhile.
func TestInteractionsEndpointMemoryUnderUnsignedLoad(t *testing.T) {
	var reading atomic.Int64 // requests whose body the handler has started to read
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Body = &firstReadBody{ReadCloser: r.Body, first: func() { reading.Add(1) }}
			h.ServeHTTP(w, r)
		})
	}
	e := newEndpointWrapped(t, wrap, nil, &stub{name: "hello", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		return commands.Reply("hi"), nil
	}})
	before := heapInUse()
	const conns, addrs = 256, 8
	for k := range conns {
		e.openRaw(t, fmt.Sprintf("127.0.0.%d", 2+k%addrs), forgedHeaders(), maxInteractionBody, `{"type":1,"id":"`)
	}
	waitFor(t, "the handler to read every body", func() bool { return reading.Load() == conns })
	held := int64(heapInUse()) - int64(before)
	t.Logf("%d connections announcing %d bytes each hold %.1f MiB of heap", conns, maxInteractionBody, float64(held)/(1<<20))
	if held > 16<<20 {
		t.Errorf("%d unsigned connections hold %.1f MiB of heap, want at most 16 MiB", conns, float64(held)/(1<<20))
	}
	resp, body := e.post(t, []byte(`{"id":"1","application_id":"2","type":1,"token":"t","version":1}`), time.Now())
	if resp.StatusCode != http.StatusOK || string(body) != `{"type":1}` {
		t.Errorf("a signed PING under load answered %d %s", resp.StatusCode, body)
	}
	resp, body = e.post(t, mustJSON(t, command("hello")), time.Now())
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"hi"`) {
		t.Errorf("a signed command under load answered %d %s", resp.StatusCode, body)
	}
}

// firstReadBody calls first before its first Read.
type firstReadBody struct {
	io.ReadCloser
	first func()
	done  bool
}

func (b *firstReadBody) Read(p []byte) (int, error) {
	if !b.done {
		b.done = true
		b.first()
	}
	return b.ReadCloser.Read(p)
}

// TestInteractionsEndpointAdmission: what the endpoint refuses before reading a body,
// each with its status, while signed traffic from another address is answered.
func TestInteractionsEndpointAdmission(t *testing.T) {
	signedPing := func(t *testing.T, e *endpoint) {
		t.Helper()
		resp, body := e.post(t, []byte(`{"id":"1","application_id":"2","type":1,"token":"t","version":1}`), time.Now())
		if resp.StatusCode != http.StatusOK || string(body) != `{"type":1}` {
			t.Errorf("a signed PING answered %d %s", resp.StatusCode, body)
		}
	}
	usage := func(e *endpoint) int {
		n, _ := e.h.admit.usage()
		return n
	}
	t.Run("no signature: refused without waiting for the body", func(t *testing.T) {
		e := newEndpoint(t, nil)
		c := e.openRaw(t, "127.0.0.20", nil, maxInteractionBody, "")
		if resp := c.answer(t); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("answered %d, want 401", resp.StatusCode)
		}
		c = e.openRaw(t, "127.0.0.20", []string{headerSignature + ": " + strings.Repeat("ab", 64), headerTimestamp + ": 1000"}, maxInteractionBody, "")
		if resp := c.answer(t); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("a stale timestamp answered %d, want 401", resp.StatusCode)
		}
		c = e.openRaw(t, "127.0.0.20", forgedHeaders(), maxInteractionBody+1, "")
		if resp := c.answer(t); resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("a body announced too large answered %d, want 413", resp.StatusCode)
		}
	})
	// The per-address bounds apply to public addresses; over loopback, these tests
	// take the peers for public clients.
	public := func(string) bool { return false }
	t.Run("per address", func(t *testing.T) {
		e := newEndpoint(t, nil)
		e.h.admit.shared = public
		for range maxUnverifiedPerAddr {
			e.openRaw(t, "127.0.0.21", forgedHeaders(), maxInteractionBody, "{")
		}
		waitFor(t, "the reads to start", func() bool { return usage(e) == maxUnverifiedPerAddr })
		resp := e.openRaw(t, "127.0.0.21", forgedHeaders(), maxInteractionBody, "{").answer(t)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Errorf("one more from the address answered %d (Retry-After %q), want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		signedPing(t, e)
	})
	t.Run("in all", func(t *testing.T) {
		e := newEndpoint(t, nil)
		e.h.admit.maxReading = 4
		for k := range 4 {
			e.openRaw(t, fmt.Sprintf("127.0.0.%d", 30+k), forgedHeaders(), maxInteractionBody, "{")
		}
		waitFor(t, "the reads to start", func() bool { return usage(e) == 4 })
		if resp := e.openRaw(t, "127.0.0.40", forgedHeaders(), maxInteractionBody, "{").answer(t); resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("one more answered %d, want 503", resp.StatusCode)
		}
	})
	t.Run("byte budget", func(t *testing.T) {
		e := newEndpoint(t, nil)
		e.h.admit.budget = 3 * readChunk
		for range 2 {
			e.openRaw(t, "127.0.0.41", forgedHeaders(), maxInteractionBody, "{")
		}
		waitFor(t, "the reads to start", func() bool { return usage(e) == 2 })
		// A third body grows past what is left: refused once its bytes do not fit.
		c := e.openRaw(t, "127.0.0.42", forgedHeaders(), maxInteractionBody, strings.Repeat(" ", 2*readChunk))
		if resp := c.answer(t); resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("a body past the budget answered %d, want 503", resp.StatusCode)
		}
		if _, bytes := e.h.admit.usage(); bytes > 3*readChunk {
			t.Errorf("%d bytes taken, budget %d", bytes, 3*readChunk)
		}
	})
	t.Run("an address that keeps failing", func(t *testing.T) {
		e := newEndpoint(t, nil)
		e.h.admit.shared = public
		now := time.Now()
		e.h.admit.now = func() time.Time { return now }
		bad := func() int {
			return e.openRaw(t, "127.0.0.50", forgedHeaders(), 2, "{}").answer(t).StatusCode
		}
		for k := range maxFailures + 1 {
			if s := bad(); s != http.StatusUnauthorized {
				t.Fatalf("bad signature %d answered %d, want 401", k+1, s)
			}
		}
		if s := bad(); s != http.StatusTooManyRequests {
			t.Errorf("after %d bad signatures answered %d, want 429", maxFailures+1, s)
		}
		signedPing(t, e) // another address
		now = now.Add(failureWindow)
		if s := bad(); s != http.StatusUnauthorized {
			t.Errorf("a window later answered %d, want 401", s)
		}
	})
	t.Run("a proxy in front: held to the bounds of all only", func(t *testing.T) {
		e := newEndpoint(t, nil) // loopback peers are taken for a proxy
		for k := range maxFailures + 5 {
			if s := e.openRaw(t, "127.0.0.51", forgedHeaders(), 2, "{}").answer(t).StatusCode; s != http.StatusUnauthorized {
				t.Fatalf("bad signature %d through the proxy answered %d, want 401", k+1, s)
			}
		}
		for range maxUnverifiedPerAddr + 8 {
			e.openRaw(t, "127.0.0.52", forgedHeaders(), maxInteractionBody, "{")
		}
		waitFor(t, "the reads to start", func() bool { return usage(e) == maxUnverifiedPerAddr+8 })
		signedPing(t, e) // Discord's requests, through the same proxy
	})
	t.Run("slots given back", func(t *testing.T) {
		e := newEndpoint(t, nil)
		var conns []*rawConn
		for range 8 {
			conns = append(conns, e.openRaw(t, "127.0.0.60", forgedHeaders(), maxInteractionBody, "{"))
		}
		waitFor(t, "the reads to start", func() bool { return usage(e) == 8 })
		for _, c := range conns {
			c.Close()
		}
		waitFor(t, "the slots and bytes to be given back", func() bool {
			n, b := e.h.admit.usage()
			return n == 0 && b == 0
		})
	})
}

func TestSharedPeer(t *testing.T) {
	cases := []struct {
		addr   string
		shared bool
	}{
		{"127.0.0.1", true}, {"::1", true}, {"10.1.2.3", true}, {"172.16.0.9", true}, {"192.168.1.1", true},
		{"fd00::1", true}, {"fe80::1", true}, {"::ffff:10.0.0.1", true},
		{"162.159.135.232", false}, {"8.8.8.8", false}, {"2606:4700::1", false}, {"172.32.0.1", false}, {"not an address", false},
	}
	for _, c := range cases {
		if got := sharedPeer(c.addr); got != c.shared {
			t.Errorf("sharedPeer(%q) = %v, want %v", c.addr, got, c.shared)
		}
	}
}
