// Package redact takes passwords out of what is shown in logs and errors: URLs (the
// password of the user information, query parameters that are passwords), PostgreSQL
// connection strings in every form libpq reads, and free text quoting either.
// Whoever shows a URL or a DSN the operator configured (a proxy, a database) shows it
// through URL or DSN.
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

// Text replaces the passwords in text that may quote URLs or connection
// strings: the password of every URL's user information (scheme://user:secret@) and
// its query's secret parameters, and the values of password= and sslpassword= pairs
// (keywords). Text without "://" or "password" is returned as it is.
func Text(s string) string {
	if strings.Contains(s, "://") {
		var b strings.Builder
		for {
			i := strings.Index(s, "://")
			if i < 0 {
				break
			}
			start := i
			for start > 0 && isSchemeChar(s[start-1]) {
				start--
			}
			end := i + 3
			for end < len(s) && !isDSNSpace(s[end]) && !strings.ContainsRune("\"'<>`", rune(s[end])) {
				end++
			}
			b.WriteString(s[:start])
			b.WriteString(URL(s[start:end]))
			s = s[end:]
		}
		b.WriteString(s)
		s = b.String()
	}
	if containsFold(s, "password") {
		s = keywords(s)
	}
	return s
}

// isSchemeChar reports whether c may be in a URL's scheme.
func isSchemeChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// containsFold reports whether s contains the lower-case ASCII word, in any case,
// without allocating.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

// DSN returns a PostgreSQL connection string with its secrets replaced, in
// every form libpq reads: a URL (postgres:// or postgresql://) with a password in its
// user information (user:secret@host) or in its query (?password=, &sslpassword=,
// the key percent-encoded or not), or keyword=value pairs (password=secret,
// password = secret, password='a quoted secret', with \' and \\ escapes). What is not
// a secret is kept as written, so the log still says which database.
func DSN(dsn string) string {
	if isDSNURL(dsn) {
		return URL(dsn)
	}
	return keywords(dsn)
}

// isDSNURL reports whether dsn is in URL form.
func isDSNURL(dsn string) bool {
	scheme, _, ok := strings.Cut(dsn, "://")
	return ok && (strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql"))
}

// keywords replaces the values of the secret keywords of a keyword=value
// connection string, read as libpq reads it: spaces may surround '=', a value is
// either single-quoted (to the next quote not escaped by a backslash) or runs to the
// next space, and a backslash escapes the character after it in either. An
// unterminated quote runs to the end.
func keywords(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		// Copy the spaces before a keyword.
		j := i
		for j < len(s) && isDSNSpace(s[j]) {
			j++
		}
		b.WriteString(s[i:j])
		i = j
		if i == len(s) {
			break
		}
		// The keyword runs to '=' or a space.
		for j < len(s) && s[j] != '=' && !isDSNSpace(s[j]) {
			j++
		}
		// In free text a pair may follow punctuation: "(password=x" or `"password=x`.
		key := strings.TrimLeft(s[i:j], "\"'`([{,;&?")
		eq := j
		for eq < len(s) && isDSNSpace(s[eq]) {
			eq++
		}
		if eq == len(s) || s[eq] != '=' {
			// Not keyword=value: keep the word and go on.
			b.WriteString(s[i:j])
			i = j
			continue
		}
		v := eq + 1
		for v < len(s) && isDSNSpace(s[v]) {
			v++
		}
		end := dsnValueEnd(s, v)
		if SecretKey(key) {
			b.WriteString(s[i:v] + Redacted)
		} else {
			b.WriteString(s[i:end])
		}
		i = end
	}
	return b.String()
}

// dsnValueEnd is where the keyword value starting at s[v] ends.
func dsnValueEnd(s string, v int) int {
	if v < len(s) && s[v] == '\'' {
		for k := v + 1; k < len(s); k++ {
			switch s[k] {
			case '\\':
				k++
			case '\'':
				return k + 1
			}
		}
		return len(s)
	}
	k := v
	for k < len(s) && !isDSNSpace(s[k]) {
		if s[k] == '\\' {
			k++
		}
		k++
	}
	return min(k, len(s))
}

// isDSNSpace reports whether c separates the pairs of a keyword=value string.
func isDSNSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
