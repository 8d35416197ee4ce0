// health.go: what /healthz reports, on the ops endpoint and on the interactions
// endpoint: ready once the commands are registered and every shard is connected.

package bot

import (
	"encoding/json"
	"net/http"
	"sync/atomic"
)

// Health is what /healthz reports. The zero value is not ready and has no shards.
type Health struct {
	// ready is set once the commands are registered and every shard is connected.
	ready atomic.Bool
	// shards reports each shard's connection state (nil over HTTP).
	shards func() []bool
}

// SetReady says whether the bot is ready: set once it runs, cleared as its shutdown
// starts.
func (h *Health) SetReady(ready bool) { h.ready.Store(ready) }

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
