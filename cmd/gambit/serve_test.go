// Tests of `gambit serve`: configuration errors, a run against the fake Discord, the logger.

package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/buildinfo"
	"github.com/gambitchess/gambit/internal/syncbuf"
	"github.com/gambitchess/gambit/storage/bolt"
)

func TestServeConfigErrors(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	t.Setenv("GAMBIT_DISCORD_TOKEN", "")
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"no token", nil, []string{"discord.token", "missing", "GAMBIT_DISCORD_TOKEN"}},
		{"unknown key", []string{"--config", write("typo.yaml", "discord:\n  tokn: abc\n")}, []string{"typo.yaml:2", "discord.tokn", "unknown key"}},
		{"bad value", []string{"--config", write("shards.yaml", "discord:\n  token: abc\n  shards: many\n")}, []string{"shards.yaml:3", "discord.shards"}},
		{"bad default time control", []string{"--config", write("control.yaml", "discord:\n  token: abc\ngames:\n  default_time_control: fast\n")},
			[]string{"control.yaml:4", "games.default_time_control", `"fast"`}},
		{"no such file", []string{"--config", filepath.Join(dir, "absent.yaml")}, []string{"absent.yaml"}},
		{"stray argument", []string{"extra"}, []string{"unexpected argument"}},
	}
	for _, c := range cases {
		var stderr syncbuf.Buffer
		err := runServe(c.args, &stderr, &stderr)
		if err == nil {
			t.Errorf("%s: runServe succeeded", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.name, err, w)
			}
		}
		if strings.Contains(err.Error(), "abc") {
			t.Errorf("%s: the error shows the token: %q", c.name, err)
		}
	}
}

// serveBackupToken is the backups.endpoint_token of the bot TestServeAgainstTheFake runs.
const serveBackupToken = "serve-test-backup-token-0123456789"

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServeAgainstTheFake runs `gambit serve` as the binary does: configuration from
// a file and the environment, real discordgo against the fake Discord, stopped by
// SIGTERM. While it runs, `gambit health` finds it healthy, and `gambit backup` on its
// store says how to have it serve the copy, which then works as said.
func TestServeAgainstTheFake(t *testing.T) {
	f := discordfake.New(t, discordfake.WithHeartbeatInterval(250*time.Millisecond))
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "gambit.yaml")
	ops := freeAddr(t)
	yaml := "discord:\n  rest_url: " + f.RESTURL() + "\n  gateway_url: " + f.GatewayURL() +
		"\nstorage:\n  path: " + filepath.Join(dir, "gambit.db") + "\nlog:\n  level: debug\n  format: json\nmetrics:\n  address: " + ops + "\nbackups:\n  endpoint_token: " + serveBackupToken + "\n"
	if err := os.WriteFile(cfgPath, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GAMBIT_DISCORD_TOKEN", "")
	os.Unsetenv("GAMBIT_DISCORD_TOKEN") // restored by t.Setenv's cleanup
	t.Setenv("DISCORD_TOKEN", f.Token)  // the usual name is accepted too
	var stderr syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- runServe([]string{"--config", cfgPath}, &stderr, &stderr) }()
	var early error
	if !f.WaitFor(func() bool {
		select {
		case early = <-done:
			return true
		default:
		}
		return len(f.Overwrites()) == 1 && f.Connected() == 1
	}, 20*time.Second) || early != nil {
		t.Fatalf("gambit serve did not register and connect (%v); log:\n%s", early, stderr.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := f.SendInteraction(ctx, discordfake.Command("challenge", discordfake.StringOpt("time", "5+3")))
	if err != nil {
		t.Fatalf("challenge: %v", err)
	}
	if !strings.Contains(res.Callback.Data.Content, "open 5+3") {
		t.Errorf("challenge answered %q", res.Callback.Data.Content)
	}
	healthy := false
	for deadline := time.Now().Add(10 * time.Second); !healthy && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		healthy = runHealth([]string{"http://" + ops + "/healthz"}, io.Discard, io.Discard) == nil
	}
	if !healthy {
		t.Error("gambit health does not find the running bot healthy")
	}
	liveCopy := filepath.Join(dir, "live.db")
	err = runBackup([]string{"--config", cfgPath, "-o", liveCopy}, io.Discard, io.Discard)
	if want := "curl -fsS -o " + liveCopy + " http://" + ops + "/backup"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("gambit backup of the running bot's store: %v; want it to say %s", err, want)
	}
	req, err := http.NewRequest(http.MethodGet, "http://"+ops+"/backup", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+serveBackupToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /backup: %d, %v", resp.StatusCode, err)
	}
	if err := os.WriteFile(liveCopy, data, 0o600); err != nil {
		t.Fatal(err)
	}
	copyDB, err := bolt.Open(liveCopy, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the live copy does not open: %v", err)
	}
	if err := copyDB.Check(ctx); err != nil {
		t.Errorf("the live copy fails its check: %v", err)
	}
	copyDB.Close()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("runServe after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("gambit serve did not stop 20s after SIGTERM")
	}
	log := stderr.String()
	if strings.Contains(log, f.Token) {
		t.Error("the token appears in the log")
	}
	version, revision := buildinfo.Version()
	for _, want := range []string{`"msg":"gambit serve","version":"` + version + `","revision":"` + revision + `"`,
		`"msg":"commands registered"`, `"msg":"invite the bot with this URL","url":"https://discord.com/oauth2/authorize?client_id=` + f.AppID,
		`"msg":"shutting down: no new challenges, finishing what is in flight"`, `"command":"challenge"`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gambit.db")); err != nil {
		t.Errorf("store: %v", err)
	}
}

// TestNewLogger: log.level drops what is below it, log.format chooses text or JSON.
func TestNewLogger(t *testing.T) {
	for _, c := range []struct {
		cfg        config.Log
		shown      []string // of debug, info, warn, error
		jsonFormat bool
	}{
		{config.Log{Level: "debug", Format: "text"}, []string{"debug", "info", "warn", "error"}, false},
		{config.Log{Level: "info", Format: "json"}, []string{"info", "warn", "error"}, true},
		{config.Log{Level: "warn", Format: "text"}, []string{"warn", "error"}, false},
		{config.Log{Level: "error", Format: "json"}, []string{"error"}, true},
	} {
		var buf bytes.Buffer
		log := newLogger(c.cfg, &buf)
		log.Debug("debug")
		log.Info("info")
		log.Warn("warn")
		log.Error("error")
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if len(lines) != len(c.shown) {
			t.Errorf("%+v: %d lines, want %v:\n%s", c.cfg, len(lines), c.shown, buf.String())
			continue
		}
		for i, l := range lines {
			want := "msg=" + c.shown[i]
			if c.jsonFormat {
				want = `"msg":"` + c.shown[i] + `"`
			}
			if !strings.Contains(l, want) || strings.HasPrefix(l, "{") != c.jsonFormat {
				t.Errorf("%+v: line %q, want %s", c.cfg, l, want)
			}
		}
	}
}
