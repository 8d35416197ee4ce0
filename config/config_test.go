// Tests of loading, validating and describing the configuration.
package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gambitchess/gambit/chesscore/clock"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExampleFile keeps config.example.yaml and the code in step: the example loads,
// its values are the defaults, and its keys are exactly the struct's, each with a
// comment saying what it does.
func TestExampleFile(t *testing.T) {
	const example = "../config.example.yaml"
	cfg, err := Load(example, nil, checkControl)
	if err != nil {
		t.Fatalf("config.example.yaml: %v", err)
	}
	if cfg != Default() {
		t.Errorf("config.example.yaml differs from the defaults:\n%+v\n%+v", cfg, Default())
	}
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	var keys []string
	var walk func(n *yaml.Node, prefix string)
	walk = func(n *yaml.Node, prefix string) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			key := join(prefix, k.Value)
			if v.Kind == yaml.MappingNode {
				walk(v, key)
				continue
			}
			keys = append(keys, key)
			if strings.TrimSpace(k.HeadComment) == "" {
				t.Errorf("config.example.yaml:%d: %s has no comment saying what it does", k.Line, key)
			}
		}
	}
	walk(root.Content[0], "")
	if !slices.Equal(keys, Keys()) {
		t.Errorf("config.example.yaml has the keys\n%v\nthe Config struct has\n%v", keys, Keys())
	}
}

// checkControl is a Check as the bot's: games.default_time_control is a time control.
// (The tests may use the chess packages; the package itself sits below them.)
func checkControl(c Config) error {
	tc, err := clock.Parse(c.Games.DefaultTimeControl)
	if err == nil && tc.Kind() == clock.KindUnknown {
		err = errors.New("give a time control such as 10+5, or - for none")
	}
	if err != nil {
		return &Error{Key: "games.default_time_control", Reason: err.Error()}
	}
	return nil
}

// TestChecks: a Check's refusal is reported like Validate's, with the file's line or
// the environment variable; checks run after Validate, in order, and only while all is
// well.
func TestChecks(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		env     map[string]string
		checks  []Check
		wantErr string
	}{
		{"default control from the file", "games:\n  default_time_control: 3+2\n", nil, []Check{checkControl}, ""},
		{"default control from the environment", "", map[string]string{"GAMBIT_GAMES_DEFAULT_TIME_CONTROL": "1d"}, []Check{checkControl}, ""},
		{"bad default control names file, line and key", "log:\n  level: info\ngames:\n  default_time_control: fast\n", nil, []Check{checkControl},
			"config.yaml:4: games.default_time_control: time control \"fast\""},
		{"unknown control", "games:\n  default_time_control: \"?\"\n", nil, []Check{checkControl}, "config.yaml:2: games.default_time_control: give a time control"},
		{"bad default control from the environment", "", map[string]string{"GAMBIT_GAMES_DEFAULT_TIME_CONTROL": "fast"}, []Check{checkControl},
			"environment GAMBIT_GAMES_DEFAULT_TIME_CONTROL: games.default_time_control"},
		{"a key left at its default has no place", "", nil, []Check{func(Config) error { return &Error{Key: "games.challenge_expiry", Reason: "no"} }},
			"config: games.challenge_expiry: no"},
		{"Validate first", "log:\n  level: loud\n", nil, []Check{func(Config) error { t.Error("a check ran after Validate failed"); return nil }}, "log.level"},
		{"the first refusal", "", nil, []Check{
			func(Config) error { return &Error{Key: "a", Reason: "first"} },
			func(Config) error { t.Error("a check ran after another failed"); return nil },
		}, "a: first"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(writeFile(t, c.file), env(c.env), c.checks...)
			if c.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, c.wantErr)
			}
		})
	}
	if _, err := Load(writeFile(t, "games:\n  default_time_control: \" \"\n"), nil); err == nil || !strings.Contains(err.Error(), "config.yaml:2: games.default_time_control: must not be empty") {
		t.Errorf("an empty default control: %v", err)
	}
}

func TestLoad(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		env     map[string]string
		check   func(Config) bool
		wantErr string
	}{
		{"empty file", "", nil, func(c Config) bool { return c == Default() }, ""},
		{"values", "discord:\n  token: abc\n  shards: 4\nstorage:\n  path: x.db\ngames:\n  challenge_expiry: 1h\n", nil,
			func(c Config) bool {
				return c.Discord.Token == "abc" && c.Discord.Shards == 4 && c.Storage.Path == "x.db" && c.Games.ChallengeExpiry == time.Hour
			}, ""},
		{"shards auto", "discord:\n  shards: auto\n", nil, func(c Config) bool { return c.Discord.Shards == 0 }, ""},
		{"env overrides file", "storage:\n  path: x.db\n", map[string]string{"GAMBIT_STORAGE_PATH": "y.db", "GAMBIT_DISCORD_SHARDS": "2"},
			func(c Config) bool { return c.Storage.Path == "y.db" && c.Discord.Shards == 2 }, ""},
		{"DISCORD_TOKEN", "", map[string]string{"DISCORD_TOKEN": "t1"}, func(c Config) bool { return c.Discord.Token == "t1" }, ""},
		{"GAMBIT_DISCORD_TOKEN wins", "", map[string]string{"DISCORD_TOKEN": "t1", "GAMBIT_DISCORD_TOKEN": "t2"},
			func(c Config) bool { return c.Discord.Token == "t2" }, ""},
		{"unknown key", "discord:\n  tokne: abc\n", nil, nil, "config.yaml:2: discord.tokne: unknown key"},
		{"unknown section", "\n\ndiscrod:\n  token: abc\n", nil, nil, "config.yaml:3: discrod: unknown key"},
		{"bad shards", "discord:\n  shards: many\n", nil, nil, "config.yaml:2: discord.shards: \"many\": want auto or a shard count"},
		{"bad duration", "games:\n  challenge_expiry: soon\n", nil, nil, "config.yaml:2: games.challenge_expiry"},
		{"grace out of range", "games:\n  restart_grace: 5m\n", nil, nil, "games.restart_grace"},
		{"bad int", "engine:\n  hash_mb: lots\n", nil, nil, "config.yaml:2: engine.hash_mb: \"lots\": want a whole number"},
		{"bad bool", "puzzles:\n  enabled: perhaps\n", nil, nil, "config.yaml:2: puzzles.enabled"},
		{"engine keys", "engine:\n  external_path: /usr/games/stockfish\n  bot_workers: 2\n  max_think: 3s\n  reply_delay: 0s\n  analysis_time: 50ms\n  analysis_budget: 20s\n", nil,
			func(c Config) bool {
				e := c.Engine
				return e.ExternalPath == "/usr/games/stockfish" && e.BotWorkers == 2 && e.MaxThink == 3*time.Second && e.ReplyDelay == 0 &&
					e.AnalysisTime == 50*time.Millisecond && e.AnalysisBudget == 20*time.Second
			}, ""},
		{"bot workers out of range", "engine:\n  bot_workers: 0\n", nil, nil, "engine.bot_workers: 0: want 1 to 64"},
		{"engine limits", "engine:\n  max_games_per_user: 5\n  analysis_workers: 2\n  analysis_cooldown: 0s\n", nil,
			func(c Config) bool {
				return c.Engine.MaxGamesPerUser == 5 && c.Engine.AnalysisWorkers == 2 && c.Engine.AnalysisCooldown == 0
			}, ""},
		{"max games per user out of range", "engine:\n  max_games_per_user: 0\n", nil, nil, "engine.max_games_per_user: 0: want 1 to 100"},
		{"analysis workers out of range", "", map[string]string{"GAMBIT_ENGINE_ANALYSIS_WORKERS": "0"}, nil, "engine.analysis_workers: 0: want 1 to 64"},
		{"analysis cooldown out of range", "engine:\n  analysis_cooldown: -1s\n", nil, nil, "engine.analysis_cooldown"},
		{"analysis nodes out of range", "engine:\n  analysis_nodes: 10000001\n", nil, nil, "engine.analysis_nodes"},
		{"max think out of range", "engine:\n  max_think: 1h\n", nil, nil, "engine.max_think: 1h0m0s: want 10ms to 10m0s"},
		{"analysis time out of range", "", map[string]string{"GAMBIT_ENGINE_ANALYSIS_TIME": "1ms"}, nil, "engine.analysis_time"},
		{"reply delay out of range", "engine:\n  reply_delay: 1m\n", nil, nil, "engine.reply_delay"},
		{"section not a map", "discord: 3\n", nil, nil, "config.yaml:1: discord: want a mapping"},
		{"bad level", "log:\n  level: loud\n", nil, nil, "log.level"},
		{"bad rest url", "discord:\n  rest_url: ftp://x\n", nil, nil, "discord.rest_url"},
		{"bad env", "", map[string]string{"GAMBIT_ENGINE_THREADS": "x"}, nil, "environment GAMBIT_ENGINE_THREADS: engine.threads"},
		{"syntax error", "discord: [\n", nil, nil, "config.yaml"},
		{"default time control from the environment", "", map[string]string{"GAMBIT_GAMES_DEFAULT_TIME_CONTROL": "1d"},
			func(c Config) bool { return c.Games.DefaultTimeControl == "1d" }, ""},
		{"invalid value names its line", "\nlog:\n  format: yaml\n", nil, nil, "config.yaml:3: log.format: \"yaml\""},
		{"environment over a bad file value is named", "log:\n  level: loud\n", map[string]string{"GAMBIT_LOG_LEVEL": "shout"}, nil,
			"environment GAMBIT_LOG_LEVEL: log.level: \"shout\""},
		{"challenge expiry out of range", "games:\n  challenge_expiry: 1s\n", nil, nil, "config.yaml:2: games.challenge_expiry: 1s: want 1m0s to 720h0m0s"},
		{"first move timeout out of range", "games:\n  first_move_timeout: 0s\n", nil, nil, "config.yaml:2: games.first_move_timeout"},
		{"operation timeout out of range", "commands:\n  operation_timeout: 20m\n", nil, nil, "config.yaml:2: commands.operation_timeout"},
		{"negative statement timeout", "storage:\n  statement_timeout: -1s\n", nil, nil, "config.yaml:2: storage.statement_timeout"},
		{"acquire timeout zero", "storage:\n  acquire_timeout: 0s\n", nil, nil, "config.yaml:2: storage.acquire_timeout"},
		{"challenge caps", "games:\n  max_pending_challenges: 2\n  challenges_per_opponent: 1\n  challenge_pings: 4\n  challenge_window: 1h\n", nil,
			func(c Config) bool {
				g := c.Games
				return g.MaxPendingChallenges == 2 && g.ChallengesPerOpponent == 1 && g.ChallengePings == 4 && g.ChallengeWindow == time.Hour
			}, ""},
		{"pending challenges out of range", "games:\n  max_pending_challenges: 0\n", nil, nil, "config.yaml:2: games.max_pending_challenges: 0: want 1 to 100"},
		{"challenges per opponent out of range", "", map[string]string{"GAMBIT_GAMES_CHALLENGES_PER_OPPONENT": "101"}, nil,
			"environment GAMBIT_GAMES_CHALLENGES_PER_OPPONENT: games.challenges_per_opponent: 101: want 1 to 100"},
		{"challenge pings out of range", "games:\n  challenge_pings: -1\n", nil, nil, "config.yaml:2: games.challenge_pings: -1: want 1 to 100"},
		{"vacation days", "games:\n  vacation_days: 30\n", nil,
			func(c Config) bool { return c.Games.VacationDays == 30 }, ""},
		{"vacation days out of range", "games:\n  vacation_days: 367\n", nil, nil, "config.yaml:2: games.vacation_days: 367: want 0 (no vacations) to 366"},
		{"challenge window out of range", "games:\n  challenge_window: 30s\n", nil, nil, "config.yaml:2: games.challenge_window: 30s: want 1m0s to 24h0m0s"},
		{"backups", "backups:\n  dir: /var/backups/gambit\n  every: 6h\n  keep: 28\n", nil,
			func(c Config) bool {
				return c.Backups == Backups{Dir: "/var/backups/gambit", Every: 6 * time.Hour, Keep: 28}
			}, ""},
		{"backups every too short", "backups:\n  dir: b\n  every: 1s\n", nil, nil, "config.yaml:3: backups.every: 1s: want 1m0s to 720h0m0s"},
		{"backups keep zero", "backups:\n  keep: 0\n", nil, nil, "config.yaml:2: backups.keep: 0: want 1 to 10000"},
		{"puzzles off", "puzzles:\n  enabled: false\n", nil, func(c Config) bool { return !c.Puzzles.Enabled }, ""},
		{"commands limit negative", "commands:\n  per_user_per_minute: -1\n", nil, nil, "config.yaml:2: commands.per_user_per_minute"},
		{"metrics address", "", map[string]string{"GAMBIT_METRICS_ADDRESS": "127.0.0.1:9090"}, func(c Config) bool { return c.Metrics.Address == "127.0.0.1:9090" }, ""},
		{"metrics address without a port", "metrics:\n  address: localhost\n", nil, nil, "config.yaml:2: metrics.address: \"localhost\": want host:port"},
		{"metrics address with a bad port", "metrics:\n  address: 127.0.0.1:99999\n", nil, nil, "config.yaml:2: metrics.address"},
		{"metrics address on every interface is refused", "metrics:\n  address: 0.0.0.0:9090\n", nil, nil,
			"config.yaml:2: metrics.address: \"0.0.0.0:9090\" is not a loopback address"},
		{"metrics address without a host is every interface", "", map[string]string{"GAMBIT_METRICS_ADDRESS": ":9090"}, nil,
			"environment GAMBIT_METRICS_ADDRESS: metrics.address: \":9090\" is not a loopback address"},
		{"metrics address on a LAN address is refused", "metrics:\n  address: 192.0.2.7:9090\n", nil, nil, "metrics.allow_remote: true"},
		{"metrics address remote when allowed", "", map[string]string{"GAMBIT_METRICS_ADDRESS": "0.0.0.0:9090", "GAMBIT_METRICS_ALLOW_REMOTE": "true"},
			func(c Config) bool { return c.Metrics.Address == "0.0.0.0:9090" && c.Metrics.AllowRemote }, ""},
		{"metrics address on loopback names", "metrics:\n  address: localhost:9090\n", map[string]string{"GAMBIT_METRICS_ADDRESS": "[::1]:9090"},
			func(c Config) bool { return c.Metrics.Address == "[::1]:9090" }, ""},
		{"backup endpoint token", "", map[string]string{"GAMBIT_BACKUPS_ENDPOINT_TOKEN": "0123456789abcdef0123"},
			func(c Config) bool { return c.Backups.EndpointToken == "0123456789abcdef0123" }, ""},
		{"backup endpoint token too short", "backups:\n  endpoint_token: abc\n", nil, nil, "config.yaml:2: backups.endpoint_token: want at least 16"},
		{"backup endpoint token with a space", "", map[string]string{"GAMBIT_BACKUPS_ENDPOINT_TOKEN": "0123456789 abcdef0123"}, nil,
			"environment GAMBIT_BACKUPS_ENDPOINT_TOKEN: backups.endpoint_token"},
		{"discord ids", "discord:\n  application_id: \"1234567890123456789\"\n  guild_id: 987654321\n", nil,
			func(c Config) bool {
				return c.Discord.ApplicationID == "1234567890123456789" && c.Discord.GuildID == "987654321"
			}, ""},
		{"guild id not an id", "discord:\n  guild_id: my-server\n", nil, nil, "config.yaml:2: discord.guild_id: \"my-server\": want a Discord id"},
		{"application id not an id", "", map[string]string{"GAMBIT_DISCORD_APPLICATION_ID": "12ab"}, nil, "environment GAMBIT_DISCORD_APPLICATION_ID: discord.application_id"},
		{"token with Bot before it", "discord:\n  token: Bot abc.def\n", nil, nil, "config.yaml:2: discord.token: give the bare token"},
		{"token with a line break", "", map[string]string{"DISCORD_TOKEN": "abc.def\n"}, nil, "environment DISCORD_TOKEN: discord.token"},
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

func TestTokenNeverShown(t *testing.T) {
	const secret = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret"
	cfg, err := Load(writeFile(t, "discord:\n  token: "+secret+"\n"), env(map[string]string{"GAMBIT_DISCORD_TOKEN": secret}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(cfg.String(), secret) {
		t.Errorf("String() shows the token: %s", cfg)
	}
	_, err = Load(writeFile(t, ""), env(map[string]string{"GAMBIT_DISCORD_TOKEN": secret, "GAMBIT_LOG_LEVEL": secret}))
	if err == nil {
		t.Fatal("want an error for the log level")
	}
	// A value echoed in an error is the bad value of that key, never the token's.
	if strings.Contains(strings.ReplaceAll(err.Error(), "log.level: \""+secret, ""), secret) {
		t.Errorf("error shows the token: %v", err)
	}
	// A token refused for its form is not shown either.
	_, err = Load(writeFile(t, "discord:\n  token: Bot "+secret+"\n"), nil)
	if err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("a malformed token: %v", err)
	}
}

// TestEndpointTokenNeverShown: the backup endpoint's token is a secret like the bot's.
func TestEndpointTokenNeverShown(t *testing.T) {
	const secret = "s3cr3t-backup-token-0123456789"
	cfg, err := Load(writeFile(t, "backups:\n  endpoint_token: "+secret+"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.String(); strings.Contains(s, secret) || !strings.Contains(s, "live backup on") {
		t.Errorf("String() = %s", s)
	}
	for _, bad := range []string{"short" + "\t", secret + " x"} {
		_, err := Load(writeFile(t, ""), env(map[string]string{"GAMBIT_BACKUPS_ENDPOINT_TOKEN": bad}))
		if err == nil || strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), secret) {
			t.Errorf("a refused token %q: %v", bad, err)
		}
	}
}

func TestRequireDiscord(t *testing.T) {
	var e *Error
	err := Default().RequireDiscord()
	if !errors.As(err, &e) || e.Key != "discord.token" || !strings.Contains(err.Error(), "GAMBIT_DISCORD_TOKEN") {
		t.Errorf("RequireDiscord() = %v", err)
	}
}

func TestEnvName(t *testing.T) {
	if got := EnvName("discord.rest_url"); got != "GAMBIT_DISCORD_REST_URL" {
		t.Errorf("EnvName = %q", got)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add("discord:\n  token: abc\n  shards: 4\n")
	f.Add("games:\n  challenge_expiry: 1h\n")
	f.Add("discord: [\n")
	f.Add("a: {b: [c, d]}\n")
	f.Fuzz(func(t *testing.T, body string) {
		cfg := Default()
		if err := decode([]byte(body), "f.yaml", &cfg, sources{}); err != nil {
			return
		}
		_ = cfg.Validate()
	})
}

// TestURLPasswordsNeverShown: a proxy's password in discord.rest_url or
// discord.gateway_url is in neither String (logged at start) nor the errors.
func TestURLPasswordsNeverShown(t *testing.T) {
	const secret = "pr0xyS3cret"
	cfg, err := Load(writeFile(t, "discord:\n  rest_url: http://gambit:"+secret+"@proxy:3128/api/v10/\n  gateway_url: wss://gambit:"+secret+"@proxy:3129/gateway\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.String(); strings.Contains(s, secret) || !strings.Contains(s, "http://gambit:[redacted]@proxy:3128/api/v10/") || !strings.Contains(s, "wss://gambit:[redacted]@proxy:3129/gateway") {
		t.Errorf("String() = %s", s)
	}
	_, err = Load(writeFile(t, "discord:\n  rest_url: ftp://gambit:"+secret+"@proxy/\n"), nil)
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "discord.rest_url") {
		t.Errorf("a bad rest_url with a password: %v", err)
	}
}
