// activityhost.go: Discord's side of an Activity in a browser: the application's
// proxied host (Discord serves an Activity from https://<app id>.discordsays.com,
// every path through the URL mappings, /.proxy/ paths as well) and the client page that
// frames it and answers the Embedded App SDK's postMessage protocol (activityclient.html:
// the handshake, the READY dispatch, AUTHORIZE and AUTHENTICATE with their responses, as
// the SDK's source defines them). The client page and its two helper routes live under
// /.discord/ on the same host, so a test opens one origin: the SDK accepts messages
// from its own origin as from Discord's.

package discordfake

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"testing"
)

//go:embed activityclient.html
var activityClientPage []byte

// ActivityHost is the fake of the Activity's proxied host and of the client around it.
type ActivityHost struct {
	f      *Fake
	srv    *httptest.Server
	target *url.URL
}

// ServeActivity starts the Activity's host for an application whose root URL mapping
// targets target (such as http://127.0.0.1:8080/activity): each path of the host, with or
// without the /.proxy/ prefix, is forwarded to target plus the path, WebSocket upgrades
// included, as Discord's proxy does. The Origin of a forwarded request is the one the
// page has on Discord, https://<app id>.discordsays.com.
func (f *Fake) ServeActivity(t testing.TB, target string) *ActivityHost {
	t.Helper()
	u, err := url.Parse(strings.TrimRight(target, "/"))
	if err != nil || u.Scheme == "" || u.Host == "" {
		t.Fatalf("activity host: target %q: want scheme://host/path", target)
	}
	h := &ActivityHost{f: f, target: u}
	proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		p := strings.TrimPrefix(pr.In.URL.Path, "/.proxy")
		pr.Out.URL.Scheme, pr.Out.URL.Host = u.Scheme, u.Host
		pr.Out.URL.Path = u.Path + p
		pr.Out.URL.RawPath = ""
		pr.Out.Host = u.Host
		if pr.In.Header.Get("Origin") != "" {
			pr.Out.Header.Set("Origin", ActivityOrigin(f.AppID))
		}
	}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.discord/client", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(activityClientPage)
	})
	mux.HandleFunc("POST /.discord/authorize", h.authorize)
	mux.HandleFunc("POST /.discord/authenticate", h.authenticate)
	mux.Handle("/", proxy)
	h.srv = httptest.NewServer(mux)
	t.Cleanup(h.srv.Close)
	return h
}

// ActivityOrigin is the origin Discord serves application appID's Activity from.
func ActivityOrigin(appID string) string { return "https://" + appID + ".discordsays.com" }

// URL returns the host's address (scheme://host:port).
func (h *ActivityHost) URL() string { return h.srv.URL }

// ClientOption changes what the client page does.
type ClientOption func(url.Values)

// ForgeCode makes the client answer AUTHORIZE with a code Discord never issued.
func ForgeCode() ClientOption { return func(q url.Values) { q.Set("forge", "code") } }

// ClientURL returns the client page of user userID in Activity instance instanceID:
// it frames the Activity (the host's root, with the query parameters Discord adds:
// frame_id, instance_id, platform, guild_id, channel_id) and answers its SDK.
func (h *ActivityHost) ClientURL(userID, instanceID string, opts ...ClientOption) string {
	h.f.mu.Lock()
	inst := h.f.oauth.instances[instanceID]
	var guild, channel string
	if inst != nil {
		guild, channel = inst.guild, inst.channel
	}
	h.f.mu.Unlock()
	q := url.Values{"user": {userID}, "instance": {instanceID}, "app": {h.f.AppID}, "guild": {guild}, "channel": {channel}}
	for _, o := range opts {
		o(q)
	}
	return h.srv.URL + "/.discord/client?" + q.Encode()
}

// authorize is the client's AUTHORIZE: the user consents (prompt none: they did
// before) and the client hands the Activity a fresh code for the scopes it asked.
func (h *ActivityHost) authorize(w http.ResponseWriter, r *http.Request) {
	var in struct {
		User     string   `json:"user"`
		ClientID string   `json:"client_id"`
		Scope    []string `json:"scope"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.ClientID != h.f.AppID || len(in.Scope) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]any{"code": 4000, "message": "Invalid payload"})
		return
	}
	h.f.mu.Lock()
	_, known := h.f.users[in.User]
	h.f.mu.Unlock()
	if !known {
		writeJSON(w, http.StatusBadRequest, map[string]any{"code": 4010, "message": "Invalid user"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"code": h.f.MintCode(in.User, in.Scope...)})
}

// authenticate is the client's AUTHENTICATE: the token's user and scopes, as Discord
// answers the SDK, or an error for a token it never issued.
func (h *ActivityHost) authenticate(w http.ResponseWriter, r *http.Request) {
	var in struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(r.Body).Decode(&in)
	user, scopes, ok := h.f.TokenUser(in.AccessToken)
	h.f.mu.Lock()
	u := copyUser(h.f.users[user])
	h.f.mu.Unlock()
	if !ok || u == nil {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"code": 4009, "message": "Invalid token"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": in.AccessToken,
		"user": map[string]any{"id": u.ID, "username": u.Username, "discriminator": u.Discriminator,
			"global_name": u.GlobalName, "avatar": nil, "public_flags": 0},
		"scopes": slices.Clone(scopes), "expires": "2100-01-01T00:00:00.000Z",
		"application": map[string]any{"id": h.f.AppID, "name": h.f.Bot.Username, "description": "", "icon": nil},
	})
}
