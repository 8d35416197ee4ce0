package discordnet

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// seen is one request as the test server received it.
type seen struct {
	Method, Path, RawPath, Query, Auth, Body string
}

// recorder is an httptest server that records requests and answers JSON.
type recorder struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []seen
}

func newRecorder(t *testing.T, answer func(path string) string) *recorder {
	t.Helper()
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.reqs = append(r.reqs, seen{req.Method, req.URL.Path, req.URL.EscapedPath(), req.URL.RawQuery, req.Header.Get("Authorization"), string(body)})
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answer(req.URL.Path))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) requests() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]seen(nil), r.reqs...)
}

// stubTransport stands in for the internet: it records what would have left
// the process and answers every request with body.
type stubTransport struct {
	mu   sync.Mutex
	urls []string
	body string
}

func (s *stubTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.urls = append(s.urls, req.Method+" "+req.URL.String())
	s.mu.Unlock()
	return &http.Response{
		StatusCode: http.StatusOK,
		Status:     "200 OK",
		Header:     http.Header{"Content-Type": {"application/json"}},
		Body:       io.NopCloser(strings.NewReader(s.body)),
		Request:    req,
	}, nil
}

func newSession(t *testing.T) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot secret-token")
	if err != nil {
		t.Fatalf("discordgo.New: %v", err)
	}
	return s
}

func TestConfigureRewritesREST(t *testing.T) {
	rec := newRecorder(t, func(path string) string {
		if strings.HasSuffix(path, "/users/@me") {
			return `{"id":"42","username":"gambit","bot":true}`
		}
		return `{}`
	})
	s := newSession(t)
	if err := Configure(s, rec.srv.URL+"/api/v10", ""); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	u, err := s.User("@me")
	if err != nil {
		t.Fatalf("User(@me): %v", err)
	}
	if u.ID != "42" || u.Username != "gambit" {
		t.Errorf("User(@me) = %+v, want id 42 gambit", u)
	}
	if _, err := s.Request("PATCH", discordgo.EndpointAPI+"channels/7?with_counts=true&x=%2F", map[string]string{"name": "n"}); err != nil {
		t.Fatalf("PATCH channel: %v", err)
	}
	// discordgo escapes '#' as %23 in reaction paths; the escape must survive.
	if err := s.MessageReactionAdd("7", "8", "#⃣"); err != nil {
		t.Fatalf("MessageReactionAdd: %v", err)
	}

	got := rec.requests()
	want := []seen{
		{Method: "GET", Path: "/api/v10/users/@me", Auth: "Bot secret-token"},
		{Method: "PATCH", Path: "/api/v10/channels/7", Query: "with_counts=true&x=%2F", Auth: "Bot secret-token", Body: `{"name":"n"}`},
		{Method: "PUT", Path: "/api/v10/channels/7/messages/8/reactions/#⃣/@me", RawPath: "/api/v10/channels/7/messages/8/reactions/%23%E2%83%A3/@me", Auth: "Bot secret-token"},
	}
	if len(got) != len(want) {
		t.Fatalf("server saw %d requests, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		w := want[i]
		if w.RawPath == "" {
			w.RawPath = w.Path
		}
		if got[i] != w {
			t.Errorf("request %d = %+v, want %+v", i, got[i], w)
		}
	}
}

func TestConfigureGateway(t *testing.T) {
	const gw = "ws://127.0.0.1:1/gateway"
	rec := newRecorder(t, func(path string) string {
		if strings.HasSuffix(path, "/gateway/bot") {
			return `{"url":"wss://gateway.invalid","shards":3,"session_start_limit":{"total":1000,"remaining":999,"reset_after":1,"max_concurrency":1}}`
		}
		return `{"url":"wss://gateway.invalid"}`
	})
	s := newSession(t)
	if err := Configure(s, rec.srv.URL+"/api/v10/", gw); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	got, err := s.Gateway()
	if err != nil {
		t.Fatalf("Gateway: %v", err)
	}
	if got != gw+"/" {
		t.Errorf("Gateway() = %q, want %q", got, gw+"/")
	}
	if n := len(rec.requests()); n != 0 {
		t.Errorf("GET gateway reached the REST server (%d requests); want it answered locally", n)
	}
	bot, err := s.GatewayBot()
	if err != nil {
		t.Fatalf("GatewayBot: %v", err)
	}
	if bot.URL != gw+"/" || bot.Shards != 3 || bot.SessionStartLimit.Remaining != 999 {
		t.Errorf("GatewayBot() = %+v, want url %q, 3 shards, 999 remaining", bot, gw+"/")
	}
}

func TestConfigureGatewayOnly(t *testing.T) {
	const gw = "wss://proxy.test/gw"
	stub := &stubTransport{body: `{"url":"wss://gateway.discord.gg","shards":1}`}
	s := newSession(t)
	s.Client = &http.Client{Transport: stub, Timeout: 7 * time.Second}
	if err := Configure(s, "", gw); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	if s.Client.Timeout != 7*time.Second {
		t.Errorf("client timeout = %v, want the session's 7s kept", s.Client.Timeout)
	}
	if got, err := s.Gateway(); err != nil || got != gw+"/" {
		t.Errorf("Gateway() = %q, %v; want %q", got, err, gw+"/")
	}
	bot, err := s.GatewayBot()
	if err != nil || bot.URL != gw+"/" {
		t.Errorf("GatewayBot() = %+v, %v; want url %q", bot, err, gw+"/")
	}
	if _, err := s.User("@me"); err != nil {
		t.Fatalf("User: %v", err)
	}
	want := []string{
		"GET " + discordgo.EndpointGatewayBot,
		"GET " + discordgo.EndpointUser("@me"),
	}
	if strings.Join(stub.urls, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests sent on = %q, want %q", stub.urls, want)
	}
}

func TestConfigureLeavesOtherHosts(t *testing.T) {
	stub := &stubTransport{body: `{}`}
	s := newSession(t)
	s.Client = &http.Client{Transport: stub}
	if err := Configure(s, "http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/gateway"); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	for _, u := range []string{
		discordgo.EndpointCDNAvatars + "1/2.png",
		discordgo.EndpointSmActive,
		"https://discord.com/channels/1/2", // web client, not the API
	} {
		resp, err := s.Client.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		resp.Body.Close()
	}
	want := []string{
		"GET " + discordgo.EndpointCDNAvatars + "1/2.png",
		"GET " + discordgo.EndpointSmActive,
		"GET https://discord.com/channels/1/2",
	}
	if strings.Join(stub.urls, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests sent on = %q, want %q", stub.urls, want)
	}
}

func TestConfigureEmptyIsNoOp(t *testing.T) {
	s := newSession(t)
	before := s.Client
	if err := Configure(s, "", ""); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	if s.Client != before {
		t.Error("Configure with empty URLs replaced the session's client")
	}
}

func TestConfigureRejects(t *testing.T) {
	tests := []struct {
		name, rest, gateway, wantErr string
	}{
		{"rest scheme", "ftp://h/api/v10/", "", "scheme must be http or https"},
		{"rest relative", "/api/v10/", "", "scheme must be http or https"},
		{"rest no host", "http:///api/v10/", "", "no host"},
		{"rest query", "http://h/api/v10/?x=1", "", "query or fragment"},
		{"rest fragment", "http://h/api/v10/#x", "", "query or fragment"},
		{"rest unparsable", "http://h:port/", "", "parse discord rest url"},
		{"gateway http", "", "http://h/gateway", "scheme must be ws or wss"},
		{"gateway no host", "", "ws:///gateway", "no host"},
		{"gateway query", "", "ws://h/gateway?v=10", "query or fragment"},
		{"gateway unparsable", "", "ws://h:port", "parse discord gateway url"},
		// A proxy's password is in no error, whatever is wrong with the URL.
		{"rest scheme, password", "ftp://u:pr0xyS3cret@h/api/v10/", "", "scheme must be http or https"},
		{"rest query, password", "http://u:pr0xyS3cret@h/api/v10/?password=pr0xyS3cret", "", "query or fragment"},
		{"rest unparsable, password", "http://u:pr0xyS3cret@h:port/", "", "parse discord rest url"},
		{"gateway query, password", "", "ws://u:pr0xyS3cret@h/gateway?v=10", "query or fragment"},
		{"gateway unparsable, password", "", "ws://u:pr0xyS3cret@h:port", "parse discord gateway url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t)
			before := s.Client
			err := Configure(s, tt.rest, tt.gateway)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Configure(%q, %q) error = %v, want it to mention %q", tt.rest, tt.gateway, err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "pr0xyS3cret") {
				t.Errorf("Configure's error shows the URL's password: %v", err)
			}
			if s.Client != before {
				t.Error("a rejected Configure replaced the session's client")
			}
		})
	}
}

func TestAPIRelativePath(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"/api/v9/users/@me", "users/@me", true},
		{"/api/v10/gateway", "gateway", true},
		{"/api/gateway", "gateway", true},
		{"/api/v9/", "", true},
		{"/api/version/x", "version/x", true},
		{"/api/v/x", "v/x", true},
		{"/channels/1", "", false},
		{"/apix/v9/x", "", false},
	}
	for _, tt := range tests {
		got, ok := APIRelativePath(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("APIRelativePath(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestGatewayBotBadJSON(t *testing.T) {
	stub := &stubTransport{body: `not json`}
	tr, err := NewTransport(stub, "", "ws://127.0.0.1/gateway")
	if err != nil {
		t.Fatalf("NewTransport: %v", err)
	}
	req, _ := http.NewRequest("GET", discordgo.EndpointGatewayBot, nil)
	_, err = tr.RoundTrip(req)
	var syntax *json.SyntaxError
	if !errors.As(err, &syntax) {
		t.Errorf("RoundTrip error = %v, want a JSON syntax error", err)
	}
}

// FuzzAPIRelativePath checks that stripping the API prefix and putting a
// base in front never panics and only drops the prefix.
func FuzzAPIRelativePath(f *testing.F) {
	for _, s := range []string{"/api/v9/users/@me", "/api/v10/", "/api/", "/api/v99999/x", "/x", "", "/api/v1/%23/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		rel, ok := APIRelativePath(p)
		if !ok {
			if strings.HasPrefix(p, "/api/") {
				t.Fatalf("APIRelativePath(%q) rejected an /api/ path", p)
			}
			return
		}
		if !strings.HasSuffix(p, rel) {
			t.Fatalf("APIRelativePath(%q) = %q, not a suffix", p, rel)
		}
		stub := &stubTransport{body: "{}"}
		tr, err := NewTransport(stub, "http://127.0.0.1:1/base/", "")
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequest("GET", "https://discord.com"+p, nil)
		if err != nil || req.URL.EscapedPath() != p {
			return // not a path discordgo could produce
		}
		if _, err := tr.RoundTrip(req); err != nil {
			return
		}
		if len(stub.urls) != 1 || !strings.HasPrefix(stub.urls[0], "GET http://127.0.0.1:1/base/") {
			t.Fatalf("request for %q sent as %q, want it under the base", p, stub.urls)
		}
	})
}

func TestCloseStopsReconnects(t *testing.T) {
	s := newSession(t)
	if err := Close(s); err != nil {
		t.Fatalf("Close of an unopened session: %v", err)
	}
	if s.ShouldReconnectOnError {
		t.Error("Close left ShouldReconnectOnError on")
	}
}
