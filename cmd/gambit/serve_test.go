package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// syncBuffer is a bytes.Buffer safe for the logger's and the test's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

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
		{"no such file", []string{"--config", filepath.Join(dir, "absent.yaml")}, []string{"absent.yaml"}},
		{"stray argument", []string{"extra"}, []string{"unexpected argument"}},
	}
	for _, c := range cases {
		var stderr syncBuffer
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

// TestServeAgainstTheFake runs `gambit serve` as the binary does: configuration from
// a file and the environment, real discordgo against the fake Discord, stopped by
// SIGTERM.
func TestServeAgainstTheFake(t *testing.T) {
	f := discordfake.New(t, discordfake.WithHeartbeatInterval(250*time.Millisecond))
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "gambit.yaml")
	yaml := "discord:\n  rest_url: " + f.RESTURL() + "\n  gateway_url: " + f.GatewayURL() +
		"\nstorage:\n  path: " + filepath.Join(dir, "gambit.db") + "\nlog:\n  level: debug\n  format: json\n"
	if err := os.WriteFile(cfgPath, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GAMBIT_DISCORD_TOKEN", "")
	os.Unsetenv("GAMBIT_DISCORD_TOKEN") // restored by t.Setenv's cleanup
	t.Setenv("DISCORD_TOKEN", f.Token)  // the usual name is accepted too
	var stderr syncBuffer
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
	for _, want := range []string{`"msg":"commands registered"`, `"msg":"shutting down: no new challenges, finishing what is in flight"`, `"command":"challenge"`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gambit.db")); err != nil {
		t.Errorf("store: %v", err)
	}
}
