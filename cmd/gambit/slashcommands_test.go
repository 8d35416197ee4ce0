// Tests of the slash command reference: its golden file, the copy in docs/discord.md,
// and that it names every command, subcommand and option.
package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/commands.md and the reference section of docs/discord.md")

// discordDoc is the operator's guide that carries the reference.
const discordDoc = "../../docs/discord.md"

// TestCommandReferenceGolden: `gambit commands --markdown` prints testdata/commands.md.
func TestCommandReferenceGolden(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"commands", "--markdown"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	golden := filepath.Join("testdata", "commands.md")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestCommandReference -update to create it)", err)
	}
	if out.String() != string(want) {
		t.Errorf("gambit commands --markdown differs from %s (run with -update to accept):\n%s", golden, out.String())
	}
}

// TestDiscordDocHasReference: docs/discord.md holds exactly the generated reference
// between its markers, so a command added to package commands cannot be left out.
func TestDiscordDocHasReference(t *testing.T) {
	doc, err := os.ReadFile(discordDoc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	begin, end := strings.Index(text, referenceBegin), strings.Index(text, referenceEnd)
	if begin < 0 || end < begin || strings.Count(text, referenceBegin) != 1 || strings.Count(text, referenceEnd) != 1 {
		t.Fatalf("%s: want one %s and one %s after it", discordDoc, referenceBegin, referenceEnd)
	}
	defs, err := slashCommands()
	if err != nil {
		t.Fatal(err)
	}
	want := commandReference(defs)
	got := text[begin : end+len(referenceEnd)+1]
	if *update && got != want {
		text = text[:begin] + want + text[end+len(referenceEnd)+1:]
		if err := os.WriteFile(discordDoc, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		got = want
	}
	if got != want {
		t.Errorf("%s: the section between the commands markers is not what gambit commands --markdown prints (run go test ./cmd/gambit -run TestDiscordDocHasReference -update)", discordDoc)
	}
}

// TestReferenceNamesEverything: each command has its section, each subcommand (and
// group) its heading, and each option its row, whatever the nesting.
func TestReferenceNamesEverything(t *testing.T) {
	defs, err := slashCommands()
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) < 15 {
		t.Fatalf("only %d commands", len(defs))
	}
	ref := commandReference(defs)
	var check func(path string, opts []slashOption, section string)
	check = func(path string, opts []slashOption, section string) {
		for _, o := range opts {
			if o.Type == optSubCommand || o.Type == optSubCommandGroup {
				sub := path + " " + o.Name
				i := strings.Index(ref, "# "+sub+"\n")
				if i < 0 {
					t.Errorf("no heading for %s", sub)
					continue
				}
				check(sub, o.Options, ref[i:])
				continue
			}
			if !strings.Contains(section, "| `"+o.Name+"` |") {
				t.Errorf("%s: no row for the option %s", path, o.Name)
			}
		}
	}
	for _, d := range defs {
		i := strings.Index(ref, "\n### /"+d.Name+"\n")
		if i < 0 {
			t.Errorf("no section for /%s", d.Name)
			continue
		}
		check("/"+d.Name, d.Options, ref[i:])
	}
	for _, name := range []string{"play", "analyze", "ladder", "rating", "elo", "tournament", "puzzle", "help"} {
		if !strings.Contains(ref, "\n### /"+name+"\n") {
			t.Errorf("/%s is missing", name)
		}
	}
}

func TestCommandsList(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"commands"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"/challenge  ", "/settings show  ", "/puzzle today  ", "/draw claim  "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("gambit commands lacks %q:\n%s", want, out.String())
		}
	}
}
