// Tests of the keys for running several processes: instance, discord.interactions_address
// and discord.public_key.
package config

import (
	"os"
	"strings"
	"testing"
)

const testPublicKey = "e7a1f1c2d3b4a5968778695a4b3c2d1e0f1e2d3c4b5a69788796a5b4c3d2e1f0"

func TestInteractionKeys(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		env     map[string]string
		check   func(Config) bool
		wantErr string
	}{
		{"gateway by default", "", nil, func(c Config) bool { return c.Discord.InteractionsAddress == "" && c.Discord.PublicKey == "" }, ""},
		{"http mode", "discord:\n  interactions_address: 0.0.0.0:8080\n  public_key: " + testPublicKey + "\n", nil,
			func(c Config) bool {
				return c.Discord.InteractionsAddress == "0.0.0.0:8080" && c.Discord.PublicKey == testPublicKey
			}, ""},
		{"http mode from the environment", "", map[string]string{"GAMBIT_DISCORD_INTERACTIONS_ADDRESS": ":8080", "GAMBIT_DISCORD_PUBLIC_KEY": testPublicKey},
			func(c Config) bool { return c.Discord.InteractionsAddress == ":8080" }, ""},
		{"address without its key", "discord:\n  interactions_address: 127.0.0.1:8080\n", nil, nil, "discord.public_key: missing"},
		{"address without a port", "discord:\n  interactions_address: localhost\n  public_key: " + testPublicKey + "\n", nil, nil,
			"config.yaml:2: discord.interactions_address: \"localhost\": want host:port"},
		{"key too short", "discord:\n  public_key: abcd\n", nil, nil, "config.yaml:2: discord.public_key: \"abcd\": want the 64 hex digits"},
		{"key not hex", "", map[string]string{"GAMBIT_DISCORD_PUBLIC_KEY": strings.Repeat("zz", 32)}, nil, "environment GAMBIT_DISCORD_PUBLIC_KEY: discord.public_key"},
		{"instance", "instance: gambit-1\n", nil, func(c Config) bool { return c.Instance == "gambit-1" }, ""},
		{"instance from the environment", "", map[string]string{"GAMBIT_INSTANCE": "eu.west_2"}, func(c Config) bool { return c.Instance == "eu.west_2" }, ""},
		{"instance with a space", "\ninstance: gambit 1\n", nil, nil, "config.yaml:2: instance: \"gambit 1\": want 1 to 64 letters"},
		{"instance too long", "", map[string]string{"GAMBIT_INSTANCE": strings.Repeat("a", 65)}, nil, "environment GAMBIT_INSTANCE: instance"},
		{"instance of gambit play", "instance: play\n", nil, nil, "config.yaml:1: instance: \"play\" is the name of gambit play's heartbeat"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Load(writeFile(t, c.file), env(c.env))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !c.check(cfg) {
				t.Errorf("unexpected config %+v", cfg)
			}
		})
	}
}

// TestInstanceName: the configured name, else the host name.
func TestInstanceName(t *testing.T) {
	cfg := Default()
	cfg.Instance = "gambit-2"
	if n, err := cfg.InstanceName(); err != nil || n != "gambit-2" {
		t.Errorf("InstanceName() = %q, %v; want gambit-2", n, err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	n, err := Default().InstanceName()
	if checkInstanceName(host) == nil {
		if err != nil || n != host {
			t.Errorf("InstanceName() = %q, %v; want the host name %q", n, err, host)
		}
	} else if err == nil || !strings.Contains(err.Error(), "instance: not set") {
		t.Errorf("host name %q does not fit, InstanceName() = %q, %v; want an error naming instance", host, n, err)
	}
	if s := cfg.String(); !strings.Contains(s, `instance "gambit-2"`) {
		t.Errorf("String() = %s, want the instance", s)
	}
}
