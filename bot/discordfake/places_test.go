package discordfake

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// testClock is a clock a test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *testClock) advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// Where the bot is not a member: the interactions say so (context, owners, the user or
// the member), only commands offered to a user install reach the bot, the bot's own
// posts there are refused 403 Missing Access, and its followups (five per interaction)
// work until the token's 15 minutes are over on the fake's clock.
func TestPlacesWithoutTheBot(t *testing.T) {
	t.Parallel()
	clk := &testClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	f := newFake(t, WithClock(clk.now))
	bob := f.NewUser("bob")
	carol := f.NewUser("carol")
	var herr errs
	var mu sync.Mutex
	got := map[string]*discordgo.Interaction{}
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			mu.Lock()
			got[i.ChannelID] = i.Interaction
			mu.Unlock()
			herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "answered", AllowedMentions: &discordgo.MessageAllowedMentions{}},
			}))
		})
	})
	installs := &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	cmds := []*discordgo.ApplicationCommand{
		{Name: "challenge", Description: "d", IntegrationTypes: installs,
			Contexts: &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextPrivateChannel}},
		{Name: "settings", Description: "d", IntegrationTypes: installs, Contexts: &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}},
		{Name: "tournament", Description: "d"},
	}
	if _, err := s.ApplicationCommandBulkOverwrite(f.AppID, "", cmds); err != nil {
		t.Fatal(err)
	}
	gdm := f.AddGroupDM("chess club", f.User, bob)
	dm := f.AddPrivateDM(f.User, bob)
	guild, general := f.AddGuildWithoutBot("no bot here")
	ctx := ctxFor(t)

	for _, tc := range []struct {
		name    string
		channel string
		context discordgo.InteractionContextType
		guild   string
	}{
		{"group DM", gdm, discordgo.InteractionContextPrivateChannel, ""},
		{"DM between users", dm, discordgo.InteractionContextPrivateChannel, ""},
		{"server without the bot", general, discordgo.InteractionContextGuild, guild},
	} {
		res, err := f.SendInteraction(ctx, Command("challenge").At(tc.channel))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		mu.Lock()
		i := got[tc.channel]
		mu.Unlock()
		switch {
		case i == nil:
			t.Fatalf("%s: no interaction reached the bot", tc.name)
		case i.Context != tc.context || i.GuildID != tc.guild:
			t.Errorf("%s: context %d guild %q, want %d %q", tc.name, i.Context, i.GuildID, tc.context, tc.guild)
		case len(i.AuthorizingIntegrationOwners) != 1 || i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] != f.User.ID:
			t.Errorf("%s: owners %v, want only alice's user install", tc.name, i.AuthorizingIntegrationOwners)
		case (tc.guild == "") != (i.User != nil && i.Member == nil):
			t.Errorf("%s: user %v member %v", tc.name, i.User, i.Member)
		case i.AppPermissions&discordgo.PermissionManageThreads != 0:
			t.Errorf("%s: app permissions %d include a bot member's", tc.name, i.AppPermissions)
		}
		// The bot's own post there is refused; the interaction's webhook works, for five
		// followups.
		_, err = s.ChannelMessageSend(tc.channel, "hello")
		var re *discordgo.RESTError
		if !errors.As(err, &re) || re.Response.StatusCode != http.StatusForbidden || re.Message == nil || re.Message.Code != 50001 {
			t.Errorf("%s: the bot's own post: %v, want 403 Missing Access", tc.name, err)
		}
		in := &discordgo.Interaction{ID: res.ID, AppID: f.AppID, Token: res.Token}
		for k := range maxUserInstallFollowups {
			if _, err := s.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "followup"}); err != nil {
				t.Errorf("%s: followup %d within 15 minutes: %v", tc.name, k+1, err)
			}
		}
		if _, err := s.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "one too many"}); !errors.As(err, &re) || re.Response.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: followup %d of a user install: %v, want 400", tc.name, maxUserInstallFollowups+1, err)
		}
		clk.advance(WebhookTokenLifetime + time.Second)
		_, err = s.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: "too late"})
		if !errors.As(err, &re) || re.Response.StatusCode != http.StatusNotFound || re.Message == nil || re.Message.Code != 10015 {
			t.Errorf("%s: followup after 15 minutes: %v, want 404 Unknown Webhook", tc.name, err)
		}
	}
	// Only what a user install is offered there reaches the bot.
	for _, tc := range []struct {
		name, command, channel string
	}{
		{"not for user installs", "tournament", general},
		{"not in private channels", "settings", gdm},
	} {
		if _, err := f.SendInteraction(ctx, Command(tc.command).At(tc.channel)); !errors.Is(err, ErrUnknownCommand) {
			t.Errorf("%s: %v, want ErrUnknownCommand", tc.name, err)
		}
	}
	if _, err := f.SendInteraction(ctx, Command("settings").At(general)); err != nil {
		t.Errorf("a server command offered to user installs: %v", err)
	}
	// Someone outside a group DM cannot act in it.
	if _, err := f.SendInteraction(ctx, Command("challenge").At(gdm).From(carol)); err == nil {
		t.Error("carol acted in a group DM she is not in")
	}
	herr.check(t)
}

// An entry point command is registered globally with its handler, and refused in a
// guild; a LAUNCH_ACTIVITY callback (type 12) answers a command and a button.
func TestEntryPointAndLaunchActivity(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: launchActivity}))
		})
	})
	entry := json.RawMessage(`[{"type":4,"name":"launch","description":"Open the Activity","handler":2,"integration_types":[0,1],"contexts":[0,1,2]}]`)
	if _, err := s.RequestWithBucketID(http.MethodPut, discordgo.EndpointApplicationGuildCommands(f.AppID, f.GuildID), entry, "cmds"); err == nil {
		t.Error("an entry point was accepted in a guild's overwrite")
	}
	if _, err := s.RequestWithBucketID(http.MethodPut, discordgo.EndpointApplicationGlobalCommands(f.AppID), entry, "cmds"); err != nil {
		t.Fatalf("global entry point: %v", err)
	}
	cmd, handler, ok := f.EntryPoint()
	if !ok || cmd.Name != "launch" || handler != 2 {
		t.Fatalf("entry point = %+v, handler %d, %v", cmd, handler, ok)
	}
	ctx := ctxFor(t)
	spec := Command("launch")
	spec.CommandType = EntryPointCommandType
	res, err := f.SendInteraction(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if res.Callback.Type != launchActivity || res.Callback.HasData {
		t.Errorf("callback type %d (data %v), want 12 without data", res.Callback.Type, res.Callback.HasData)
	}
	herr.check(t)
}
