// health.go: what /healthz reports, on the ops endpoint and on the interactions
// endpoint: ready once the commands are registered and every shard is connected, and
// while the store answers.

package bot

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Health is what /healthz reports. The zero value is not ready and has no shards.
type Health struct {
	// ready is set once the commands are registered and every shard is connected.
	ready atomic.Bool
	// shards reports each shard's connection state (nil over HTTP).
	shards func() []bool

	// probe checks that the store answers (nil: not checked); probeMu makes one
	// probe at a time, whose outcome answers every request for probeFresh.
	probe    func(ctx context.Context) error
	probeMu  sync.Mutex
	probedAt time.Time
	probeErr error
}

// Store probe timing: a probe gets probeTimeout to answer (a database that takes
// longer counts as not answering) and its outcome is reused for probeFresh, so a load
// balancer polling often costs the database one cheap statement a second at most.
const (
	probeTimeout = time.Second
	probeFresh   = time.Second
)

// SetStoreProbe makes /healthz report unavailable while probe fails: probe checks
// that the store answers (storage.Pinger's Ping, or a read). Call it before serving.
func (h *Health) SetStoreProbe(probe func(ctx context.Context) error) {
	h.probe = probe
}

// StoreUp reports whether the store answers its probe (true without a probe); a
// probe at most probeFresh old answers.
func (h *Health) StoreUp() bool {
	return h.probe == nil || h.checkStore(context.Background()) == nil
}

// checkStore runs the probe, or reuses its outcome while fresh.
func (h *Health) checkStore(ctx context.Context) error {
	h.probeMu.Lock()
	defer h.probeMu.Unlock()
	if !h.probedAt.IsZero() && time.Since(h.probedAt) < probeFresh {
		return h.probeErr
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), probeTimeout)
	defer cancel()
	h.probeErr = h.probe(pctx)
	h.probedAt = time.Now()
	return h.probeErr
}

// SetReady says whether the bot is ready: set once it runs, cleared as its shutdown
// starts.
func (h *Health) SetReady(ready bool) { h.ready.Store(ready) }

// healthReport is the JSON body of /healthz.
type healthReport struct {
	Status string `json:"status"`
	Shards []bool `json:"shards_connected"`
	// Store is "ok" or "not answering" (absent without a store probe).
	Store string `json:"store,omitempty"`
}

// ServeHTTP answers 200 when the bot is ready, every shard connected and the store
// answering, else 503.
func (h *Health) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rep := healthReport{Status: "ok"}
	if h.shards != nil {
		rep.Shards = h.shards()
	}
	ok := h.ready.Load()
	for _, c := range rep.Shards {
		ok = ok && c
	}
	if h.probe != nil {
		rep.Store = "ok"
		if err := h.checkStore(r.Context()); err != nil {
			rep.Store, ok = "not answering", false
		}
	}
	code := http.StatusOK
	if !ok {
		rep.Status, code = "unavailable", http.StatusServiceUnavailable
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(rep)
}
