package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// commands.go: the translations of the slash commands' names and descriptions, which
// Discord shows in its command picker in the reader's language. They live apart from the
// messages, in locales/commands/<code>.json, because their English is the commands'
// definitions themselves (the names people type and the bot routes by), not a catalog
// text: a file holds only the other languages, one flat object of plain texts (no
// placeholders, no plural forms), keyed by the command path:
//
//	"challenge.name", "challenge.desc"                  the command
//	"settings.theme.name", "settings.theme.desc"        a subcommand (group) or option
//	"settings.theme.theme.choice.blue"                  a choice, by its value
//
// English has no file. The commands package applies the texts to the definitions when
// they are registered, and its tests name every key a language lacks.

//go:embed locales/commands/*.json
var commandFiles embed.FS

var (
	commandOnce  sync.Once
	commandTexts map[string]map[string]string
)

// mustCommandTexts reads the embedded command files; like the catalog, a malformed file
// is a build error the tests catch, so it panics.
func mustCommandTexts() map[string]map[string]string {
	commandOnce.Do(func() {
		commandTexts = map[string]map[string]string{}
		for _, lang := range languages[1:] {
			data, err := commandFiles.ReadFile("locales/commands/" + lang.Code + ".json")
			if err != nil {
				panic(fmt.Sprintf("i18n: commands %s: %v", lang.Code, err))
			}
			texts, err := parseCommandFile(data)
			if err != nil {
				panic(fmt.Sprintf("i18n: locales/commands/%s.json: %v", lang.Code, err))
			}
			commandTexts[lang.Code] = texts
		}
	})
	return commandTexts
}

// parseCommandFile reads one command file: keys to non-empty texts without stray
// whitespace.
func parseCommandFile(data []byte) (map[string]string, error) {
	var texts map[string]string
	if err := json.Unmarshal(data, &texts); err != nil {
		return nil, fmt.Errorf("reading the command texts: %w", err)
	}
	for key, s := range texts {
		if key == "" || strings.TrimSpace(key) != key {
			return nil, fmt.Errorf("key %q: a key is a non-empty dotted command path", key)
		}
		if s == "" || strings.TrimSpace(s) != s {
			return nil, fmt.Errorf("key %q: the text is empty or starts or ends with whitespace", key)
		}
	}
	return texts, nil
}

// CommandText returns the translation of a command text (a key such as
// "challenge.opponent.desc") in the language of code (a Language.Code other than
// English), and whether that language has it.
func CommandText(code, key string) (string, bool) {
	s, ok := mustCommandTexts()[code][key]
	return s, ok
}

// CommandKeys returns the sorted keys of the command texts of the language of code.
func CommandKeys(code string) []string {
	return slices.Sorted(maps.Keys(mustCommandTexts()[code]))
}

// CommandLanguages returns the languages that translate the commands: every shipped
// language but English, whose texts are the definitions themselves.
func CommandLanguages() []Language { return Languages()[1:] }

// MessageCoverage counts the catalog's messages (the English ones, total) and how many
// of them the language of code translates; README's table of languages is made from it.
func MessageCoverage(code string) (translated, total int) {
	load()
	l := For(code)
	for key := range english.texts {
		total++
		if _, ok := l.texts[key]; ok && l.lang.Code == code {
			translated++
		}
	}
	return translated, total
}
