// redact.go: secrets kept out of errors and logs: interaction tokens in Discord URLs,
// and the bot's own secrets wherever they would appear.

package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"

	"github.com/gambitchess/gambit/internal/redact"
)

// redacted stands in for a secret.
const redacted = "[redacted]"

// interactionTokenRE matches the token segment of an interaction's URLs: the callback
// (interactions/{id}/{token}/callback) and the webhook routes (webhooks/{app}/{token}).
// A token is a credential: whoever has it can answer as the bot for 15 minutes.
var interactionTokenRE = regexp.MustCompile(`((?:^|/)(?:interactions|webhooks)/\d+/)[^/?#\s"'<>]+`)

// redactURLs replaces the interaction tokens in the URLs in s.
func redactURLs(s string) string {
	if !strings.Contains(s, "interactions/") && !strings.Contains(s, "webhooks/") {
		return s
	}
	return interactionTokenRE.ReplaceAllString(s, "${1}"+redacted)
}

// redactString replaces interaction tokens, passwords (redactPasswords) and each of
// secrets in s.
func redactString(s string, secrets []string) string {
	s = redactPasswords(redactURLs(s))
	for _, sec := range secrets {
		if sec != "" && strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, redacted)
		}
	}
	return s
}

// redactedError is an error whose message has its secrets replaced; Unwrap keeps the
// cause for errors.Is and errors.As.
type redactedError struct {
	msg   string
	cause error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.cause }

// redactRequestError keeps the interaction token of a request's URL out of its error:
// net/http quotes the whole URL in the errors of Client.Do.
func redactRequestError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		clean := &url.Error{Op: ue.Op, URL: redactURLs(ue.URL), Err: ue.Err}
		if msg := redactURLs(clean.Error()); msg != err.Error() {
			return &redactedError{msg: msg, cause: clean}
		}
		return err
	}
	if msg := redactURLs(err.Error()); msg != err.Error() {
		return &redactedError{msg: msg, cause: err}
	}
	return err
}

// redactingHandler is a slog.Handler that replaces secrets in the message and in every
// string, error and other value of a record before passing it on: the last line of
// defence, whatever a library or a handler puts in its errors.
type redactingHandler struct {
	next    slog.Handler
	secrets []string
}

// redactLogs returns log with interaction tokens and the given secrets (the bot token,
// the backup endpoint's token) replaced in every line.
func redactLogs(log *slog.Logger, secrets ...string) *slog.Logger {
	var keep []string
	for _, s := range secrets {
		if s != "" {
			keep = append(keep, s)
		}
	}
	if h, ok := log.Handler().(*redactingHandler); ok {
		return slog.New(&redactingHandler{next: h.next, secrets: append(append([]string(nil), h.secrets...), keep...)})
	}
	return slog.New(&redactingHandler{next: log.Handler(), secrets: keep})
}

// Enabled implements slog.Handler.
func (h *redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

// Handle implements slog.Handler.
func (h *redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, redactString(r.Message, h.secrets), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

// WithAttrs implements slog.Handler.
func (h *redactingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = h.attr(a)
	}
	return &redactingHandler{next: h.next.WithAttrs(clean), secrets: h.secrets}
}

// WithGroup implements slog.Handler.
func (h *redactingHandler) WithGroup(name string) slog.Handler {
	return &redactingHandler{next: h.next.WithGroup(name), secrets: h.secrets}
}

// attr returns a with its secrets replaced.
func (h *redactingHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		if s := redactString(v.String(), h.secrets); s != v.String() {
			return slog.String(a.Key, s)
		}
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, ga := range g {
			clean[i] = h.attr(ga)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		var s string
		switch x := v.Any().(type) {
		case error:
			s = x.Error()
		case fmt.Stringer:
			s = x.String()
		default:
			s = fmt.Sprint(x)
		}
		if c := redactString(s, h.secrets); c != s {
			return slog.String(a.Key, c)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// redactPasswords replaces the passwords in text that may quote URLs or connection
// strings: the password of every URL's user information (scheme://user:secret@) and
// its query's secret parameters, and the values of password= and sslpassword= pairs
// (redactKeywordDSN). Text without "://" or "password" is returned as it is.
func redactPasswords(s string) string {
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
			b.WriteString(redactDSNURL(s[start:end]))
			s = s[end:]
		}
		b.WriteString(s)
		s = b.String()
	}
	if containsFold(s, "password") {
		s = redactKeywordDSN(s)
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

// redactDSN returns a PostgreSQL connection string with its secrets replaced, in
// every form libpq reads: a URL (postgres:// or postgresql://) with a password in its
// user information (user:secret@host) or in its query (?password=, &sslpassword=,
// the key percent-encoded or not), or keyword=value pairs (password=secret,
// password = secret, password='a quoted secret', with \' and \\ escapes). What is not
// a secret is kept as written, so the log still says which database.
func redactDSN(dsn string) string {
	if isDSNURL(dsn) {
		return redactDSNURL(dsn)
	}
	return redactKeywordDSN(dsn)
}

// isDSNURL reports whether dsn is in URL form.
func isDSNURL(dsn string) bool {
	scheme, _, ok := strings.Cut(dsn, "://")
	return ok && (strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql"))
}

// redactDSNURL replaces the password of a URL's user information and the values of
// its query's secret parameters (redact.URL).
func redactDSNURL(u string) string { return redact.URL(u) }

// redactKeywordDSN replaces the values of the secret keywords of a keyword=value
// connection string, read as libpq reads it: spaces may surround '=', a value is
// either single-quoted (to the next quote not escaped by a backslash) or runs to the
// next space, and a backslash escapes the character after it in either. An
// unterminated quote runs to the end.
func redactKeywordDSN(s string) string {
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
		if redact.SecretKey(key) {
			b.WriteString(s[i:v] + redacted)
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
