// faults.go: failures the fake can stage that Discord shows in the wild: a gateway
// closed with a chosen code on identify (the first connect included), and a REST
// connection dropped without an answer (Failure.Hangup).

package discordfake

import (
	"net/http"
)

// gatewayClose is one staged close of a gateway connection.
type gatewayClose struct {
	code   int
	reason string
}

// CloseNextIdentify makes the next n gateway connections that identify be closed
// with code and reason instead of READY, as Discord closes a connection it cannot
// serve: 4000 (unknown error) and the like, after which a client reconnects, or a
// fatal code such as 4004 (authentication failed) or 4014 (disallowed intents).
// A bot's very first connect is one of them.
func (f *Fake) CloseNextIdentify(code int, reason string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range n {
		f.gw.closeNext = append(f.gw.closeNext, gatewayClose{code: code, reason: reason})
	}
}

// takeClose returns the next staged close, if any.
func (f *Fake) takeClose() (gatewayClose, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.gw.closeNext) == 0 {
		return gatewayClose{}, false
	}
	gc := f.gw.closeNext[0]
	f.gw.closeNext = f.gw.closeNext[1:]
	return gc, true
}

// Unwrap gives http.ResponseController the connection's own writer (to hijack it).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// hangup closes the request's connection without an answer.
func hangup(w http.ResponseWriter) {
	if sw, ok := w.(*statusWriter); ok {
		sw.errText = "hung up"
	}
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // ends the connection without an answer all the same
	}
	conn.Close()
}
