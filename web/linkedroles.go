// linkedroles.go: the Linked Roles verification page (the Developer Portal's Linked
// Roles Verification URL is BaseURL + LinkedRolesPath): it sends the user to Discord's
// authorization with the scopes role_connections.write and identify and a state bound
// to a cookie of this browser, and its callback checks the state, completes the link
// (service/linkedroles: the code traded, the grant sealed and stored, the ratings
// pushed) and says what was linked. A callback without the state of the cookie, or
// refused by Discord, links nothing.

package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/gambitchess/gambit/service/linkedroles"
)

// LinkedRolesPath is the verification page; its callback is LinkedRolesPath +
// "callback".
const LinkedRolesPath = "/linked-roles/"

// DefaultAuthorizeURL is Discord's OAuth2 authorization page.
const DefaultAuthorizeURL = "https://discord.com/oauth2/authorize"

// LinkedRolesOptions turn the verification page on.
type LinkedRolesOptions struct {
	// Service completes the links.
	Service *linkedroles.Service
	// ClientID is the application's id; RedirectURL the callback registered in the
	// Developer Portal.
	ClientID, RedirectURL string
	// AuthorizeURL is Discord's authorization page (default DefaultAuthorizeURL).
	AuthorizeURL string
}

// linkedRolesCookie holds the state of an authorization under way, for ten minutes.
const (
	linkedRolesCookie = "gambit_linked_roles"
	linkedRolesTTL    = 10 * time.Minute
)

func (s *Server) linkedRolesRoutes() {
	if s.opts.LinkedRoles == nil {
		return
	}
	s.mux.HandleFunc("GET "+LinkedRolesPath+"{$}", s.linkedRolesStart)
	s.mux.HandleFunc("GET "+LinkedRolesPath+"callback", s.linkedRolesCallback)
}

// linkedRolesStart sends the browser to Discord's authorization with a fresh state.
func (s *Server) linkedRolesStart(w http.ResponseWriter, r *http.Request) {
	o := s.opts.LinkedRoles
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong", "Try again in a moment.")
		return
	}
	state := hex.EncodeToString(b[:])
	http.SetCookie(w, &http.Cookie{Name: linkedRolesCookie, Value: state, Path: LinkedRolesPath, MaxAge: int(linkedRolesTTL / time.Second),
		HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode})
	auth := o.AuthorizeURL
	if auth == "" {
		auth = DefaultAuthorizeURL
	}
	q := url.Values{"client_id": {o.ClientID}, "response_type": {"code"}, "redirect_uri": {o.RedirectURL},
		"scope": {linkedroles.Scope + " identify"}, "state": {state}, "prompt": {"consent"}}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, auth+"?"+q.Encode(), http.StatusFound)
}

// linkedRolesCallback completes the link the state of this browser's cookie started.
func (s *Server) linkedRolesCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	c, err := r.Cookie(linkedRolesCookie)
	http.SetCookie(w, &http.Cookie{Name: linkedRolesCookie, Value: "", Path: LinkedRolesPath, MaxAge: -1, HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode})
	if err != nil || len(c.Value) != 32 || subtle.ConstantTimeCompare([]byte(c.Value), []byte(q.Get("state"))) != 1 {
		s.errorPage(w, http.StatusBadRequest, "Start again", "This link did not start in this browser, or it is too old. Open the linked role in Discord again.")
		return
	}
	if q.Get("error") != "" || q.Get("code") == "" || len(q.Get("code")) > 200 {
		s.errorPage(w, http.StatusBadRequest, "Not linked", "Discord did not authorize Gambit, so nothing was linked.")
		return
	}
	_, name, err := s.opts.LinkedRoles.Service.Link(r.Context(), q.Get("code"))
	switch {
	case errors.Is(err, linkedroles.ErrNoScope):
		s.errorPage(w, http.StatusBadRequest, "Not linked", "The authorization did not let Gambit update your roles' data. Open the linked role in Discord again and allow it.")
		return
	case errors.Is(err, linkedroles.ErrRefused):
		s.errorPage(w, http.StatusBadRequest, "Not linked", "Discord refused the authorization. Open the linked role in Discord again.")
		return
	case err != nil && name == "":
		s.log.Error("web: linked roles: link", "err", err)
		s.errorPage(w, http.StatusBadGateway, "Not linked", "Gambit could not reach Discord. Try again in a moment.")
		return
	case err != nil: // linked, but the first push failed: the next rated game pushes
		s.log.Warn("web: linked roles: the first push failed", "err", err)
	}
	s.errorPage(w, http.StatusOK, "Linked", "Your Gambit ratings are linked to your Discord account, "+name+
		". Servers can now give you the roles they gate on them; your ratings are sent again after each rated game.")
}
