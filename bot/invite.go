// invite.go: the OAuth2 scopes and channel permissions the bot needs, and its invite URL.

package bot

import (
	"net/url"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// inviteScopes are the OAuth2 scopes of the invite: bot joins the server as a member (to
// post boards, results and the daily puzzle), applications.commands lets it own the
// slash commands.
const inviteScopes = "bot applications.commands"

// neededPermissions lists every channel permission the bot uses, each with what it is
// for. The invite asks for exactly these; docs/discord.md shows the same table.
var neededPermissions = []struct {
	Name string
	Bit  int64
	Why  string
}{
	// Without it the channels (and the threads under them) do not exist for the bot.
	{"View Channels", discordgo.PermissionViewChannel, "see the channels games are played in"},
	// The notifier's posts in a channel: the challenge board when a guild has no thread
	// per game, results, tournament pairings and standings, the daily puzzle.
	{"Send Messages", discordgo.PermissionSendMessages, "post boards, results, pairings and the daily puzzle"},
	// Game-over posts carry an analysis link, whose preview Discord shows only with it.
	{"Embed Links", discordgo.PermissionEmbedLinks, "show the preview of the analysis links it posts"},
	// Every board is an image (board.png), a finished game's PGN a file, the replay a GIF.
	{"Attach Files", discordgo.PermissionAttachFiles, "attach board images, PGN files and replays"},
	// A game's thread is started from the challenge message (POST
	// channels/{channel}/messages/{message}/threads), which the bot must be able to read.
	{"Read Message History", discordgo.PermissionReadMessageHistory, "start a game's thread from the challenge message"},
	// REST StartThread: a public thread per game (settings threads: true, the default).
	{"Create Public Threads", discordgo.PermissionCreatePublicThreads, "open a thread for each game"},
	// After the first post, a game's boards and results go to its thread.
	{"Send Messages in Threads", discordgo.PermissionSendMessagesInThreads, "post the moves and the result in the game's thread"},
	// A tournament with a planned start is announced as a scheduled event of the server
	// (POST guilds/{guild}/scheduled-events), moved on as the tournament is.
	{"Manage Events", discordgo.PermissionManageEvents, "announce tournaments in the server's events"},
}

// Permissions returns the permissions integer of the invite: the bits of neededPermissions.
func Permissions() int64 {
	var p int64
	for _, n := range neededPermissions {
		p |= n.Bit
	}
	return p
}

// InviteURL returns the URL that adds the application to a server (the guild install,
// integration_type 0) with the scopes and permissions the bot needs.
func InviteURL(appID string) string {
	q := url.Values{}
	q.Set("client_id", appID)
	q.Set("integration_type", "0")
	q.Set("scope", inviteScopes)
	q.Set("permissions", strconv.FormatInt(Permissions(), 10))
	return "https://discord.com/oauth2/authorize?" + q.Encode()
}

// userInstallScopes are the OAuth2 scopes of the user install: the commands alone (the
// bot joins nothing; where it is not a member it answers interactions only).
const userInstallScopes = "applications.commands"

// UserInstallURL returns the URL with which a person adds the application to their own
// account (the user install, integration_type 1): its commands then work in their
// DMs, group DMs and servers that never added the bot.
func UserInstallURL(appID string) string {
	q := url.Values{}
	q.Set("client_id", appID)
	q.Set("integration_type", "1")
	q.Set("scope", userInstallScopes)
	return "https://discord.com/oauth2/authorize?" + q.Encode()
}
