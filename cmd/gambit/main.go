// Command gambit is the Gambit chess bot and its tools in one binary: the Discord bot
// (serve), a terminal game (play, games), and tools (match, uci, perft, position,
// render, rating, puzzles, tournament, backup, commands, version). Each file parses one
// command's flags and calls the package that does the work; `gambit help` lists them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a command and returns the process exit code: 0, 1 when the command
// failed, 2 for a command line that names no command.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeOverview(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if err := runHelp(args[1:], stdout); err != nil {
			fmt.Fprintf(stderr, "gambit help: %v\n", err)
			return 2
		}
		return 0
	}
	c, ok := findCommand(args[0])
	if !ok {
		fmt.Fprintf(stderr, "gambit: unknown command %q\n\n", args[0])
		writeOverview(stderr)
		return 2
	}
	if err := c.call(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "gambit %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

// newFlagSet returns a command's flag set: it reports errors instead of exiting, and -h
// or --help prints the command's help (usage, what it does, flags, examples) from the
// command table. name is the command's path, like "play" or "puzzles import".
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gambit "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { writeCommandHelp(fs.Output(), name, fs) }
	return fs
}

// parseFlags parses args and rejects stray positional arguments. -h or --help writes
// the command's help and returns flag.ErrHelp; a bad flag is returned as the error,
// without the flag package's own message and usage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(out)
	name := strings.TrimPrefix(fs.Name(), "gambit ")
	if errors.Is(err, flag.ErrHelp) {
		writeCommandHelp(out, name, fs)
		return err
	}
	if err != nil {
		return fmt.Errorf("%w (gambit %s -h lists the flags)", err, name)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", strings.Join(fs.Args(), " "))
	}
	return nil
}
