package commands

import (
	"context"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"
)

// InteractionDeadline is how long Discord waits for the first answer to an interaction.
const InteractionDeadline = 3 * time.Second

// Request is one interaction as a handler sees it. The router fills it in.
type Request struct {
	// Interaction is the interaction as received.
	Interaction *discordgo.Interaction
	// GuildID is "" in a direct message, and where the bot is not a member (Guest).
	// ChannelID is where the interaction happened (a thread's own ID inside a thread).
	GuildID, ChannelID string
	// Guest: the interaction comes from where the bot is not a member and cannot post
	// (IsGuestPlace): a group DM, a DM between users, or a server that never added
	// Gambit, reached through a person's install of Gambit on their account.
	Guest bool
	// User is who acted.
	User *discordgo.User
	// Permissions are the member's permissions in the channel (0 in a DM).
	Permissions int64
	// Received is when the bot received the interaction; Deadline is when Discord
	// stops accepting a first answer.
	Received, Deadline time.Time

	// Name is the command name (commands and autocomplete) or the custom ID's route
	// (components and modals).
	Name string
	// Sub is the subcommand invoked, "" for none ("group sub" for a group).
	Sub string
	// Options are the options of the command, or of the subcommand when there is one.
	Options []*discordgo.ApplicationCommandInteractionDataOption
	// Resolved holds the users and channels the options name.
	Resolved *discordgo.ApplicationCommandInteractionDataResolved
	// Focused is the option being typed, for autocomplete.
	Focused *discordgo.ApplicationCommandInteractionDataOption
	// TargetID is the user (or message) a context menu command was used on.
	TargetID string

	// ID is the parsed custom ID of a component or modal.
	ID CustomID
	// Values are the chosen values of a select menu.
	Values []string
	// Fields are the text inputs of a modal, by custom ID.
	Fields map[string]string
	// Message is the message carrying the component (nil otherwise).
	Message *discordgo.Message

	// Log carries the guild, user and command; handlers add the game.
	Log *slog.Logger
	// Responder lets a middleware acknowledge the interaction before the answer is
	// ready. The router sets it.
	Responder Responder
	// Private is set by the router when the command says its answer will be private
	// (PrivateAnswerer): a deferral is then private too.
	Private bool
}

// Responder acknowledges an interaction early.
type Responder interface {
	// Defer acknowledges the interaction now (Discord shows "thinking..." for a
	// command, only to the user when private is set; nothing for a component); the
	// Response is delivered later.
	Defer(ctx context.Context, private bool) error
	// Deferred reports whether Defer succeeded.
	Deferred() bool
}

// IsComponent reports whether the request comes from a component or a modal.
func (r *Request) IsComponent() bool {
	if r.Interaction == nil {
		return false
	}
	t := r.Interaction.Type
	return t == discordgo.InteractionMessageComponent || t == discordgo.InteractionModalSubmit
}

// IsAutocomplete reports whether the request is an autocomplete request.
func (r *Request) IsAutocomplete() bool {
	return r.Interaction != nil && r.Interaction.Type == discordgo.InteractionApplicationCommandAutocomplete
}

// Mention returns the mention markup of a user ID.
func Mention(userID string) string { return "<@" + userID + ">" }

// RoleMention returns the mention markup of a role ID.
func RoleMention(roleID string) string { return "<@&" + roleID + ">" }
