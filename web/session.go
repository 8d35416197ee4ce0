// session.go: signing in. A player who clicks "Play on the web" on Discord gets a
// personal link carrying a short-lived signed token; opening it exchanges the token
// for an HttpOnly session cookie (Secure under https) and redirects to the game's page.
// The token is never logged (the request log names routes, not URLs).

package web

import (
	"net/http"
	"time"
)

// sessionCookie is the session cookie's name.
const sessionCookie = "gambit_session"

// SignInURL returns the personal link that signs userID in and opens game gameID's
// page. It works for signInTTL.
func (s *Server) SignInURL(userID string, gameID uint64) string {
	tok := s.keys.signInToken(signIn{UserID: userID, GameID: gameID, Expires: s.opts.Now().Add(signInTTL)})
	return s.opts.BaseURL + "/signin/" + tok
}

// sessionUser returns the signed-in user of r and the cookie's value ("", "" for
// none or an invalid one).
func (s *Server) sessionUser(r *http.Request) (user, cookie string) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return "", ""
	}
	ses, err := s.keys.parseSession(c.Value, s.opts.Now())
	if err != nil {
		return "", ""
	}
	return ses.UserID, c.Value
}

// signIn serves GET /signin/{token}: a valid token sets the session cookie and
// redirects to its game's page; anything else is a page saying the link is no good.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request) {
	if !s.limits.request(addrOf(r)) {
		s.errorPage(w, http.StatusTooManyRequests, "Slow down", "Too many requests from your address; wait a minute.")
		return
	}
	t, err := s.keys.parseSignIn(r.PathValue("token"), s.opts.Now())
	if err != nil {
		text := "This sign-in link is not valid. Use the button Play on the web under your game's board on Discord for a new one."
		if err == errTokenExpired {
			text = "This sign-in link has expired (they work for ten minutes). Use the button Play on the web on Discord for a new one."
		}
		s.errorPage(w, http.StatusForbidden, "Sign-in link not valid", text)
		return
	}
	now := s.opts.Now()
	val := s.keys.sessionToken(session{UserID: t.UserID, Expires: now.Add(sessionTTL)})
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: val, Path: "/", Expires: now.Add(sessionTTL), MaxAge: int(sessionTTL / time.Second),
		HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode,
	})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, s.gamePath(t.GameID), http.StatusSeeOther)
}

// signOut serves POST /signout: it ends the session (the form carries its CSRF token).
func (s *Server) signOut(w http.ResponseWriter, r *http.Request) {
	_, cookie := s.sessionUser(r)
	if err := r.ParseForm(); err != nil || !s.keys.validCSRF(cookie, r.PostForm.Get("csrf")) {
		s.errorPage(w, http.StatusForbidden, "Forbidden", "This form is not from your own page: reload the page and try again.")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode})
	back := "/"
	if id, ok := parseID(r.PostForm.Get("game")); ok {
		back = s.gamePath(id)
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}
