// End-to-end stories of the bot where Discord misbehaves or the ops door is tried: a
// gateway closed on the first connect, a callback whose connection drops (its token
// must not reach the logs), and the live backup through a running bot.

package serve

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
)

// TestFirstConnectClosedIsRetried: Discord closes the very first gateway connection
// (4000, unknown error) twice; the bot retries with backoff and comes up.
func TestFirstConnectClosedIsRetried(t *testing.T) {
	w := newWorld(t)
	w.f.CloseNextIdentify(4000, "Unknown error.", 2)
	logs := &logBuffer{}
	w.startWith(w.cfg, Deps{Logger: logs.logger()})
	if n := w.f.Identifies(); n != 1 {
		t.Errorf("accepted identifies = %d, want 1 (after two closed)", n)
	}
	if got := strings.Count(logs.String(), "gateway connection failed; retrying"); got != 2 {
		t.Errorf("%d retries logged, want 2:\n%s", got, logs)
	}
	res := w.send(discordfake.Command("games"))
	if !strings.Contains(res.Callback.Data.Content, "no games") {
		t.Errorf("/games after the retries answered %q", res.Callback.Data.Content)
	}
}

// TestFatalCloseStopsTheBot: a close code after which reconnecting cannot help stops
// `gambit serve` at once with what to fix.
func TestFatalCloseStopsTheBot(t *testing.T) {
	for _, c := range []struct {
		code int
		want string
	}{
		{4004, "authentication failed: check discord.token"},
		{4014, "disallowed intents"},
		{4011, "sharding required"},
	} {
		t.Run(strconv.Itoa(c.code), func(t *testing.T) {
			w := newWorld(t)
			w.f.CloseNextIdentify(c.code, "closed by the test", 1)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err := Run(ctx, w.cfg, Deps{Logger: testLogger(t), Clock: w.clock})
			var fe *bot.FatalCloseError
			if !errors.As(err, &fe) || fe.Code != c.code || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Run = %v, want a FatalCloseError %d saying %q", err, c.code, c.want)
			}
			if ctx.Err() != nil {
				t.Error("Run returned only when its context ended, not at the fatal close")
			}
		})
	}
}

// TestInteractionTokenNeverLogged: the connection of an interaction's callback drops;
// the bot logs the failure, and no log line carries the interaction's token (net/http
// quotes the whole URL, token included, in its errors).
func TestInteractionTokenNeverLogged(t *testing.T) {
	w := newWorld(t)
	logs := &logBuffer{}
	w.startWith(w.cfg, Deps{Logger: logs.logger()})
	w.f.Fail(discordfake.Failure{Route: "POST interactions/*/*/callback", Count: 1, Hangup: true})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := w.f.SendInteraction(ctx, discordfake.Command("games")); err == nil {
		t.Fatal("the interaction was answered through a callback that hung up")
	}
	var token string
	for _, r := range w.f.Requests() {
		if parts := strings.Split(r.Path, "/"); len(parts) == 4 && parts[0] == "interactions" && parts[3] == "callback" {
			token = parts[2]
		}
	}
	if len(token) < 16 {
		t.Fatalf("no callback request recorded: %+v", w.f.Requests())
	}
	w.waitFor("the failed callback in the log", func() bool { return strings.Contains(logs.String(), "interaction callback") })
	if strings.Contains(logs.String(), token) {
		t.Errorf("the interaction token is in the logs:\n%s", logs)
	}
	if !strings.Contains(logs.String(), "interactions/") || !strings.Contains(logs.String(), "[redacted]") {
		t.Errorf("the failure is not logged with its URL redacted:\n%s", logs)
	}
	if strings.Contains(logs.String(), w.f.Token) {
		t.Errorf("the bot token is in the logs")
	}
}

// TestLiveBackupThroughTheBot: a running bot with backups.endpoint_token serves the copy
// to the token's bearer only, and never logs the token.
func TestLiveBackupThroughTheBot(t *testing.T) {
	w := newWorld(t)
	w.cfg.Metrics.Address = "127.0.0.1:0"
	w.cfg.Backups.EndpointToken = testBackupToken
	logs := &logBuffer{}
	r := w.startWith(w.cfg, Deps{Logger: logs.logger()})
	w.startGame("10+5")
	rig := &opsRig{addr: r.bot.OpsAddr}
	if resp, _ := rig.get(t, "/backup", "", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/backup without the token: %d", resp.StatusCode)
	}
	if resp, _ := rig.get(t, "/backup", "rebound.attacker.example", "Bearer "+testBackupToken); resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("/backup through a foreign name: %d", resp.StatusCode)
	}
	resp, body := rig.get(t, "/backup", "", "Bearer "+testBackupToken)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/backup with the token: %d %.200s", resp.StatusCode, body)
	}
	if n := countBackupGames(t, body); n != 1 {
		t.Errorf("the copy has %d games, want 1", n)
	}
	r.stop()
	if strings.Contains(logs.String(), testBackupToken) {
		t.Errorf("the backup token is in the logs")
	}
	if !strings.Contains(logs.String(), "backup over http") {
		t.Errorf("the backup is not logged:\n%s", logs)
	}
}
