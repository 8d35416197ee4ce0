// help.go: the help texts, written from the command table.

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// writeOverview writes `gambit help`: what the binary is and the list of commands.
func writeOverview(w io.Writer) {
	fmt.Fprint(w, "Gambit is a chess bot for Discord and its tools, in one binary.\n\nusage: gambit <command> [flags]\n\ncommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
		for _, s := range c.subs {
			fmt.Fprintf(w, "    %-14s %s\n", s.name, s.summary)
		}
	}
	fmt.Fprintln(w, "\nRun 'gambit help <command>' or 'gambit <command> -h' for a command's flags and examples.")
}

// writeCommandHelp writes a command's help: usage, what it does, its flags and
// examples. name is its path ("puzzles import"); fs holds its flags.
func writeCommandHelp(w io.Writer, name string, fs *flag.FlagSet) {
	c, ok := findCommand(name)
	fmt.Fprintf(w, "usage: gambit %s", name)
	if c.args != "" {
		fmt.Fprintf(w, " %s", c.args)
	}
	fmt.Fprintln(w)
	if ok {
		fmt.Fprintf(w, "\n%s\n", wrap(c.about, 88))
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nflags:")
		fs.PrintDefaults()
	}
	writeExamples(w, c.example)
}

// writeGroupHelp writes a command group's help: usage, what it does, its subcommands and
// examples.
func writeGroupHelp(w io.Writer, c command) {
	fmt.Fprintf(w, "usage: gambit %s %s\n\n%s\n\nsubcommands:\n", c.name, c.args, wrap(c.about, 88))
	for _, s := range c.subs {
		fmt.Fprintf(w, "  %-13s %s\n", s.name, s.summary)
		fmt.Fprintf(w, "  %-13s   gambit %s %s %s\n", "", c.name, s.name, s.args)
	}
	fmt.Fprintf(w, "\nRun 'gambit %s <subcommand> -h' for its flags.\n", c.name)
	writeExamples(w, c.example)
}

// writeExamples writes the examples section.
func writeExamples(w io.Writer, example string) {
	if example == "" {
		return
	}
	fmt.Fprintln(w, "\nexamples:")
	for _, line := range strings.Split(example, "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

// wrap breaks text into lines of at most width characters, at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, word := range strings.Fields(text) {
		switch {
		case n == 0:
		case n+1+len(word) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}
