package commands

import (
	"context"
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

// guest.go: Gambit installed on a person's account (a user install) and used where
// the bot is not a member: a group DM, a DM between two people, a server that never
// added the bot. There the bot cannot post on its own (Discord answers its REST calls
// 403 Missing Access): everything it shows is the answer to an interaction, or a
// followup within the interaction token's 15 minutes. So a game played there, a guest
// game (storage.Game.Guest), shows its board with each answer; what happens while
// nobody acts (a flag fall in a correspondence game) is shown by the next answer to
// one of its players, and sent by DM to the players who allowed DMs (/notify
// dm_on_turn). A guest game belongs to its players: GuildID is empty, so no server
// sees it, and in a group DM its members see it too.

// Where a command may be installed and invoked, as Discord's integration_types and
// contexts (global commands only: a guild's commands take neither).
var (
	// guildInstall: only where a server added Gambit.
	guildInstall = []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	// bothInstalls: also where a person added Gambit to their account.
	bothInstalls = []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	// everywhere: servers, the bot's DM, and group DMs and DMs between users.
	everywhere = []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	// serversAndBotDM: servers and the bot's DM.
	serversAndBotDM = []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	// serversOnly: servers alone.
	serversOnly = []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
)

// installs returns a fresh copy of a list of integration types for a definition.
func installs(list []discordgo.ApplicationIntegrationType) *[]discordgo.ApplicationIntegrationType {
	out := append([]discordgo.ApplicationIntegrationType(nil), list...)
	return &out
}

// contexts returns a fresh copy of a list of contexts for a definition.
func contexts(list []discordgo.InteractionContextType) *[]discordgo.InteractionContextType {
	out := append([]discordgo.InteractionContextType(nil), list...)
	return &out
}

// IsGuestPlace reports whether an interaction comes from where the bot is not a member:
// a group DM or a DM between users (context 2), or a server whose authorizing
// integration owners do not include a guild install (only the user installed Gambit).
// An interaction that says nothing of its owners (a payload from before they existed)
// is taken as from a server that added the bot.
func IsGuestPlace(i *discordgo.Interaction) bool {
	switch i.Context {
	case discordgo.InteractionContextPrivateChannel:
		return true
	case discordgo.InteractionContextGuild:
		if i.GuildID == "" || len(i.AuthorizingIntegrationOwners) == 0 {
			return false
		}
		_, guild := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
		return !guild
	}
	return false
}

// ServerThing is a Command that belongs to a server that added Gambit (/settings,
// /ladder, /rating): installed on a person's account it can be invoked where the bot is
// not a member, and there it says it is a server thing and does nothing.
type ServerThing interface {
	// ServerThing is a marker.
	ServerThing()
}

// GuardServerThing refuses a ServerThing invoked where the bot is not a member (nil
// otherwise).
func GuardServerThing(c Command, r *Request) error {
	if _, ok := c.(ServerThing); !ok || !r.Guest {
		return nil
	}
	return Errorf("/%s is a server thing: it works in a server that added Gambit, and Gambit is only installed on someone's account here. "+
		"A server's admins add Gambit with its server install link; games (/challenge) work here as they are.", r.Name)
}

// guestOver answers a refusal err of a player's request on g (nil when the request
// found no game): when g is a guest game that ended while nobody acted, with its
// game-over message (guestOverAnswer); otherwise, or when the game cannot be read
// again, with err itself.
func (d *Deps) guestOver(ctx context.Context, r *Request, g *games.Game, err error) (*Response, error) {
	if g == nil || !g.Guest || !errors.Is(err, games.ErrGameOver) {
		return nil, err
	}
	ng, lerr := d.Games.Game(ctx, g.ID)
	if lerr != nil {
		return nil, err
	}
	resp, aerr := d.guestOverAnswer(ctx, r, ng)
	if aerr != nil || resp == nil {
		return nil, err
	}
	return resp, nil
}

// guestOverAnswer answers a player acting on a guest game that ended while nobody
// acted (a flag fall, a timeout): in the game's place, the game-over message for all to
// see, since nothing else showed it there; elsewhere, nil (the usual refusal applies).
func (d *Deps) guestOverAnswer(ctx context.Context, r *Request, g *games.Game) (*Response, error) {
	if !g.Guest || g.Live() || Place(&g.Game) != r.ChannelID {
		return nil, nil
	}
	if _, player := g.ColorOf(r.User.ID); !player {
		return nil, nil
	}
	return d.GameOverMessage(ctx, g, GuestOverNote(g))
}

// GuestOverNote is the note of the game-over message of a guest game that ended while
// nobody acted: whose flag fell, or why the game was called off.
func GuestOverNote(g *games.Game) string {
	switch g.Outcome.Termination {
	case chesscore.TimeForfeit, chesscore.DrawOnTime:
		return FlagFellNote(g.Turn())
	case chesscore.Aborted:
		return NoFirstMovesNote
	}
	return ""
}
