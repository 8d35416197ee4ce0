// serve.go: `gambit serve`, the Discord bot, and the logger its configuration asks for.

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/buildinfo"
	"github.com/gambitchess/gambit/serve"
)

// runServe implements `gambit serve [--config FILE]`: the Discord bot. The
// configuration is the YAML file (config.example.yaml documents every key) under the
// environment (GAMBIT_<KEY>, and DISCORD_TOKEN for the token). It logs the build's
// version and revision, runs until SIGINT or SIGTERM, then shuts down gracefully: no
// new challenges, what is in flight finished, the store committed and closed.
func runServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	path := fs.String("config", "", "YAML configuration `file` (default: none, the environment and defaults only)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := config.Load(*path, os.LookupEnv, serve.CheckConfig)
	if err != nil {
		return err
	}
	if err := cfg.RequireDiscord(); err != nil {
		return err
	}
	log := newLogger(cfg.Log, stderr)
	bot.RouteLibraryLogs(log)
	version, revision := buildinfo.Version()
	log.Info("gambit serve", "version", version, "revision", revision, "config", cfg.String()) // String leaves the token out
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve.Run(ctx, cfg, serve.Deps{Logger: log}); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// newLogger makes the structured logger log.level and log.format ask for.
func newLogger(c config.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	switch c.Level {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	default:
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
