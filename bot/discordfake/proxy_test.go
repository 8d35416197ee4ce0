// Tests of the 429s the fake answers as a rate-limit proxy would.
package discordfake

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestProxyAndSharedRateLimits(t *testing.T) {
	f := &Fake{}
	f.rest.init()
	f.Fail(Failure{Route: "POST channels/*/messages", Count: 1, FromProxy: true, RetryAfter: 10 * time.Millisecond})
	f.Fail(Failure{Route: "PUT channels/*/messages/*/reactions/*/@me", Count: 1, Scope: "shared"})

	rec := httptest.NewRecorder()
	if !f.injectFailure(rec, "POST", "channels/1/messages") {
		t.Fatal("proxy failure not injected")
	}
	var body struct {
		RetryAfter float64 `json:"retry_after"`
		Global     *bool   `json:"global"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusTooManyRequests || body.RetryAfter != 1 || body.Global == nil || *body.Global {
		t.Errorf("proxy 429: %d %s (%v), want 429 with retry_after 1 (whole seconds), global false", rec.Code, rec.Body, err)
	}
	if _, canonical := rec.Header()["Retry-After"]; canonical {
		t.Error("the proxy's headers are written in canonical case; it writes them in lower case")
	}
	// Written in lower case, as the proxy writes them; a client reads them in any case.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { writeProxy429(w, time.Millisecond) }))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	h := resp.Header
	for k, want := range map[string]string{"Generated-By-Proxy": "true", "X-Ratelimit-Scope": "user", "Retry-After": "1", "Content-Type": "application/json"} {
		if got := h.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}

	rec = httptest.NewRecorder()
	if !f.injectFailure(rec, "PUT", "channels/1/messages/2/reactions/x/@me") {
		t.Fatal("shared failure not injected")
	}
	if got := rec.Header().Get("X-RateLimit-Scope"); got != "shared" {
		t.Errorf("scope %q, want shared", got)
	}
}
