// Tests of the redaction of interaction tokens and secrets from errors and logs.

package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

const testInteractionToken = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpTZWNyZXRUb2tlbg"

func TestRedactURLs(t *testing.T) {
	cases := []struct{ in, want string }{
		{"POST http://h/api/v10/interactions/123/" + testInteractionToken + "/callback: EOF",
			"POST http://h/api/v10/interactions/123/[redacted]/callback: EOF"},
		{`Patch "https://discord.com/api/v10/webhooks/99/` + testInteractionToken + `/messages/@original": timeout`,
			`Patch "https://discord.com/api/v10/webhooks/99/[redacted]/messages/@original": timeout`},
		{"webhooks/99/" + testInteractionToken + "?wait=true", "webhooks/99/[redacted]?wait=true"},
		{"send message to 1234: HTTP 403", "send message to 1234: HTTP 403"},
		{"channels/1/messages", "channels/1/messages"},
	}
	for _, c := range cases {
		if got := redactURLs(c.in); got != c.want {
			t.Errorf("redactURLs(%q)\n= %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestRedactRequestErrorKeepsTheCause(t *testing.T) {
	err := &url.Error{Op: "Post", URL: "http://h/api/v10/interactions/1/" + testInteractionToken + "/callback", Err: context.DeadlineExceeded}
	got := fmt.Errorf("interaction callback: %w", redactRequestError(err))
	if strings.Contains(got.Error(), testInteractionToken) || !strings.Contains(got.Error(), "[redacted]") {
		t.Errorf("error %q", got)
	}
	if !errors.Is(got, context.DeadlineExceeded) {
		t.Error("the cause is lost")
	}
	var ue *url.Error
	if !errors.As(got, &ue) || strings.Contains(ue.URL, testInteractionToken) {
		t.Errorf("url.Error %+v", ue)
	}
}

func TestRedactingHandler(t *testing.T) {
	buf := &logBuffer{}
	const botToken = "MTIz.bot-token-secret"
	log := RedactLogs(slog.New(slog.NewJSONHandler(buf, nil)), botToken, "")
	u := "http://h/interactions/1/" + testInteractionToken + "/callback"
	log.With("call", u).Error("failed "+u, "err", errors.New("Post "+u+": EOF"),
		slog.Group("req", "url", u), "auth", "Bot "+botToken, "n", 3, "any", struct{ U string }{u})
	RedactLogs(log, "other-secret").Info("again", "v", "other-secret and "+botToken)
	out := buf.String()
	for _, secret := range []string{testInteractionToken, botToken, "other-secret"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q logged:\n%s", secret, out)
		}
	}
	if strings.Count(out, "[redacted]") < 7 || !strings.Contains(out, `"n":3`) {
		t.Errorf("log:\n%s", out)
	}
}
