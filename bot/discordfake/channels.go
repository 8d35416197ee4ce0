package discordfake

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Auto-archive durations Discord accepts, in minutes.
var archiveDurations = map[int]bool{60: true, 1440: true, 4320: true, 10080: true}

// Threads returns the threads the bot started, oldest first.
func (f *Fake) Threads() []*discordgo.Channel {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]*discordgo.Channel, 0, len(f.rest.threads))
	for _, id := range f.rest.threads {
		out = append(out, copyChannel(f.channels[id]))
	}
	return out
}

func (f *Fake) getChannel(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := f.channels[r.PathValue("channel")]
	if ch == nil {
		fail(w, http.StatusNotFound, codeUnknownChannel, "Unknown Channel")
		return
	}
	writeJSON(w, http.StatusOK, ch)
}

// getGuild answers GET guilds/{id}: the guild (its id and name) for a guild the bot is
// in; any other id is refused with 403 Missing Access, as Discord refuses a bot a guild
// it is not a member of.
func (f *Fake) getGuild(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	g := f.guildLocked(r.PathValue("guild"))
	f.mu.Unlock()
	if g == nil {
		fail(w, http.StatusForbidden, codeMissingAccess, "Missing Access")
		return
	}
	writeJSON(w, http.StatusOK, &discordgo.Guild{ID: g.id, Name: g.name})
}

// channelPatch is the part of PATCH channels/{id} the fake applies.
type channelPatch struct {
	Name                *string `json:"name"`
	Topic               *string `json:"topic"`
	Archived            *bool   `json:"archived"`
	Locked              *bool   `json:"locked"`
	Invitable           *bool   `json:"invitable"`
	AutoArchiveDuration *int    `json:"auto_archive_duration"`
	RateLimitPerUser    *int    `json:"rate_limit_per_user"`
}

func (f *Fake) patchChannel(w http.ResponseWriter, r *http.Request) {
	raw, _, err := readBody(r)
	var p channelPatch
	if err == nil {
		err = json.Unmarshal(raw, &p)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: decode channel edit: "+errText(err))
		return
	}
	e := &formErrors{}
	if p.Name != nil {
		checkLen(e, "name", *p.Name, 1, 100)
	}
	if p.Topic != nil {
		checkLen(e, "topic", *p.Topic, 0, 1024)
	}
	if p.AutoArchiveDuration != nil && !archiveDurations[*p.AutoArchiveDuration] {
		e.add("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.")
	}
	if p.RateLimitPerUser != nil && (*p.RateLimitPerUser < 0 || *p.RateLimitPerUser > 21600) {
		e.add("rate_limit_per_user", "NUMBER_TYPE_MAX", "Must be between 0 and 21600.")
	}
	f.mu.Lock()
	ch := f.channels[r.PathValue("channel")]
	if ch == nil {
		f.mu.Unlock()
		fail(w, http.StatusNotFound, codeUnknownChannel, "Unknown Channel")
		return
	}
	md := ch.ThreadMetadata
	if md == nil && (p.Archived != nil || p.Locked != nil || p.Invitable != nil || p.AutoArchiveDuration != nil) {
		e.add("archived", "CHANNEL_NOT_A_THREAD", "Thread fields can only be set on threads")
	}
	if !e.empty() {
		f.mu.Unlock()
		failForm(w, e)
		return
	}
	if p.Name != nil {
		ch.Name = *p.Name
	}
	if p.Topic != nil {
		ch.Topic = *p.Topic
	}
	if p.RateLimitPerUser != nil {
		ch.RateLimitPerUser = *p.RateLimitPerUser
	}
	if md != nil {
		if p.Archived != nil && *p.Archived != md.Archived {
			md.Archived, md.ArchiveTimestamp = *p.Archived, time.Now().UTC()
		}
		if p.Locked != nil {
			md.Locked = *p.Locked
		}
		if p.Invitable != nil {
			md.Invitable = *p.Invitable
		}
		if p.AutoArchiveDuration != nil {
			md.AutoArchiveDuration = *p.AutoArchiveDuration
		}
	}
	out := copyChannel(ch)
	f.notifyLocked()
	f.mu.Unlock()
	event := "CHANNEL_UPDATE"
	if out.IsThread() {
		event = "THREAD_UPDATE"
	}
	f.dispatchGuild(out.GuildID, event, out)
	writeJSON(w, http.StatusOK, out)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// postThread starts a thread in a channel, from a message when the route
// names one (the thread then shares the message's ID, as on Discord).
func (f *Fake) postThread(w http.ResponseWriter, r *http.Request) {
	raw, _, err := readBody(r)
	var ts discordgo.ThreadStart
	if err == nil {
		err = json.Unmarshal(raw, &ts)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: decode thread start: "+errText(err))
		return
	}
	e := &formErrors{}
	checkLen(e, "name", ts.Name, 1, 100)
	if ts.AutoArchiveDuration != 0 && !archiveDurations[ts.AutoArchiveDuration] {
		e.add("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.")
	}
	mid := r.PathValue("msg")
	typ := ts.Type
	switch {
	case mid != "":
		typ = discordgo.ChannelTypeGuildPublicThread
	case typ == 0:
		typ = discordgo.ChannelTypeGuildPrivateThread // Discord's default without a message
	case typ != discordgo.ChannelTypeGuildPublicThread && typ != discordgo.ChannelTypeGuildPrivateThread && typ != discordgo.ChannelTypeGuildNewsThread:
		e.add("type", "BASE_TYPE_CHOICES", "Value must be one of {10, 11, 12}.")
	}
	if !e.empty() {
		failForm(w, e)
		return
	}

	f.mu.Lock()
	parent := f.channels[r.PathValue("channel")]
	if parent == nil || parent.IsThread() || parent.GuildID == "" {
		f.mu.Unlock()
		fail(w, http.StatusNotFound, codeUnknownChannel, "Unknown Channel")
		return
	}
	id := ""
	var from *Message
	if mid != "" {
		from = f.channelMessageLocked(parent.ID, mid)
		if from == nil {
			f.mu.Unlock()
			fail(w, http.StatusNotFound, codeUnknownMessage, "Unknown Message")
			return
		}
		if from.ThreadID != "" {
			f.mu.Unlock()
			fail(w, http.StatusBadRequest, codeThreadExists, "A thread has already been created for this message")
			return
		}
		id = from.ID
	} else {
		id = f.ids.next()
	}
	dur := ts.AutoArchiveDuration
	if dur == 0 {
		dur = 4320
	}
	now := time.Now().UTC()
	th := &discordgo.Channel{
		ID: id, GuildID: parent.GuildID, ParentID: parent.ID, Name: ts.Name, Type: typ,
		OwnerID: f.Bot.ID, RateLimitPerUser: ts.RateLimitPerUser, MemberCount: 1, AppliedTags: ts.AppliedTags,
		ThreadMetadata: &discordgo.ThreadMetadata{
			AutoArchiveDuration: dur, ArchiveTimestamp: now, Invitable: typ == discordgo.ChannelTypeGuildPrivateThread && ts.Invitable,
		},
		Member: &discordgo.ThreadMember{ID: id, UserID: f.Bot.ID, JoinTimestamp: now},
	}
	f.channels[id] = th
	f.rest.threads = append(f.rest.threads, id)
	if from != nil {
		from.ThreadID = id
		from.Flags |= discordgo.MessageFlagsHasThread
	}
	out := copyChannel(th)
	f.notifyLocked()
	f.mu.Unlock()
	f.dispatchGuild(out.GuildID, "THREAD_CREATE", struct {
		*discordgo.Channel
		NewlyCreated bool `json:"newly_created"`
	}{out, true})
	writeJSON(w, http.StatusCreated, out)
}

// createDM opens (or finds) the DM channel with a user.
func (f *Fake) createDM(w http.ResponseWriter, r *http.Request) {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	raw, _, err := readBody(r)
	if err == nil {
		err = json.Unmarshal(raw, &body)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: decode DM request: "+errText(err))
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	u := f.users[body.RecipientID]
	if u == nil {
		fail(w, http.StatusBadRequest, codeUnknownUser, "Unknown User")
		return
	}
	for _, ch := range f.channels {
		if ch.Type == discordgo.ChannelTypeDM && len(ch.Recipients) == 1 && ch.Recipients[0].ID == u.ID {
			writeJSON(w, http.StatusOK, ch)
			return
		}
	}
	ch := &discordgo.Channel{ID: f.ids.next(), Type: discordgo.ChannelTypeDM, Recipients: []*discordgo.User{copyUser(u)}}
	f.channels[ch.ID] = ch
	f.notifyLocked()
	writeJSON(w, http.StatusOK, ch)
}

// RefuseDMs makes a user accept no direct message from the bot, as a user whose
// privacy settings close their DMs (or who shares no server with it): opening the DM
// channel still succeeds, and each message posted in it is refused with 403, code
// 50007 "Cannot send messages to this user". AcceptDMs undoes it.
func (f *Fake) RefuseDMs(userID string) {
	f.mu.Lock()
	f.closedDMs[userID] = true
	f.mu.Unlock()
}

// AcceptDMs lets the bot send direct messages to a user again (see RefuseDMs).
func (f *Fake) AcceptDMs(userID string) {
	f.mu.Lock()
	delete(f.closedDMs, userID)
	f.mu.Unlock()
}

// DMChannel returns the DM channel the bot opened with a user, if any.
func (f *Fake) DMChannel(userID string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ch := range f.channels {
		if ch.Type == discordgo.ChannelTypeDM && len(ch.Recipients) == 1 && ch.Recipients[0].ID == userID {
			return ch.ID, true
		}
	}
	return "", false
}

// guildCreate builds the GUILD_CREATE payload of a guild.
func (f *Fake) guildCreate(guildID string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.guildLocked(guildID)
	if g == nil {
		return nil
	}
	chans := []*discordgo.Channel{}
	var threads []*discordgo.Channel
	for _, id := range g.channels {
		chans = append(chans, copyChannel(f.channels[id]))
	}
	for _, id := range f.rest.threads {
		if th := f.channels[id]; th.GuildID == guildID && !th.ThreadMetadata.Archived {
			threads = append(threads, copyChannel(th))
		}
	}
	if threads == nil {
		threads = []*discordgo.Channel{}
	}
	everyone := &discordgo.Role{ID: g.id, Name: "@everyone", Permissions: discordgo.PermissionViewChannel | discordgo.PermissionSendMessages}
	return map[string]any{
		"id": g.id, "name": g.name, "owner_id": f.User.ID, "joined_at": g.joined, "member_count": 2,
		"large": false, "unavailable": false, "channels": chans, "threads": threads,
		"roles": []*discordgo.Role{everyone}, "emojis": []any{}, "stickers": []any{},
		"members": []map[string]any{
			{"user": f.Bot, "roles": []string{}, "joined_at": g.joined, "deaf": false, "mute": false},
		},
		"voice_states": []any{}, "presences": []any{}, "features": []string{},
		"preferred_locale": "en-US", "premium_tier": 0, "verification_level": 0, "nsfw_level": 0,
	}
}
