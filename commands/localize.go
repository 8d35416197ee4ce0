package commands

import (
	"fmt"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/i18n"
)

// localize.go: the commands in every shipped language. Discord shows a command's
// name_localizations and description_localizations (and those of its options and
// choices) to a member whose client is in that locale; the English Name stays the
// canonical one, the one interactions carry and the router routes by, and a choice's
// Value never changes. The texts come from the catalog's command files
// (i18n.CommandText), by command path; see textKeys.

// Localize returns a copy of def with the localizations of every shipped language set on
// the command, its subcommands, options and choices, under each Discord locale code the
// language answers ("es-ES" and "es-419"). A text a language lacks is left out (Discord
// then shows the English); missing lists those keys as "<code> <key>", sorted, and the
// tests keep it empty.
func Localize(def *discordgo.ApplicationCommand) (out *discordgo.ApplicationCommand, missing []string) {
	c := *def
	out = &c
	langs := i18n.CommandLanguages()
	get := func(key string) map[discordgo.Locale]string {
		m := map[discordgo.Locale]string{}
		for _, l := range langs {
			s, ok := i18n.CommandText(l.Code, key)
			if !ok {
				missing = append(missing, l.Code+" "+key)
				continue
			}
			for _, code := range l.Discord {
				m[discordgo.Locale(code)] = s
			}
		}
		return m
	}
	names := get(def.Name + ".name")
	out.NameLocalizations = &names
	if commandType(def) == discordgo.ChatApplicationCommand {
		descs := get(def.Name + ".desc")
		out.DescriptionLocalizations = &descs
	}
	out.Options = localizeOptions(def.Name, def.Options, get)
	slices.Sort(missing)
	return out, missing
}

// localizeOptions copies opts (and what they hold) with their localizations set.
func localizeOptions(path string, opts []*discordgo.ApplicationCommandOption, get func(string) map[discordgo.Locale]string) []*discordgo.ApplicationCommandOption {
	if opts == nil {
		return nil
	}
	out := make([]*discordgo.ApplicationCommandOption, len(opts))
	for i, o := range opts {
		c := *o
		p := path + "." + o.Name
		c.NameLocalizations = get(p + ".name")
		c.DescriptionLocalizations = get(p + ".desc")
		if o.Choices != nil {
			c.Choices = make([]*discordgo.ApplicationCommandOptionChoice, len(o.Choices))
			for j, ch := range o.Choices {
				cc := *ch
				cc.NameLocalizations = get(choiceKey(p, ch.Value))
				c.Choices[j] = &cc
			}
		}
		c.Options = localizeOptions(p, o.Options, get)
		out[i] = &c
	}
	return out
}

// choiceKey is the key of a choice's name: its option's path, "choice" and its value.
func choiceKey(optionPath string, value any) string {
	return fmt.Sprintf("%s.choice.%v", optionPath, value)
}

// commandType is a definition's type; Discord takes none for a chat-input command.
func commandType(def *discordgo.ApplicationCommand) discordgo.ApplicationCommandType {
	if def.Type == 0 {
		return discordgo.ChatApplicationCommand
	}
	return def.Type
}

// textKeys lists every command text key of def, the keys each language's command file
// needs: the command's name (and description, for a chat-input command), each option's
// name and description, each choice's name.
func textKeys(def *discordgo.ApplicationCommand) []string {
	keys := []string{def.Name + ".name"}
	if commandType(def) == discordgo.ChatApplicationCommand {
		keys = append(keys, def.Name+".desc")
	}
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			p := path + "." + o.Name
			keys = append(keys, p+".name", p+".desc")
			for _, ch := range o.Choices {
				keys = append(keys, choiceKey(p, ch.Value))
			}
			walk(p, o.Options)
		}
	}
	walk(def.Name, def.Options)
	return keys
}

// TextCoverage counts the command texts every language needs (total: each command's,
// subcommand's, option's and choice's name and description) and how many of them the
// language of code has; README's table of languages is made from it.
func TextCoverage(code string) (translated, total int) {
	for _, c := range All(&Deps{}) {
		for _, k := range textKeys(c.Definition()) {
			total++
			if _, ok := i18n.CommandText(code, k); ok {
				translated++
			}
		}
	}
	return translated, total
}
