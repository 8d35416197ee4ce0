// Package commands holds Gambit's slash commands, one file per command with its
// definition beside its handler, and the small vocabulary they share: Request,
// Response, Handler, typed options and custom IDs.
//
// Handlers are functions from a Request to a Response: they never call Discord
// themselves. The router in package bot decodes the interaction, runs the handler
// through its middlewares (recover, logging, metrics, per-user limits, defer when
// slow) and sends the Response, so every answer goes out the same way: errors
// ephemeral, mentions limited to what the handler names.
//
// Adding a command is one file: a type that implements Command (and, if it needs them,
// Autocompleter and Componenter), and an init function that registers it with its /help
// topic and its option structs (registry.go); then the reference in docs/discord.md is
// regenerated.
package commands

import (
	"context"

	"github.com/bwmarrin/discordgo"
)

// Handler answers one interaction.
type Handler func(ctx context.Context, r *Request) (*Response, error)

// Middleware wraps a Handler.
type Middleware func(Handler) Handler

// Command is one slash command: its definition and the handler of its invocations.
type Command interface {
	// Definition is the command as registered with Discord.
	Definition() *discordgo.ApplicationCommand
	// Handle answers an invocation.
	Handle(ctx context.Context, r *Request) (*Response, error)
}

// Autocompleter is a Command that completes the option being typed.
type Autocompleter interface {
	// Autocomplete returns at most 25 choices for r.Focused.
	Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error)
}

// PrivateAnswerer is a Command whose answer to some of its invocations is private
// (ephemeral) whatever it turns out to say, such as /puzzle solve. When such an
// answer is slow and must be deferred, the deferral is private from the start, so
// nobody else sees even a "thinking..." placeholder.
type PrivateAnswerer interface {
	// AnswersPrivately reports whether the answer to r will be private.
	AnswersPrivately(r *Request) bool
}

// Indexer is a Command that lists the other commands, such as /help: the router gives
// it the commands it registered (itself included), once, before it serves anything.
type Indexer interface {
	Index(registered []Command)
}

// Componenter is a Command that also answers components (buttons, select menus,
// modals). Components maps routes, "<kind>/<action>" as CustomID.Route gives
// them, to their handlers; a route belongs to one command.
type Componenter interface {
	Components() map[string]Handler
}
