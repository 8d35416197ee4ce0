package commands

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/i18n"
)

// TestCommandTextsComplete: every command, subcommand, option and choice has its name
// and description in every shipped language's command file, and no file holds a key no
// command has. A new command fails here with the keys to add, file by file.
func TestCommandTextsComplete(t *testing.T) {
	want := map[string]bool{}
	for _, c := range append(All(&Deps{}), UserMenus(&Deps{})...) {
		for _, k := range textKeys(c.Definition()) {
			want[k] = true
		}
	}
	for _, l := range i18n.CommandLanguages() {
		have := i18n.CommandKeys(l.Code)
		var missing, stale []string
		for k := range want {
			if !slices.Contains(have, k) {
				missing = append(missing, k)
			}
		}
		for _, k := range have {
			if !want[k] {
				stale = append(stale, k)
			}
		}
		slices.Sort(missing)
		if len(missing) > 0 {
			t.Errorf("i18n/locales/commands/%s.json lacks %d command texts: %s", l.Code, len(missing), strings.Join(missing, ", "))
		}
		if len(stale) > 0 {
			t.Errorf("i18n/locales/commands/%s.json has %d keys no command has (renamed or removed?): %s", l.Code, len(stale), strings.Join(stale, ", "))
		}
	}
}

// TestLocalizedCommandsFollowDiscordRules: the localized definitions, as the router
// registers them, keep their English names, descriptions and choice values, carry every
// shipped locale on every name, description and choice, and meet Discord's rules.
func TestLocalizedCommandsFollowDiscordRules(t *testing.T) {
	var defs []*discordgo.ApplicationCommand
	for _, c := range append(All(&Deps{}), UserMenus(&Deps{})...) {
		orig := c.Definition()
		def, missing := Localize(orig)
		if len(missing) > 0 {
			t.Errorf("/%s: missing texts %v", orig.Name, missing)
		}
		if got, want := stripLocalizations(t, def), stripLocalizations(t, orig); got != want {
			t.Errorf("/%s: localizing changed the definition itself:\n got %s\nwant %s", orig.Name, got, want)
		}
		defs = append(defs, def)
	}
	for _, p := range checkLocalized(defs) {
		t.Error(p)
	}
}

// TestCheckLocalizedCatchesBreaches: the rules of checkLocalized, each broken once.
func TestCheckLocalizedCatchesBreaches(t *testing.T) {
	full := func(s string) map[discordgo.Locale]string {
		m := map[discordgo.Locale]string{}
		for _, l := range shippedLocales() {
			m[l] = s
		}
		return m
	}
	with := func(m map[discordgo.Locale]string, loc discordgo.Locale, s string) map[discordgo.Locale]string {
		m[loc] = s
		return m
	}
	ptr := func(m map[discordgo.Locale]string) *map[discordgo.Locale]string { return &m }
	opt := func(name string, names map[discordgo.Locale]string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Description: "d",
			NameLocalizations: names, DescriptionLocalizations: full("beschreibung")}
	}
	cmd := func(names map[discordgo.Locale]string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{Name: "game", Description: "d", NameLocalizations: ptr(names),
			DescriptionLocalizations: ptr(full("eine partie")), Options: opts}
	}
	for _, tc := range []struct {
		name string
		def  *discordgo.ApplicationCommand
		want string // "" for a command without problems
	}{
		{"valid", cmd(full("partie"), opt("a", full("ä")), opt("b", full("b"))), ""},
		{"valid context menu", &discordgo.ApplicationCommand{Type: discordgo.UserApplicationCommand, Name: "Chess rating",
			NameLocalizations: ptr(full("Schach Wertung"))}, ""},
		{"a locale missing", cmd(func() map[discordgo.Locale]string { m := full("partie"); delete(m, "uk"); return m }()), "game.name: no uk"},
		{"not a Discord locale", cmd(with(full("partie"), "pt", "partida")), "game.name: \"pt\" is not a Discord locale"},
		{"upper case", cmd(with(full("partie"), "de", "Partie")), "game.name de \"Partie\""},
		{"space", cmd(with(full("partie"), "fr", "ma partie")), "game.name fr \"ma partie\""},
		{"33 letters", cmd(with(full("partie"), "ru", strings.Repeat("я", 33))), "game.name ru"},
		{"description too long", &discordgo.ApplicationCommand{Name: "game", Description: "d", NameLocalizations: ptr(full("partie")),
			DescriptionLocalizations: ptr(with(full("x"), "it", strings.Repeat("à", 101)))}, "game.desc it"},
		{"option names clash", cmd(full("partie"), opt("time", with(full("t"), "pl", "czas")), opt("clock", with(full("c"), "pl", "czas"))), "pl: options \"clock\" and \"time\" are both \"czas\""},
		{"commands clash", nil, "de: commands \"/board\" and \"/game\" are both \"partie\""},
		{"context menu description", &discordgo.ApplicationCommand{Type: discordgo.MessageApplicationCommand, Name: "Rating",
			NameLocalizations: ptr(full("Wertung")), DescriptionLocalizations: ptr(full("x"))}, "Rating: a context menu command has no description"},
		{"context menu name too long", &discordgo.ApplicationCommand{Type: discordgo.UserApplicationCommand, Name: "Rating",
			NameLocalizations: ptr(with(full("W"), "de", strings.Repeat("W", 33)))}, "Rating.name de"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defs := []*discordgo.ApplicationCommand{tc.def}
			if tc.def == nil {
				defs = []*discordgo.ApplicationCommand{cmd(full("partie")), cmd(full("partie"))}
				defs[1].Name = "board"
			}
			got := strings.Join(checkLocalized(defs), "\n")
			if tc.want == "" && got != "" {
				t.Errorf("valid definitions refused:\n%s", got)
			}
			if tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("problems:\n%s\nwant one containing %q", got, tc.want)
			}
		})
	}
}

// TestLocalizeReportsMissingTexts: a command the catalog does not know (a new one, or a
// context menu) is localized with what there is, and every missing key is named with its
// language.
func TestLocalizeReportsMissingTexts(t *testing.T) {
	def := &discordgo.ApplicationCommand{Type: discordgo.UserApplicationCommand, Name: "Chess puzzles"}
	out, missing := Localize(def)
	if out.DescriptionLocalizations != nil {
		t.Errorf("a context menu got description localizations: %v", *out.DescriptionLocalizations)
	}
	for _, l := range i18n.CommandLanguages() {
		if !slices.Contains(missing, l.Code+" Chess puzzles.name") {
			t.Errorf("missing = %v, want %q", missing, l.Code+" Chess puzzles.name")
		}
	}
	def = &discordgo.ApplicationCommand{Name: "board", Description: "d", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionString, Name: "flip", Description: "d"}}}
	_, missing = Localize(def)
	if !slices.Contains(missing, "de board.flip.name") || !slices.Contains(missing, "uk board.flip.desc") || slices.Contains(missing, "de board.name") {
		t.Errorf("missing = %v, want board.flip's name and description in each language, and not board's", missing)
	}
}

// TestLocalizeSetsEveryDiscordCode: a language answering several Discord locales
// (Spanish: es-ES and es-419) has its texts under each.
func TestLocalizeSetsEveryDiscordCode(t *testing.T) {
	def, _ := Localize(registered["board"].build(&Deps{}).Definition())
	names := *def.NameLocalizations
	if names["es-ES"] == "" || names["es-419"] != names["es-ES"] {
		t.Errorf("board's names %v: want es-ES and es-419 alike", names)
	}
	if names["de"] != "brett" {
		t.Errorf("board in German = %q, want brett", names["de"])
	}
}

// stripLocalizations is def as JSON without its localizations, to compare with the
// definition it was localized from.
func stripLocalizations(t *testing.T, def *discordgo.ApplicationCommand) string {
	t.Helper()
	raw, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "name_localizations")
			delete(x, "description_localizations")
			for _, e := range x {
				strip(e)
			}
		case []any:
			for _, e := range x {
				strip(e)
			}
		}
	}
	strip(v)
	out, _ := json.Marshal(v)
	return string(out)
}

// chatName is Discord's pattern for chat-input command, subcommand and option names.
var chatName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// shippedLocales are the Discord locale codes of every language but English.
func shippedLocales() []discordgo.Locale {
	var out []discordgo.Locale
	for _, l := range i18n.CommandLanguages() {
		for _, c := range l.Discord {
			out = append(out, discordgo.Locale(c))
		}
	}
	return out
}

// checkLocalized lists every way defs break Discord's rules for localizations, or
// lack a shipped locale: chat-input names 1 to 32 characters of the pattern, lowercase;
// context menu names 1 to 32 characters, and no description; descriptions and choice
// names 1 to 100; keys only Discord's locale codes; localized option names unique
// among their siblings, and command names among the commands of their type.
func checkLocalized(defs []*discordgo.ApplicationCommand) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	locales := shippedLocales()
	check := func(key string, m map[discordgo.Locale]string, valid func(string) bool) {
		for _, l := range locales {
			if _, ok := m[l]; !ok {
				add("%s: no %s text", key, string(l))
			}
		}
		for l, s := range m {
			if _, ok := discordgo.Locales[l]; !ok || l == discordgo.Unknown {
				add("%s: %q is not a Discord locale", key, string(l))
			}
			if !valid(s) {
				add("%s %s %q (%d characters) breaks Discord's rules", key, string(l), s, utf8.RuneCountInString(s))
			}
		}
	}
	chat := func(s string) bool { return chatName.MatchString(s) && strings.ToLower(s) == s }
	text := func(s string) bool { n := utf8.RuneCountInString(s); return n >= 1 && n <= 100 }
	menu := func(s string) bool { n := utf8.RuneCountInString(s); return n >= 1 && n <= 32 }
	deref := func(m *map[discordgo.Locale]string) map[discordgo.Locale]string {
		if m == nil {
			return nil
		}
		return *m
	}
	unique := func(what string, names map[string]map[discordgo.Locale]string) {
		for _, l := range locales {
			by := map[string]string{}
			for _, n := range slices.Sorted(maps.Keys(names)) {
				s := names[n][l]
				if other, ok := by[s]; ok && s != "" {
					add("%s: %s %q and %q are both %q", string(l), what, other, n, s)
				}
				by[s] = n
			}
		}
	}
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		siblings := map[string]map[discordgo.Locale]string{}
		for _, o := range opts {
			p := path + "." + o.Name
			check(p+".name", o.NameLocalizations, chat)
			check(p+".desc", o.DescriptionLocalizations, text)
			siblings[o.Name] = o.NameLocalizations
			for _, ch := range o.Choices {
				check(choiceKey(p, ch.Value), ch.NameLocalizations, text)
			}
			walk(p, o.Options)
		}
		unique("options", siblings)
	}
	byType := map[discordgo.ApplicationCommandType]map[string]map[discordgo.Locale]string{}
	for _, d := range defs {
		typ := commandType(d)
		if byType[typ] == nil {
			byType[typ] = map[string]map[discordgo.Locale]string{}
		}
		byType[typ]["/"+d.Name] = deref(d.NameLocalizations)
		if typ == discordgo.ChatApplicationCommand {
			check(d.Name+".name", deref(d.NameLocalizations), chat)
			check(d.Name+".desc", deref(d.DescriptionLocalizations), text)
			walk(d.Name, d.Options)
			continue
		}
		check(d.Name+".name", deref(d.NameLocalizations), menu)
		if len(deref(d.DescriptionLocalizations)) > 0 {
			add("%s: a context menu command has no description, in any language", d.Name)
		}
	}
	for _, names := range byType {
		unique("commands", names)
	}
	slices.Sort(out)
	return out
}
