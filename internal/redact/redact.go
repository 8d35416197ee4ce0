// Package redact takes secrets out of URLs before they are shown in logs and errors:
// the password of a URL's user information and the values of query parameters that
// are passwords. Whoever shows a URL the operator configured (a proxy, a database)
// shows it through URL.
package redact

import (
	"net/url"
	"strings"
)

// Redacted stands in for a secret.
const Redacted = "[redacted]"

// SecretKey reports whether a connection parameter's name (any case) is a secret:
// libpq's password, and sslpassword, the password of the client certificate's key.
func SecretKey(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "password", "sslpassword":
		return true
	}
	return false
}

// URL returns u (scheme://...) with the password of its user information and the
// values of its query's secret parameters (SecretKey, the name percent-encoded or
// not) replaced by Redacted; the rest is kept as written. The user information ends
// at the URL's last '@', so a password with an '@', '/' or '?' left unescaped is
// covered whole (and an '@' later in the URL hides a little more than needed). A
// string without "://" is returned as it is.
func URL(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	head, rest := u[:i+3], u[i+3:]
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		if colon := strings.IndexByte(rest[:at], ':'); colon >= 0 {
			head += rest[:colon+1] + Redacted
			rest = rest[at:]
		}
	}
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		return head + rest
	}
	query, fragment, hasFragment := strings.Cut(rest[q+1:], "#")
	params := strings.Split(query, "&")
	for k, p := range params {
		key, _, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		name, err := url.QueryUnescape(key)
		if err != nil {
			name = key
		}
		if SecretKey(name) {
			params[k] = key + "=" + Redacted
		}
	}
	out := head + rest[:q+1] + strings.Join(params, "&")
	if hasFragment {
		out += "#" + fragment
	}
	return out
}
