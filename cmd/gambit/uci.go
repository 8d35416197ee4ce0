package main

import (
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/uci"
)

// uciStdin is where `gambit uci` reads commands from; tests replace it.
var uciStdin io.Reader = os.Stdin

// runUCI implements `gambit uci [--hash MB] [--level N] [--seed N]`: the built-in engine
// as a UCI engine on stdin and stdout, for chess GUIs and match runners. Problems are
// logged to stderr.
func runUCI(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("uci", stderr)
	hash := fs.Int("hash", engine.DefaultHashMB, "transposition table size in MB (the Hash option changes it)")
	level := fs.Int("level", engine.MaxLevel, "playing level 1 to 8 (the Level option changes it)")
	seed := fs.Uint64("seed", 0, "seed for the randomness of levels below 8 (0: from the clock)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if _, err := engine.LevelByNumber(*level); err != nil {
		return err
	}
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	srv := &uci.Server{
		Name:   "Gambit",
		Author: "the Gambit authors",
		HashMB: *hash,
		Level:  *level,
		Seed:   s,
		Log:    slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	return srv.Serve(uciStdin, stdout)
}
