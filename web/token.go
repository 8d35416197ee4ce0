// token.go: the signed strings of the web: a game's link token, the short-lived sign-in
// token a player gets on Discord, the session cookie it is exchanged for, and the CSRF
// token of a session's forms. All are HMAC-SHA-256 under keys derived from the server's
// secret, one key per use, so one kind can never stand for another.

package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// keys are the per-use keys derived from the secret.
type keys struct {
	game, signIn, session, csrf []byte
}

func deriveKeys(secret []byte) keys {
	sub := func(label string) []byte {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte("gambit web key: " + label))
		return m.Sum(nil)
	}
	return keys{game: sub("game link"), signIn: sub("sign-in"), session: sub("session"), csrf: sub("csrf")}
}

var b64 = base64.RawURLEncoding

// mac returns the first n bytes of HMAC-SHA-256(key, msg), base64url.
func mac(key []byte, msg string, n int) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return b64.EncodeToString(m.Sum(nil)[:n])
}

// gameTokenBytes is the length of a game link's MAC: 128 bits, 22 characters.
const gameTokenBytes = 16

// GameToken returns the token of game id's link.
func (k keys) GameToken(id uint64) string {
	return mac(k.game, "game "+strconv.FormatUint(id, 10), gameTokenBytes)
}

// validGameToken reports whether token is game id's, in constant time.
func (k keys) validGameToken(id uint64, token string) bool {
	return hmac.Equal([]byte(k.GameToken(id)), []byte(token))
}

// Sign-in and session tokens are fields joined by '.', the MAC last. Their errors say
// what is wrong without repeating the token.
var (
	errTokenForm    = errors.New("malformed token")
	errTokenMAC     = errors.New("token signature does not match")
	errTokenExpired = errors.New("token expired")
)

// signInTTL is how long a sign-in link works: long enough to open it, short enough
// that a link shared by mistake soon stops working.
const signInTTL = 10 * time.Minute

// sessionTTL is how long a session cookie signs a player in.
const sessionTTL = 30 * 24 * time.Hour

// signIn is what a sign-in token carries: who, for which game, until when.
type signIn struct {
	UserID  string
	GameID  uint64
	Expires time.Time
}

// signInToken returns the token of t.
func (k keys) signInToken(t signIn) string {
	body := t.UserID + "." + strconv.FormatUint(t.GameID, 10) + "." + strconv.FormatInt(t.Expires.Unix(), 10)
	return body + "." + mac(k.signIn, body, 18)
}

// parseSignIn reads and checks a sign-in token at now.
func (k keys) parseSignIn(tok string, now time.Time) (signIn, error) {
	parts := strings.Split(tok, ".")
	if len(tok) > 128 || len(parts) != 4 || !snowflake(parts[0]) {
		return signIn{}, errTokenForm
	}
	id, err := strconv.ParseUint(parts[1], 10, 64)
	if err != nil || id == 0 || parts[1] != strconv.FormatUint(id, 10) {
		return signIn{}, errTokenForm
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || exp <= 0 || parts[2] != strconv.FormatInt(exp, 10) {
		return signIn{}, errTokenForm
	}
	body := parts[0] + "." + parts[1] + "." + parts[2]
	if !hmac.Equal([]byte(mac(k.signIn, body, 18)), []byte(parts[3])) {
		return signIn{}, errTokenMAC
	}
	t := signIn{UserID: parts[0], GameID: id, Expires: time.Unix(exp, 0)}
	if !now.Before(t.Expires) {
		return signIn{}, errTokenExpired
	}
	return t, nil
}

// session is a signed-in browser: the Discord user and when the cookie stops working.
type session struct {
	UserID  string
	Expires time.Time
}

// sessionToken returns the cookie value of s.
func (k keys) sessionToken(s session) string {
	body := s.UserID + "." + strconv.FormatInt(s.Expires.Unix(), 10)
	return body + "." + mac(k.session, body, 18)
}

// parseSession reads and checks a session cookie at now.
func (k keys) parseSession(tok string, now time.Time) (session, error) {
	parts := strings.Split(tok, ".")
	if len(tok) > 96 || len(parts) != 3 || !snowflake(parts[0]) {
		return session{}, errTokenForm
	}
	exp, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || exp <= 0 || parts[1] != strconv.FormatInt(exp, 10) {
		return session{}, errTokenForm
	}
	if !hmac.Equal([]byte(mac(k.session, parts[0]+"."+parts[1], 18)), []byte(parts[2])) {
		return session{}, errTokenMAC
	}
	s := session{UserID: parts[0], Expires: time.Unix(exp, 0)}
	if !now.Before(s.Expires) {
		return session{}, errTokenExpired
	}
	return s, nil
}

// csrfToken returns the CSRF token of a session's forms: bound to the session cookie,
// so a page of another site, which cannot read the cookie, cannot make it.
func (k keys) csrfToken(sessionCookie string) string { return mac(k.csrf, sessionCookie, 18) }

func (k keys) validCSRF(sessionCookie, token string) bool {
	return sessionCookie != "" && hmac.Equal([]byte(k.csrfToken(sessionCookie)), []byte(token))
}

// snowflake reports whether s is a Discord id: 1 to 20 digits. gambit play's local
// players have ids of that form too.
func snowflake(s string) bool {
	if len(s) == 0 || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
