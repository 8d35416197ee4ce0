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

// redactString replaces interaction tokens, passwords (redact.Text) and each of
// secrets in s.
func redactString(s string, secrets []string) string {
	s = redact.Text(redactURLs(s))
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

// RedactLogs returns log with interaction tokens and the given secrets (the bot token,
// the backup endpoint's token) replaced in every line.
func RedactLogs(log *slog.Logger, secrets ...string) *slog.Logger {
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
