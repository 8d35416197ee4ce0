package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
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

// A guest challenge's buttons answer in its own channel only: from a server (even with
// a crafted custom ID), another group DM or a DM with the bot it is a missing challenge,
// and nothing changes.
func TestGuestChallengeButtonsAnswerInTheirChannel(t *testing.T) {
	ctx := context.Background()
	d := visibilityDeps(t, false)
	res, err := d.Games.CreateChallenge(ctx, games.ChallengeRequest{RequestID: "gc", ChannelID: "gdm", From: alice, Control: "5+3", Guest: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := handlers(d)
	guestAt := func(a asker, channel string) *Request {
		id := NewCustomID("challenge", res.Challenge.ID, 0, "accept")
		r := a.request("", &id)
		r.ChannelID, r.GuildID, r.Guest = channel, "", true
		r.Interaction.Context = discordgo.InteractionContextPrivateChannel
		return r
	}
	missing := NewCustomID("challenge", res.Challenge.ID+100, 0, "accept")
	_, missingErr := hs["challenge/accept"](ctx, memberInGuild.request("", &missing))
	for name, r := range map[string]*Request{
		"from a server": func() *Request {
			id := NewCustomID("challenge", res.Challenge.ID, 0, "accept")
			return memberInGuild.request("", &id)
		}(),
		"from the bot's DM": func() *Request {
			id := NewCustomID("challenge", res.Challenge.ID, 0, "accept")
			return outsiderInDM.request("", &id)
		}(),
		"from another group": guestAt(playerInDM, "other-gdm"),
	} {
		if _, err := hs["challenge/accept"](ctx, r); err == nil || UserMessage(err) != UserMessage(missingErr) {
			t.Errorf("%s: %v, want the answer for a missing challenge (%v)", name, err, missingErr)
		}
	}
	if c, err := d.Games.Challenge(ctx, res.Challenge.ID); err != nil || c.Status != storage.ChallengePending {
		t.Fatalf("the challenge is %v (%v)", c.Status, err)
	}
	resp, err := hs["challenge/accept"](ctx, guestAt(asker{"bob in the group DM", bob.ID, "", "gdm", true}, "gdm"))
	if err != nil || resp.Kind != UpdateMessage || len(resp.Files) == 0 || !strings.Contains(resp.Content, "accepted") {
		t.Fatalf("accepting in the group DM: %+v, %v; want the first board", resp, err)
	}
}

// The challenge menu's choice is checked: a time control it did not offer is refused,
// and so is a choice where no game can be played; nothing is created.
func TestChallengeMenuRefusesWhatItDidNotOffer(t *testing.T) {
	ctx := context.Background()
	d := visibilityDeps(t, false)
	var h Handler
	for _, c := range UserMenus(d) {
		if cp, ok := c.(Componenter); ok {
			h = cp.Components()["usermenu/challenge"]
		}
	}
	id := NewCustomID("usermenu", 2, 0, "challenge")
	for name, tc := range map[string]struct {
		a      asker
		values []string
		want   string
	}{
		"a control not offered": {memberInGuild, []string{"7+7"}, "Pick one time control"},
		"two controls":          {memberInGuild, []string{"5+3", "3+0"}, "Pick one time control"},
		"in the bot's DM":       {outsiderInDM, []string{"5+3"}, "server channel or a group DM"},
	} {
		r := tc.a.request("", &id)
		r.Values = tc.values
		if _, err := h(ctx, r); err == nil || !strings.Contains(UserMessage(err), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	if open, err := d.Games.PendingChallenges(ctx); err != nil || len(open) != 0 {
		t.Errorf("%d challenges were made (%v)", len(open), err)
	}
}
