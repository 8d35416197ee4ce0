package discordfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// CommandOverwrite records one bulk overwrite (PUT .../commands).
type CommandOverwrite struct {
	// GuildID is "" for the global commands.
	GuildID string
	Names   []string
	At      time.Time
}

// Commands returns the global commands as last overwritten.
func (f *Fake) Commands() []*discordgo.ApplicationCommand {
	f.mu.Lock()
	defer f.mu.Unlock()
	return copyCommands(f.rest.global)
}

// GuildCommands returns a guild's commands as last overwritten.
func (f *Fake) GuildCommands(guildID string) []*discordgo.ApplicationCommand {
	f.mu.Lock()
	defer f.mu.Unlock()
	return copyCommands(f.rest.guildCmds[guildID])
}

// Overwrites returns every accepted bulk overwrite, in order.
func (f *Fake) Overwrites() []CommandOverwrite {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]CommandOverwrite(nil), f.rest.overwrites...)
}

func copyCommands(cmds []*discordgo.ApplicationCommand) []*discordgo.ApplicationCommand {
	out := make([]*discordgo.ApplicationCommand, len(cmds))
	for i, c := range cmds {
		cc := *c
		out[i] = &cc
	}
	return out
}

// commandLocked finds a registered command by type and name, guild first: its
// canonical name, or the name it has in the member's locale loc (a member
// picks a command in their language; the interaction still names it
// canonically).
func (f *Fake) commandLocked(guildID, name string, typ discordgo.ApplicationCommandType, loc discordgo.Locale) *discordgo.ApplicationCommand {
	for _, list := range [][]*discordgo.ApplicationCommand{f.rest.guildCmds[guildID], f.rest.global} {
		for _, c := range list {
			if (c.Name == name || (loc != "" && deref(c.NameLocalizations)[loc] == name)) && commandType(c) == typ {
				return c
			}
		}
	}
	return nil
}

func commandType(c *discordgo.ApplicationCommand) discordgo.ApplicationCommandType {
	if c.Type == 0 {
		return discordgo.ChatApplicationCommand
	}
	return c.Type
}

func (f *Fake) getCommands(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("app") != f.AppID {
		fail(w, http.StatusForbidden, 50001, "Missing Access")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	gid := r.PathValue("guild")
	list := f.rest.global
	if gid != "" {
		if f.guildLocked(gid) == nil {
			fail(w, http.StatusForbidden, 50001, "Missing Access")
			return
		}
		list = f.rest.guildCmds[gid]
	}
	if list == nil {
		list = []*discordgo.ApplicationCommand{}
	}
	writeJSON(w, http.StatusOK, list)
}

func (f *Fake) putCommands(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("app") != f.AppID {
		fail(w, http.StatusForbidden, 50001, "Missing Access")
		return
	}
	raw, _, err := readBody(r)
	var cmds []*discordgo.ApplicationCommand
	var handlers []struct {
		Handler int `json:"handler"`
	}
	if err == nil {
		err = json.Unmarshal(raw, &cmds)
	}
	if err == nil {
		err = json.Unmarshal(raw, &handlers)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: decode commands: "+errText(err))
		return
	}
	gid := r.PathValue("guild")
	hs := make([]int, len(handlers))
	for i, h := range handlers {
		hs[i] = h.Handler
	}
	if e := checkCommands(cmds, hs, gid != ""); !e.empty() {
		failForm(w, e)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if gid != "" && f.guildLocked(gid) == nil {
		fail(w, http.StatusForbidden, 50001, "Missing Access")
		return
	}
	names := make([]string, len(cmds))
	for i, c := range cmds {
		key := fmt.Sprintf("%s/%d/%s", gid, commandType(c), c.Name)
		id, ok := f.rest.commandIDs[key]
		if !ok {
			id = f.ids.next()
			f.rest.commandIDs[key] = id
		}
		c.ID, c.ApplicationID, c.GuildID, c.Version = id, f.AppID, gid, f.ids.next()
		c.Type = commandType(c)
		names[i] = c.Name
		if c.Type == EntryPointCommandType {
			f.rest.entryHandler = hs[i]
		}
	}
	if gid == "" {
		f.rest.global = cmds
	} else {
		f.rest.guildCmds[gid] = cmds
	}
	f.rest.overwrites = append(f.rest.overwrites, CommandOverwrite{GuildID: gid, Names: names, At: time.Now()})
	f.notifyLocked()
	writeJSON(w, http.StatusOK, cmds)
}

// chatName is the pattern Discord documents for command and option names.
var chatName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// EntryPointCommandType is the application command type of an app's entry point
// (PRIMARY_ENTRY_POINT), which discordgo v0.29.0 does not name.
const EntryPointCommandType discordgo.ApplicationCommandType = 4

// Limits of one bulk overwrite, as Discord documents them.
const (
	maxChatCommands    = 100
	maxUserCommands    = 15
	maxMessageCommands = 15
)

// EntryPoint returns the global entry point command as last overwritten and its
// handler (1 the app's, 2 Discord's launch of the Activity).
func (f *Fake) EntryPoint() (cmd *discordgo.ApplicationCommand, handler int, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.rest.global {
		if c.Type == EntryPointCommandType {
			cc := *c
			return &cc, f.rest.entryHandler, true
		}
	}
	return nil, 0, false
}

// checkCommands checks a bulk overwrite the way Discord does. handlers are the
// commands' handler fields (0 when absent); inGuild: a guild's overwrite, where
// integration_types, contexts and an entry point are refused.
func checkCommands(cmds []*discordgo.ApplicationCommand, handlers []int, inGuild bool) *formErrors {
	e := &formErrors{}
	perType := map[discordgo.ApplicationCommandType]int{}
	seen := map[string]bool{}
	for i, c := range cmds {
		p := fmt.Sprintf("%d.", i)
		if c == nil {
			e.add(fmt.Sprint(i), "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		typ := commandType(c)
		perType[typ]++
		key := fmt.Sprintf("%d/%s", typ, c.Name)
		if seen[key] {
			e.add(p+"name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
		}
		seen[key] = true
		checkInstalls(e, p, c, inGuild)
		if typ != EntryPointCommandType && handlers[i] != 0 {
			e.add(p+"handler", "APPLICATION_COMMAND_HANDLER_INVALID", "Only entry point commands have a handler")
		}
		switch typ {
		case EntryPointCommandType:
			if inGuild {
				e.add(p+"type", "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_GUILD", "Entry point commands can only be global")
			}
			checkLen(e, p+"name", c.Name, 1, 32)
			checkLen(e, p+"description", c.Description, 1, 100)
			if len(c.Options) > 0 {
				e.add(p+"options", "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_OPTIONS", "Entry point commands cannot have options")
			}
			if h := handlers[i]; h != 1 && h != 2 {
				e.add(p+"handler", "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
			}
		case discordgo.ChatApplicationCommand:
			checkChatName(e, p+"name", c.Name)
			checkLen(e, p+"description", c.Description, 1, 100)
			checkCommandNameLocalizations(e, p+"name_localizations", deref(c.NameLocalizations), true)
			checkTextLocalizations(e, p+"description_localizations", deref(c.DescriptionLocalizations), 1, 100)
			checkOptions(e, p+"options", c.Options, 0)
		case discordgo.UserApplicationCommand, discordgo.MessageApplicationCommand:
			checkLen(e, p+"name", c.Name, 1, 32)
			checkCommandNameLocalizations(e, p+"name_localizations", deref(c.NameLocalizations), false)
			if c.Description != "" || len(deref(c.DescriptionLocalizations)) > 0 {
				e.add(p+"description", "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION", "Context menu commands cannot have a description")
			}
			if len(c.Options) > 0 {
				e.add(p+"options", "APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS", "Context menu commands cannot have options")
			}
		default:
			e.add(p+"type", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
		}
	}
	if perType[discordgo.ChatApplicationCommand] > maxChatCommands {
		e.add("_", "APPLICATION_COMMANDS_TOO_MANY", "At most %d chat input commands", maxChatCommands)
	}
	if perType[discordgo.UserApplicationCommand] > maxUserCommands || perType[discordgo.MessageApplicationCommand] > maxMessageCommands {
		e.add("_", "APPLICATION_COMMANDS_TOO_MANY", "At most %d user and %d message commands", maxUserCommands, maxMessageCommands)
	}
	if perType[EntryPointCommandType] > 1 {
		e.add("_", "APPLICATION_COMMANDS_TOO_MANY", "At most one entry point command")
	}
	return e
}

// checkInstalls checks a command's integration_types (0 guild install, 1 user install)
// and contexts (0 guild, 1 the bot's DM, 2 private channels): known values, and only in
// a global overwrite.
func checkInstalls(e *formErrors, p string, c *discordgo.ApplicationCommand, inGuild bool) {
	if it := c.IntegrationTypes; it != nil {
		if inGuild {
			e.add(p+"integration_types", "APPLICATION_COMMAND_GLOBAL_ONLY", "integration_types can only be set on global commands")
		}
		for j, v := range *it {
			if v > discordgo.ApplicationIntegrationUserInstall {
				e.add(fmt.Sprintf("%sintegration_types.%d", p, j), "BASE_TYPE_CHOICES", "Value must be one of {0, 1}.")
			}
		}
	}
	if cs := c.Contexts; cs != nil {
		if inGuild {
			e.add(p+"contexts", "APPLICATION_COMMAND_GLOBAL_ONLY", "contexts can only be set on global commands")
		}
		for j, v := range *cs {
			if v > discordgo.InteractionContextPrivateChannel {
				e.add(fmt.Sprintf("%scontexts.%d", p, j), "BASE_TYPE_CHOICES", "Value must be one of {0, 1, 2}.")
			}
		}
	}
}

func checkChatName(e *formErrors, path, name string) {
	if !chatName.MatchString(name) {
		e.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name %q is invalid", name)
	} else if strings.ToLower(name) != name {
		e.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name %q must be lowercase", name)
	}
}

// checkOptions checks options at a nesting depth: 0 under a command, 1
// under a subcommand group, 2 under a subcommand.
func checkOptions(e *formErrors, path string, opts []*discordgo.ApplicationCommandOption, depth int) {
	if len(opts) > 25 {
		e.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	seen := map[string]bool{}
	seenLocalized := map[discordgo.Locale]map[string]bool{}
	optional := false
	subs, plain := 0, 0
	for i, o := range opts {
		p := fmt.Sprintf("%s.%d.", path, i)
		if o == nil {
			e.add(p[:len(p)-1], "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		checkChatName(e, p+"name", o.Name)
		checkLen(e, p+"description", o.Description, 1, 100)
		if seen[o.Name] {
			e.add(p+"name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		seen[o.Name] = true
		checkOptionNameLocalizations(e, p+"name_localizations", o.NameLocalizations)
		checkTextLocalizations(e, p+"description_localizations", o.DescriptionLocalizations, 1, 100)
		for loc, name := range o.NameLocalizations {
			if seenLocalized[loc] == nil {
				seenLocalized[loc] = map[string]bool{}
			}
			if seenLocalized[loc][name] {
				e.add(p+"name_localizations."+string(loc), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
			}
			seenLocalized[loc][name] = true
		}
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommandGroup:
			subs++
			if depth != 0 {
				e.add(p+"type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Subcommand groups can only be at the top level")
			}
			for j, s := range o.Options {
				if s != nil && s.Type != discordgo.ApplicationCommandOptionSubCommand {
					e.add(fmt.Sprintf("%soptions.%d.type", p, j), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "A subcommand group holds only subcommands")
				}
			}
			checkOptions(e, p+"options", o.Options, 1)
		case discordgo.ApplicationCommandOptionSubCommand:
			subs++
			if depth > 1 {
				e.add(p+"type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Subcommands cannot nest")
			}
			checkOptions(e, p+"options", o.Options, 2)
		case discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionInteger,
			discordgo.ApplicationCommandOptionBoolean, discordgo.ApplicationCommandOptionUser,
			discordgo.ApplicationCommandOptionChannel, discordgo.ApplicationCommandOptionRole,
			discordgo.ApplicationCommandOptionMentionable, discordgo.ApplicationCommandOptionNumber,
			discordgo.ApplicationCommandOptionAttachment:
			plain++
			if o.Required && optional {
				e.add(p+"required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
			}
			if !o.Required {
				optional = true
			}
			if len(o.Options) > 0 {
				e.add(p+"options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Only subcommands and groups have options")
			}
			checkOptionValues(e, p, o)
		default:
			e.add(p+"type", "BASE_TYPE_CHOICES", "Value %d is not a valid option type.", o.Type)
		}
	}
	if subs > 0 && plain > 0 {
		e.add(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands cannot be mixed with other options")
	}
}

func checkOptionValues(e *formErrors, p string, o *discordgo.ApplicationCommandOption) {
	if len(o.Choices) > 25 {
		e.add(p+"choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	if len(o.Choices) > 0 && o.Autocomplete {
		e.add(p+"autocomplete", "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID", "Autocomplete cannot be used with choices")
	}
	if (len(o.Choices) > 0 || o.Autocomplete) && o.Type != discordgo.ApplicationCommandOptionString &&
		o.Type != discordgo.ApplicationCommandOptionInteger && o.Type != discordgo.ApplicationCommandOptionNumber {
		e.add(p+"choices", "APPLICATION_COMMAND_OPTION_CHOICES_INVALID", "Only string, integer and number options have choices")
	}
	for j, ch := range o.Choices {
		cp := fmt.Sprintf("%schoices.%d.", p, j)
		if ch == nil {
			continue
		}
		checkLen(e, cp+"name", ch.Name, 1, 100)
		checkTextLocalizations(e, cp+"name_localizations", ch.NameLocalizations, 1, 100)
		switch v := ch.Value.(type) {
		case string:
			if o.Type != discordgo.ApplicationCommandOptionString {
				e.add(cp+"value", "BASE_TYPE_INVALID", "Choice value must match the option type")
			}
			checkLen(e, cp+"value", v, 1, 100)
		case float64:
			if o.Type == discordgo.ApplicationCommandOptionString || (o.Type == discordgo.ApplicationCommandOptionInteger && v != float64(int64(v))) {
				e.add(cp+"value", "BASE_TYPE_INVALID", "Choice value must match the option type")
			}
		default:
			e.add(cp+"value", "BASE_TYPE_INVALID", "Choice value must match the option type")
		}
	}
	if o.MinValue != nil && o.MaxValue != 0 && *o.MinValue > o.MaxValue {
		e.add(p+"min_value", "NUMBER_TYPE_MAX", "min_value must not exceed max_value")
	}
	if o.MaxLength != 0 && (o.MaxLength < 1 || o.MaxLength > 6000) {
		e.add(p+"max_length", "NUMBER_TYPE_MAX", "Must be between 1 and 6000.")
	}
	if o.MinLength != nil && (*o.MinLength < 0 || *o.MinLength > 6000) {
		e.add(p+"min_length", "NUMBER_TYPE_MAX", "Must be between 0 and 6000.")
	}
}

// The localizations of names and descriptions (name_localizations,
// description_localizations): keyed by Discord's locale codes only, each text
// within the limits of the field it translates. Discord reports a bad localized
// command name on the whole name_localizations field, and a bad option name,
// description or choice name on its locale.

func deref(m *map[discordgo.Locale]string) map[discordgo.Locale]string {
	if m == nil {
		return nil
	}
	return *m
}

// checkLocale reports a key that is not one of Discord's locale codes; it
// returns whether the key is one.
func checkLocale(e *formErrors, path string, loc discordgo.Locale) bool {
	if _, ok := discordgo.Locales[loc]; ok && loc != discordgo.Unknown {
		return true
	}
	e.add(path+"."+string(loc), "BASE_TYPE_CHOICES", "Value must be one of Discord's locales.")
	return false
}

// checkCommandNameLocalizations checks a command's localized names: a
// chat-input command's like its name (the pattern, lowercase), a context
// menu's 1 to 32 characters of any kind.
func checkCommandNameLocalizations(e *formErrors, path string, m map[discordgo.Locale]string, chat bool) {
	bad := false
	for _, loc := range sortedLocales(m) {
		if !checkLocale(e, path, loc) {
			continue
		}
		name := m[loc]
		if chat && (!chatName.MatchString(name) || strings.ToLower(name) != name) {
			bad = true
		}
		if !chat && (runes(name) < 1 || runes(name) > 32) {
			bad = true
		}
	}
	if bad {
		e.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
	}
}

// checkOptionNameLocalizations checks an option's localized names, each on its
// locale.
func checkOptionNameLocalizations(e *formErrors, path string, m map[discordgo.Locale]string) {
	for _, loc := range sortedLocales(m) {
		if checkLocale(e, path, loc) {
			checkChatName(e, path+"."+string(loc), m[loc])
		}
	}
}

// checkTextLocalizations checks localized descriptions or choice names.
func checkTextLocalizations(e *formErrors, path string, m map[discordgo.Locale]string, min, max int) {
	for _, loc := range sortedLocales(m) {
		if checkLocale(e, path, loc) {
			checkLen(e, path+"."+string(loc), m[loc], min, max)
		}
	}
}

func sortedLocales(m map[discordgo.Locale]string) []discordgo.Locale {
	out := make([]discordgo.Locale, 0, len(m))
	for loc := range m {
		out = append(out, loc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
