package commands

import (
	"cmp"
	"fmt"
	"slices"
)

// registry.go: the commands of the package, each registered by its own file. A file
// that defines a command calls register from an init function with everything the
// package needs to know about it besides the command itself: how to build it, where
// /help (and the registration, and docs/discord.md) lists it, and the structs its
// handlers decode options into. Adding a command is its file and the regenerated
// reference of docs/discord.md and its golden copy:
//
//	go test ./cmd/gambit -run 'TestCommandReferenceGolden|TestDiscordDocHasReference' -update

// registration is one command as its file registers it.
type registration struct {
	// name is the command's name, the one its Definition gives (a test checks).
	name string
	// build returns the command working with d.
	build func(d *Deps) Command
	// topic places the command in /help and in the list of commands.
	topic helpTopic
	// options are the structs its handlers decode options into; nil for a command
	// without options. TestOptionTags checks every tag against the definition.
	options []optionUse
}

// helpTopic places a command in /help: its group, its place in the group (the groups
// come in the order of helpGroups, the commands of a group by order), and one example
// of its use, which names the command's own subcommands and options (a test checks).
type helpTopic struct {
	group   *helpGroup
	order   int
	example string
}

// optionUse is one struct a command's handlers decode options into, and where.
type optionUse struct {
	// subs are the subcommand paths ("ratings", "seed_rating") the struct is decoded
	// under; nil for a command without subcommands; {"*"} for a struct decoded under
	// every subcommand, whose tags each name an option of one of them.
	subs []string
	// decoded is a value of the struct.
	decoded any
}

// registered holds the registrations of the package's files, by name; register fills
// it while the package initialises, and nothing writes it after.
var registered = map[string]registration{}

// register records a command; its file calls it from an init function. A second
// command of the same name is a programming error.
func register(r registration) {
	if r.name == "" || r.build == nil || r.topic.group == nil {
		panic(fmt.Sprintf("commands: registration %q needs a name, a constructor and a help group", r.name))
	}
	if _, dup := registered[r.name]; dup {
		panic(fmt.Sprintf("commands: /%s is registered twice", r.name))
	}
	registered[r.name] = r
}

// registrations returns the registrations in the order commands are listed to users:
// by help group, then by their order in the group, then by name.
func registrations() []registration {
	group := make(map[*helpGroup]int, len(helpGroups))
	for i, g := range helpGroups {
		group[g] = i
	}
	out := make([]registration, 0, len(registered))
	for _, r := range registered {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b registration) int {
		return cmp.Or(cmp.Compare(group[a.topic.group], group[b.topic.group]), cmp.Compare(a.topic.order, b.topic.order), cmp.Compare(a.name, b.name))
	})
	return out
}

// All returns every command, built on d, in the order they are listed to users (in
// /help, in the registration with Discord, in docs/discord.md).
func All(d *Deps) []Command {
	regs := registrations()
	out := make([]Command, len(regs))
	for i, r := range regs {
		out[i] = r.build(d)
	}
	return out
}
