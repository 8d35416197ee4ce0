package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gambitchess/gambit/commands"
)

// Metrics are the bot's Prometheus metrics, in a registry of their own (no global
// state). A nil *Metrics records nothing, so code and tests need not check.
type Metrics struct {
	reg          *prometheus.Registry
	interactions *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	errors       *prometheus.CounterVec
	rateLimits   *prometheus.CounterVec
	duplicates   prometheus.Counter
	liveGames    prometheus.GaugeFunc
}

// NewMetrics makes the metrics. liveGames reports the number of games in progress
// (nil: the gauge is left out).
func NewMetrics(liveGames func() float64) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.interactions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gambit_interactions_total", Help: "Interactions answered, by command (or component route) and outcome (ok, refused, error).",
	}, []string{"command", "outcome"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "gambit_interaction_seconds", Help: "Time from receiving an interaction to its handler's answer.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
	}, []string{"command"})
	m.errors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gambit_errors_total", Help: "Errors by where they happened (respond, after, notify, handler).",
	}, []string{"where"})
	m.rateLimits = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gambit_discord_rate_limited_total", Help: "429 answers from Discord's REST API, by call.",
	}, []string{"call"})
	m.duplicates = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "gambit_duplicate_interactions_total", Help: "Interactions received twice and ignored the second time.",
	})
	m.reg.MustRegister(m.interactions, m.latency, m.errors, m.rateLimits, m.duplicates,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if liveGames != nil {
		m.liveGames = prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "gambit_live_games", Help: "Games in progress.",
		}, liveGames)
		m.reg.MustRegister(m.liveGames)
	}
	return m
}

// Registry returns the registry holding the metrics.
func (m *Metrics) Registry() *prometheus.Registry {
	if m == nil {
		return nil
	}
	return m.reg
}

func (m *Metrics) interaction(name string, err error, took time.Duration) {
	if m == nil {
		return
	}
	outcome := "ok"
	var ue *commands.UserError
	switch {
	case errors.As(err, &ue):
		outcome = "refused"
	case err != nil:
		outcome = "error"
		m.errors.WithLabelValues("handler").Inc()
	}
	m.interactions.WithLabelValues(name, outcome).Inc()
	m.latency.WithLabelValues(name).Observe(took.Seconds())
}

func (m *Metrics) failed(where string) {
	if m != nil {
		m.errors.WithLabelValues(where).Inc()
	}
}

func (m *Metrics) rateLimited(call string) {
	if m != nil {
		m.rateLimits.WithLabelValues(call).Inc()
	}
}

func (m *Metrics) duplicate() {
	if m != nil {
		m.duplicates.Inc()
	}
}

// Health is what /healthz reports.
type Health struct {
	// Ready is set once the commands are registered and every shard is connected.
	ready atomic.Bool
	// shards reports each shard's connection state.
	shards func() []bool
}

// healthReport is the JSON body of /healthz.
type healthReport struct {
	Status string `json:"status"`
	Shards []bool `json:"shards_connected"`
}

// ServeHTTP answers 200 when the bot is ready and every shard connected, else 503.
func (h *Health) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rep := healthReport{Status: "ok"}
	if h.shards != nil {
		rep.Shards = h.shards()
	}
	ok := h.ready.Load()
	for _, c := range rep.Shards {
		ok = ok && c
	}
	code := http.StatusOK
	if !ok {
		rep.Status, code = "unavailable", http.StatusServiceUnavailable
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(rep)
}

// serveOps serves /metrics, /healthz and /backup on addr until stopped. It returns
// once the listener is up (or failed), with the address actually bound, and the
// function that stops it.
//
// GET /backup streams a consistent copy of the store (taken in one read transaction
// while games go on): the way to back up a running bot, whose store no other process
// may open. The address should be a local one (127.0.0.1:9090).
func serveOps(ctx context.Context, addr string, m *Metrics, h *Health, backup func(io.Writer) (int64, error), log *slog.Logger) (string, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("metrics.address %q: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.Registry(), promhttp.HandlerOpts{}))
	mux.Handle("GET /healthz", h)
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="gambit-backup.db"`)
		n, err := backup(w)
		if err != nil {
			log.Error("backup over http", "err", err, "bytes", n)
			return
		}
		log.Info("backup over http", "bytes", n, "remote", r.RemoteAddr)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server", "err", err)
		}
	}()
	stop := func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		<-done
	}
	return ln.Addr().String(), stop, nil
}
