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
	// readChunk is the first buffer of a body being read (a usual interaction is 1 to
	// 5 KiB): bodies grow from it as their bytes arrive.
	readChunk = 8 << 10
	// interactionHeaderTimeout and interactionReadTimeout bound the reading of a
	// request's headers, and of its headers and body: Discord sends a few kilobytes at
	// once, and a request read slowly holds its slot (admission) all that time.
	interactionHeaderTimeout = 2 * time.Second
	interactionReadTimeout   = 4 * time.Second
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
	sig, err := parseSignatureHeaders(sigHex, ts, now)
	if err != nil {
		return err
	}
	if !ed25519.Verify(key, msg, sig[:]) {
		return errSignatureBad
	}
	return nil
}

// parseSignatureHeaders checks the signature headers before the body is read: both
// present, the signature 64 bytes in hex, the timestamp within signatureMaxAge of
// now. It returns the signature's bytes.
func parseSignatureHeaders(sigHex, ts string, now time.Time) (sig [ed25519.SignatureSize]byte, err error) {
	if sigHex == "" || ts == "" {
		return sig, errSignatureMissing
	}
	if len(sigHex) != 2*len(sig) {
		return sig, errSignatureForm
	}
	for k := range sig {
		hi, lo := unhex(sigHex[2*k]), unhex(sigHex[2*k+1])
		if hi > 15 || lo > 15 {
			return sig, errSignatureForm
		}
		sig[k] = hi<<4 | lo
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || secs < 0 {
		return sig, errSignatureForm
	}
	if d := now.Sub(time.Unix(secs, 0)); d > signatureMaxAge || d < -signatureMaxAge {
		return sig, errSignatureStale
	}
	return sig, nil
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
// The buffer grows with what arrives, never with what the Content-Length header
// announces: it starts at readChunk (or the announced length when smaller, so a
// usual interaction takes one allocation) and doubles when full, each growth taken
// from budget. A request that announces a megabyte and sends a few bytes holds a few
// kilobytes while it is read. held is what was taken from budget, to be given back.
func readSigned(w http.ResponseWriter, r *http.Request, ts string, budget *admission) (msg, body []byte, held int, err error) {
	size := len(ts) + readChunk
	if n := r.ContentLength; n >= 0 && n < readChunk {
		size = len(ts) + int(n) + 1 // +1: the read that finds the end
	}
	if !budget.take(size) {
		return nil, nil, 0, errBodyBudget
	}
	held = size
	buf := make([]byte, len(ts), size)
	copy(buf, ts)
	rd := http.MaxBytesReader(w, r.Body, maxInteractionBody)
	for {
		if len(buf) == cap(buf) {
			// Doubling; the last growth stops at the limit's one byte more, which
			// MaxBytesReader refuses.
			grow := min(cap(buf), len(ts)+maxInteractionBody+1-cap(buf))
			if !budget.take(grow) {
				return nil, nil, held, errBodyBudget
			}
			held += grow
			bigger := make([]byte, len(buf), cap(buf)+grow)
			copy(bigger, buf)
			buf = bigger
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, buf[len(ts):], held, nil
		}
		if err != nil {
			return nil, nil, held, err
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
	// admit bounds the requests not yet authenticated: those being read, their bytes,
	// and the addresses that keep sending bad signatures.
	admit admission
}

// ServeHTTP implements http.Handler.
func (h *interactionsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "only POST", http.StatusMethodNotAllowed)
		return
	}
	received := h.now()
	sigHex, ts := r.Header.Get(headerSignature), r.Header.Get(headerTimestamp)
	addr := remoteHost(r.RemoteAddr)
	// What can be refused before the body is read is: no byte of it is held.
	if _, err := parseSignatureHeaders(sigHex, ts, received); err != nil {
		h.admit.failed(addr)
		h.log.Debug("interaction refused", "reason", err, "remote", addr)
		refuseEarly(w, http.StatusUnauthorized, "invalid request signature")
		return
	}
	if r.ContentLength > maxInteractionBody {
		refuseEarly(w, http.StatusRequestEntityTooLarge, "body too large")
		return
	}
	leave, err := h.admit.enter(addr)
	if err != nil {
		h.log.Debug("interaction refused", "reason", err, "remote", addr)
		refuseEarly(w, admissionStatus(err), err.Error())
		return
	}
	msg, body, held, err := readSigned(w, r, ts, &h.admit)
	verified := err == nil && verifySignature(h.key, sigHex, ts, msg, received) == nil
	leave(held) // the budget is for bodies not yet checked
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			refuseEarly(w, http.StatusRequestEntityTooLarge, "body too large")
		case errors.Is(err, errBodyBudget):
			refuseEarly(w, http.StatusServiceUnavailable, err.Error())
		default:
			refuseEarly(w, http.StatusBadRequest, "read body")
		}
		return
	}
	if !verified {
		h.admit.failed(addr)
		h.log.Debug("interaction refused", "reason", errSignatureBad, "remote", addr)
		refuseEarly(w, http.StatusUnauthorized, "invalid request signature")
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
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: interactionHeaderTimeout, ReadTimeout: interactionReadTimeout,
			IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)},
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
