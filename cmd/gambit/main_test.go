// The test binary's entry point, and the tests of the command table and its help.
package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/internal/buildinfo"
)

// TestMain also lets the test binary stand in for `gambit uci`: with
// GAMBIT_TEST_UCI_ENGINE=1 it serves the built-in engine on its stdin and stdout (with
// the flags in GAMBIT_TEST_UCI_ARGS), so the match tests have engines to run.
func TestMain(m *testing.M) {
	if os.Getenv("GAMBIT_TEST_UCI_ENGINE") != "1" {
		code := m.Run()
		removeServeBinary() // the gambit binary the multi-process tests built
		os.Exit(code)
	}
	uciStdin = os.Stdin
	if err := runUCI(strings.Fields(os.Getenv("GAMBIT_TEST_UCI_ARGS")), os.Stdout, os.Stderr); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(0)
}

// commandPaths lists every command and subcommand of the table: "play", "puzzles",
// "puzzles import", ...
func commandPaths() []string {
	var paths []string
	for _, c := range commands() {
		paths = append(paths, c.name)
		for _, s := range c.subs {
			paths = append(paths, c.name+" "+s.name)
		}
	}
	return paths
}

// TestEveryCommandHasHelp runs every command and subcommand with -h and --help (and
// `gambit help` with its name): each exits 0 and shows its usage line, what it does and
// an example.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, path := range commandPaths() {
		c, ok := findCommand(path)
		if !ok {
			t.Fatalf("findCommand(%q) found nothing", path)
		}
		if c.summary == "" || c.about == "" || c.example == "" {
			t.Errorf("%s: summary %q, about %q, example %q: every command needs all three", path, c.summary, c.about, c.example)
		}
		if !strings.HasPrefix(c.example, "gambit "+path) && !strings.Contains(c.example, "| gambit "+path) && !strings.Contains(c.example, "gambit "+path) {
			t.Errorf("%s: the example %q does not run it", path, c.example)
		}
		for _, flagArg := range []string{"-h", "--help", "help"} {
			args := append(strings.Fields(path), flagArg)
			if flagArg == "help" {
				args = append([]string{"help"}, strings.Fields(path)...)
			}
			var out, errOut bytes.Buffer
			code := run(args, &out, &errOut)
			text := out.String() + errOut.String()
			if code != 0 {
				t.Errorf("gambit %s: exit %d, want 0\n%s", strings.Join(args, " "), code, text)
				continue
			}
			firstAbout := strings.Fields(c.about)[0] + " " + strings.Fields(c.about)[1]
			for _, want := range []string{"usage: gambit " + path, firstAbout, "examples:\n  " + strings.Split(c.example, "\n")[0]} {
				if !strings.Contains(text, want) {
					t.Errorf("gambit %s: the help lacks %q:\n%s", strings.Join(args, " "), want, text)
				}
			}
			if c.subs == nil && c.args != "" && !strings.Contains(text, "usage: gambit "+path+" "+c.args) {
				t.Errorf("gambit %s: the usage line lacks the arguments %q:\n%s", strings.Join(args, " "), c.args, text)
			}
		}
	}
}

// TestHelpListsEveryCommand: `gambit help` (exit 0, on stdout) names every command and
// subcommand with its summary; no arguments at all is a usage error (exit 2).
func TestHelpListsEveryCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"help"}, &out, &errOut); code != 0 || errOut.Len() != 0 {
		t.Fatalf("gambit help: exit %d, stderr %q", code, errOut.String())
	}
	for _, c := range commands() {
		if !strings.Contains(out.String(), "  "+c.name+" ") || !strings.Contains(out.String(), c.summary) {
			t.Errorf("gambit help lacks %s (%s):\n%s", c.name, c.summary, out.String())
		}
		for _, s := range c.subs {
			if !strings.Contains(out.String(), s.summary) {
				t.Errorf("gambit help lacks %s %s:\n%s", c.name, s.name, out.String())
			}
		}
	}
	out.Reset()
	errOut.Reset()
	if code := run(nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage: gambit <command>") {
		t.Errorf("gambit: exit %d\n%s", code, errOut.String())
	}
	for _, args := range [][]string{{"nosuch"}, {"help", "nosuch"}, {"puzzles", "nosuch"}} {
		out.Reset()
		errOut.Reset()
		if code := run(args, &out, &errOut); code == 0 {
			t.Errorf("gambit %v: exit 0", args)
		}
	}
}

// TestBadFlagSaysWhereHelpIs: a mistyped flag is one error line pointing at -h, not
// the whole help.
func TestBadFlagSaysWhereHelpIs(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"perft", "--dept", "3"}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if got := errOut.String(); got != "gambit perft: flag provided but not defined: -dept (gambit perft -h lists the flags)\n" {
		t.Errorf("stderr %q", got)
	}
}

func TestVersion(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	version, revision := buildinfo.Version()
	if want := "gambit " + version + " (revision " + revision + ")\n"; out.String() != want {
		t.Errorf("gambit version = %q, want %q", out.String(), want)
	}
	if code := run([]string{"version", "extra"}, &out, &errOut); code != 1 {
		t.Errorf("gambit version extra: exit %d", code)
	}
}
