// Package config reads Gambit's YAML configuration and its environment overrides.
//
// Every key of the file can be overridden by an environment variable named after its path:
// GAMBIT_ + the path in upper case with dots as underscores (discord.token is
// GAMBIT_DISCORD_TOKEN, storage.path is GAMBIT_STORAGE_PATH). DISCORD_TOKEN is accepted
// for the token as well, below GAMBIT_DISCORD_TOKEN. An unknown key, a value of the wrong
// type or an invalid value is an error naming the key and where it was set: the file and
// line, or the environment variable.
//
// The Discord token and the backup endpoint's token are secrets: Config.String and every
// error leave them out.
package config

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gambitchess/gambit/internal/redact"
)

// Config is the whole configuration. Field tags name the YAML keys; config.example.yaml
// documents each key, and a test keeps it equal to Keys and Default.
type Config struct {
	// Instance names this process among those sharing one store ("" : the host name;
	// see InstanceName). Its heartbeat, and any lease it holds, carry the name.
	Instance string   `yaml:"instance"`
	Discord  Discord  `yaml:"discord"`
	Storage  Storage  `yaml:"storage"`
	Log      Log      `yaml:"log"`
	Metrics  Metrics  `yaml:"metrics"`
	Games    Games    `yaml:"games"`
	Engine   Engine   `yaml:"engine"`
	Puzzles  Puzzles  `yaml:"puzzles"`
	Commands Commands `yaml:"commands"`
	Backups  Backups  `yaml:"backups"`
	Web      Web      `yaml:"web"`
}

// Discord holds the connection to Discord.
type Discord struct {
	Token         string `yaml:"token"`
	ApplicationID string `yaml:"application_id"`
	GuildID       string `yaml:"guild_id"`
	RESTURL       string `yaml:"rest_url"`
	GatewayURL    string `yaml:"gateway_url"`
	Shards        Shards `yaml:"shards"`
	// InteractionsAddress, when set, is where the bot serves POST /interactions for
	// Discord to deliver interactions over HTTP instead of the gateway (no shards).
	InteractionsAddress string `yaml:"interactions_address"`
	// PublicKey is the application's Ed25519 public key, in hex as the developer portal
	// shows it: the signatures of the interactions delivered over HTTP are checked
	// against it. Required with InteractionsAddress.
	PublicKey string `yaml:"public_key"`
	// ClientSecret is the application's OAuth2 client secret (Developer Portal, OAuth2):
	// the Activity exchanges its users' authorization codes with it (docs/activity.md),
	// and the Linked Roles verification page its members' (docs/discord.md), whose
	// stored grants are sealed with a key derived from it. A secret, like the token:
	// prefer GAMBIT_DISCORD_CLIENT_SECRET; never shown or logged. Empty: no Activity
	// and no Linked Roles.
	ClientSecret string `yaml:"client_secret"`
}

// Shards is the shard count: 0 means "auto" (as GET /gateway/bot recommends).
type Shards int

// Storage holds the database settings.
type Storage struct {
	// Driver is the backend: "bbolt" (one file, one process) or "postgres" (a
	// PostgreSQL database that several processes may share).
	Driver string `yaml:"driver"`
	// Path is the bbolt file (driver bbolt).
	Path string `yaml:"path"`
	// DSN is the PostgreSQL database (driver postgres), a libpq URL. A secret when it
	// holds a password: prefer GAMBIT_STORAGE_DSN.
	DSN string `yaml:"dsn"`
	// ConnectTimeout bounds opening one connection to PostgreSQL.
	ConnectTimeout time.Duration `yaml:"connect_timeout"`
	// AcquireTimeout bounds the wait for a free pooled connection when all are busy.
	AcquireTimeout time.Duration `yaml:"acquire_timeout"`
	// StatementTimeout, LockTimeout and IdleInTransactionTimeout are PostgreSQL's
	// statement_timeout, lock_timeout and idle_in_transaction_session_timeout, set on
	// every connection (0: off).
	StatementTimeout         time.Duration `yaml:"statement_timeout"`
	LockTimeout              time.Duration `yaml:"lock_timeout"`
	IdleInTransactionTimeout time.Duration `yaml:"idle_in_transaction_timeout"`
}

// Log holds the logging settings.
type Log struct {
	Level  string `yaml:"level"`
	Format string `yaml:"format"`
}

// Metrics holds the optional ops endpoint: Prometheus metrics, health, and the live
// backup when backups.endpoint_token is set.
type Metrics struct {
	// Address is where the endpoint listens ("" : off). It must be a loopback address
	// (127.0.0.1, ::1, localhost) unless AllowRemote is set.
	Address string `yaml:"address"`
	// AllowRemote lets Address be an address other machines (or a container's host) can
	// reach, such as 0.0.0.0:9090 in a container whose port is published on the host's
	// loopback.
	AllowRemote bool `yaml:"allow_remote"`
}

// Games holds defaults for challenges and games.
type Games struct {
	// DefaultTimeControl is the time control of a challenge that names none, in a server
	// that has not chosen its own (/settings time_control). Its notation belongs to the
	// chess packages, above this one: the server's Check (serve.CheckConfig) reads it.
	DefaultTimeControl string        `yaml:"default_time_control"`
	ChallengeExpiry    time.Duration `yaml:"challenge_expiry"`
	FirstMoveTimeout   time.Duration `yaml:"first_move_timeout"`
	RestartGrace       time.Duration `yaml:"restart_grace"`
	// MaxPendingChallenges is how many challenges, direct or open, one member may have
	// waiting for an answer at once.
	MaxPendingChallenges int `yaml:"max_pending_challenges"`
	// ChallengesPerOpponent is how many challenges one member may send the same person
	// within ChallengeWindow (accepted ones aside).
	ChallengesPerOpponent int `yaml:"challenges_per_opponent"`
	// ChallengePings is how many challenges may mention one person within
	// ChallengeWindow; later ones are posted without the mention.
	ChallengePings int `yaml:"challenge_pings"`
	// ChallengeWindow is the span ChallengesPerOpponent and ChallengePings count over.
	ChallengeWindow time.Duration `yaml:"challenge_window"`
	// VacationDays is each player's vacation days a year in a server (0 to 366), unless
	// the server sets its own (/settings vacation_days).
	VacationDays int `yaml:"vacation_days"`
}

// maxAnalysisNodes bounds engine.analysis_nodes: a few seconds a position.
const maxAnalysisNodes = 10_000_000

// Engine holds the built-in and external engine settings.
type Engine struct {
	HashMB       int    `yaml:"hash_mb"`
	ExternalPath string `yaml:"external_path"`
	Threads      int    `yaml:"threads"`
	// BotWorkers is how many games against the engine it thinks about at once.
	BotWorkers int `yaml:"bot_workers"`
	// MaxThink caps the engine's thinking time for one move in a game.
	MaxThink time.Duration `yaml:"max_think"`
	// ReplyDelay is the least time before the engine's reply (0: none).
	ReplyDelay time.Duration `yaml:"reply_delay"`
	// AnalysisTime is /analyze's time per position; AnalysisBudget bounds a whole game.
	AnalysisTime   time.Duration `yaml:"analysis_time"`
	AnalysisBudget time.Duration `yaml:"analysis_budget"`
	// MaxGamesPerUser is how many live games against the engine one person may have.
	MaxGamesPerUser int `yaml:"max_games_per_user"`
	// AnalysisWorkers is how many analyses run at once (each server's one at a time).
	AnalysisWorkers int `yaml:"analysis_workers"`
	// AnalysisCooldown is the least time between two analyses of one person (0: none).
	AnalysisCooldown time.Duration `yaml:"analysis_cooldown"`
	// AnalysisNodes, if positive, bounds each position of a built-in analysis by nodes
	// instead of analysis_time: the same game gets the same review on any machine.
	AnalysisNodes int `yaml:"analysis_nodes"`
}

// Puzzles holds the puzzle settings.
type Puzzles struct {
	Enabled bool `yaml:"enabled"`
}

// Commands holds limits on command use.
type Commands struct {
	PerUserPerMinute int `yaml:"per_user_per_minute"`
	// OperationTimeout bounds the whole handling of one interaction (every store call
	// it makes); past it the user is told the command failed and nothing of it is
	// written. Discord's interaction token (15 minutes) bounds it further.
	OperationTimeout time.Duration `yaml:"operation_timeout"`
}

// Backups holds the bot's scheduled backups of its store.
type Backups struct {
	// Dir is the directory the copies are written to ("" : no scheduled backups).
	Dir string `yaml:"dir"`
	// Every is the time between two copies.
	Every time.Duration `yaml:"every"`
	// Keep is how many copies are kept; older ones are deleted.
	Keep int `yaml:"keep"`
	// EndpointToken is the bearer token GET /backup on the ops endpoint asks for ("" :
	// the live backup is off). A secret, like the Discord token: String and every error
	// leave it out.
	EndpointToken string `yaml:"endpoint_token"`
}

// Web holds the live board: the web pages of the games, served by `gambit serve`.
type Web struct {
	// Address is where the web server listens, host:port ("" : no web pages).
	Address string `yaml:"address"`
	// PublicURL is the address people open, such as https://chess.example.org (the
	// reverse proxy's); every link Gambit gives starts with it. Empty: http:// and
	// Address.
	PublicURL string `yaml:"public_url"`
	// Secret signs the games' links, the sign-in links and the session cookies. A
	// secret: prefer GAMBIT_WEB_SECRET. Empty: a key derived from the Discord token
	// (changing the token then changes every link). Processes sharing a store must
	// share it.
	Secret string `yaml:"secret"`
}

// BaseURL returns the address the links start with: PublicURL without a trailing
// slash, or http:// and Address.
func (w Web) BaseURL() string {
	if w.PublicURL != "" {
		return strings.TrimRight(w.PublicURL, "/")
	}
	return "http://" + w.Address
}

// MinWebSecretLength is the shortest web.secret accepted.
const MinWebSecretLength = 32

// MinEndpointTokenLength is the shortest backups.endpoint_token accepted.
const MinEndpointTokenLength = 16

// Default returns the configuration used where neither the file nor the environment
// says otherwise.
func Default() Config {
	return Config{
		Storage: Storage{Driver: "bbolt", Path: "gambit.db", ConnectTimeout: 5 * time.Second, AcquireTimeout: 5 * time.Second,
			StatementTimeout: 15 * time.Second, LockTimeout: 5 * time.Second, IdleInTransactionTimeout: 30 * time.Second},
		Log: Log{Level: "info", Format: "text"},
		Games: Games{
			DefaultTimeControl:   "10+5",
			ChallengeExpiry:      24 * time.Hour,
			FirstMoveTimeout:     2 * time.Minute,
			RestartGrace:         2 * time.Second,
			MaxPendingChallenges: 5, ChallengesPerOpponent: 3, ChallengePings: 3, ChallengeWindow: 10 * time.Minute,
			VacationDays: 14,
		},
		Engine: Engine{HashMB: 64, Threads: 1, BotWorkers: 1, MaxThink: 10 * time.Second, ReplyDelay: time.Second,
			AnalysisTime: 200 * time.Millisecond, AnalysisBudget: 45 * time.Second,
			MaxGamesPerUser: 2, AnalysisWorkers: 1, AnalysisCooldown: 2 * time.Minute},
		Puzzles:  Puzzles{Enabled: true},
		Commands: Commands{PerUserPerMinute: 30, OperationTimeout: 30 * time.Second},
		Backups:  Backups{Every: 24 * time.Hour, Keep: 7},
	}
}

// Error is a configuration error: the key, where it was set, and what is wrong.
type Error struct {
	Key    string // dotted path, e.g. discord.shards
	Source string // "config.yaml:12" or "environment GAMBIT_DISCORD_SHARDS"
	Reason string
}

func (e *Error) Error() string {
	if e.Source == "" {
		return fmt.Sprintf("config: %s: %s", e.Key, e.Reason)
	}
	return fmt.Sprintf("config: %s: %s: %s", e.Source, e.Key, e.Reason)
}

// A Check validates what this package cannot: a value whose meaning belongs to a
// package above it (games.default_time_control is a chess time control, which only the
// chess packages read). It returns an *Error naming the key; Load adds where it was set.
type Check func(Config) error

// Load reads the file at path (an empty path means no file) over the defaults, then
// applies the environment (a lookup function, normally os.LookupEnv), then validates
// (Validate, then each check). A value refused is reported where it was set: the file's
// line, or the environment variable.
func Load(path string, lookupEnv func(string) (string, bool), checks ...Check) (Config, error) {
	cfg := Default()
	src := sources{}
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return cfg, fmt.Errorf("config: %w", err)
		}
		if err := decode(data, path, &cfg, src); err != nil {
			return cfg, err
		}
	}
	if lookupEnv != nil {
		if err := applyEnv(&cfg, lookupEnv, src); err != nil {
			return cfg, err
		}
	}
	err := cfg.Validate()
	for _, check := range checks {
		if err != nil {
			break
		}
		err = check(cfg)
	}
	var e *Error
	if errors.As(err, &e) && e.Source == "" {
		e.Source = src[e.Key]
	}
	return cfg, err
}

// sources records where each key was last set ("gambit.yaml:12", "environment
// GAMBIT_LOG_LEVEL"); a key left at its default has none.
type sources map[string]string

// decode walks the YAML tree against the Config struct, so every unknown key and every
// bad value is reported with its line; src learns the line of every key set.
func decode(data []byte, name string, cfg *Config, src sources) error {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // an empty file: the defaults stand
		}
		return fmt.Errorf("config: %s: %w", name, err)
	}
	if len(root.Content) == 0 {
		return nil
	}
	return decodeNode(root.Content[0], reflect.ValueOf(cfg).Elem(), "", name, src)
}

func decodeNode(n *yaml.Node, v reflect.Value, prefix, name string, src sources) error {
	where := fmt.Sprintf("%s:%d", name, n.Line)
	if v.Kind() == reflect.Struct && v.Type() != reflect.TypeOf(time.Duration(0)) {
		if n.Kind != yaml.MappingNode {
			return &Error{Key: keyOrRoot(prefix), Source: where, Reason: "want a mapping of keys"}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			field, ok := fieldByKey(v, k.Value)
			key := join(prefix, k.Value)
			if !ok {
				return &Error{Key: key, Source: fmt.Sprintf("%s:%d", name, k.Line), Reason: "unknown key" + suggest(v, k.Value)}
			}
			if err := decodeNode(val, field, key, name, src); err != nil {
				return err
			}
		}
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		return &Error{Key: prefix, Source: where, Reason: "want a single value"}
	}
	if err := setScalar(v, n.Value, n.Tag == "!!null"); err != nil {
		return &Error{Key: prefix, Source: where, Reason: err.Error()}
	}
	src[prefix] = where
	return nil
}

func keyOrRoot(k string) string {
	if k == "" {
		return "(top level)"
	}
	return k
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func fieldByKey(v reflect.Value, key string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("yaml") == key {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// suggest names the known keys of a section, to help with a typo.
func suggest(v reflect.Value, _ string) string {
	t := v.Type()
	keys := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		keys = append(keys, t.Field(i).Tag.Get("yaml"))
	}
	return " (known keys here: " + strings.Join(keys, ", ") + ")"
}

var shardsType = reflect.TypeOf(Shards(0))

// setScalar parses s into v according to v's type.
func setScalar(v reflect.Value, s string, null bool) error {
	if null {
		v.Set(reflect.Zero(v.Type()))
		return nil
	}
	switch {
	case v.Type() == shardsType:
		if s == "auto" || s == "" {
			v.SetInt(0)
			return nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1024 {
			return fmt.Errorf("%q: want auto or a shard count from 1 to 1024", s)
		}
		v.SetInt(int64(n))
	case v.Type() == reflect.TypeOf(time.Duration(0)):
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return fmt.Errorf("%q: want a duration such as 90s, 5m or 24h", s)
		}
		v.SetInt(int64(d))
	case v.Kind() == reflect.String:
		v.SetString(s)
	case v.Kind() == reflect.Int:
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("%q: want a whole number", s)
		}
		v.SetInt(int64(n))
	case v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q: want true or false", s)
		}
		v.SetBool(b)
	default:
		return fmt.Errorf("unsupported type %s", v.Type())
	}
	return nil
}

// EnvName returns the environment variable that overrides a dotted key.
func EnvName(key string) string {
	return "GAMBIT_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// Keys returns every dotted key of the configuration, in file order.
func Keys() []string {
	var keys []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			key := join(prefix, f.Tag.Get("yaml"))
			if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(time.Duration(0)) {
				walk(f.Type, key)
			} else {
				keys = append(keys, key)
			}
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	return keys
}

// secretKeys are the keys whose values no error or description shows.
var secretKeys = map[string]bool{"discord.token": true, "discord.client_secret": true, "backups.endpoint_token": true, "storage.dsn": true, "web.secret": true}

func applyEnv(cfg *Config, lookup func(string) (string, bool), src sources) error {
	if tok, ok := lookup("DISCORD_TOKEN"); ok && tok != "" {
		cfg.Discord.Token = tok
		src["discord.token"] = "environment DISCORD_TOKEN"
	}
	root := reflect.ValueOf(cfg).Elem()
	for _, key := range Keys() {
		name := EnvName(key)
		s, ok := lookup(name)
		if !ok {
			continue
		}
		v := root
		for _, part := range strings.Split(key, ".") {
			v, _ = fieldByKey(v, part)
		}
		if err := setScalar(v, s, false); err != nil {
			if secretKeys[key] {
				err = errors.New("bad value")
			}
			return &Error{Key: key, Source: "environment " + name, Reason: err.Error()}
		}
		src[key] = "environment " + name
	}
	return nil
}

// Validate checks the values that a type alone cannot.
func (c Config) Validate() error {
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return &Error{Key: "log.level", Reason: fmt.Sprintf("%q: want debug, info, warn or error", c.Log.Level)}
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		return &Error{Key: "log.format", Reason: fmt.Sprintf("%q: want text or json", c.Log.Format)}
	}
	for _, u := range []struct{ key, val, schemes string }{
		{"discord.rest_url", c.Discord.RESTURL, "http https"},
		{"discord.gateway_url", c.Discord.GatewayURL, "ws wss"},
	} {
		if u.val == "" {
			continue
		}
		scheme, _, ok := strings.Cut(u.val, "://")
		if !ok || !strings.Contains(u.schemes, scheme) {
			return &Error{Key: u.key, Reason: fmt.Sprintf("%q: want a %s URL", redact.URL(u.val), strings.ReplaceAll(u.schemes, " ", " or "))}
		}
	}
	switch c.Storage.Driver {
	case "bbolt":
		if c.Storage.Path == "" {
			return &Error{Key: "storage.path", Reason: "must not be empty"}
		}
	case "postgres":
		if c.Storage.DSN == "" {
			return &Error{Key: "storage.dsn", Reason: "driver postgres needs the database: set storage.dsn or GAMBIT_STORAGE_DSN (a URL such as postgres://gambit@db:5432/gambit)"}
		}
	default:
		return &Error{Key: "storage.driver", Reason: fmt.Sprintf("%q: want bbolt or postgres", c.Storage.Driver)}
	}
	for _, id := range []struct{ key, val string }{
		{"discord.application_id", c.Discord.ApplicationID},
		{"discord.guild_id", c.Discord.GuildID},
	} {
		if id.val != "" && !snowflake(id.val) {
			return &Error{Key: id.key, Reason: fmt.Sprintf("%q: want a Discord id (digits only, as Copy ID gives it)", id.val)}
		}
	}
	if strings.HasPrefix(c.Discord.Token, "Bot ") || strings.ContainsAny(c.Discord.Token, " \t\r\n") {
		return &Error{Key: "discord.token", Reason: "give the bare token as the developer portal shows it: no \"Bot \" before it, no spaces or line breaks"}
	}
	if err := c.validateInteractions(); err != nil {
		return err
	}
	if a := c.Metrics.Address; a != "" {
		host, port, err := net.SplitHostPort(a)
		if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
			return &Error{Key: "metrics.address", Reason: fmt.Sprintf("%q: want host:port, such as 127.0.0.1:9090", a)}
		}
		if !c.Metrics.AllowRemote && !LoopbackHost(host) {
			return &Error{Key: "metrics.address", Reason: fmt.Sprintf("%q is not a loopback address: the ops endpoint would be reachable from other machines; "+
				"listen on 127.0.0.1, or set metrics.allow_remote: true (GAMBIT_METRICS_ALLOW_REMOTE=true) if that is what you want", a)}
		}
	}
	if t := c.Backups.EndpointToken; t != "" {
		if len(t) < MinEndpointTokenLength || strings.ContainsFunc(t, func(r rune) bool { return r <= ' ' || r > '~' }) {
			return &Error{Key: "backups.endpoint_token", Reason: fmt.Sprintf("want at least %d printable ASCII characters without spaces (e.g. the output of: openssl rand -hex 32)", MinEndpointTokenLength)}
		}
	}
	if err := c.validateWeb(); err != nil {
		return err
	}
	if c.Engine.HashMB < 1 || c.Engine.HashMB > 65536 {
		return &Error{Key: "engine.hash_mb", Reason: fmt.Sprintf("%d: want 1 to 65536", c.Engine.HashMB)}
	}
	if c.Engine.Threads < 1 || c.Engine.Threads > 256 {
		return &Error{Key: "engine.threads", Reason: fmt.Sprintf("%d: want 1 to 256", c.Engine.Threads)}
	}
	if g := c.Games.RestartGrace; g < 100*time.Millisecond || g > time.Minute {
		return &Error{Key: "games.restart_grace", Reason: fmt.Sprintf("%s: want 100ms to 1m", g)}
	}
	if c.Engine.BotWorkers < 1 || c.Engine.BotWorkers > 64 {
		return &Error{Key: "engine.bot_workers", Reason: fmt.Sprintf("%d: want 1 to 64", c.Engine.BotWorkers)}
	}
	for _, n := range []struct {
		key string
		v   int
	}{
		{"games.max_pending_challenges", c.Games.MaxPendingChallenges},
		{"games.challenges_per_opponent", c.Games.ChallengesPerOpponent},
		{"games.challenge_pings", c.Games.ChallengePings},
	} {
		if n.v < 1 || n.v > 100 {
			return &Error{Key: n.key, Reason: fmt.Sprintf("%d: want 1 to 100", n.v)}
		}
	}
	if d := c.Games.VacationDays; d < 0 || d > 366 {
		return &Error{Key: "games.vacation_days", Reason: fmt.Sprintf("%d: want 0 (no vacations) to 366", d)}
	}
	if c.Engine.MaxGamesPerUser < 1 || c.Engine.MaxGamesPerUser > 100 {
		return &Error{Key: "engine.max_games_per_user", Reason: fmt.Sprintf("%d: want 1 to 100", c.Engine.MaxGamesPerUser)}
	}
	if c.Engine.AnalysisNodes < 0 || c.Engine.AnalysisNodes > maxAnalysisNodes {
		return &Error{Key: "engine.analysis_nodes", Reason: fmt.Sprintf("%d: want 0 (by time) to %d", c.Engine.AnalysisNodes, maxAnalysisNodes)}
	}
	if c.Engine.AnalysisWorkers < 1 || c.Engine.AnalysisWorkers > 64 {
		return &Error{Key: "engine.analysis_workers", Reason: fmt.Sprintf("%d: want 1 to 64", c.Engine.AnalysisWorkers)}
	}
	for _, d := range []struct {
		key    string
		v      time.Duration
		lo, hi time.Duration
	}{
		{"engine.max_think", c.Engine.MaxThink, 10 * time.Millisecond, 10 * time.Minute},
		{"engine.reply_delay", c.Engine.ReplyDelay, 0, 10 * time.Second},
		{"engine.analysis_time", c.Engine.AnalysisTime, 10 * time.Millisecond, time.Minute},
		{"engine.analysis_budget", c.Engine.AnalysisBudget, time.Second, 10 * time.Minute},
		{"engine.analysis_cooldown", c.Engine.AnalysisCooldown, 0, 24 * time.Hour},
	} {
		if d.v < d.lo || d.v > d.hi {
			return &Error{Key: d.key, Reason: fmt.Sprintf("%v: want %v to %v", d.v, d.lo, d.hi)}
		}
	}
	if c.Commands.PerUserPerMinute < 0 {
		return &Error{Key: "commands.per_user_per_minute", Reason: "must not be negative"}
	}
	if strings.TrimSpace(c.Games.DefaultTimeControl) == "" {
		return &Error{Key: "games.default_time_control", Reason: "must not be empty: give a time control such as 10+5, or - for none"}
	}
	for _, d := range []struct {
		key    string
		v      time.Duration
		lo, hi time.Duration
	}{
		{"games.challenge_expiry", c.Games.ChallengeExpiry, time.Minute, 30 * 24 * time.Hour},
		{"games.first_move_timeout", c.Games.FirstMoveTimeout, 10 * time.Second, 24 * time.Hour},
		{"games.challenge_window", c.Games.ChallengeWindow, time.Minute, 24 * time.Hour},
		{"backups.every", c.Backups.Every, time.Minute, 30 * 24 * time.Hour},
		{"storage.connect_timeout", c.Storage.ConnectTimeout, 100 * time.Millisecond, 5 * time.Minute},
		{"storage.acquire_timeout", c.Storage.AcquireTimeout, 10 * time.Millisecond, 5 * time.Minute},
		{"commands.operation_timeout", c.Commands.OperationTimeout, time.Second, 14 * time.Minute},
	} {
		if d.v < d.lo || d.v > d.hi {
			return &Error{Key: d.key, Reason: fmt.Sprintf("%v: want %v to %v", d.v, d.lo, d.hi)}
		}
	}
	for _, d := range []struct {
		key string
		v   time.Duration
	}{
		{"storage.statement_timeout", c.Storage.StatementTimeout},
		{"storage.lock_timeout", c.Storage.LockTimeout},
		{"storage.idle_in_transaction_timeout", c.Storage.IdleInTransactionTimeout},
	} {
		if d.v < 0 || d.v > 24*time.Hour || (d.v > 0 && d.v < time.Millisecond) {
			return &Error{Key: d.key, Reason: fmt.Sprintf("%v: want 0 (off) or 1ms to 24h", d.v)}
		}
	}
	if c.Backups.Keep < 1 || c.Backups.Keep > 10000 {
		return &Error{Key: "backups.keep", Reason: fmt.Sprintf("%d: want 1 to 10000", c.Backups.Keep)}
	}
	return nil
}

// LoopbackHost reports whether a listening host is this machine's loopback only: localhost,
// or an IP address in 127.0.0.0/8 or ::1. An empty host, 0.0.0.0 and :: (every interface)
// are not.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validateWeb checks web.address, web.public_url and web.secret.
func (c Config) validateWeb() error {
	w := c.Web
	if w.Address != "" {
		_, port, err := net.SplitHostPort(w.Address)
		if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
			return &Error{Key: "web.address", Reason: fmt.Sprintf("%q: want host:port, such as 127.0.0.1:8080", w.Address)}
		}
	}
	if u := w.PublicURL; u != "" {
		scheme, rest, ok := strings.Cut(u, "://")
		host, _, _ := strings.Cut(rest, "/")
		if !ok || (scheme != "http" && scheme != "https") || host == "" || strings.ContainsAny(u, " \t\r\n?#@") {
			return &Error{Key: "web.public_url", Reason: fmt.Sprintf("%q: want an http or https URL such as https://chess.example.org, without query or fragment", redact.URL(u))}
		}
		if w.Address == "" {
			return &Error{Key: "web.public_url", Reason: "set web.address too: public_url is where people reach the web server that address starts"}
		}
	}
	if s := w.Secret; s != "" && (len(s) < MinWebSecretLength || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r > '~' })) {
		return &Error{Key: "web.secret", Reason: fmt.Sprintf("want at least %d printable ASCII characters without spaces (e.g. the output of: openssl rand -hex 32)", MinWebSecretLength)}
	}
	return nil
}

// ReservedInstances are instance names other programs use on a shared store: gambit
// play's game service heartbeats as "play".
var ReservedInstances = []string{"play"}

// validateInteractions checks instance, discord.interactions_address and
// discord.public_key.
func (c Config) validateInteractions() error {
	if n := c.Instance; n != "" {
		if err := checkInstanceName(n); err != nil {
			return &Error{Key: "instance", Reason: err.Error()}
		}
	}
	if a := c.Discord.InteractionsAddress; a != "" {
		_, port, err := net.SplitHostPort(a)
		if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
			return &Error{Key: "discord.interactions_address", Reason: fmt.Sprintf("%q: want host:port, such as 0.0.0.0:8080", a)}
		}
		if c.Discord.PublicKey == "" {
			return &Error{Key: "discord.public_key", Reason: "missing: discord.interactions_address is set, and interactions delivered over HTTP are checked " +
				"against the application's public key (General Information page of the developer portal)"}
		}
	}
	if k := c.Discord.PublicKey; k != "" {
		if b, err := hex.DecodeString(k); err != nil || len(b) != 32 {
			return &Error{Key: "discord.public_key", Reason: fmt.Sprintf("%q: want the 64 hex digits of the application's public key, as the developer portal shows it", k)}
		}
	}
	return nil
}

// checkInstanceName accepts 1 to 64 letters, digits, dots, dashes and underscores
// (a host name fits), none of ReservedInstances.
func checkInstanceName(n string) error {
	if n == "" || len(n) > 64 || strings.ContainsFunc(n, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_')
	}) {
		return fmt.Errorf("%q: want 1 to 64 letters, digits, dots, dashes or underscores", n)
	}
	if slices.Contains(ReservedInstances, n) {
		return fmt.Errorf("%q is the name of gambit play's heartbeat: choose another", n)
	}
	return nil
}

// InstanceName is the name of this process among those sharing the store: instance,
// or the machine's host name when instance is empty (under a container runtime that
// names each new container afresh, set instance so a restart keeps its name).
func (c Config) InstanceName() (string, error) {
	if c.Instance != "" {
		return c.Instance, nil
	}
	h, err := os.Hostname()
	if err != nil {
		return "", &Error{Key: "instance", Reason: fmt.Sprintf("not set, and the host name is not known (%v): set it", err)}
	}
	if err := checkInstanceName(h); err != nil {
		return "", &Error{Key: "instance", Reason: fmt.Sprintf("not set, and the host name does not fit: %v; set it", err)}
	}
	return h, nil
}

// snowflake reports whether s reads as a Discord id: 1 to 20 digits.
func snowflake(s string) bool {
	if len(s) == 0 || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// RequireDiscord checks what `gambit serve` needs beyond Validate: a token.
func (c Config) RequireDiscord() error {
	if c.Discord.Token == "" {
		return &Error{Key: "discord.token", Reason: "missing: set it in the config file, or GAMBIT_DISCORD_TOKEN (or DISCORD_TOKEN) in the environment"}
	}
	return nil
}

// String describes the configuration for logs, with the token left out and the
// passwords of the URLs replaced.
func (c Config) String() string {
	tok := "unset"
	if c.Discord.Token != "" {
		tok = "set"
	}
	endpoint := "off"
	if c.Backups.EndpointToken != "" {
		endpoint = "on (token set)"
	}
	return fmt.Sprintf("instance %q discord{token %s, application %q, guild %q, rest %q, gateway %q, shards %d, interactions %q} storage %q log %s/%s metrics %q (remote %t) puzzles %t backups %q (live backup %s)",
		c.Instance, tok, c.Discord.ApplicationID, c.Discord.GuildID, redact.URL(c.Discord.RESTURL), redact.URL(c.Discord.GatewayURL), c.Discord.Shards, c.Discord.InteractionsAddress,
		c.Storage.Path, c.Log.Level, c.Log.Format, c.Metrics.Address, c.Metrics.AllowRemote, c.Puzzles.Enabled, c.Backups.Dir, endpoint)
}
