// security.go: what wraps every request: the security headers and the strict
// Content-Security-Policy, the size of a request, a recovered panic, and the request
// log, which names the route's pattern and never the URL (links carry tokens).

package web

import (
	"bufio"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"time"
)

// contentSecurityPolicy allows only this origin's own script, style and images (the
// piece art is inline SVG in the page, which needs no permission), sockets to this
// origin, no inline script, no framing, no plugin, no form to another site.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// maxBodyBytes bounds a request body: the forms are a move and a token.
const maxBodyBytes = 4 << 10

// statusWriter remembers the status of a response for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Hijack hands the connection to the WebSocket upgrade (gorilla asks the writer for
// http.Hijacker itself).
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("web: the connection cannot be taken over")
	}
	if w.status == 0 {
		w.status = http.StatusSwitchingProtocols
	}
	return h.Hijack()
}

// Unwrap lets http.ResponseController (and the WebSocket upgrade) reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// protect wraps h with the headers every response carries, the body limit, the panic
// guard and the request log.
func (s *Server) protect(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer") // a page's URL holds its game's token
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		hd.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()")
		if s.secure {
			hd.Set("Strict-Transport-Security", "max-age=31536000")
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		}
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("web: handler panicked", "route", r.Pattern, "panic", p, "stack", string(debug.Stack()))
				if sw.status == 0 {
					http.Error(sw, "Something went wrong on our side.", http.StatusInternalServerError)
				}
			}
			// r.Pattern names the route ("GET /g/{id}/{token}"), never the URL: the
			// tokens of links and sign-ins stay out of the log.
			s.log.LogAttrs(r.Context(), slog.LevelDebug, "web request", slog.String("method", r.Method),
				slog.String("route", r.Pattern), slog.Int("status", sw.status), slog.Duration("took", time.Since(start)))
		}()
		h.ServeHTTP(sw, r)
	})
}
