package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
)

func TestRetryAfter(t *testing.T) {
	cases := []struct {
		header, body string
		want         time.Duration
	}{
		{"", `{"retry_after": 0.25, "global": false}`, 250 * time.Millisecond},
		{"2", `{"message": "You are being rate limited."}`, 2 * time.Second},
		{"", `not json`, time.Second},
		{"", `{"retry_after": -1}`, time.Second},
	}
	for _, c := range cases {
		h := http.Header{}
		if c.header != "" {
			h.Set("Retry-After", c.header)
		}
		if got := retryAfter(h, []byte(c.body)); got != c.want {
			t.Errorf("retryAfter(%q, %q) = %v, want %v", c.header, c.body, got, c.want)
		}
	}
}

// restAgainst returns a REST client whose API base is srv.
func restAgainst(t *testing.T, srv *httptest.Server) *REST {
	t.Helper()
	s, err := newSession(DiscordOptions{Token: "t0k3n", RESTURL: srv.URL + "/api/v10/"})
	if err != nil {
		t.Fatal(err)
	}
	return NewREST(s, nil)
}

func TestInteractionCallRetries(t *testing.T) {
	var calls atomic.Int32
	var script []int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1)) - 1
		if !strings.HasPrefix(r.URL.Path, "/api/v10/interactions/1/tok/callback") || r.Header.Get("Authorization") != "" {
			t.Errorf("request %s %s auth %q, want the callback without an Authorization header", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		}
		status := 204
		if n < len(script) {
			status = script[n]
		}
		switch status {
		case 429:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(429)
			w.Write([]byte(`{"message":"You are being rate limited.","retry_after":0.02,"global":false}`))
		case 430: // a long rate limit
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(429)
			w.Write([]byte(`{"message":"You are being rate limited.","retry_after":30,"global":false}`))
		default:
			w.WriteHeader(status)
			if status >= 400 {
				w.Write([]byte(`{"message":"Invalid Form Body","code":50035}`))
			}
		}
	}))
	defer srv.Close()
	rest := restAgainst(t, srv)
	i := &discordgo.Interaction{ID: "1", Token: "tok", AppID: "a"}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "hi"}}
	files := []commands.File{{Name: "board.png", ContentType: "image/png", Data: []byte("\\x89PNG")}}
	cases := []struct {
		name   string
		script []int
		calls  int32
		check  func(error) bool
	}{
		{"ok", nil, 1, func(err error) bool { return err == nil }},
		{"429 then ok", []int{429, 204}, 2, func(err error) bool { return err == nil }},
		{"502 twice then ok", []int{502, 503, 204}, 3, func(err error) bool { return err == nil }},
		{"retry after past the deadline", []int{430}, 1, func(err error) bool { return errors.Is(err, ErrRateLimited) }},
		{"bad request", []int{400}, 1, func(err error) bool {
			var he *HTTPError
			return errors.As(err, &he) && he.Status == 400 && strings.Contains(he.Body, "50035")
		}},
	}
	for _, c := range cases {
		calls.Store(0)
		script = c.script
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := rest.Respond(ctx, i, resp, files)
		cancel()
		if !c.check(err) || calls.Load() != c.calls {
			t.Errorf("%s: err %v after %d calls, want %d calls", c.name, err, calls.Load(), c.calls)
		}
	}
}

// TestRateLimitMetricLabels: the rate-limit counter is labelled by the kind of call,
// never by the channel it went to: 429s on fifty channels are one series.
func TestRateLimitMetricLabels(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"message":"You are being rate limited.","retry_after":30,"global":false}`))
	}))
	defer srv.Close()
	s, err := newSession(DiscordOptions{Token: "t0k3n", RESTURL: srv.URL + "/api/v10/"})
	if err != nil {
		t.Fatal(err)
	}
	m := NewMetrics(nil)
	rest := NewREST(s, m)
	for k := range 50 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := rest.Send(ctx, fmt.Sprint(1000+k), &discordgo.MessageSend{Content: "hi"}, nil)
		cancel()
		if !errors.Is(err, ErrRateLimited) {
			t.Fatalf("send to channel %d: %v, want ErrRateLimited", 1000+k, err)
		}
	}
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, f := range families {
		if f.GetName() != "gambit_discord_rate_limited_total" {
			continue
		}
		for _, metric := range f.GetMetric() {
			for _, l := range metric.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
		}
	}
	if len(labels) != 1 || labels[0] != "call=send message" {
		t.Errorf("rate-limit series %v, want the one call=send message", labels)
	}
}
