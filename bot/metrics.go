// metrics.go: the bot's Prometheus metrics.

package bot

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

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
	dropped      prometheus.Counter
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
		Name: "gambit_errors_total", Help: "Errors by where they happened (respond, after, notify, handler, busy: an interaction refused with every slot taken).",
	}, []string{"where"})
	m.rateLimits = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gambit_discord_rate_limited_total", Help: "429 answers from Discord's REST API, by call.",
	}, []string{"call"})
	m.duplicates = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "gambit_duplicate_interactions_total", Help: "Interactions received twice and ignored the second time.",
	})
	m.dropped = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "gambit_notifications_dropped_total", Help: "Game events not posted because their channel had too many posts waiting.",
	})
	m.reg.MustRegister(m.interactions, m.latency, m.errors, m.rateLimits, m.duplicates, m.dropped,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if liveGames != nil {
		m.liveGames = prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "gambit_live_games", Help: "Games in progress.",
		}, liveGames)
		m.reg.MustRegister(m.liveGames)
	}
	return m
}

// WatchStore adds the gauge gambit_store_up: 1 while up reports the store answering
// (the latest /healthz probe, Health.StoreUp), else 0.
func (m *Metrics) WatchStore(up func() bool) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "gambit_store_up", Help: "1 while the store answered its latest health probe, else 0.",
	}, func() float64 {
		if up() {
			return 1
		}
		return 0
	}))
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

func (m *Metrics) notificationDropped() {
	if m != nil {
		m.dropped.Inc()
	}
}

func (m *Metrics) duplicate() {
	if m != nil {
		m.duplicates.Inc()
	}
}
