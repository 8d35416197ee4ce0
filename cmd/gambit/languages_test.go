package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	slash "github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/i18n"
)

// readme is the README, whose table of languages this test keeps.
const readme = "../../README.md"

const (
	languagesBegin = "<!-- languages:begin (go test ./cmd/gambit -run TestReadmeLanguages -update) -->"
	languagesEnd   = "<!-- languages:end -->"
)

// languageTable is the README's table of the shipped languages: each one's Discord
// locales and the share of the catalog's messages and of the command texts it
// translates, counted from the catalog rather than written by hand.
func languageTable() string {
	var b strings.Builder
	b.WriteString("| Language | Discord locales | Messages translated | Command texts translated |\n|---|---|---|---|\n")
	share := func(n, total int) string {
		if total == 0 {
			return "none to translate"
		}
		return fmt.Sprintf("%d%% (%d of %d)", n*100/total, n, total)
	}
	for i, l := range i18n.Languages() {
		msgs, cmds := "the source", "the source (the definitions)"
		if i > 0 {
			msgs = share(i18n.MessageCoverage(l.Code))
			cmds = share(slash.TextCoverage(l.Code))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", l.Name, strings.Join(l.Discord, ", "), msgs, cmds)
	}
	return b.String()
}

// TestReadmeLanguages: the README's table of languages is the one the catalog gives.
func TestReadmeLanguages(t *testing.T) {
	doc, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	begin, end := strings.Index(text, languagesBegin), strings.Index(text, languagesEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s: want %s and %s after it", readme, languagesBegin, languagesEnd)
	}
	want := languagesBegin + "\n" + languageTable() + languagesEnd
	got := text[begin : end+len(languagesEnd)]
	if *update && got != want {
		text = text[:begin] + want + text[end+len(languagesEnd):]
		if err := os.WriteFile(readme, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		got = want
	}
	if got != want {
		t.Errorf("%s: the table of languages is out of date (run go test ./cmd/gambit -run TestReadmeLanguages -update):\n%s", readme, want)
	}
}
