// limits.go: how much one address and one user may ask of the server: open sockets,
// page loads, actions. A limit reached is answered (429, or an error on the socket)
// and changes nothing.

package web

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits bound what one address and one user may do. Zero fields take the defaults.
type Limits struct {
	// ConnsPerAddr is how many sockets one address may hold open (default 32).
	ConnsPerAddr int
	// Conns is how many sockets the server holds open in all (default 20,000).
	Conns int
	// RequestsPerAddr is how many page and file requests one address may make per
	// minute (default 600).
	RequestsPerAddr int
	// ActionsPerUser is how many actions (moves, offers, resignations) one user may
	// send per 10 seconds, over all their sockets (default 30).
	ActionsPerUser int
	// MessageBytes is the largest message a page may send on its socket (default 1 KiB).
	MessageBytes int64
}

func (l Limits) withDefaults() Limits {
	if l.ConnsPerAddr <= 0 {
		l.ConnsPerAddr = 32
	}
	if l.Conns <= 0 {
		l.Conns = 20000
	}
	if l.RequestsPerAddr <= 0 {
		l.RequestsPerAddr = 600
	}
	if l.ActionsPerUser <= 0 {
		l.ActionsPerUser = 30
	}
	if l.MessageBytes <= 0 {
		l.MessageBytes = 1 << 10
	}
	return l
}

// window counts events in a fixed window.
type window struct {
	start time.Time
	n     int
}

// limiter keeps the counts of Limits.
type limiter struct {
	l   Limits
	now func() time.Time

	mu       sync.Mutex
	conns    map[string]int // by address
	total    int
	requests map[string]*window // by address, per minute
	actions  map[string]*window // by user, per 10 s
}

func newLimiter(l Limits, now func() time.Time) *limiter {
	return &limiter{l: l, now: now, conns: map[string]int{}, requests: map[string]*window{}, actions: map[string]*window{}}
}

// addrOf is the address a request comes from: the peer's IP (a reverse proxy's
// forwarded headers are not trusted: behind one, every visitor shares its limits, so
// docs/web.md has the proxy limit per client).
func addrOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// count adds one event to key's window of span in m, and reports whether it stays
// within max. Old windows are swept as the map grows.
func (lm *limiter) count(m map[string]*window, key string, span time.Duration, max int) bool {
	now := lm.now()
	lm.mu.Lock()
	defer lm.mu.Unlock()
	w := m[key]
	if w == nil || now.Sub(w.start) >= span || now.Before(w.start) {
		if len(m) > 50000 {
			for k, o := range m {
				if now.Sub(o.start) >= span {
					delete(m, k)
				}
			}
		}
		w = &window{start: now}
		m[key] = w
	}
	w.n++
	return w.n <= max
}

// request counts a page request from addr.
func (lm *limiter) request(addr string) bool {
	return lm.count(lm.requests, addr, time.Minute, lm.l.RequestsPerAddr)
}

// action counts an action by userID.
func (lm *limiter) action(userID string) bool {
	return lm.count(lm.actions, userID, 10*time.Second, lm.l.ActionsPerUser)
}

// openConn takes a socket for addr; false when addr or the server holds the most
// allowed. release gives it back.
func (lm *limiter) openConn(addr string) bool {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if lm.total >= lm.l.Conns || lm.conns[addr] >= lm.l.ConnsPerAddr {
		return false
	}
	lm.total++
	lm.conns[addr]++
	return true
}

func (lm *limiter) releaseConn(addr string) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	lm.total--
	if lm.conns[addr]--; lm.conns[addr] <= 0 {
		delete(lm.conns, addr)
	}
}
