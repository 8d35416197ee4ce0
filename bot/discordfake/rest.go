package discordfake

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordnet"
)

// Discord JSON error codes the fake answers with.
const (
	codeGeneral             = 0
	codeUnknownChannel      = 10003
	codeUnknownMessage      = 10008
	codeUnknownUser         = 10013
	codeUnknownWebhook      = 10015
	codeUnknownInteraction  = 10062
	codeUnknownApplication  = 10002
	codeMissingAccess       = 50001
	codeEmptyMessage        = 50006
	codeCannotSendToUser    = 50007
	codeInvalidFormBody     = 50035
	codeAlreadyAcknowledged = 40060
	codeThreadExists        = 160004
)

// Request is one REST request the fake answered.
type Request struct {
	Method string
	// Path is relative to the API base, such as "channels/123/messages".
	Path  string
	Query string
	// Status is the HTTP status answered.
	Status int
	// Error is the message of an error answer ("" on success), with the
	// form errors for a 400.
	Error string
	At    time.Time
	// TokenRoute says the route is authorized by the interaction token in its path
	// (the callback, the original response, followups): Discord needs no
	// Authorization header there, and a client that sends its bot token anyway
	// hands a credential to a route that does not need it.
	TokenRoute bool
	// Authorization says the request carried an Authorization header (its value is
	// not kept).
	Authorization bool
}

// restState is the REST side's records; Fake.mu guards it.
type restState struct {
	requests     []Request
	unknown      []Request
	failures     []*failure
	messages     map[string][]*Message // by channel, in creation order
	msgByID      map[string]*Message
	threads      []string
	global       []*discordgo.ApplicationCommand
	guildCmds    map[string][]*discordgo.ApplicationCommand
	commandIDs   map[string]string // scope/type/name → stable ID
	overwrites   []CommandOverwrite
	entryHandler int // the global entry point's handler
	interactions map[string]*pending
	byToken      map[string]*pending
	callbacks    []Callback
}

func (r *restState) init() {
	r.messages = map[string][]*Message{}
	r.msgByID = map[string]*Message{}
	r.guildCmds = map[string][]*discordgo.ApplicationCommand{}
	r.commandIDs = map[string]string{}
	r.interactions = map[string]*pending{}
	r.byToken = map[string]*pending{}
}

// Requests returns every REST request answered so far, in order.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.rest.requests...)
}

// Unknown returns the requests for routes the fake does not implement
// (answered 404), so a test can spot what the bot needs that the fake lacks.
func (f *Fake) Unknown() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.rest.unknown...)
}

// statusWriter remembers the status and error message of an answer.
type statusWriter struct {
	http.ResponseWriter
	status  int
	errText string
	unknown bool
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// apiError is a Discord JSON error body.
type apiError struct {
	Message string         `json:"message"`
	Code    int            `json:"code"`
	Errors  map[string]any `json:"errors,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"message":"discordfake: encode response","code":0}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

// fail answers a Discord error.
func fail(w http.ResponseWriter, status, code int, msg string) {
	if sw, ok := w.(*statusWriter); ok {
		sw.errText = msg
	}
	writeJSON(w, status, apiError{Message: msg, Code: code})
}

// failForm answers 400 Invalid Form Body with the collected problems.
func failForm(w http.ResponseWriter, e *formErrors) {
	if sw, ok := w.(*statusWriter); ok {
		sw.errText = "Invalid Form Body\n" + e.String()
	}
	writeJSON(w, http.StatusBadRequest, apiError{Message: "Invalid Form Body", Code: codeInvalidFormBody, Errors: e.tree()})
}

// handler routes gateway upgrades, attachment downloads and the REST API.
func (f *Fake) handler() http.Handler {
	mux := http.NewServeMux()
	f.routes(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/gateway" || r.URL.Path == "/gateway/":
			f.serveGateway(w, r)
			return
		case strings.HasPrefix(r.URL.Path, "/attachments/"):
			f.serveAttachment(w, r)
			return
		case r.URL.Path == "/oauth2/authorize": // a page for browsers, beside the API
			f.serveAuthorize(w, r)
			return
		case r.URL.Path == "/.fake/signin":
			f.serveSignIn(w, r)
			return
		}
		sw := &statusWriter{ResponseWriter: w}
		rel, ok := discordnet.APIRelativePath(r.URL.EscapedPath())
		if !ok {
			rel = strings.TrimPrefix(r.URL.EscapedPath(), "/")
		}
		defer f.logRequest(sw, r, rel)
		if !ok {
			sw.unknown = true
			fail(sw, http.StatusNotFound, codeGeneral, "404: Not Found")
			return
		}
		if botRoute(r.Method, rel) && !bearerRoute(r, rel) && r.Header.Get("Authorization") != "Bot "+f.Token {
			fail(sw, http.StatusUnauthorized, codeGeneral, "401: Unauthorized")
			return
		}
		if f.injectFailure(sw, r.Method, rel) {
			return
		}
		if f.guestChannelRoute(rel) {
			fail(sw, http.StatusForbidden, codeMissingAccess, "Missing Access")
			return
		}
		inner := r.Clone(r.Context())
		u, err := url.Parse("/" + rel)
		if err != nil {
			fail(sw, http.StatusBadRequest, codeGeneral, "400: Bad Request")
			return
		}
		u.RawQuery = r.URL.RawQuery
		inner.URL = u
		inner.RequestURI = u.RequestURI()
		f.awaitCallback(rel)
		mux.ServeHTTP(sw, inner)
	})
}

func (f *Fake) logRequest(sw *statusWriter, r *http.Request, rel string) {
	req := Request{Method: r.Method, Path: rel, Query: r.URL.RawQuery, Status: sw.status, Error: sw.errText, At: time.Now(),
		TokenRoute: !sw.unknown && tokenRoute(rel), Authorization: r.Header.Get("Authorization") != ""}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rest.requests = append(f.rest.requests, req)
	if sw.unknown {
		f.rest.unknown = append(f.rest.unknown, req)
	}
	f.notifyLocked()
	f.log.Debug("rest", "method", req.Method, "path", req.Path, "status", req.Status, "error", req.Error)
}

// botRoute reports whether a route needs the bot token. Interaction
// callbacks and webhook-token routes are authorized by their token, and
// GET gateway needs nothing.
func botRoute(method, rel string) bool {
	switch {
	case tokenRoute(rel):
		return false
	case rel == "gateway" && method == http.MethodGet:
		return false
	case rel == "oauth2/token" && method == http.MethodPost:
		return false // the client's id and secret authorize it (oauth.go)
	}
	return true
}

// bearerRoute reports whether a request is a route an OAuth2 user's bearer token
// authorizes (users/@me, a user's role connection), with such a token: its handler
// checks the token.
func bearerRoute(r *http.Request, rel string) bool {
	if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		return false
	}
	if rel == "users/@me" && r.Method == http.MethodGet {
		return true
	}
	rest, ok := strings.CutPrefix(rel, "users/@me/applications/")
	return ok && strings.HasSuffix(rest, "/role-connection") && strings.Count(rest, "/") == 1
}

// tokenRoute reports whether a route is authorized by the token in its path: an
// interaction's callback, or a webhook route with the webhook's (the interaction's)
// token.
func tokenRoute(rel string) bool {
	return strings.HasPrefix(rel, "interactions/") || strings.HasPrefix(rel, "webhooks/") && strings.Count(rel, "/") >= 2
}

// routes registers the REST API, relative to the API base.
func (f *Fake) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /gateway", f.getGateway)
	mux.HandleFunc("GET /gateway/bot", f.getGatewayBot)
	mux.HandleFunc("GET /users/@me", f.getMe)
	mux.HandleFunc("POST /oauth2/token", f.postToken)
	mux.HandleFunc("GET /applications/{app}/activity-instances/{instance}", f.getActivityInstance)
	mux.HandleFunc("GET /applications/{app}/role-connections/metadata", f.getRoleMetadata)
	mux.HandleFunc("PUT /applications/{app}/role-connections/metadata", f.putRoleMetadata)
	mux.HandleFunc("GET /users/@me/applications/{app}/role-connection", f.getRoleConnection)
	mux.HandleFunc("PUT /users/@me/applications/{app}/role-connection", f.putRoleConnection)
	mux.HandleFunc("GET /users/{user}", f.getUser)
	mux.HandleFunc("POST /users/@me/channels", f.createDM)
	mux.HandleFunc("GET /guilds/{guild}", f.getGuild)
	mux.HandleFunc("GET /guilds/{guild}/scheduled-events", f.listEvents)
	mux.HandleFunc("POST /guilds/{guild}/scheduled-events", f.postEvent)
	mux.HandleFunc("GET /guilds/{guild}/scheduled-events/{event}", f.getEvent)
	mux.HandleFunc("PATCH /guilds/{guild}/scheduled-events/{event}", f.patchEvent)
	mux.HandleFunc("DELETE /guilds/{guild}/scheduled-events/{event}", f.deleteEvent)
	mux.HandleFunc("GET /applications/@me", f.getApplication)
	mux.HandleFunc("GET /oauth2/applications/@me", f.getApplication)
	mux.HandleFunc("GET /applications/{app}/commands", f.getCommands)
	mux.HandleFunc("PUT /applications/{app}/commands", f.putCommands)
	mux.HandleFunc("GET /applications/{app}/guilds/{guild}/commands", f.getCommands)
	mux.HandleFunc("PUT /applications/{app}/guilds/{guild}/commands", f.putCommands)
	mux.HandleFunc("POST /interactions/{id}/{token}/callback", f.postCallback)
	mux.HandleFunc("POST /webhooks/{app}/{token}", f.postFollowup)
	mux.HandleFunc("GET /webhooks/{app}/{token}/messages/{msg}", f.getWebhookMessage)
	mux.HandleFunc("PATCH /webhooks/{app}/{token}/messages/{msg}", f.patchWebhookMessage)
	mux.HandleFunc("DELETE /webhooks/{app}/{token}/messages/{msg}", f.deleteWebhookMessage)
	mux.HandleFunc("GET /channels/{channel}", f.getChannel)
	mux.HandleFunc("PATCH /channels/{channel}", f.patchChannel)
	mux.HandleFunc("POST /channels/{channel}/typing", f.postTyping)
	mux.HandleFunc("POST /channels/{channel}/messages", f.postChannelMessage)
	mux.HandleFunc("GET /channels/{channel}/messages/{msg}", f.getChannelMessage)
	mux.HandleFunc("PATCH /channels/{channel}/messages/{msg}", f.patchChannelMessage)
	mux.HandleFunc("DELETE /channels/{channel}/messages/{msg}", f.deleteChannelMessage)
	mux.HandleFunc("POST /channels/{channel}/threads", f.postThread)
	mux.HandleFunc("POST /channels/{channel}/messages/{msg}/threads", f.postThread)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if sw, ok := w.(*statusWriter); ok {
			sw.unknown = true
		}
		fail(w, http.StatusNotFound, codeGeneral, "404: Not Found")
	})
}

func (f *Fake) getGateway(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"url": f.GatewayURL()})
}

func (f *Fake) getGatewayBot(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"url":    f.GatewayURL(),
		"shards": f.cfg.shards,
		"session_start_limit": map[string]int{
			"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1,
		},
	})
}

func (f *Fake) getMe(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		f.getBearerMe(w, r) // an OAuth2 user's token (oauth.go)
		return
	}
	writeJSON(w, http.StatusOK, f.Bot)
}

func (f *Fake) getUser(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	u := copyUser(f.users[r.PathValue("user")])
	f.mu.Unlock()
	if u == nil {
		fail(w, http.StatusNotFound, codeUnknownUser, "Unknown User")
		return
	}
	writeJSON(w, http.StatusOK, u)
}

func (f *Fake) getApplication(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"id": f.AppID, "name": f.Bot.Username, "description": "", "bot_public": true,
		"bot_require_code_grant": false, "flags": 0, "bot": f.Bot,
	})
}

func (f *Fake) postTyping(w http.ResponseWriter, r *http.Request) {
	if _, ok := f.Channel(r.PathValue("channel")); !ok {
		fail(w, http.StatusNotFound, codeUnknownChannel, "Unknown Channel")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// failure is a pending injected failure; Fake.mu guards it.
type failure struct {
	Failure
	method string
	path   []string
	left   int
}

// Failure makes requests to a route fail.
type Failure struct {
	// Route is "METHOD path" relative to the API base, where a "*" segment
	// matches any one segment: "POST channels/*/messages". METHOD may be
	// "*" or left out to match every method.
	Route string
	// Count is how many matching requests fail.
	Count int
	// Status is the HTTP status (default 429).
	Status int
	// RetryAfter is the retry_after of a 429 (default 50 ms).
	RetryAfter time.Duration
	// Global marks a 429 as the global rate limit.
	Global bool
	// Scope is the X-RateLimit-Scope of a 429 that is not global: "user" (the
	// default) or "shared" (a limit on the resource, counted for no one).
	Scope string
	// FromProxy makes the 429 the one a rate-limit proxy in front of Discord
	// (nirn-proxy) makes up itself when it cannot reach the node that holds the
	// bucket: see writeProxy429.
	FromProxy bool
	// Hangup closes the connection without an answer, as a network failure
	// would (the client's request fails with an I/O error, not a status).
	Hangup bool
}

// FailNext makes the next n requests to route answer 429 with retry_after
// 0.05 and Discord's rate limit headers; see Failure for the route syntax.
func (f *Fake) FailNext(route string, n int) {
	f.Fail(Failure{Route: route, Count: n})
}

// Fail installs an injected failure. Failures are tried in the order
// installed; each request consumes at most one.
func (f *Fake) Fail(fl Failure) {
	if fl.Status == 0 {
		fl.Status = http.StatusTooManyRequests
	}
	if fl.RetryAfter == 0 {
		fl.RetryAfter = 50 * time.Millisecond
	}
	method, path := "*", fl.Route
	if m, p, ok := strings.Cut(fl.Route, " "); ok {
		method, path = strings.ToUpper(m), p
	}
	fi := &failure{Failure: fl, method: method, path: strings.Split(strings.Trim(path, "/"), "/"), left: fl.Count}
	f.mu.Lock()
	f.rest.failures = append(f.rest.failures, fi)
	f.mu.Unlock()
}

func (fi *failure) matches(method, rel string) bool {
	if fi.left <= 0 || (fi.method != "*" && fi.method != method) {
		return false
	}
	segs := strings.Split(strings.Trim(rel, "/"), "/")
	if len(segs) != len(fi.path) {
		return false
	}
	for i, s := range fi.path {
		if s != "*" && s != segs[i] {
			return false
		}
	}
	return true
}

// injectFailure answers the request with an injected failure if one matches.
func (f *Fake) injectFailure(w http.ResponseWriter, method, rel string) bool {
	f.mu.Lock()
	var hit *Failure
	for _, fi := range f.rest.failures {
		if fi.matches(method, rel) {
			fi.left--
			c := fi.Failure
			hit = &c
			break
		}
	}
	f.mu.Unlock()
	if hit == nil {
		return false
	}
	if hit.Hangup {
		hangup(w)
		return true
	}
	if hit.Status != http.StatusTooManyRequests {
		fail(w, hit.Status, codeGeneral, fmt.Sprintf("%d: %s", hit.Status, http.StatusText(hit.Status)))
		return true
	}
	if hit.FromProxy {
		writeProxy429(w, hit.RetryAfter)
		return true
	}
	secs := hit.RetryAfter.Seconds()
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	if hit.Global {
		h.Set("X-RateLimit-Global", "true")
		h.Set("X-RateLimit-Scope", "global")
	} else {
		h.Set("X-RateLimit-Limit", "5")
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(hit.RetryAfter).UnixMilli())/1000, 'f', 3, 64))
		h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
		h.Set("X-RateLimit-Bucket", "fake-"+strings.ReplaceAll(strings.ToLower(method+"-"+rel), "/", "-"))
		h.Set("X-RateLimit-Scope", "user")
		if hit.Scope != "" {
			h.Set("X-RateLimit-Scope", hit.Scope)
		}
	}
	if sw, ok := w.(*statusWriter); ok {
		sw.errText = "You are being rate limited."
	}
	writeJSON(w, http.StatusTooManyRequests, map[string]any{
		"message": "You are being rate limited.", "retry_after": secs, "global": hit.Global,
	})
	return true
}
