// authorize.go: Discord's OAuth2 authorization page (GET /oauth2/authorize) as a browser
// meets it. The page shows the application's request (its scopes) to the user signed in
// to Discord in that browser (SignInURL's cookie); Authorize sends the browser back to
// the redirect URI with a code for those scopes and the state, Cancel with
// error=access_denied and the state, as Discord does. A request without a known client,
// response_type=code, a redirect URI or scopes is refused on the page itself.

package discordfake

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"
)

// browserUserCookie names the fake's sign-in cookie: who is signed in to Discord in a
// browser.
const browserUserCookie = "fake_discord_user"

// AuthorizeURL returns the fake's authorization page: where a page of the bot sends a
// browser for the user's consent.
func (f *Fake) AuthorizeURL() string { return f.srv.URL + "/oauth2/authorize" }

// SignInURL returns an address that signs a browser in to the fake as the user, as a
// person is signed in to Discord before an application asks for their consent.
func (f *Fake) SignInURL(userID string) string {
	return f.srv.URL + "/.fake/signin?user=" + url.QueryEscape(userID)
}

// serveSignIn sets the sign-in cookie of a known user.
func (f *Fake) serveSignIn(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("user")
	f.mu.Lock()
	_, ok := f.users[id]
	f.mu.Unlock()
	if !ok {
		http.Error(w, "no such user", http.StatusNotFound)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: browserUserCookie, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("signed in as " + id))
}

// authorizeRequest is an authorization request as the page reads it.
type authorizeRequest struct {
	ClientID, RedirectURI, State string
	Scopes                       []string
}

// readAuthorize checks an authorization request (the query of GET, the form of POST).
func (f *Fake) readAuthorize(v url.Values) (authorizeRequest, string) {
	a := authorizeRequest{ClientID: v.Get("client_id"), RedirectURI: v.Get("redirect_uri"), State: v.Get("state"), Scopes: strings.Fields(v.Get("scope"))}
	switch u, err := url.Parse(a.RedirectURI); {
	case a.ClientID != f.AppID:
		return a, "Unknown application"
	case v.Get("response_type") != "code":
		return a, "Invalid response_type: Gambit asks for \"code\""
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return a, "Invalid OAuth2 redirect_uri"
	case len(a.Scopes) == 0:
		return a, "No scopes were requested"
	}
	for _, s := range a.Scopes {
		if !knownScopes[s] {
			return a, "Invalid scope: " + s
		}
	}
	return a, ""
}

// knownScopes are the OAuth2 scopes the fake grants.
var knownScopes = map[string]bool{"identify": true, "role_connections.write": true, "applications.commands": true, "bot": true, "guilds": true}

var authorizePage = template.Must(template.New("authorize").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>Discord | Authorize access to your account</title></head>
<body><main>
{{if .Problem}}<h1>Something went wrong</h1><p data-problem>{{.Problem}}</p>
{{else}}<h1>An external application wants to access your Discord account</h1>
<p>Signed in as <b data-user>{{.User}}</b>. It asks to:</p>
<ul>{{range .Scopes}}<li data-scope>{{.}}</li>{{end}}</ul>
<form method="post" action="/oauth2/authorize">
<input type="hidden" name="client_id" value="{{.ClientID}}"><input type="hidden" name="redirect_uri" value="{{.RedirectURI}}">
<input type="hidden" name="state" value="{{.State}}"><input type="hidden" name="scope" value="{{.Scope}}"><input type="hidden" name="response_type" value="code">
<button name="action" value="cancel" data-cancel>Cancel</button> <button name="action" value="authorize" data-authorize>Authorize</button>
</form>{{end}}
</main></body></html>`))

// serveAuthorize is the authorization page: GET shows the request, POST answers it.
func (f *Fake) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	a, problem := f.readAuthorize(r.Form)
	user := ""
	if c, err := r.Cookie(browserUserCookie); err == nil {
		f.mu.Lock()
		if _, ok := f.users[c.Value]; ok {
			user = c.Value
		}
		f.mu.Unlock()
	}
	if problem == "" && user == "" {
		problem = "Log in to Discord to continue"
	}
	if problem != "" || r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if problem != "" {
			w.WriteHeader(http.StatusBadRequest)
		}
		_ = authorizePage.Execute(w, map[string]any{"Problem": problem, "User": user, "Scopes": a.Scopes, "ClientID": a.ClientID,
			"RedirectURI": a.RedirectURI, "State": a.State, "Scope": strings.Join(a.Scopes, " ")})
		return
	}
	q := url.Values{}
	if r.Form.Get("action") == "authorize" {
		q.Set("code", f.MintCode(user, a.Scopes...))
	} else {
		q.Set("error", "access_denied")
		q.Set("error_description", "The resource owner or authorization server denied the request")
	}
	if a.State != "" {
		q.Set("state", a.State)
	}
	back, _ := url.Parse(a.RedirectURI) // checked by readAuthorize
	if back.RawQuery != "" {
		back.RawQuery += "&"
	}
	back.RawQuery += q.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}
