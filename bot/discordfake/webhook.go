// Interactions over HTTP: the fake signs each interaction with its application key and
// POSTs it to the bot's endpoint, reading the HTTP response as the callback.
package discordfake

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"
)

// ErrRefused is returned when the bot's interactions endpoint answered an interaction
// with an error status instead of a callback.
var ErrRefused = errors.New("discordfake: the interactions endpoint refused the interaction")

// webhookState is the HTTP delivery of interactions; Fake.mu guards url and open.
type webhookState struct {
	priv   ed25519.PrivateKey
	pub    ed25519.PublicKey
	client *http.Client
	url    string
	// open holds, by interaction token, a channel closed once the HTTP response of an
	// interaction delivered over HTTP has been taken as its callback.
	open map[string]chan struct{}
}

func (h *webhookState) init() error {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("application key: %w", err)
	}
	h.pub, h.priv = pub, priv
	h.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	h.open = map[string]chan struct{}{}
	return nil
}

// PublicKey returns the application's public key in hex, for discord.public_key.
func (f *Fake) PublicKey() string { return hex.EncodeToString(f.hook.pub) }

// Sign returns the X-Signature-Ed25519 and X-Signature-Timestamp headers Discord sends
// with body at the instant at, signed with the application's key.
func (f *Fake) Sign(body []byte, at time.Time) (signature, timestamp string) {
	timestamp = strconv.FormatInt(at.Unix(), 10)
	msg := append([]byte(timestamp), body...)
	return hex.EncodeToString(ed25519.Sign(f.hook.priv, msg)), timestamp
}

// InteractionsURL returns the endpoint interactions are delivered to ("" : the gateway).
func (f *Fake) InteractionsURL() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hook.url
}

// SetInteractionsURL makes the fake deliver every interaction by POSTing it, signed, to
// url (the Interactions Endpoint URL of the developer portal) and take the HTTP
// response as the callback; "" goes back to the gateway. Like Discord when the URL is
// saved, it first checks the endpoint: a signed PING must be answered 200 with
// {"type":1}, and a PING with a wrong signature, or none, 401. If a check fails the
// delivery does not change.
func (f *Fake) SetInteractionsURL(ctx context.Context, url string) error {
	if url != "" {
		if err := f.checkEndpoint(ctx, url); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.hook.url = url
	f.notifyLocked()
	f.mu.Unlock()
	return nil
}

// checkEndpoint is the portal's check of an interactions endpoint.
func (f *Fake) checkEndpoint(ctx context.Context, url string) error {
	ping := []byte(`{"id":"` + f.ids.next() + `","application_id":"` + f.AppID + `","type":1,"token":"ping.` + randomHex(16) + `","version":1}`)
	sig, ts := f.Sign(ping, time.Now())
	status, ct, body, err := f.post(ctx, url, ping, sig, ts)
	if err != nil {
		return fmt.Errorf("interactions endpoint %s: PING: %w", url, err)
	}
	var pong struct {
		Type *int `json:"type"`
	}
	mt, _, _ := strings.Cut(ct, ";")
	if status != http.StatusOK || strings.TrimSpace(mt) != "application/json" || json.Unmarshal(body, &pong) != nil || pong.Type == nil || *pong.Type != 1 {
		return fmt.Errorf("interactions endpoint %s: PING answered %d %q %.200q, want 200 application/json {\"type\":1}", url, status, ct, body)
	}
	raw, err := hex.DecodeString(sig)
	if err != nil {
		return err
	}
	raw[0] ^= 1
	for _, c := range []struct{ what, sig, ts string }{
		{"a wrong signature", hex.EncodeToString(raw), ts},
		{"no signature", "", ""},
	} {
		status, _, _, err := f.post(ctx, url, ping, c.sig, c.ts)
		if err != nil {
			return fmt.Errorf("interactions endpoint %s: PING with %s: %w", url, c.what, err)
		}
		if status != http.StatusUnauthorized {
			return fmt.Errorf("interactions endpoint %s: PING with %s answered %d, want 401", url, c.what, status)
		}
	}
	return nil
}

// PostSigned POSTs body to url as Discord would, signed at the instant at (for
// tests of the endpoint's checks), and returns the status and body of the answer.
func (f *Fake) PostSigned(ctx context.Context, url string, body []byte, at time.Time) (int, []byte, error) {
	sig, ts := f.Sign(body, at)
	status, _, answer, err := f.post(ctx, url, body, sig, ts)
	return status, answer, err
}

// post sends one request to an interactions endpoint, with the signature headers when
// sig is set, and reads the answer.
func (f *Fake) post(ctx context.Context, url string, body []byte, sig, ts string) (status int, contentType string, answer []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	if sig != "" {
		req.Header.Set("X-Signature-Ed25519", sig)
	}
	if ts != "" {
		req.Header.Set("X-Signature-Timestamp", ts)
	}
	resp, err := f.hook.client.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	answer, err = io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes))
	if err != nil {
		return 0, "", nil, fmt.Errorf("read the answer: %w", err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), answer, nil
}

// deliver POSTs a registered interaction to the endpoint and takes the response as its
// callback, checked as POST interactions/{id}/{token}/callback checks one.
func (f *Fake) deliver(ctx context.Context, url string, p *pending, payload []byte) (*InteractionResult, error) {
	f.mu.Lock()
	open := f.hook.open[p.token]
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.hook.open, p.token)
		f.mu.Unlock()
		close(open)
	}()
	sig, ts := f.Sign(payload, time.Now())
	status, ct, body, err := f.post(ctx, url, payload, sig, ts)
	if err != nil {
		return nil, fmt.Errorf("deliver interaction %s to %s: %w", p.id, url, err)
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("interaction %s: HTTP %d %.300q: %w", p.id, status, body, ErrRefused)
	}
	// The answer goes through the callback route's own checks, as if posted there.
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/interactions/"+p.id+"/"+p.token+"/callback", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.SetPathValue("id", p.id)
	req.SetPathValue("token", p.token)
	rec := httptest.NewRecorder()
	f.postCallback(rec, req)
	f.mu.Lock()
	cb, late := p.callback, p.late
	f.mu.Unlock()
	switch {
	case late > 0:
		return nil, fmt.Errorf("interaction %s answered %v after delivery, deadline %v: %w", p.id, late, f.cfg.deadline, ErrLate)
	case rec.Code != http.StatusNoContent || cb == nil:
		return nil, fmt.Errorf("interaction %s: the endpoint's answer is not a valid callback: %d %s", p.id, rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	return &InteractionResult{ID: p.id, Token: p.token, Payload: payload, Callback: *cb, Latency: cb.Latency}, nil
}

// openHTTP marks an interaction as on its way over HTTP: until its response has been
// taken as the callback, its webhook routes wait (awaitCallback). f.mu must be held.
func (f *Fake) openHTTPLocked(token string) {
	f.hook.open[token] = make(chan struct{})
}

// awaitCallback holds a request to an interaction's webhook routes (edit, followup,
// delete) until the HTTP response carrying its first answer has been read: the bot may
// send its edit the moment its response is written, before the fake has read it, and
// Discord would have the response first.
func (f *Fake) awaitCallback(rel string) {
	parts := strings.Split(rel, "/")
	if len(parts) < 3 || parts[0] != "webhooks" {
		return
	}
	f.mu.Lock()
	open := f.hook.open[parts[2]]
	f.mu.Unlock()
	if open == nil {
		return
	}
	wait := f.cfg.deadline
	if wait <= 0 {
		wait = DefaultInteractionDeadline
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-open:
	case <-t.C:
	case <-f.done:
	}
}
