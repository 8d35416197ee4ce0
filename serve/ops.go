// ops.go: the ops endpoint (metrics.address): /metrics, /healthz and the live backup,
// with its timeouts, its Host check and its shutdown.

package serve

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/config"
)

// Timeouts of the ops endpoint.
const (
	// opsReadTimeout bounds reading a request, headers and body.
	opsReadTimeout = 10 * time.Second
	// opsWriteTimeout bounds writing the answer of /metrics and /healthz (the backup
	// sets its own deadlines, chunk by chunk).
	opsWriteTimeout = 10 * time.Second
	// opsIdleTimeout closes idle keep-alive connections.
	opsIdleTimeout = time.Minute
	// opsShutdownGrace is how long stopping the endpoint waits for answers in progress
	// before it closes their connections.
	opsShutdownGrace = 2 * time.Second
	// backupStallTimeout is the longest one chunk of a live backup may take to leave: a
	// client that stops reading is cut off after it.
	backupStallTimeout = 30 * time.Second
)

// opsOptions say what the ops endpoint serves.
type opsOptions struct {
	// Addr is the address to listen on (metrics.address).
	Addr    string
	Metrics *bot.Metrics
	// Health answers /healthz (the Discord runtime's bot.Health).
	Health http.Handler
	// Backup writes a consistent copy of the store (storage.Store.Backup); with
	// BackupToken, GET /backup serves it. An error that wraps errors.ErrUnsupported
	// (a store the bot cannot copy itself) is answered 501.
	Backup func(context.Context, io.Writer) (int64, error)
	// BackupToken is the bearer token /backup asks for ("" : /backup is off).
	BackupToken string
	// StageDir is the directory a live backup is copied into before it is sent (the
	// store's own directory, which has room for a copy of it; with PostgreSQL,
	// backups.dir when set).
	StageDir string
	// Stall is the longest one chunk of a backup may take to leave (default
	// backupStallTimeout).
	Stall time.Duration
	Log   *slog.Logger
}

// opsFromConfig returns the ops endpoint's options for a configuration and its store.
func opsFromConfig(cfg config.Config, backup func(context.Context, io.Writer) (int64, error), m *bot.Metrics, h http.Handler, log *slog.Logger) opsOptions {
	stage := filepath.Dir(cfg.Storage.Path)
	if abs, err := filepath.Abs(cfg.Storage.Path); err == nil {
		stage = filepath.Dir(abs)
	}
	if cfg.Storage.Driver == "postgres" && cfg.Backups.Dir != "" {
		stage = cfg.Backups.Dir // no store file beside which to stage: the backups' room
	}
	return opsOptions{Addr: cfg.Metrics.Address, Metrics: m, Health: h, Backup: backup,
		BackupToken: cfg.Backups.EndpointToken, StageDir: stage, Log: log}
}

// opsServer is the running ops endpoint.
type opsServer struct {
	opsOptions
	// host is the listener's configured host, also accepted as a Host header.
	host string
	// tokenSum is the SHA-256 of the backup token: compared in constant time, whatever
	// the length of what a client sends.
	tokenSum [sha256.Size]byte
	// sending is set while a backup is being sent: one at a time.
	sending  atomic.Bool
	handlers sync.WaitGroup
}

// serveOps serves /metrics, /healthz and (with a token) /backup on o.Addr until
// stopped. It returns once the listener is up (or failed), with the address actually
// bound, and the function that stops it: it waits opsShutdownGrace for answers in
// progress, then closes their connections and waits for their handlers.
//
// /backup refuses a request whose Host header names a host other than localhost, an IP
// address or the configured host (421), so a web page cannot reach it through a DNS name
// rebound to this machine (/metrics and /healthz answer any Host: a scraper may know the
// bot by a name, and they hand out nothing private). Every answer has a write deadline,
// so a client that stops reading holds nothing for long.
func serveOps(o opsOptions) (string, func(), error) {
	if o.Stall <= 0 {
		o.Stall = backupStallTimeout
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return "", nil, fmt.Errorf("metrics.address %q: %w", o.Addr, err)
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return "", nil, fmt.Errorf("metrics.address %q: %w", o.Addr, err)
	}
	s := &opsServer{opsOptions: o, host: host}
	if o.BackupToken != "" {
		s.tokenSum = sha256.Sum256([]byte(o.BackupToken))
		if !config.LoopbackHost(host) {
			o.Log.Warn("the live backup is served on a non-loopback address over plain HTTP: its token and the copy cross the network unencrypted",
				"address", o.Addr)
		}
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(o.Metrics.Registry(), promhttp.HandlerOpts{}))
	mux.Handle("GET /healthz", o.Health)
	mux.HandleFunc("GET /backup", s.serveBackup)
	srv := &http.Server{
		Handler:           s.guard(mux),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       opsReadTimeout,
		IdleTimeout:       opsIdleTimeout,
		ErrorLog:          slog.NewLogLogger(o.Log.Handler(), slog.LevelWarn),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			o.Log.Error("ops endpoint", "err", err)
		}
	}()
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), opsShutdownGrace)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			srv.Close() // cut off what did not finish in time
		}
		<-done
		s.handlers.Wait()
	}
	return ln.Addr().String(), stop, nil
}

// guard counts the handlers in progress (stop waits for them) and gives every answer a
// write deadline.
func (s *opsServer) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.handlers.Add(1)
		defer s.handlers.Done()
		http.NewResponseController(w).SetWriteDeadline(time.Now().Add(opsWriteTimeout))
		next.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether a request's Host header names this endpoint: localhost,
// an IP address, or the host of metrics.address. Any other name is what a DNS rebinding
// attack sends (a page on the attacker's domain, whose name now resolves to this
// machine): refused.
func (s *opsServer) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	switch {
	case host == "":
		return false
	case strings.EqualFold(host, "localhost"), net.ParseIP(host) != nil:
		return true
	}
	return s.host != "" && strings.EqualFold(host, s.host)
}
