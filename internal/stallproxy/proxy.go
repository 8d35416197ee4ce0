// Package stallproxy is a loopback TCP proxy for fault tests: it forwards connections
// to a server until told to stall, then holds every byte in both directions (the
// connections stay open, as across a network that drops packets) until told to
// resume, when what it held is delivered, as TCP retransmissions would deliver it.
package stallproxy

import (
	"fmt"
	"net"
	"sync"
	"sync/atomic"
)

// Proxy forwards the connections accepted on Addr to the target.
type Proxy struct {
	ln     net.Listener
	target string

	mu      sync.Mutex
	stalled bool
	resumed *sync.Cond
	conns   map[net.Conn]struct{}
	closed  bool

	pumps   atomic.Int64 // pump goroutines alive
	holding atomic.Int64 // pumps holding bytes while stalled
	wg      sync.WaitGroup
}

// Start listens on a free loopback port and forwards to target (host:port).
func Start(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("stallproxy: listen: %w", err)
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.resumed = sync.NewCond(&p.mu)
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Stall stops forwarding: bytes read from either side are held.
func (p *Proxy) Stall() {
	p.mu.Lock()
	p.stalled = true
	p.mu.Unlock()
}

// Resume forwards again, starting with what was held.
func (p *Proxy) Resume() {
	p.mu.Lock()
	p.stalled = false
	p.resumed.Broadcast()
	p.mu.Unlock()
}

// Pumps reports how many of the proxy's own goroutines forward bytes, so a test that
// counts the process's goroutines can leave them out.
func (p *Proxy) Pumps() int { return int(p.pumps.Load()) }

// Holding reports how many pumps hold bytes waiting for Resume.
func (p *Proxy) Holding() int { return int(p.holding.Load()) }

// Close stops listening, closes every connection and waits for the pumps.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	p.closed = true
	p.stalled = false
	p.resumed.Broadcast()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		if !p.track(c, up) {
			return
		}
		p.pumps.Add(2)
		p.wg.Add(2)
		go p.pump(up, c)
		go p.pump(c, up)
	}
}

// track records a connection pair; false once the proxy is closed.
func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *Proxy) forget(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	c.Close()
}

// pump copies src to dst, holding each chunk while the proxy is stalled. When src ends,
// dst is closed (after what was held is delivered).
func (p *Proxy) pump(dst, src net.Conn) {
	defer p.wg.Done()
	defer p.pumps.Add(-1)
	defer p.forget(dst)
	defer p.forget(src)
	buf := make([]byte, 32<<10)
	for {
		n, rerr := src.Read(buf)
		if n > 0 {
			p.waitResumed()
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if rerr != nil { // EOF, or a connection closed
			return
		}
	}
}

func (p *Proxy) waitResumed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stalled {
		return
	}
	p.holding.Add(1)
	for p.stalled {
		p.resumed.Wait()
	}
	p.holding.Add(-1)
}
