// Package discordnet points a discordgo session at a Discord-compatible REST
// base URL and gateway URL instead of Discord's own hosts.
//
// discordgo builds every REST URL from package variables rooted at
// https://discord.com/api/v9/ and learns the websocket URL by asking
// GET gateway. Both are redirected here by one http.RoundTripper set as the
// session's Client transport:
//
//   - a request under https://discord.com/api/vN/ (or /api/) is sent to the
//     configured REST base instead, keeping the rest of the path and the query;
//   - when a gateway URL is configured, GET gateway is answered locally with
//     it, and the url field of GET gateway/bot is replaced by it, so the
//     session dials the configured gateway (discordgo v0.29 ignores
//     resume_gateway_url and reconnects to the URL it got from GET gateway).
//
// Requests for other hosts (the CDN, the status page) pass through untouched.
package discordnet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/internal/redact"
)

// defaultTimeout is the request timeout discordgo.New gives its client; it is
// used when the session has no client at all.
const defaultTimeout = 20 * time.Second

// Transport rewrites requests for Discord's REST API to another base URL and
// answers gateway lookups with another gateway URL. The zero value is not
// usable; build one with NewTransport.
type Transport struct {
	base       http.RoundTripper
	apiScheme  string
	apiHost    string
	rest       *url.URL // nil: keep Discord's own API host
	gatewayURL string   // "": keep the gateway Discord reports
}

// NewTransport returns a Transport that sends rewritten requests through base
// (http.DefaultTransport when nil). restURL is the API base that replaces
// https://discord.com/api/vN/, for example "http://127.0.0.1:8080/api/v10/";
// gatewayURL is a ws:// or wss:// URL such as "ws://127.0.0.1:8080/gateway".
// An empty string leaves that part pointing at Discord.
func NewTransport(base http.RoundTripper, restURL, gatewayURL string) (*Transport, error) {
	api, err := url.Parse(discordgo.EndpointDiscord)
	if err != nil {
		return nil, fmt.Errorf("parse discordgo endpoint %q: %w", discordgo.EndpointDiscord, err)
	}
	if base == nil {
		base = http.DefaultTransport
	}
	t := &Transport{base: base, apiScheme: api.Scheme, apiHost: strings.ToLower(api.Host)}
	if restURL != "" {
		t.rest, err = parseRESTURL(restURL)
		if err != nil {
			return nil, err
		}
	}
	if gatewayURL != "" {
		if err := checkGatewayURL(gatewayURL); err != nil {
			return nil, err
		}
		t.gatewayURL = gatewayURL
	}
	return t, nil
}

// Configure makes s use restURL for REST calls and gatewayURL for the
// websocket gateway; see NewTransport for their form. Empty strings mean the
// real Discord; when both are empty s is left untouched. The session's
// client timeout, redirect policy, cookie jar and transport are kept (the
// transport is wrapped). Call Configure before s.Open.
func Configure(s *discordgo.Session, restURL, gatewayURL string) error {
	if restURL == "" && gatewayURL == "" {
		return nil
	}
	old := s.Client
	if old == nil {
		old = &http.Client{Timeout: defaultTimeout}
	}
	t, err := NewTransport(old.Transport, restURL, gatewayURL)
	if err != nil {
		return fmt.Errorf("configure discord session: %w", err)
	}
	s.Client = &http.Client{
		Transport:     t,
		CheckRedirect: old.CheckRedirect,
		Jar:           old.Jar,
		Timeout:       old.Timeout,
	}
	return nil
}

// Close closes s's gateway connection for good. discordgo v0.29's
// Session.Close holds the session lock for a second while its heartbeat
// goroutine may still tick; that goroutine then finds the connection gone
// and reconnects, leaving a session running after Close. Close turns off
// ShouldReconnectOnError first, which stops that reconnect. A reconnect
// loop already under way (after a failed dial) is not stopped by this; it
// ends when a dial succeeds.
func Close(s *discordgo.Session) error {
	s.Lock()
	s.ShouldReconnectOnError = false
	s.Unlock()
	if err := s.Close(); err != nil {
		return fmt.Errorf("close discord session: %w", err)
	}
	return nil
}

func parseRESTURL(raw string) (*url.URL, error) {
	shown := redact.URL(raw) // what errors may quote: no password
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("parse discord rest url %q: %w", shown, parseCause(err))
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("discord rest url %q: scheme must be http or https, not %q", shown, u.Scheme)
	case u.Host == "":
		return nil, fmt.Errorf("discord rest url %q: no host", shown)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return nil, fmt.Errorf("discord rest url %q: must not carry a query or fragment", shown)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
		if u.RawPath != "" {
			u.RawPath += "/"
		}
	}
	return u, nil
}

func checkGatewayURL(raw string) error {
	shown := redact.URL(raw) // what errors may quote: no password
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("parse discord gateway url %q: %w", shown, parseCause(err))
	}
	switch {
	case u.Scheme != "ws" && u.Scheme != "wss":
		return fmt.Errorf("discord gateway url %q: scheme must be ws or wss, not %q", shown, u.Scheme)
	case u.Host == "":
		return fmt.Errorf("discord gateway url %q: no host", shown)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		// discordgo appends "/?v=9&encoding=json" to the URL as a string.
		return fmt.Errorf("discord gateway url %q: must not carry a query or fragment", shown)
	}
	return nil
}

// parseCause is a url.Parse error without the URL it quotes in full.
func parseCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// apiPath reports whether u addresses Discord's REST API and, if so, returns
// the escaped path after the /api/ or /api/vN/ prefix.
func (t *Transport) apiPath(u *url.URL) (string, bool) {
	if u.Scheme != t.apiScheme || strings.ToLower(u.Host) != t.apiHost {
		return "", false
	}
	return APIRelativePath(u.EscapedPath())
}

// APIRelativePath strips the "/api/" or "/api/vN/" prefix from an escaped
// URL path and reports whether the prefix was there. "/api/v9/users/@me"
// gives "users/@me".
func APIRelativePath(escapedPath string) (string, bool) {
	rest, ok := strings.CutPrefix(escapedPath, "/api/")
	if !ok {
		return "", false
	}
	if v, after, found := strings.Cut(rest, "/"); found && len(v) > 1 && v[0] == 'v' {
		if _, err := strconv.ParseUint(v[1:], 10, 16); err == nil {
			return after, true
		}
	}
	return rest, true
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	rel, ok := t.apiPath(req.URL)
	if !ok {
		return t.base.RoundTrip(req)
	}
	if t.gatewayURL != "" && rel == "gateway" && req.Method == http.MethodGet {
		if req.Body != nil {
			req.Body.Close()
		}
		return t.gatewayResponse(req)
	}
	out := req
	if t.rest != nil {
		target, err := url.Parse(t.rest.String() + rel)
		if err != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return nil, fmt.Errorf("rewrite %s for rest url %s: %w", req.URL.Redacted(), t.rest.Redacted(), err)
		}
		target.RawQuery = req.URL.RawQuery
		out = req.Clone(req.Context())
		out.URL = target
		out.Host = target.Host
	}
	resp, err := t.base.RoundTrip(out)
	if err != nil || t.gatewayURL == "" || rel != "gateway/bot" || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	if err := t.rewriteGatewayBot(resp); err != nil {
		return nil, err
	}
	return resp, nil
}

func (t *Transport) gatewayResponse(req *http.Request) (*http.Response, error) {
	body, err := json.Marshal(struct {
		URL string `json:"url"`
	}{t.gatewayURL})
	if err != nil {
		return nil, fmt.Errorf("encode gateway response: %w", err)
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}, nil
}

// rewriteGatewayBot replaces the url field of a GET gateway/bot answer,
// keeping the shard count and session start limits the server reported.
func (t *Transport) rewriteGatewayBot(resp *http.Response) error {
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return fmt.Errorf("read gateway/bot response: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("decode gateway/bot response %.100q: %w", raw, err)
	}
	if fields == nil {
		fields = map[string]json.RawMessage{}
	}
	fields["url"], err = json.Marshal(t.gatewayURL)
	if err != nil {
		return fmt.Errorf("encode gateway url: %w", err)
	}
	body, err := json.Marshal(fields)
	if err != nil {
		return fmt.Errorf("encode gateway/bot response: %w", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return nil
}
