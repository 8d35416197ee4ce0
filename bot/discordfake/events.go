// events.go: a guild's scheduled events (GET, POST, PATCH, DELETE
// guilds/{guild}/scheduled-events), with the checks Discord makes: the Manage Events
// permission (403 50013 without it), the fields each entity type requires (an
// EXTERNAL event has no channel, a location and an end time), a start in the future
// and an end after it, and the status transitions SCHEDULED → ACTIVE → COMPLETED and
// SCHEDULED → CANCELED, after which the event cannot change.

package discordfake

import (
	"encoding/json"
	"net/http"
	"sort"
	"time"

	"github.com/bwmarrin/discordgo"
)

const (
	codeUnknownScheduledEvent = 10070
	codeMissingPermissions    = 50013
)

// eventState is the guilds' scheduled events; Fake.mu guards it.
type eventState struct {
	byGuild map[string][]*discordgo.GuildScheduledEvent
	// denied are the guilds where the bot lacks Manage Events.
	denied map[string]bool
	// now is the clock a start "in the future" is checked against (default time.Now).
	now func() time.Time
}

func (e *eventState) init() {
	e.byGuild = map[string][]*discordgo.GuildScheduledEvent{}
	e.denied = map[string]bool{}
	e.now = time.Now
}

// SetManageEvents grants or takes away the bot's Manage Events permission in a guild
// (granted by default): without it every scheduled-event route but GET answers 403
// Missing Permissions (50013).
func (f *Fake) SetManageEvents(guildID string, granted bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if granted {
		delete(f.events.denied, guildID)
	} else {
		f.events.denied[guildID] = true
	}
}

// SetNow sets the clock the fake checks times against where Discord compares them with
// the present (a scheduled event must start in the future): a test whose bot runs on a
// manual clock gives the fake the same one. nil restores time.Now.
func (f *Fake) SetNow(now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events.now = now
}

// DeleteScheduledEvent deletes an event as a server's admin does in Discord's client; it
// reports whether there was one.
func (f *Fake) DeleteScheduledEvent(guildID, eventID string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	evs := f.events.byGuild[guildID]
	for i, ev := range evs {
		if ev.ID == eventID {
			f.events.byGuild[guildID] = append(evs[:i:i], evs[i+1:]...)
			return true
		}
	}
	return false
}

// ScheduledEvents returns copies of a guild's scheduled events, in creation order
// (ended and cancelled ones too, which Discord keeps a while; deleted ones are gone).
func (f *Fake) ScheduledEvents(guildID string) []*discordgo.GuildScheduledEvent {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*discordgo.GuildScheduledEvent
	for _, ev := range f.events.byGuild[guildID] {
		out = append(out, copyEvent(ev))
	}
	return out
}

func copyEvent(ev *discordgo.GuildScheduledEvent) *discordgo.GuildScheduledEvent {
	c := *ev
	if ev.ScheduledEndTime != nil {
		end := *ev.ScheduledEndTime
		c.ScheduledEndTime = &end
	}
	return &c
}

// eventBody is the wire form of a create or edit: pointers tell a field left out from
// one set to its zero value, and channel_id a null from an id.
type eventBody struct {
	ChannelID          *json.RawMessage                             `json:"channel_id"`
	Name               *string                                      `json:"name"`
	Description        *string                                      `json:"description"`
	ScheduledStartTime *time.Time                                   `json:"scheduled_start_time"`
	ScheduledEndTime   *time.Time                                   `json:"scheduled_end_time"`
	PrivacyLevel       *int                                         `json:"privacy_level"`
	Status             *int                                         `json:"status"`
	EntityType         *int                                         `json:"entity_type"`
	EntityMetadata     *discordgo.GuildScheduledEventEntityMetadata `json:"entity_metadata"`
}

// channel returns the channel id of the body ("" for null), and whether it was given.
func (b *eventBody) channel() (string, bool) {
	if b.ChannelID == nil {
		return "", false
	}
	var id *string
	if json.Unmarshal(*b.ChannelID, &id) != nil || id == nil {
		return "", true
	}
	return *id, true
}

// eventGuild checks the guild and the permission of a scheduled-event request; it
// answers the refusal itself and returns false.
func (f *Fake) eventGuildLocked(w http.ResponseWriter, guildID string, write bool) bool {
	if f.guildLocked(guildID) == nil {
		fail(w, http.StatusForbidden, codeMissingAccess, "Missing Access")
		return false
	}
	if write && f.events.denied[guildID] {
		fail(w, http.StatusForbidden, codeMissingPermissions, "Missing Permissions")
		return false
	}
	return true
}

func (f *Fake) readEvent(w http.ResponseWriter, r *http.Request) (*eventBody, bool) {
	raw, _, err := readBody(r)
	b := new(eventBody)
	if err == nil {
		err = json.Unmarshal(raw, b)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: decode scheduled event: "+errText(err))
		return nil, false
	}
	return b, true
}

func (f *Fake) listEvents(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	gid := r.PathValue("guild")
	if !f.eventGuildLocked(w, gid, false) {
		return
	}
	out := []*discordgo.GuildScheduledEvent{}
	for _, ev := range f.events.byGuild[gid] {
		if ev.Status == discordgo.GuildScheduledEventStatusScheduled || ev.Status == discordgo.GuildScheduledEventStatusActive {
			out = append(out, copyEvent(ev))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ScheduledStartTime.Before(out[j].ScheduledStartTime) })
	writeJSON(w, http.StatusOK, out)
}

func (f *Fake) getEvent(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ev, ok := f.requestedEventLocked(w, r, false)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, copyEvent(ev))
}

// requestedEventLocked returns the event a request's path names, once its guild allows
// the call (write: a change); otherwise it has answered the request and reports false.
func (f *Fake) requestedEventLocked(w http.ResponseWriter, r *http.Request, write bool) (*discordgo.GuildScheduledEvent, bool) {
	gid := r.PathValue("guild")
	if !f.eventGuildLocked(w, gid, write) {
		return nil, false
	}
	ev := f.eventLocked(gid, r.PathValue("event"))
	if ev == nil {
		fail(w, http.StatusNotFound, codeUnknownScheduledEvent, "Unknown Guild Scheduled Event")
		return nil, false
	}
	return ev, true
}

func (f *Fake) eventLocked(guildID, id string) *discordgo.GuildScheduledEvent {
	for _, ev := range f.events.byGuild[guildID] {
		if ev.ID == id {
			return ev
		}
	}
	return nil
}

func (f *Fake) postEvent(w http.ResponseWriter, r *http.Request) {
	b, ok := f.readEvent(w, r)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	gid := r.PathValue("guild")
	if !f.eventGuildLocked(w, gid, true) {
		return
	}
	e := &formErrors{}
	ev := &discordgo.GuildScheduledEvent{GuildID: gid, CreatorID: f.Bot.ID, Creator: copyUser(f.Bot),
		Status: discordgo.GuildScheduledEventStatusScheduled}
	required := func(path string, set bool) bool {
		if !set {
			e.add(path, "BASE_TYPE_REQUIRED", "This field is required")
		}
		return set
	}
	if required("name", b.Name != nil) {
		ev.Name = *b.Name
	}
	if b.Description != nil {
		ev.Description = *b.Description
	}
	if required("privacy_level", b.PrivacyLevel != nil) {
		ev.PrivacyLevel = discordgo.GuildScheduledEventPrivacyLevel(*b.PrivacyLevel)
	}
	if required("entity_type", b.EntityType != nil) {
		ev.EntityType = discordgo.GuildScheduledEventEntityType(*b.EntityType)
	}
	if required("scheduled_start_time", b.ScheduledStartTime != nil) {
		ev.ScheduledStartTime = *b.ScheduledStartTime
		if !ev.ScheduledStartTime.After(f.events.now()) {
			e.add("scheduled_start_time", "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST", "Cannot schedule event in the past.")
		}
	}
	if b.ScheduledEndTime != nil {
		end := *b.ScheduledEndTime
		ev.ScheduledEndTime = &end
	}
	if b.EntityMetadata != nil {
		ev.EntityMetadata = *b.EntityMetadata
	}
	ev.ChannelID, _ = b.channel()
	if b.Status != nil && *b.Status != int(discordgo.GuildScheduledEventStatusScheduled) {
		e.add("status", "BASE_TYPE_CHOICES", "A new event is scheduled.")
	}
	f.checkEventLocked(ev, e)
	if !e.empty() {
		failForm(w, e)
		return
	}
	ev.ID = f.ids.next()
	f.events.byGuild[gid] = append(f.events.byGuild[gid], ev)
	writeJSON(w, http.StatusOK, copyEvent(ev))
}

// checkEventLocked checks the fields of an event as created or edited.
func (f *Fake) checkEventLocked(ev *discordgo.GuildScheduledEvent, e *formErrors) {
	checkLen(e, "name", ev.Name, 1, 100)
	checkLen(e, "description", ev.Description, 0, 1000)
	if ev.PrivacyLevel != discordgo.GuildScheduledEventPrivacyLevelGuildOnly {
		e.add("privacy_level", "BASE_TYPE_CHOICES", "Value must be one of {2}.")
	}
	switch ev.EntityType {
	case discordgo.GuildScheduledEventEntityTypeExternal:
		if ev.ChannelID != "" {
			e.add("channel_id", "GUILD_SCHEDULED_EVENT_CHANNEL_NOT_ALLOWED", "An external event has no channel.")
		}
		checkLen(e, "entity_metadata.location", ev.EntityMetadata.Location, 1, 100)
		if ev.ScheduledEndTime == nil {
			e.add("scheduled_end_time", "BASE_TYPE_REQUIRED", "This field is required")
		}
	case discordgo.GuildScheduledEventEntityTypeStageInstance, discordgo.GuildScheduledEventEntityTypeVoice:
		ch := f.channels[ev.ChannelID]
		if ch == nil || ch.GuildID != ev.GuildID || (ch.Type != discordgo.ChannelTypeGuildVoice && ch.Type != discordgo.ChannelTypeGuildStageVoice) {
			e.add("channel_id", "GUILD_SCHEDULED_EVENT_INVALID_CHANNEL", "A stage or voice event needs a voice channel of the guild.")
		}
	default:
		e.add("entity_type", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}.")
	}
	if ev.ScheduledEndTime != nil && !ev.ScheduledEndTime.After(ev.ScheduledStartTime) {
		e.add("scheduled_end_time", "GUILD_SCHEDULED_EVENT_END_BEFORE_START", "The end must be after the start.")
	}
}

// eventTransitions are the status changes Discord allows.
var eventTransitions = map[[2]discordgo.GuildScheduledEventStatus]bool{
	{discordgo.GuildScheduledEventStatusScheduled, discordgo.GuildScheduledEventStatusActive}:   true,
	{discordgo.GuildScheduledEventStatusScheduled, discordgo.GuildScheduledEventStatusCanceled}: true,
	{discordgo.GuildScheduledEventStatusActive, discordgo.GuildScheduledEventStatusCompleted}:   true,
}

func (f *Fake) patchEvent(w http.ResponseWriter, r *http.Request) {
	b, ok := f.readEvent(w, r)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	cur, ok := f.requestedEventLocked(w, r, true)
	if !ok {
		return
	}
	e := &formErrors{}
	if cur.Status == discordgo.GuildScheduledEventStatusCompleted || cur.Status == discordgo.GuildScheduledEventStatusCanceled {
		e.add("status", "GUILD_SCHEDULED_EVENT_ENDED", "An event that has ended or been cancelled cannot change.")
		failForm(w, e)
		return
	}
	ev := copyEvent(cur)
	if b.Name != nil {
		ev.Name = *b.Name
	}
	if b.Description != nil {
		ev.Description = *b.Description
	}
	if b.PrivacyLevel != nil {
		ev.PrivacyLevel = discordgo.GuildScheduledEventPrivacyLevel(*b.PrivacyLevel)
	}
	if b.EntityType != nil {
		ev.EntityType = discordgo.GuildScheduledEventEntityType(*b.EntityType)
	}
	if b.EntityMetadata != nil {
		ev.EntityMetadata = *b.EntityMetadata
	}
	if id, given := b.channel(); given {
		ev.ChannelID = id
	}
	if b.ScheduledStartTime != nil && !b.ScheduledStartTime.Equal(ev.ScheduledStartTime) {
		switch {
		case cur.Status != discordgo.GuildScheduledEventStatusScheduled:
			e.add("scheduled_start_time", "GUILD_SCHEDULED_EVENT_ALREADY_STARTED", "An event under way keeps its start.")
		case !b.ScheduledStartTime.After(f.events.now()):
			e.add("scheduled_start_time", "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST", "Cannot schedule event in the past.")
		}
		ev.ScheduledStartTime = *b.ScheduledStartTime
	}
	if b.ScheduledEndTime != nil {
		end := *b.ScheduledEndTime
		ev.ScheduledEndTime = &end
	}
	if b.Status != nil {
		to := discordgo.GuildScheduledEventStatus(*b.Status)
		if to != cur.Status && !eventTransitions[[2]discordgo.GuildScheduledEventStatus{cur.Status, to}] {
			e.add("status", "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION", "Cannot go from status %d to %d.", cur.Status, to)
		}
		ev.Status = to
	}
	f.checkEventLocked(ev, e)
	if !e.empty() {
		failForm(w, e)
		return
	}
	*cur = *ev
	writeJSON(w, http.StatusOK, copyEvent(cur))
}

func (f *Fake) deleteEvent(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	gid := r.PathValue("guild")
	if !f.eventGuildLocked(w, gid, true) {
		return
	}
	evs := f.events.byGuild[gid]
	for i, ev := range evs {
		if ev.ID == r.PathValue("event") {
			f.events.byGuild[gid] = append(evs[:i:i], evs[i+1:]...)
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	fail(w, http.StatusNotFound, codeUnknownScheduledEvent, "Unknown Guild Scheduled Event")
}
