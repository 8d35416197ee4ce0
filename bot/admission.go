// admission.go: the interactions endpoint's bounds on requests not yet authenticated.
// Anyone on the internet may open a connection to it and announce a body; until the
// body's signature checks, such a request gets a bounded share of the process: a slot
// among the requests being read (per address and in all), and bytes from a budget
// shared by all. An address that keeps sending bad signatures is turned away for a
// while.

package bot

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// The bounds of the requests not yet authenticated.
const (
	// maxUnverified bounds the requests whose body is being read, from all addresses.
	maxUnverified = 512
	// maxUnverifiedPerAddr bounds them per remote address. Discord delivers from many
	// addresses, a few requests at a time from each. The per-address bounds apply to
	// public addresses only (sharedPeer): a loopback or private peer is taken for a
	// reverse proxy or load balancer that every request comes through, which must
	// then buffer and limit for itself, and is held to the bounds of all.
	maxUnverifiedPerAddr = 32
	// unverifiedBudget bounds the bytes of all the bodies being read: 256 requests
	// each announcing a megabyte hold readChunk each, and only the bytes actually sent
	// grow that.
	unverifiedBudget = 32 << 20
	// failureWindow and maxFailures: an address with more than maxFailures refused
	// signatures in a window is refused without a read until the window ends.
	// Discord sends a few bad signatures on purpose when the endpoint is set up.
	failureWindow = 10 * time.Second
	maxFailures   = 30
	// maxTrackedAddrs bounds the addresses remembered; past it, those with nothing
	// being read are forgotten.
	maxTrackedAddrs = 4096
)

// Why a request is refused before its body is read.
var (
	errAddrBusy     = errors.New("too many requests being read from this address")
	errAddrFailing  = errors.New("too many bad signatures from this address: try again later")
	errEndpointBusy = errors.New("too many requests being read: try again")
	errBodyBudget   = errors.New("too many bytes of unauthenticated requests held: try again")
)

// admission counts the requests being read and their bytes, per address and in all.
// The zero value is ready, with the bounds above. It is safe for concurrent use.
type admission struct {
	mu      sync.Mutex
	addrs   map[string]*addrState
	reading int // requests being read
	bytes   int // bytes taken by them (take)
	// now is the clock of the failure windows (nil: time.Now).
	now func() time.Time
	// The bounds; zero means the constant above (tests set them smaller).
	maxReading, maxPerAddr, budget, maxFailed int
	// shared reports whether a peer address stands for many clients, so that the
	// per-address bounds do not apply to it (nil: sharedPeer).
	shared func(addr string) bool
}

// sharedPeer reports whether addr is a loopback or private address: in front of the
// endpoint, that is a reverse proxy or a load balancer, and every request comes from
// it, Discord's and anyone else's alike. Turning it away for one client's bad
// signatures would turn Discord away with them.
func sharedPeer(addr string) bool {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast()
}

// perAddr reports whether the per-address bounds apply to addr.
func (a *admission) perAddr(addr string) bool {
	if a.shared != nil {
		return !a.shared(addr)
	}
	return !sharedPeer(addr)
}

// addrState is what admission knows of one remote address.
type addrState struct {
	reading  int       // its requests being read
	failures int       // its refused signatures since window
	window   time.Time // when its failure window began
}

func (a *admission) clock() time.Time {
	if a.now != nil {
		return a.now()
	}
	return time.Now()
}

func orDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

// state returns addr's state, made if need be; a.mu is held.
func (a *admission) state(addr string) *addrState {
	if a.addrs == nil {
		a.addrs = map[string]*addrState{}
	}
	st := a.addrs[addr]
	if st == nil {
		if len(a.addrs) >= maxTrackedAddrs {
			for k, v := range a.addrs {
				if v.reading == 0 {
					delete(a.addrs, k)
				}
			}
		}
		st = &addrState{}
		a.addrs[addr] = st
	}
	return st
}

// enter admits a request from addr to be read, or says why not. leave ends the
// request's read, giving back the bytes it took (held).
func (a *admission) enter(addr string) (leave func(held int), err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := &addrState{} // a shared peer's: counted nowhere
	if a.perAddr(addr) {
		st = a.state(addr)
		now := a.clock()
		if now.Sub(st.window) >= failureWindow {
			st.window, st.failures = now, 0
		}
	}
	switch {
	case st.failures > orDefault(a.maxFailed, maxFailures):
		return nil, errAddrFailing
	case st.reading >= orDefault(a.maxPerAddr, maxUnverifiedPerAddr):
		return nil, errAddrBusy
	case a.reading >= orDefault(a.maxReading, maxUnverified):
		return nil, errEndpointBusy
	}
	st.reading++
	a.reading++
	var once sync.Once
	return func(held int) {
		once.Do(func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			st.reading--
			a.reading--
			a.bytes -= held
		})
	}, nil
}

// take takes n bytes from the budget, or reports that they are not there.
func (a *admission) take(n int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.bytes+n > orDefault(a.budget, unverifiedBudget) {
		return false
	}
	a.bytes += n
	return true
}

// failed counts a refused signature from addr.
func (a *admission) failed(addr string) {
	if !a.perAddr(addr) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.state(addr)
	if now := a.clock(); now.Sub(st.window) >= failureWindow {
		st.window, st.failures = now, 0
	}
	st.failures++
}

// usage reports the requests being read and the bytes they hold.
func (a *admission) usage() (reading, bytes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.reading, a.bytes
}

// admissionStatus is the HTTP status of a refusal: 429 for what one address does too
// much, 503 for a full endpoint.
func admissionStatus(err error) int {
	switch {
	case errors.Is(err, errAddrBusy), errors.Is(err, errAddrFailing):
		return http.StatusTooManyRequests
	case errors.Is(err, errEndpointBusy), errors.Is(err, errBodyBudget):
		return http.StatusServiceUnavailable
	}
	return http.StatusServiceUnavailable
}

// remoteHost is the address of a request's peer without its port.
func remoteHost(remoteAddr string) string {
	if host, _, err := net.SplitHostPort(remoteAddr); err == nil {
		return host
	}
	return remoteAddr
}

// refuseEarly answers a request refused before (or while) its body is read, and
// closes the connection after the answer: the server then does not read the rest of
// the body to keep the connection.
func refuseEarly(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	http.Error(w, msg, status)
}
