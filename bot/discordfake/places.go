// Places where the bot is not a member, reached through a user's install of the app:
// a DM between two users, a group DM, a server that never added the bot. Interactions
// come from there as Discord sends them (context 2, or context 0 with only the user as
// authorizing integration owner; app_permissions of a user install); the bot's own REST
// calls to those channels are answered 403 Missing Access (50001), as Discord answers a
// bot that is not a member, so all it can show there goes through the interactions'
// callbacks and webhooks (five followups an interaction, as for any app installed by a
// user only), whose tokens expire 15 minutes after the interaction (on the fake's
// clock, WithClock).

package discordfake

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// maxUserInstallFollowups is how many followup messages Discord lets an app create for
// one interaction where only a user installed it.
const maxUserInstallFollowups = 5

// WebhookTokenLifetime is how long an interaction's token authorizes its webhook
// routes (edits and followups) after the interaction was created.
const WebhookTokenLifetime = 15 * time.Minute

// WithClock sets the clock the interaction tokens expire by (default: time.Now); the
// 3-second callback deadline is measured on the real clock regardless.
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// place is a channel where the bot is not a member.
type place struct {
	// context is the interaction context of the channel: private channel (2) for DMs
	// between users and group DMs, guild (0) for a server without the bot.
	context discordgo.InteractionContextType
	guildID string
	// members are who may act there (nil: anyone, in a server).
	members []string
}

// userInstallPermissions are the app's permissions where only a user installed it:
// what its interaction responses may do.
const userInstallPermissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionReadMessageHistory | discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles |
	discordgo.PermissionUseExternalEmojis | discordgo.PermissionUseApplicationCommands

// AddPrivateDM adds a DM between two users (not with the bot) and returns its channel
// ID.
func (f *Fake) AddPrivateDM(a, b *discordgo.User) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := &discordgo.Channel{ID: f.ids.next(), Type: discordgo.ChannelTypeDM, Recipients: []*discordgo.User{copyUser(a), copyUser(b)}}
	f.channels[ch.ID] = ch
	f.places[ch.ID] = &place{context: discordgo.InteractionContextPrivateChannel, members: []string{a.ID, b.ID}}
	f.notifyLocked()
	return ch.ID
}

// AddGroupDM adds a group DM of members (the bot not among them) and returns its
// channel ID.
func (f *Fake) AddGroupDM(name string, members ...*discordgo.User) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := &discordgo.Channel{ID: f.ids.next(), Type: discordgo.ChannelTypeGroupDM, Name: name}
	pl := &place{context: discordgo.InteractionContextPrivateChannel}
	for _, u := range members {
		ch.Recipients = append(ch.Recipients, copyUser(u))
		pl.members = append(pl.members, u.ID)
	}
	f.channels[ch.ID] = ch
	f.places[ch.ID] = pl
	f.notifyLocked()
	return ch.ID
}

// AddGuildWithoutBot adds a server that never added the bot, with one text channel,
// and returns both IDs. No gateway event tells the bot about it.
func (f *Fake) AddGuildWithoutBot(name string) (guildID, channelID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	guildID = f.ids.next()
	ch := &discordgo.Channel{ID: f.ids.next(), GuildID: guildID, Name: "general", Type: discordgo.ChannelTypeGuildText}
	f.channels[ch.ID] = ch
	f.places[ch.ID] = &place{context: discordgo.InteractionContextGuild, guildID: guildID}
	f.notifyLocked()
	return guildID, ch.ID
}

// IsGuestChannel reports whether a channel is one where the bot is not a member.
func (f *Fake) IsGuestChannel(channelID string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.places[channelID] != nil
}

// placeInteractionLocked fills in an interaction from a place where the bot is not a
// member: who, where, the context and the user install as the only owner. It checks
// that the user may act there. f.mu must be held.
func (f *Fake) placeInteractionLocked(m map[string]any, spec *InteractionSpec, pl *place, user *discordgo.User, perms int64) error {
	if pl.members != nil && !slices.Contains(pl.members, user.ID) {
		return fmt.Errorf("interaction in channel %s by %s, who is not one of its members", spec.ChannelID, user.ID)
	}
	spec.GuildID = pl.guildID
	m["context"] = pl.context
	m["authorizing_integration_owners"] = map[string]string{"1": user.ID}
	m["app_permissions"] = fmt.Sprint(userInstallPermissions)
	if pl.guildID == "" {
		m["user"] = user
		return nil
	}
	roles := spec.Roles
	if roles == nil {
		roles = []string{}
	}
	m["guild_id"] = pl.guildID
	m["guild_locale"] = discordgo.EnglishUS
	m["member"] = map[string]any{
		"user": user, "roles": roles, "permissions": fmt.Sprint(perms), "joined_at": f.guildBase,
		"deaf": false, "mute": false, "flags": 0, "pending": false, "nick": nil,
	}
	return nil
}

// installedForLocked checks that a command a user invokes where only they installed
// the app is one Discord offers there: global (no guild of the bot's is there), with
// the user install among its integration types and the place's context among its
// contexts. f.mu must be held.
func (f *Fake) installedForLocked(spec InteractionSpec, ctx discordgo.InteractionContextType) error {
	ct := spec.CommandType
	if ct == 0 {
		ct = discordgo.ChatApplicationCommand
	}
	var def *discordgo.ApplicationCommand
	for _, c := range f.rest.global {
		if c.Name == spec.Name && commandType(c) == ct {
			def = c
		}
	}
	switch {
	case def == nil:
		return fmt.Errorf("%w: /%s is not a global command, and only those reach a user install", ErrUnknownCommand, spec.Name)
	case def.IntegrationTypes == nil || !slices.Contains(*def.IntegrationTypes, discordgo.ApplicationIntegrationUserInstall):
		return fmt.Errorf("%w: /%s does not take the user install among its integration_types", ErrUnknownCommand, spec.Name)
	case def.Contexts != nil && !slices.Contains(*def.Contexts, ctx):
		return fmt.Errorf("%w: /%s is not offered in context %d", ErrUnknownCommand, spec.Name, ctx)
	}
	return nil
}

// guestChannelRoute reports whether a REST route (relative to the API base) is one of
// a channel where the bot is not a member, which Discord refuses it.
func (f *Fake) guestChannelRoute(rel string) bool {
	rest, ok := strings.CutPrefix(rel, "channels/")
	if !ok {
		return false
	}
	id, _, _ := strings.Cut(rest, "/")
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.places[id] != nil
}

// now is the fake's clock.
func (f *Fake) now() time.Time {
	if f.cfg.now != nil {
		return f.cfg.now()
	}
	return time.Now()
}

// tokenExpiredLocked reports whether an interaction's token no longer authorizes its
// webhook routes. f.mu must be held.
func (f *Fake) tokenExpiredLocked(p *pending) bool {
	return f.now().Sub(p.issued) > WebhookTokenLifetime
}
