// Tests of the Discord runtime alone, without a store or services: its steps against
// the fake Discord, over the gateway and over HTTP.

package bot

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/syncbuf"
)

// runtimeConfig is a configuration pointing the runtime at f.
func runtimeConfig(f *discordfake.Fake, overHTTP bool) config.Config {
	cfg := config.Default()
	cfg.Discord.Token, cfg.Discord.RESTURL, cfg.Discord.GatewayURL = f.Token, f.RESTURL(), f.GatewayURL()
	cfg.Commands.PerUserPerMinute = 0
	if overHTTP {
		cfg.Discord.InteractionsAddress, cfg.Discord.PublicKey = "127.0.0.1:0", f.PublicKey()
	}
	return cfg
}

// pingCommand answers /ping with "pong".
func pingCommand() commands.Command {
	return &stub{name: "ping", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		return &commands.Response{Content: "pong"}, nil
	}}
}

// healthStatus is the status /healthz answers with.
func healthStatus(h *Health) int {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	return rec.Code
}

// TestDiscordSteps: New, Register, Connect, Drain and Disconnect, in both modes: the
// commands registered, an interaction answered by the router, /healthz ready only once
// said so, and no shard left running.
func TestDiscordSteps(t *testing.T) {
	for _, c := range []struct {
		name     string
		overHTTP bool
		shards   int
	}{
		{"gateway, two shards", false, 2},
		{"interactions over HTTP", true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := discordfake.New(t, discordfake.WithShards(max(c.shards, 1)))
			d := &commands.Deps{}
			dc, err := New(Options{Config: runtimeConfig(f, c.overHTTP), Logger: testLogger(t), Metrics: NewMetrics(nil),
				DeferAfter: time.Second, ShutdownTimeout: 5 * time.Second}, d)
			if err != nil {
				t.Fatal(err)
			}
			if d.Outbox != dc.Notifier {
				t.Error("New did not make the notifier the commands' outbox")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if err := dc.Register(ctx, []commands.Command{pingCommand()}); err != nil {
				t.Fatal(err)
			}
			if dc.AppID == "" || dc.Shards != c.shards {
				t.Errorf("registered as application %q with %d shards; want an id and %d", dc.AppID, dc.Shards, c.shards)
			}
			var names []string
			for _, def := range f.Commands() {
				names = append(names, def.Name)
			}
			if !slices.Equal(names, []string{"ping"}) {
				t.Errorf("Discord has the commands %v, want [ping]", names)
			}
			if err := dc.Connect(ctx, nil); err != nil {
				t.Fatal(err)
			}
			defer dc.Disconnect()
			if c.overHTTP {
				if dc.Gateway != nil || dc.Interactions == nil {
					t.Fatal("over HTTP, Connect opened a gateway or no endpoint")
				}
				if err := f.SetInteractionsURL(ctx, "http://"+dc.Interactions.Addr()+InteractionsPath); err != nil {
					t.Fatal(err)
				}
			} else if dc.Gateway == nil || !slices.Equal(dc.Gateway.Running(), []int{0, 1}) {
				t.Fatal("Connect returned before every shard was opened")
			} else if !f.WaitFor(func() bool { return slices.Equal(dc.Gateway.Connected(), []bool{true, true}) }, 15*time.Second) {
				t.Fatalf("shards connected %v, want both", dc.Gateway.Connected())
			}
			if got := healthStatus(dc.Health); got != http.StatusServiceUnavailable {
				t.Errorf("/healthz before SetReady: %d, want 503", got)
			}
			dc.Health.SetReady(true)
			if got := healthStatus(dc.Health); got != http.StatusOK {
				t.Errorf("/healthz once ready: %d, want 200", got)
			}

			res, err := f.SendInteraction(ctx, discordfake.Command("ping"))
			if err != nil {
				t.Fatal(err)
			}
			if !res.Callback.HasData || res.Callback.Data.Content != "pong" {
				t.Fatalf("/ping answered %+v, want pong", res.Callback)
			}

			dc.Drain()
			dc.Disconnect()
			if !c.overHTTP {
				if running := dc.Gateway.Running(); len(running) != 0 {
					t.Errorf("after Drain and Disconnect, shards %v still run", running)
				}
			}
			dc.Notifier.Close(time.Second)
		})
	}
}

// TestDiscordConnectStopped: a Connect whose context ends while Discord keeps closing
// the first connection returns ErrStopped, having closed what it opened.
func TestDiscordConnectStopped(t *testing.T) {
	f := discordfake.New(t)
	logs := &syncbuf.Buffer{}
	dc, err := New(Options{Config: runtimeConfig(f, false), Logger: slog.New(slog.NewTextHandler(logs, nil)), Metrics: NewMetrics(nil),
		DeferAfter: time.Second, ShutdownTimeout: 5 * time.Second}, &commands.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Notifier.Close(time.Second)
	if err := dc.Register(context.Background(), []commands.Command{pingCommand()}); err != nil {
		t.Fatal(err)
	}
	f.CloseNextIdentify(4000, "unknown error", 1000) // not fatal: retried until stopped
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- dc.Connect(ctx, nil) }()
	if !f.WaitFor(func() bool { return strings.Contains(logs.String(), "gateway connection failed; retrying") }, 15*time.Second) {
		t.Fatalf("Connect never had its first connection closed; logs:\n%s", logs)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, ErrStopped) {
			t.Fatalf("Connect = %v, want ErrStopped", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Connect did not return after its context ended")
	}
	if dc.Gateway != nil {
		t.Error("a Connect that stopped left a gateway")
	}
}
