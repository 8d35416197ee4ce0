// The Activity's launch as Discord's API has it and discordgo v0.29.0 does not: the
// entry point command (application command type 4, with its handler) and the
// LAUNCH_ACTIVITY interaction response (type 12); and the commands as the bulk overwrite
// sends them.
package bot

import (
	"github.com/bwmarrin/discordgo"
)

// Discord's values discordgo lacks.
const (
	// PrimaryEntryPointCommand is the application command type of an app's entry
	// point: the command the App Launcher shows, which opens the app's Activity. An app
	// has at most one, and only among its global commands.
	PrimaryEntryPointCommand discordgo.ApplicationCommandType = 4
	// InteractionResponseLaunchActivity answers an interaction by opening the app's
	// Activity for the user who acted (no data).
	InteractionResponseLaunchActivity discordgo.InteractionResponseType = 12
)

// EntryPointHandler is who answers an invocation of the entry point command.
type EntryPointHandler int

const (
	// EntryPointAppHandler: the app receives the interaction and answers it (with
	// InteractionResponseLaunchActivity to open the Activity).
	EntryPointAppHandler EntryPointHandler = 1
	// EntryPointDiscordLaunchActivity: Discord opens the Activity itself and posts a
	// message saying so; the app receives nothing.
	EntryPointDiscordLaunchActivity EntryPointHandler = 2
)

// CommandDefinition is a command as the bulk overwrite sends it: discordgo's
// definition, and for the entry point command its handler.
type CommandDefinition struct {
	*discordgo.ApplicationCommand
	// Handler is set on the entry point command only.
	Handler EntryPointHandler `json:"handler,omitempty"`
}

// EntryPointName is the name of Gambit's entry point command.
const EntryPointName = "launch"

// EntryPointCommand is Gambit's entry point command: "launch" in the App Launcher
// opens the Activity, everywhere the app is installed (servers, the bot's DM, group
// DMs), Discord handling the launch.
func EntryPointCommand() CommandDefinition {
	return CommandDefinition{
		ApplicationCommand: &discordgo.ApplicationCommand{
			Type:        PrimaryEntryPointCommand,
			Name:        EntryPointName,
			Description: "Open Gambit's board inside Discord (the Activity)",
			IntegrationTypes: &[]discordgo.ApplicationIntegrationType{
				discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall,
			},
			Contexts: &[]discordgo.InteractionContextType{
				discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel,
			},
		},
		Handler: EntryPointDiscordLaunchActivity,
	}
}

// overwriteDefinitions are the commands one bulk overwrite sends. Globally (guildID
// ""): defs as they are, and the entry point when the Activity is on (Discord refuses a
// global overwrite that would drop the entry point of an app whose Activity is
// enabled). In a guild: no entry point (Discord refuses one there), and defs without
// integration_types and contexts, which only global commands take.
func overwriteDefinitions(defs []*discordgo.ApplicationCommand, guildID string, activity bool) []CommandDefinition {
	out := make([]CommandDefinition, 0, len(defs)+1)
	for _, d := range defs {
		if guildID != "" {
			c := *d
			c.IntegrationTypes, c.Contexts = nil, nil
			d = &c
		}
		out = append(out, CommandDefinition{ApplicationCommand: d})
	}
	if guildID == "" && activity {
		out = append(out, EntryPointCommand())
	}
	return out
}
