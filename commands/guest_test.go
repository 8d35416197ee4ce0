package commands

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/storage"
)

func TestIsGuestPlace(t *testing.T) {
	owners := func(kv ...string) map[discordgo.ApplicationIntegrationType]string {
		m := map[discordgo.ApplicationIntegrationType]string{}
		for i := 0; i < len(kv); i += 2 {
			k := discordgo.ApplicationIntegrationGuildInstall
			if kv[i] == "1" {
				k = discordgo.ApplicationIntegrationUserInstall
			}
			m[k] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name string
		i    discordgo.Interaction
		want bool
	}{
		{"a server that added the bot", discordgo.Interaction{GuildID: "g", Context: discordgo.InteractionContextGuild, AuthorizingIntegrationOwners: owners("0", "g")}, false},
		{"a server that added the bot, the user too", discordgo.Interaction{GuildID: "g", Context: discordgo.InteractionContextGuild, AuthorizingIntegrationOwners: owners("0", "g", "1", "u")}, false},
		{"a server without the bot", discordgo.Interaction{GuildID: "g", Context: discordgo.InteractionContextGuild, AuthorizingIntegrationOwners: owners("1", "u")}, true},
		{"a payload without owners", discordgo.Interaction{GuildID: "g", Context: discordgo.InteractionContextGuild}, false},
		{"the bot's DM", discordgo.Interaction{Context: discordgo.InteractionContextBotDM, AuthorizingIntegrationOwners: owners("1", "u")}, false},
		{"a group DM", discordgo.Interaction{Context: discordgo.InteractionContextPrivateChannel, AuthorizingIntegrationOwners: owners("1", "u")}, true},
	} {
		if got := IsGuestPlace(&tc.i); got != tc.want {
			t.Errorf("%s: IsGuestPlace = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Who sees a guest game: its players anywhere, the members of its group DM there, and
// nobody from a server (the one it was played in, without the bot, included).
func TestCanSeeGuestGame(t *testing.T) {
	g := &storage.Game{ChannelID: "gdm", Guest: true,
		White: storage.Player{ID: "w", Name: "W"}, Black: storage.Player{ID: "b", Name: "B"}}
	req := func(user, guild, channel string, ctx discordgo.InteractionContextType, guest bool) *Request {
		return &Request{User: &discordgo.User{ID: user}, GuildID: guild, ChannelID: channel, Guest: guest,
			Interaction: &discordgo.Interaction{Context: ctx}}
	}
	for _, tc := range []struct {
		name string
		r    *Request
		want bool
	}{
		{"a player in the bot's DM", req("w", "", "dm", discordgo.InteractionContextBotDM, false), true},
		{"a player in a server", req("b", "g", "c", discordgo.InteractionContextGuild, false), true},
		{"a member of the group DM there", req("m", "", "gdm", discordgo.InteractionContextPrivateChannel, true), true},
		{"someone in another group DM", req("m", "", "other", discordgo.InteractionContextPrivateChannel, true), false},
		{"someone in a server's channel of that id", req("m", "g", "gdm", discordgo.InteractionContextGuild, false), false},
		{"someone in a server without the bot", req("m", "", "gdm", discordgo.InteractionContextGuild, true), false},
		{"someone in a server with no guild", req("m", "", "c", discordgo.InteractionContextGuild, false), false},
	} {
		if got := CanSee(g, tc.r); got != tc.want {
			t.Errorf("%s: CanSee = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestGuardServerThing(t *testing.T) {
	d := &Deps{}
	guest := &Request{Name: "settings", Guest: true}
	if err := GuardServerThing(NewRating(d), guest); err == nil || !strings.Contains(UserMessage(err), "server thing") {
		t.Errorf("a server thing where the bot is not a member: %v", err)
	}
	if err := GuardServerThing(NewRating(d), &Request{Name: "rating", GuildID: "g"}); err != nil {
		t.Errorf("a server thing in a server: %v", err)
	}
	if err := GuardServerThing(NewChallenge(d), guest); err != nil {
		t.Errorf("/challenge where the bot is not a member: %v", err)
	}
}

// Every command a user install offers declares both installs; a server thing is
// offered in servers alone; the definitions are copies (a change to one does not
// reach another).
func TestCommandInstalls(t *testing.T) {
	for _, c := range append(All(&Deps{}), UserMenus(&Deps{})...) {
		def := c.Definition()
		if def.IntegrationTypes == nil || def.Contexts == nil {
			t.Errorf("%s declares no integration types or contexts", def.Name)
			continue
		}
		if _, ok := c.(ServerThing); ok && (len(*def.Contexts) != 1 || (*def.Contexts)[0] != discordgo.InteractionContextGuild) {
			t.Errorf("%s is a server thing offered in contexts %v", def.Name, *def.Contexts)
		}
	}
	a, b := NewChallenge(&Deps{}).Definition(), NewChallenge(&Deps{}).Definition()
	(*a.Contexts)[0] = discordgo.InteractionContextBotDM
	if (*b.Contexts)[0] != discordgo.InteractionContextGuild {
		t.Error("two definitions share their contexts")
	}
}
