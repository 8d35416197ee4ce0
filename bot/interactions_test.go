// Tests of the interactions endpoint: the signature check, the HTTP answers, and the
// first answer in the HTTP response with the deferral of a slow handler.
package bot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
)

// signer is an application key pair, as Discord holds it.
type signer struct {
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
}

func newSigner(t testing.TB) signer {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signer{pub, priv}
}

// sign returns the signature headers of body sent at the instant at.
func (s signer) sign(body []byte, at time.Time) (sig, ts string) {
	ts = strconv.FormatInt(at.Unix(), 10)
	return hex.EncodeToString(ed25519.Sign(s.priv, append([]byte(ts), body...))), ts
}

func TestVerifySignature(t *testing.T) {
	key, other := newSigner(t), newSigner(t)
	now := time.Unix(1_770_000_000, 0)
	body := []byte(`{"type":1}`)
	sig, ts := key.sign(body, now)
	otherSig, _ := other.sign(body, now)
	staleSig, staleTS := key.sign(body, now.Add(-5*time.Minute-time.Second))
	futureSig, futureTS := key.sign(body, now.Add(5*time.Minute+time.Second))
	edgeSig, edgeTS := key.sign(body, now.Add(-5*time.Minute))
	flipped := []byte(sig)
	flipped[10] = "0123456789abcdef"[(strings.IndexByte("0123456789abcdef", flipped[10])+1)%16]
	cases := []struct {
		name    string
		sig, ts string
		body    []byte
		want    error
	}{
		{"valid", sig, ts, body, nil},
		{"valid, upper-case hex", strings.ToUpper(sig), ts, body, nil},
		{"five minutes old", edgeSig, edgeTS, body, nil},
		{"no signature", "", ts, body, errSignatureMissing},
		{"no timestamp", sig, "", body, errSignatureMissing},
		{"signature too short", sig[:126], ts, body, errSignatureForm},
		{"signature not hex", "zz" + sig[2:], ts, body, errSignatureForm},
		{"timestamp not a number", sig, "1e9", body, errSignatureForm},
		{"timestamp negative", sig, "-5", body, errSignatureForm},
		{"stale", staleSig, staleTS, body, errSignatureStale},
		{"from the future", futureSig, futureTS, body, errSignatureStale},
		{"another key", otherSig, ts, body, errSignatureBad},
		{"one digit changed", string(flipped), ts, body, errSignatureBad},
		{"body changed", sig, ts, []byte(`{"type":2}`), errSignatureBad},
		{"timestamp changed", sig, strconv.FormatInt(now.Unix()+1, 10), body, errSignatureBad},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := append([]byte(c.ts), c.body...)
			if err := verifySignature(key.pub, c.sig, c.ts, msg, now); !errors.Is(err, c.want) {
				t.Errorf("verifySignature = %v, want %v", err, c.want)
			}
		})
	}
}

// TestVerifySignatureAllocates: the check allocates nothing of its own (its speed is
// BenchmarkVerifySignature's).
func TestVerifySignatureAllocates(t *testing.T) {
	key := newSigner(t)
	now := time.Now()
	body := bytes.Repeat([]byte("x"), 1500)
	sig, ts := key.sign(body, now)
	msg := append([]byte(ts), body...)
	allocs := testing.AllocsPerRun(50, func() {
		if err := verifySignature(key.pub, sig, ts, msg, now); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("verifySignature allocates %v times a call, want 0", allocs)
	}
}

func BenchmarkVerifySignature(b *testing.B) {
	key := newSigner(b)
	now := time.Now()
	body := bytes.Repeat([]byte("x"), 1500) // a command interaction's usual size
	sig, ts := key.sign(body, now)
	msg := append([]byte(ts), body...)
	b.ReportAllocs()
	for b.Loop() {
		if err := verifySignature(key.pub, sig, ts, msg, now); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "checks/s")
}

// endpoint is an interactions handler in front of a router, on a test server.
type endpoint struct {
	key signer
	h   *interactionsHandler
	rec *recorder // the REST side: edits and followups
	url string
}

func newEndpoint(t *testing.T, mw []commands.Middleware, cmds ...commands.Command) *endpoint {
	t.Helper()
	return newEndpointWrapped(t, func(h http.Handler) http.Handler { return h }, mw, cmds...)
}

// newEndpointWrapped is newEndpoint with the handler wrapped in wrap on the server.
func newEndpointWrapped(t *testing.T, wrap func(http.Handler) http.Handler, mw []commands.Middleware, cmds ...commands.Command) *endpoint {
	t.Helper()
	e := &endpoint{key: newSigner(t), rec: &recorder{}}
	r := newTestRouter(t, mw, cmds...)
	e.h = &interactionsHandler{key: e.key.pub, rest: e.rec, log: slog.New(slog.DiscardHandler), now: time.Now,
		serve: func(s Sender, i *discordgo.Interaction) { r.Serve(context.Background(), s, i) }}
	srv := httptest.NewServer(wrap(e.h))
	t.Cleanup(func() {
		srv.Close()
		e.h.Wait()
	})
	e.url = srv.URL + InteractionsPath
	return e
}

// post sends body signed at the instant at (no signature when at is zero) and
// returns the answer.
func (e *endpoint) post(t *testing.T, body []byte, at time.Time) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if !at.IsZero() {
		sig, ts := e.key.sign(body, at)
		req.Header.Set(headerSignature, sig)
		req.Header.Set(headerTimestamp, ts)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, answer
}

// mustJSON encodes an interaction as Discord sends it, with a token.
func mustJSON(t *testing.T, i *discordgo.Interaction) []byte {
	t.Helper()
	i.Token = "token-" + i.ID
	b, err := json.Marshal(i)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestInteractionsEndpointRefuses: what is not a signed interaction gets its status,
// and reaches no handler.
func TestInteractionsEndpointRefuses(t *testing.T) {
	ran := false
	e := newEndpoint(t, nil, &stub{name: "hello", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		ran = true
		return commands.Reply("hi"), nil
	}})
	cmd := mustJSON(t, command("hello"))
	now := time.Now()
	cases := []struct {
		name   string
		body   []byte
		at     time.Time
		status int
	}{
		{"no signature", cmd, time.Time{}, http.StatusUnauthorized},
		{"stale signature", cmd, now.Add(-6 * time.Minute), http.StatusUnauthorized},
		{"signature from the future", cmd, now.Add(6 * time.Minute), http.StatusUnauthorized},
		{"signed but not JSON", []byte(`{"type":`), now, http.StatusBadRequest},
		{"signed but no token", []byte(`{"id":"1","type":2,"data":{"name":"hello"}}`), now, http.StatusBadRequest},
		{"too large", bytes.Repeat([]byte(" "), maxInteractionBody+1), now, http.StatusRequestEntityTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, _ := e.post(t, c.body, c.at)
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d", resp.StatusCode, c.status)
			}
		})
	}
	t.Run("a signature of another body", func(t *testing.T) {
		sig, ts := e.key.sign([]byte(`{"type":1}`), now)
		req, _ := http.NewRequest(http.MethodPost, e.url, bytes.NewReader(cmd))
		req.Header.Set(headerSignature, sig)
		req.Header.Set(headerTimestamp, ts)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("status %d, want 401", resp.StatusCode)
		}
	})
	t.Run("GET", func(t *testing.T) {
		resp, err := http.Get(e.url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != http.MethodPost {
			t.Errorf("GET answered %d, Allow %q; want 405, POST", resp.StatusCode, resp.Header.Get("Allow"))
		}
	})
	e.h.Wait()
	if ran {
		t.Error("a refused request reached the handler")
	}
	if c := e.rec.Calls(); c != "" {
		t.Errorf("REST calls %q, want none", c)
	}
}

func TestInteractionsEndpointPing(t *testing.T) {
	e := newEndpoint(t, nil)
	resp, body := e.post(t, []byte(`{"id":"1","application_id":"2","type":1,"token":"t","version":1}`), time.Now())
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" || string(body) != `{"type":1}` {
		t.Errorf("PING answered %d %q %s, want 200 application/json {\"type\":1}", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// TestInteractionsEndpointAnswers: the first answer is the HTTP response (REST is not
// called); a duplicate of an interaction is answered 409 and has no effect.
func TestInteractionsEndpointAnswers(t *testing.T) {
	runs := 0
	e := newEndpoint(t, nil, &stub{name: "hello", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		runs++
		return commands.Reply("hi"), nil
	}})
	body := mustJSON(t, command("hello"))
	resp, answer := e.post(t, body, time.Now())
	var ir discordgo.InteractionResponse
	if err := json.Unmarshal(answer, &ir); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("answered %d %s (%v)", resp.StatusCode, answer, err)
	}
	if ir.Type != discordgo.InteractionResponseChannelMessageWithSource || ir.Data == nil || ir.Data.Content != "hi" {
		t.Errorf("answer %s, want type 4 with \"hi\"", answer)
	}
	resp, _ = e.post(t, body, time.Now())
	if resp.StatusCode != http.StatusConflict {
		t.Errorf("a duplicate answered %d, want 409", resp.StatusCode)
	}
	e.h.Wait()
	if runs != 1 {
		t.Errorf("the handler ran %d times, want once", runs)
	}
	if c := e.rec.Calls(); c != "" {
		t.Errorf("REST calls %q, want none: the answer was the HTTP response", c)
	}
}

// TestInteractionsEndpointDefersSlowHandler: a handler still running when the deferral
// is due gets its interaction acknowledged in the HTTP response (type 5 for a command,
// 6 for a component) while it runs; its answer then goes through REST, as an edit of
// the original response or a followup. The handlers block until the test has the HTTP
// response, so the order is certain, whatever the machine's speed.
func TestInteractionsEndpointDefersSlowHandler(t *testing.T) {
	release := make(chan struct{})
	slow := func(resp *commands.Response) commands.Handler {
		return func(ctx context.Context, _ *commands.Request) (*commands.Response, error) {
			select {
			case <-release:
				return resp, nil
			case <-time.After(time.Minute):
				return nil, errors.New("never released")
			}
		}
	}
	e := newEndpoint(t, []commands.Middleware{DeferIfSlow(10*time.Millisecond, 0)},
		&stub{name: "think", handle: slow(commands.Reply("thought")),
			comps: map[string]commands.Handler{"game/act": slow(commands.Reply("acted"))}})

	resp, answer := e.post(t, mustJSON(t, command("think")), time.Now())
	var ir discordgo.InteractionResponse
	if err := json.Unmarshal(answer, &ir); err != nil || resp.StatusCode != http.StatusOK || ir.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("a slow command answered %d %s, want 200 with type 5", resp.StatusCode, answer)
	}
	id := commands.CustomID{Version: commands.CustomIDVersion, Kind: "game", ID: 7, Action: "act"}
	resp, answer = e.post(t, mustJSON(t, component(id.String())), time.Now())
	if err := json.Unmarshal(answer, &ir); err != nil || resp.StatusCode != http.StatusOK || ir.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Fatalf("a slow component answered %d %s, want 200 with type 6", resp.StatusCode, answer)
	}
	if c := e.rec.Calls(); c != "" {
		t.Fatalf("REST calls %q before the handlers finished", c)
	}
	close(release)
	e.h.Wait()
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	if len(e.rec.edits) != 1 || *e.rec.edits[0].Content != "thought" || len(e.rec.followups) != 1 || e.rec.followups[0].Content != "acted" {
		t.Errorf("REST calls %v, want the command's answer as an edit and the component's as a followup", e.rec.calls)
	}
}

// TestInteractionsEndpointFiles: a first answer with files is a multipart response, as
// the callback endpoint takes it.
func TestInteractionsEndpointFiles(t *testing.T) {
	e := newEndpoint(t, nil, &stub{name: "pgn", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		r := commands.Reply("the game")
		r.Files = []commands.File{{Name: "game.pgn", ContentType: "application/x-chess-pgn", Data: []byte("1. e4 *")}}
		return r, nil
	}})
	resp, answer := e.post(t, mustJSON(t, command("pgn")), time.Now())
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("answered %d %q, want multipart/form-data", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	parts := map[string]string{}
	mr := multipart.NewReader(bytes.NewReader(answer), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p)
		parts[p.FormName()] = string(data)
	}
	var ir discordgo.InteractionResponse
	if err := json.Unmarshal([]byte(parts["payload_json"]), &ir); err != nil || ir.Type != discordgo.InteractionResponseChannelMessageWithSource || ir.Data.Content != "the game" {
		t.Errorf("payload_json %q (%v)", parts["payload_json"], err)
	}
	if parts["files[0]"] != "1. e4 *" {
		t.Errorf("parts %v, want files[0] with the PGN", parts)
	}
}

// TestRespondAfterTheExchange: a first answer that comes after the HTTP request is over
// is an error, not a hang.
func TestRespondAfterTheExchange(t *testing.T) {
	x := &exchange{answers: make(chan *answer), gone: make(chan struct{}), served: make(chan struct{})}
	close(x.gone)
	s := &httpSender{Sender: &recorder{}, x: x}
	err := s.Respond(context.Background(), command("x"), &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "late"}}, nil)
	if !errors.Is(err, errExchangeOver) {
		t.Errorf("Respond = %v, want errExchangeOver", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x = &exchange{answers: make(chan *answer), gone: make(chan struct{}), served: make(chan struct{})}
	s = &httpSender{Sender: &recorder{}, x: x}
	if err := s.Respond(ctx, command("x"), &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Respond with its context over = %v, want context.Canceled", err)
	}
}

// fuzzKey is the fixed application key of FuzzVerifySignature, so its corpus keeps
// its meaning; fuzzNow is its clock.
var (
	fuzzKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	fuzzNow = time.Unix(1_770_000_000, 0)
)

// FuzzVerifySignature feeds arbitrary headers and bodies to the signature check: it
// never panics, accepts only what the key signed within 5 minutes of now, and accepts
// the same body once signed properly.
func FuzzVerifySignature(f *testing.F) {
	sign := func(ts string, body []byte) string {
		return hex.EncodeToString(ed25519.Sign(fuzzKey, append([]byte(ts), body...)))
	}
	ping := []byte(`{"type":1}`)
	f.Add(sign("1770000000", ping), "1770000000", ping)
	f.Add(sign("1769999000", ping), "1769999000", ping)
	f.Add("", "", []byte{})
	f.Add(strings.Repeat("0", 128), "1770000000", ping)
	pub := fuzzKey.Public().(ed25519.PublicKey)
	f.Fuzz(func(t *testing.T, sig, ts string, body []byte) {
		msg := append([]byte(ts), body...)
		if err := verifySignature(pub, sig, ts, msg, fuzzNow); err == nil {
			secs, perr := strconv.ParseInt(ts, 10, 64)
			raw, herr := hex.DecodeString(sig)
			if perr != nil || herr != nil || fuzzNow.Sub(time.Unix(secs, 0)).Abs() > signatureMaxAge || !ed25519.Verify(pub, msg, raw) {
				t.Fatalf("accepted sig %q ts %q body %q", sig, ts, body)
			}
		}
		good := strconv.FormatInt(fuzzNow.Unix(), 10)
		if err := verifySignature(pub, sign(good, body), good, append([]byte(good), body...), fuzzNow); err != nil {
			t.Fatalf("a proper signature of %q refused: %v", body, err)
		}
	})
}
