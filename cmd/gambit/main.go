// Command gambit is the Gambit chess bot and its tools in one binary: the Discord bot
// (serve), a terminal game (play), and inspection tools (perft, position, render, rating,
// puzzles, backup, uci).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"serve":      {"run the Discord bot (config file and environment: see config.example.yaml)", runServe},
		"play":       {"play a game in the terminal on the game service and store", runPlay},
		"backup":     {"write a consistent copy of the database while the bot runs", runBackup},
		"puzzles":    {"puzzles: import a lichess CSV, generate from PGN games, export as CSV", runPuzzles},
		"position":   {"print the position reached as JSON: legal moves, status, result, claims, can_checkmate", runPosition},
		"perft":      {"count the leaves of the legal move tree (move generator check)", runPerft},
		"rating":     {"rating calculators: fide, fide-initial, glicko2 (JSON out)", runRating},
		"render":     {"draw a position as a PNG, or a game replay as a GIF", runRender},
		"uci":        {"the built-in engine as a UCI engine on stdin/stdout", runUCI},
		"match":      {"play engine against engine over UCI and report the score with an Elo estimate", runMatch},
		"tournament": {"tournament tools: pair a round from a TRF (Dutch, Berger), standings", runTournament},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gambit: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "gambit %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func usage(w io.Writer, cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: gambit <command> [flags]\n\ncommands:")
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'gambit <command> -h' for the flags of a command.")
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gambit "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args and rejects stray positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", strings.Join(fs.Args(), " "))
	}
	return nil
}
