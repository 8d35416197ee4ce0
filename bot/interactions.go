// The interactions endpoint: interactions delivered by Discord over HTTP (POST
// /interactions, Ed25519-signed) instead of the gateway, answered in the HTTP response.
package bot

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
)

// The headers of a signed interaction, and how far its timestamp may be from now.
const (
	headerSignature = "X-Signature-Ed25519"
	headerTimestamp = "X-Signature-Timestamp"
	// signatureMaxAge bounds the difference between a request's signed timestamp and
	// the bot's clock, either way: a request recorded and sent again later is refused.
	signatureMaxAge = 5 * time.Minute
	// maxInteractionBody is the largest body read; Discord's interactions are far smaller.
	maxInteractionBody = 1 << 20
	// InteractionsPath is where Discord posts the interactions.
	InteractionsPath = "/interactions"
)

// Why a request's signature is refused (each answered 401 Unauthorized).
var (
	errSignatureMissing = errors.New("no signature or timestamp header")
	errSignatureForm    = errors.New("signature or timestamp header malformed")
	errSignatureStale   = errors.New("signed timestamp more than 5 minutes from now")
	errSignatureBad     = errors.New("signature does not verify with discord.public_key")
)

// verifySignature checks Discord's signature of an interaction: sigHex (the
// X-Signature-Ed25519 header) must be the Ed25519 signature, by the application's key,
// of msg, the X-Signature-Timestamp header followed by the body; the timestamp (Unix
// seconds) must be within signatureMaxAge of now. crypto/ed25519 does the check; it
// handles public values only (key, message, signature), so its timing tells an
// attacker nothing, and no other comparison is made. It does not allocate.
func verifySignature(key ed25519.PublicKey, sigHex, ts string, msg []byte, now time.Time) error {
	if sigHex == "" || ts == "" {
		return errSignatureMissing
	}
	var sig [ed25519.SignatureSize]byte
	if len(sigHex) != 2*len(sig) {
		return errSignatureForm
	}
	for k := range sig {
		hi, lo := unhex(sigHex[2*k]), unhex(sigHex[2*k+1])
		if hi > 15 || lo > 15 {
			return errSignatureForm
		}
		sig[k] = hi<<4 | lo
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || secs < 0 {
		return errSignatureForm
	}
	if d := now.Sub(time.Unix(secs, 0)); d > signatureMaxAge || d < -signatureMaxAge {
		return errSignatureStale
	}
	if !ed25519.Verify(key, msg, sig[:]) {
		return errSignatureBad
	}
	return nil
}

// unhex is the value of a hex digit, or 255.
func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 255
}

// readSigned reads a request's body, at most maxInteractionBody bytes, after the
// timestamp ts in one buffer: the signed message is the buffer, the body its tail.
func readSigned(w http.ResponseWriter, r *http.Request, ts string) (msg, body []byte, err error) {
	size := len(ts) + 4096
	if n := r.ContentLength; n > 0 && n <= maxInteractionBody {
		size = len(ts) + int(n) + 1 // +1: the read that finds the end
	}
	buf := make([]byte, len(ts), size)
	copy(buf, ts)
	rd := http.MaxBytesReader(w, r.Body, maxInteractionBody)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, buf[len(ts):], nil
		}
		if err != nil {
			return nil, nil, err
		}
	}
}

// interactionsHandler serves POST /interactions: it checks the signature, answers a
// PING itself and hands every other interaction to serve, with a Sender whose first
// answer (Respond) becomes the HTTP response; edits and followups go through rest.
type interactionsHandler struct {
	key   ed25519.PublicKey
	rest  Sender
	serve func(Sender, *discordgo.Interaction)
	log   *slog.Logger
	now   func() time.Time
	// running counts the interactions handed to serve that have not returned yet.
	running sync.WaitGroup
}

// ServeHTTP implements http.Handler.
func (h *interactionsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "only POST", http.StatusMethodNotAllowed)
		return
	}
	received := h.now()
	ts := r.Header.Get(headerTimestamp)
	msg, body, err := readSigned(w, r, ts)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	if err := verifySignature(h.key, r.Header.Get(headerSignature), ts, msg, received); err != nil {
		h.log.Debug("interaction refused", "reason", err, "remote", r.RemoteAddr)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		h.log.Warn("signed interaction does not decode", "err", err)
		http.Error(w, "interaction does not decode", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeAnswer(w, &answer{contentType: "application/json", body: []byte(`{"type":1}`)})
		return
	}
	if i.ID == "" || i.Token == "" {
		http.Error(w, "interaction without id or token", http.StatusBadRequest)
		return
	}
	x := &exchange{answers: make(chan *answer), gone: make(chan struct{}), served: make(chan struct{})}
	h.running.Add(1)
	go func() {
		defer h.running.Done()
		defer close(x.served)
		h.serve(&httpSender{Sender: h.rest, x: x}, &i)
	}()
	limit := time.NewTimer(time.Until(deadline(i.ID, received)))
	defer limit.Stop()
	defer close(x.gone) // a Respond from now on finds the exchange over
	select {
	case a := <-x.answers:
		a.written <- writeAnswer(w, a)
	case <-x.served:
		// Serve answers every interaction but one it has seen already.
		http.Error(w, "interaction already delivered", http.StatusConflict)
	case <-limit.C:
		h.log.Error("no answer to the interaction by its deadline", "interaction", i.ID)
		http.Error(w, "no answer in time", http.StatusServiceUnavailable)
	case <-r.Context().Done():
	}
}

// Wait blocks until every interaction handed to serve has been served (its answer,
// edits and followups sent).
func (h *interactionsHandler) Wait() { h.running.Wait() }

// answer is a first answer on its way into an HTTP response.
type answer struct {
	contentType string
	body        []byte
	written     chan error // the outcome of writing it, sent once
}

// writeAnswer writes a complete 200 response and flushes it to the connection.
func writeAnswer(w http.ResponseWriter, a *answer) error {
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(a.body)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(a.body); err != nil {
		return fmt.Errorf("write the interaction's answer: %w", err)
	}
	if err := http.NewResponseController(w).Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("flush the interaction's answer: %w", err)
	}
	return nil
}

// exchange is one HTTP request carrying an interaction, between the handler that
// holds the response and the Sender the router answers with.
type exchange struct {
	answers chan *answer  // the first answer, taken by the handler
	gone    chan struct{} // closed when the handler has returned
	served  chan struct{} // closed when serve has returned
}

// errExchangeOver is the error of a Respond after the HTTP response was written or
// given up.
var errExchangeOver = errors.New("the interaction's HTTP request is over (answered, timed out or closed)")

// httpSender answers an interaction received over HTTP: the first answer (Respond) is
// the HTTP response; the rest goes through the REST Sender it embeds.
type httpSender struct {
	Sender
	x *exchange
}

// Respond implements Sender: it hands the answer to the HTTP handler and returns once
// the response is written, JSON, or multipart with the files as the callback endpoint
// takes them.
func (s *httpSender) Respond(ctx context.Context, _ *discordgo.Interaction, resp *discordgo.InteractionResponse, files []commands.File) error {
	a := &answer{written: make(chan error, 1)}
	var err error
	if len(files) > 0 {
		a.contentType, a.body, err = discordgo.MultipartBodyWithJSON(resp, discordFiles(files))
	} else {
		a.contentType = "application/json"
		a.body, err = json.Marshal(resp)
	}
	if err != nil {
		return fmt.Errorf("interaction response: encode: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interaction response: %w", err)
	}
	select {
	case s.x.answers <- a:
	case <-s.x.gone:
		return fmt.Errorf("interaction response: %w", errExchangeOver)
	case <-ctx.Done():
		return fmt.Errorf("interaction response: %w", ctx.Err())
	}
	if err := <-a.written; err != nil {
		return fmt.Errorf("interaction response: %w", err)
	}
	return nil
}

// Interactions is the HTTP endpoint Discord delivers interactions to when
// discord.interactions_address is set: POST /interactions, and GET /healthz for a
// load balancer's health check.
type Interactions struct {
	h      *interactionsHandler
	srv    *http.Server
	addr   string
	done   chan struct{}
	closed sync.Once
	err    error
}

// serveInteractions listens on addr and serves the interactions endpoint until Close.
// key is the application's public key in hex (discord.public_key).
func serveInteractions(addr, key string, rest Sender, health http.Handler, serve func(Sender, *discordgo.Interaction), log *slog.Logger) (*Interactions, error) {
	pub, err := hex.DecodeString(key)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("discord.public_key: want %d bytes in hex", ed25519.PublicKeySize)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("discord.interactions_address %q: %w", addr, err)
	}
	h := &interactionsHandler{key: pub, rest: rest, serve: serve, log: log, now: time.Now}
	mux := http.NewServeMux()
	mux.Handle(InteractionsPath, h)
	mux.Handle("GET /healthz", health)
	it := &Interactions{
		h:    h,
		addr: ln.Addr().String(),
		done: make(chan struct{}),
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
			IdleTimeout: 2 * time.Minute, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)},
	}
	go func() {
		defer close(it.done)
		if err := it.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("interactions endpoint", "err", err)
		}
	}()
	return it, nil
}

// Addr is the address the endpoint listens on (the port chosen when the configured
// one is 0).
func (it *Interactions) Addr() string { return it.addr }

// Close stops taking interactions and waits, at most timeout, for the HTTP requests in
// progress to be answered. The interactions' edits and followups may still be running:
// Wait waits for them.
// Closing again returns the first Close's error.
func (it *Interactions) Close(timeout time.Duration) error {
	it.closed.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		if err := it.srv.Shutdown(ctx); err != nil {
			it.err = fmt.Errorf("close the interactions endpoint: %w", errors.Join(err, it.srv.Close()))
		}
		<-it.done
	})
	return it.err
}

// Wait blocks until every interaction received has been served.
func (it *Interactions) Wait() { it.h.Wait() }
