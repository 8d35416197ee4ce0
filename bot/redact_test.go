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

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/internal/syncbuf"
	"github.com/gambitchess/gambit/storage/backend"
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
	buf := &syncbuf.Buffer{}
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

// TestRedactingHandlerPasswords: the log handler takes the passwords out of what it is
// given, a DSN in a line or a URL with user information in an error; the line as the
// bot logs the store it opened (postgres: and the DSN) included.
func TestRedactingHandlerPasswords(t *testing.T) {
	buf := &syncbuf.Buffer{}
	log := RedactLogs(slog.New(slog.NewJSONHandler(buf, nil)))
	log.Info("store open", "database", "postgres:postgres://gambit@db/gambit?sslmode=require&password=s3cret")
	log.Info("store open", "database", "postgres:host=db password='s3 cret' dbname=gambit")
	log.Error("configure", "err", errors.New(`discord rest url "http://proxy:pr0xyS3cret@10.0.0.1:3128/api/": no host`))
	log.Warn("dsn host=db PASSWORD=s3cret in the message")
	out := buf.String()
	for _, secret := range []string{"s3cret", "s3 cret", "cret'", "pr0xyS3cret"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q logged:\n%s", secret, out)
		}
	}
	for _, kept := range []string{"postgres://gambit@db/gambit?sslmode=require", "dbname=gambit", "@10.0.0.1:3128/api/"} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q lost:\n%s", kept, out)
		}
	}
}

// TestLibraryLogsRedacted: discordgo's own lines, logged through an unredacting
// logger (the entry point's), lose interaction tokens and URL passwords.
func TestLibraryLogsRedacted(t *testing.T) {
	buf := &syncbuf.Buffer{}
	saved := discordgo.Logger
	t.Cleanup(func() { discordgo.Logger = saved })
	RouteLibraryLogs(slog.New(slog.NewJSONHandler(buf, nil)))
	discordgo.Logger(discordgo.LogError, 0, "error connecting to gateway %s, %s", "wss://gambit:pr0xyS3cret@proxy/gateway",
		"http://h/api/v10/webhooks/1/"+testInteractionToken+"/messages/@original")
	out := buf.String()
	if strings.Contains(out, "pr0xyS3cret") || strings.Contains(out, testInteractionToken) || !strings.Contains(out, "wss://gambit:[redacted]@proxy/gateway") {
		t.Errorf("log:\n%s", out)
	}
}

// TestStoreOpenLineRedacted: the line the bot logs when it opens a PostgreSQL store
// (the location's String through the bot's logger) carries no password in the URL
// forms: the user information, ?password= and &sslpassword=.
func TestStoreOpenLineRedacted(t *testing.T) {
	for _, dsn := range []string{
		"postgres://gambit:s3cret@db:5432/gambit",
		"postgres://gambit@db:5432/gambit?password=s3cret",
		"postgresql://db/gambit?sslmode=require&sslpassword=s3cret&password=s3cret",
	} {
		buf := &syncbuf.Buffer{}
		log := RedactLogs(slog.New(slog.NewJSONHandler(buf, nil)))
		log.Info("store open", "database", backend.Location{Driver: backend.DriverPostgres, DSN: dsn}.String())
		if out := buf.String(); strings.Contains(out, "s3cret") || !strings.Contains(out, "/gambit") {
			t.Errorf("DSN %q logged as:\n%s", dsn, out)
		}
	}
}
