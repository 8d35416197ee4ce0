// slashcommands.go: `gambit commands`, the reference of the bot's slash commands,
// generated from their definitions (package commands), for docs/discord.md.

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	slash "github.com/gambitchess/gambit/commands"
)

// Markers around the generated reference in docs/discord.md.
const (
	referenceBegin = "<!-- commands:begin -->"
	referenceEnd   = "<!-- commands:end -->"
)

// runCommands implements `gambit commands [--markdown]`: every slash command the bot
// registers, with its subcommands, as a list, or with --markdown as the reference
// section of docs/discord.md (markers included).
func runCommands(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("commands", stderr)
	markdown := fs.Bool("markdown", false, "print the Markdown reference (options, choices, limits) between the docs/discord.md markers")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	defs, err := slashCommands()
	if err != nil {
		return err
	}
	if *markdown {
		_, err := io.WriteString(stdout, commandReference(defs))
		return err
	}
	var b strings.Builder
	for _, d := range defs {
		fmt.Fprintf(&b, "/%s  %s\n", d.Name, d.Description)
		for _, o := range d.Options {
			if o.Type == optSubCommand || o.Type == optSubCommandGroup {
				fmt.Fprintf(&b, "/%s %s  %s\n", d.Name, o.Name, o.Description)
			}
		}
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// slashCommand is a command as registered with Discord: its definition in the JSON
// of the bulk overwrite, which Discord's API documents (read here as JSON so that only
// the Discord layers import the Discord library).
type slashCommand struct {
	Name                     string        `json:"name"`
	Description              string        `json:"description"`
	DefaultMemberPermissions *string       `json:"default_member_permissions"`
	Options                  []slashOption `json:"options"`
	// IntegrationTypes are the installs that offer it (0 a server's, 1 a person's);
	// Contexts where (0 servers, 1 the bot's DM, 2 group DMs and DMs between users).
	IntegrationTypes []int `json:"integration_types"`
	Contexts         []int `json:"contexts"`
}

// installNames and contextNames name the integration types and contexts, by number.
var (
	installNames = map[int]string{0: "a server's install", 1: "a person's own install"}
	contextNames = map[int]string{0: "servers", 1: "the bot's DM", 2: "private channels (group DMs, DMs between users)"}
)

// availability says where a command is offered, for the reference: "" when its
// definition does not say.
func availability(d slashCommand) string {
	if len(d.IntegrationTypes) == 0 || len(d.Contexts) == 0 {
		return ""
	}
	names := func(ns []int, m map[int]string) string {
		var out []string
		for _, n := range ns {
			out = append(out, m[n])
		}
		switch len(out) {
		case 1:
			return out[0]
		case 2:
			return out[0] + " and " + out[1]
		}
		return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
	}
	return fmt.Sprintf("Offered in %s, with %s.", names(d.Contexts, contextNames), names(d.IntegrationTypes, installNames))
}

// slashOption is an option, subcommand or subcommand group of a slashCommand.
type slashOption struct {
	Type         int           `json:"type"`
	Name         string        `json:"name"`
	Description  string        `json:"description"`
	Required     bool          `json:"required"`
	Autocomplete bool          `json:"autocomplete"`
	Choices      []slashChoice `json:"choices"`
	MinValue     *float64      `json:"min_value"`
	MaxValue     float64       `json:"max_value"`
	MinLength    *int          `json:"min_length"`
	MaxLength    int           `json:"max_length"`
	Options      []slashOption `json:"options"`
}

// slashChoice is a fixed choice of an option.
type slashChoice struct {
	Name string `json:"name"`
}

// Discord's application command option types.
const (
	optSubCommand      = 1
	optSubCommandGroup = 2
)

// optionTypes names the value types, by Discord's numbers.
var optionTypes = map[int]string{3: "text", 4: "integer", 5: "true/false", 6: "user", 7: "channel", 8: "role",
	9: "user or role", 10: "number", 11: "attachment"}

// permissionNames names the permissions a command may be restricted to, by bit.
var permissionNames = map[uint]string{3: "Administrator", 4: "Manage Channels", 5: "Manage Server", 13: "Manage Messages", 28: "Manage Roles"}

// slashCommands returns the definitions of commands.All, the list the bot registers
// (serve.Run leaves /puzzle out when puzzles are off), as Discord receives them.
func slashCommands() ([]slashCommand, error) {
	var defs []slashCommand
	for _, c := range slash.All(&slash.Deps{}) {
		raw, err := json.Marshal(c.Definition())
		if err != nil {
			return nil, fmt.Errorf("encode a command definition: %w", err)
		}
		var d slashCommand
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("read the definition %s: %w", raw, err)
		}
		defs = append(defs, d)
	}
	return defs, nil
}

// commandReference writes the Markdown reference of the commands: a section per command,
// a table of its options, and a section per subcommand.
func commandReference(defs []slashCommand) string {
	var b strings.Builder
	b.WriteString(referenceBegin + "\n")
	b.WriteString("<!-- Generated by `gambit commands --markdown` from the command definitions; do not edit by hand. -->\n")
	for _, d := range defs {
		fmt.Fprintf(&b, "\n### /%s\n\n%s", d.Name, sentence(d.Description))
		if p := d.DefaultMemberPermissions; p != nil {
			fmt.Fprintf(&b, " By default only members with %s see it.", permissions(*p))
		}
		if a := availability(d); a != "" {
			b.WriteString(" " + a)
		}
		b.WriteString("\n")
		writeOptions(&b, "/"+d.Name, d.Options, "####")
	}
	b.WriteString("\n" + referenceEnd + "\n")
	return b.String()
}

// writeOptions writes a table of the value options, then a section (under heading) for
// each subcommand or group, recursively.
func writeOptions(b *strings.Builder, path string, opts []slashOption, heading string) {
	var values, subs []slashOption
	for _, o := range opts {
		if o.Type == optSubCommand || o.Type == optSubCommandGroup {
			subs = append(subs, o)
		} else {
			values = append(values, o)
		}
	}
	if len(values) > 0 {
		b.WriteString("\n| Option | Type | Required | Description |\n|---|---|---|---|\n")
		for _, o := range values {
			req := "no"
			if o.Required {
				req = "yes"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", o.Name, valueType(o), req, cell(o.Description))
		}
	} else if len(subs) == 0 {
		b.WriteString("\nNo options.\n")
	}
	for _, s := range subs {
		sub := path + " " + s.Name
		fmt.Fprintf(b, "\n%s %s\n\n%s\n", heading, sub, sentence(s.Description))
		writeOptions(b, sub, s.Options, heading+"#")
	}
}

// valueType describes an option's value: its type, choices, limits, completion.
func valueType(o slashOption) string {
	t := optionTypes[o.Type]
	if t == "" {
		t = "type " + strconv.Itoa(o.Type)
	}
	var notes []string
	if len(o.Choices) > 0 {
		names := make([]string, len(o.Choices))
		for i, c := range o.Choices {
			names[i] = cell(c.Name)
		}
		notes = append(notes, "one of: "+strings.Join(names, ", "))
	}
	if o.MinValue != nil && o.MaxValue != 0 {
		notes = append(notes, fmt.Sprintf("%g to %g", *o.MinValue, o.MaxValue))
	} else if o.MinValue != nil {
		notes = append(notes, fmt.Sprintf("at least %g", *o.MinValue))
	} else if o.MaxValue != 0 {
		notes = append(notes, fmt.Sprintf("at most %g", o.MaxValue))
	}
	if o.MaxLength > 0 {
		notes = append(notes, fmt.Sprintf("up to %d characters", o.MaxLength))
	}
	if o.Autocomplete {
		notes = append(notes, "completed as you type")
	}
	if len(notes) > 0 {
		t += " (" + strings.Join(notes, "; ") + ")"
	}
	return t
}

// permissions names the permissions of a bit set written in decimal.
func permissions(bits string) string {
	v, err := strconv.ParseUint(bits, 10, 64)
	if err != nil || v == 0 {
		return "permissions " + bits
	}
	var names []string
	for bit := uint(0); bit < 64; bit++ {
		if v&(1<<bit) == 0 {
			continue
		}
		name, ok := permissionNames[bit]
		if !ok {
			name = fmt.Sprintf("permission bit %d", bit)
		}
		names = append(names, "**"+name+"**")
	}
	return strings.Join(names, " and ")
}

// sentence ends a description with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
