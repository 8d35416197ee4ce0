package discordfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// MessageKind says how the bot created a message.
type MessageKind int

// Message kinds.
const (
	// KindChannel: POST channels/{id}/messages.
	KindChannel MessageKind = iota + 1
	// KindResponse: an interaction's original response (callback type 4 or 5).
	KindResponse
	// KindFollowup: POST webhooks/{app}/{token}.
	KindFollowup
)

// String returns the kind's name.
func (k MessageKind) String() string {
	switch k {
	case KindChannel:
		return "channel"
	case KindResponse:
		return "response"
	case KindFollowup:
		return "followup"
	}
	return "unknown"
}

// Message is a message the bot created, as it stands after any edits.
type Message struct {
	ID, ChannelID, GuildID string
	Kind                   MessageKind
	// InteractionID is set for responses and followups.
	InteractionID string
	Payload
	Created time.Time
	// Edited is when the message was last edited (zero if never).
	Edited  time.Time
	Edits   int
	Deleted bool
	// ThreadID is the thread started from this message, if any.
	ThreadID string
}

func copyMessage(m *Message) Message {
	c := *m
	c.Attachments = append([]Attachment(nil), m.Attachments...)
	return c
}

// Messages returns the messages in a channel or thread that are not
// deleted, oldest first, including interaction responses and followups
// (ephemeral ones too: check Ephemeral).
func (f *Fake) Messages(channelID string) []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Message
	for _, m := range f.rest.messages[channelID] {
		if !m.Deleted {
			out = append(out, copyMessage(m))
		}
	}
	return out
}

// Message returns a message by ID, deleted or not.
func (f *Fake) Message(id string) (Message, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, ok := f.rest.msgByID[id]
	if !ok {
		return Message{}, false
	}
	return copyMessage(m), true
}

func (f *Fake) storeMessageLocked(m *Message) {
	f.rest.messages[m.ChannelID] = append(f.rest.messages[m.ChannelID], m)
	f.rest.msgByID[m.ID] = m
	if ch := f.channels[m.ChannelID]; ch != nil {
		ch.LastMessageID = m.ID
		if ch.IsThread() {
			ch.MessageCount++
		}
	}
	f.notifyLocked()
}

// newMessageLocked builds a message from a decoded payload.
func (f *Fake) newMessageLocked(kind MessageKind, channelID string, d *decoded) *Message {
	m := &Message{ID: f.ids.next(), ChannelID: channelID, Kind: kind, Payload: d.Payload, Created: time.Now().UTC()}
	if ch := f.channels[channelID]; ch != nil {
		m.GuildID = ch.GuildID
	}
	m.Attachments = f.newAttachments(d, channelID)
	return m
}

// editedFlags are the flags an edit may change.
const editedFlags = discordgo.MessageFlagsSuppressEmbeds | discordgo.MessageFlagsIsComponentsV2

// applyEdit applies the present fields of an edit to m and reports whether
// the result is still a valid, non-empty message.
func (f *Fake) applyEdit(m *Message, d *decoded) (ok bool) {
	w := &d.wire
	next := *m
	if w.Content != nil {
		next.Content = d.Content
	}
	if w.Embeds != nil {
		next.Embeds = d.Embeds
	}
	if w.Components != nil {
		next.Components = d.Components
		next.customIDs = d.customIDs
		next.tree = d.tree
	}
	if w.Flags != nil {
		next.Flags = next.Flags&^editedFlags | d.Flags&editedFlags
	}
	next.Flags &^= discordgo.MessageFlagsLoading
	if w.AllowedMentions != nil {
		next.AllowedMentions = d.AllowedMentions
	}
	if w.Attachments != nil {
		keep := map[string]bool{}
		for _, ref := range *w.Attachments {
			keep[ref.id()] = true
		}
		next.Attachments = nil
		for _, a := range m.Attachments {
			if keep[a.ID] {
				next.Attachments = append(next.Attachments, a)
			}
		}
	} else {
		next.Attachments = append([]Attachment(nil), m.Attachments...)
	}
	next.Attachments = append(next.Attachments, f.newAttachments(d, m.ChannelID)...)
	if next.Content == "" && len(next.Embeds) == 0 && len(next.Components) == 0 && len(next.Attachments) == 0 {
		return false
	}
	next.JSON = d.JSON
	next.Edits++
	next.Edited = time.Now().UTC()
	*m = next
	return true
}

// wireMessage is a message as Discord returns it. discordgo.Message does
// not marshal its components, hence the extra field.
type wireMessage struct {
	*discordgo.Message
	Components    []discordgo.MessageComponent `json:"components"`
	ApplicationID string                       `json:"application_id,omitempty"`
}

func (f *Fake) wireMessageLocked(m *Message) wireMessage {
	dm := &discordgo.Message{
		ID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, Content: m.Content, Timestamp: m.Created,
		TTS: m.TTS, Author: f.Bot, Embeds: m.Embeds, Flags: m.Flags, MessageReference: m.Reference,
		Mentions: []*discordgo.User{}, MentionRoles: []string{}, Attachments: []*discordgo.MessageAttachment{},
	}
	if dm.Embeds == nil {
		dm.Embeds = []*discordgo.MessageEmbed{}
	}
	if !m.Edited.IsZero() {
		t := m.Edited
		dm.EditedTimestamp = &t
	}
	if m.Reference != nil {
		dm.Type = discordgo.MessageTypeReply
	}
	for _, a := range m.Attachments {
		dm.Attachments = append(dm.Attachments, &discordgo.MessageAttachment{
			ID: a.ID, URL: a.URL, ProxyURL: a.URL, Filename: a.Filename, ContentType: a.ContentType,
			Width: a.Width, Height: a.Height, Size: len(a.Data), Ephemeral: m.Ephemeral(),
		})
	}
	if m.ThreadID != "" {
		if th := f.channels[m.ThreadID]; th != nil {
			dm.Thread = copyChannel(th)
		}
	}
	w := wireMessage{Message: dm, Components: m.Components}
	if w.Components == nil {
		w.Components = []discordgo.MessageComponent{}
	}
	if m.Kind != KindChannel {
		dm.WebhookID = f.AppID
		w.ApplicationID = f.AppID
		if m.Kind == KindResponse {
			if p := f.rest.interactions[m.InteractionID]; p != nil && p.typ == discordgo.InteractionApplicationCommand {
				dm.Type = discordgo.MessageTypeChatInputCommand
			}
		}
	}
	return w
}

// decodeRequest reads and decodes a message-like request body, answering
// 400 itself on failure.
func decodeRequest(w http.ResponseWriter, r *http.Request) (*decoded, bool) {
	raw, files, err := readBody(r)
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: "+err.Error())
		return nil, false
	}
	d, err := decodePayload(raw, files)
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: "+err.Error())
		return nil, false
	}
	return d, true
}

// checkNewMessage answers 400 if d is not a valid new message.
func checkNewMessage(w http.ResponseWriter, d *decoded, prefix string) bool {
	e := &formErrors{prefix: prefix}
	checkMessage(d, e)
	if !e.empty() {
		failForm(w, e)
		return false
	}
	if !d.hasAny {
		fail(w, http.StatusBadRequest, codeEmptyMessage, "Cannot send an empty message")
		return false
	}
	return true
}

// checkEdit answers 400 if d is not a valid edit.
func checkEdit(w http.ResponseWriter, d *decoded) bool {
	e := &formErrors{}
	checkMessage(d, e)
	if !e.empty() {
		failForm(w, e)
		return false
	}
	return true
}

func (f *Fake) postChannelMessage(w http.ResponseWriter, r *http.Request) {
	cid := r.PathValue("channel")
	d, ok := decodeRequest(w, r)
	if !ok || !checkNewMessage(w, d, "") {
		return
	}
	f.mu.Lock()
	ch := f.channels[cid]
	if ch == nil {
		f.mu.Unlock()
		fail(w, http.StatusNotFound, codeUnknownChannel, "Unknown Channel")
		return
	}
	if ch.Type == discordgo.ChannelTypeDM && len(ch.Recipients) == 1 && f.closedDMs[ch.Recipients[0].ID] {
		// As on Discord: the DM channel opens, the message is refused.
		f.mu.Unlock()
		fail(w, http.StatusForbidden, codeCannotSendToUser, "Cannot send messages to this user")
		return
	}
	if ref := d.Reference; ref != nil {
		target := f.rest.msgByID[ref.MessageID]
		if target == nil || target.Deleted || (ref.ChannelID != "" && ref.ChannelID != cid) {
			f.mu.Unlock()
			e := &formErrors{}
			e.add("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
			failForm(w, e)
			return
		}
	}
	unarchived := false
	if md := ch.ThreadMetadata; md != nil && md.Archived {
		if md.Locked {
			f.mu.Unlock()
			fail(w, http.StatusBadRequest, 50083, "Thread is archived")
			return
		}
		md.Archived, md.ArchiveTimestamp, unarchived = false, time.Now().UTC(), true
	}
	m := f.newMessageLocked(KindChannel, cid, d)
	m.Flags = d.Flags & (editedFlags | discordgo.MessageFlagsSuppressNotifications)
	f.storeMessageLocked(m)
	resp := f.wireMessageLocked(m)
	thread := copyChannel(ch)
	f.mu.Unlock()
	if unarchived {
		f.dispatchGuild(thread.GuildID, "THREAD_UPDATE", thread)
	}
	writeJSON(w, http.StatusOK, resp)
}

// channelMessageLocked finds a message the channel routes may touch:
// ephemeral messages exist only for their interaction's webhook.
func (f *Fake) channelMessageLocked(cid, mid string) *Message {
	m := f.rest.msgByID[mid]
	if m == nil || m.Deleted || m.ChannelID != cid || m.Ephemeral() {
		return nil
	}
	return m
}

func (f *Fake) getChannelMessage(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.channelMessageLocked(r.PathValue("channel"), r.PathValue("msg"))
	if m == nil {
		fail(w, http.StatusNotFound, codeUnknownMessage, "Unknown Message")
		return
	}
	writeJSON(w, http.StatusOK, f.wireMessageLocked(m))
}

func (f *Fake) patchChannelMessage(w http.ResponseWriter, r *http.Request) {
	d, ok := decodeRequest(w, r)
	if !ok || !checkEdit(w, d) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.channelMessageLocked(r.PathValue("channel"), r.PathValue("msg"))
	if m == nil {
		fail(w, http.StatusNotFound, codeUnknownMessage, "Unknown Message")
		return
	}
	if !f.applyEdit(m, d) {
		fail(w, http.StatusBadRequest, codeEmptyMessage, "Cannot send an empty message")
		return
	}
	f.notifyLocked()
	writeJSON(w, http.StatusOK, f.wireMessageLocked(m))
}

func (f *Fake) deleteChannelMessage(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.channelMessageLocked(r.PathValue("channel"), r.PathValue("msg"))
	if m == nil {
		fail(w, http.StatusNotFound, codeUnknownMessage, "Unknown Message")
		return
	}
	m.Deleted = true
	f.notifyLocked()
	w.WriteHeader(http.StatusNoContent)
}

// serveAttachment serves an uploaded file at
// /attachments/{channel}/{attachment}/{filename}.
func (f *Fake) serveAttachment(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/attachments/"), "/")
	if len(parts) != 3 {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range f.rest.messages[parts[0]] {
		for _, a := range m.Attachments {
			if a.ID == parts[1] && a.Filename == parts[2] {
				w.Header().Set("Content-Type", a.ContentType)
				w.Write(a.Data)
				return
			}
		}
	}
	http.NotFound(w, r)
}

// Callback is the bot's answer to an interaction.
type Callback struct {
	InteractionID, Token string
	InteractionType      discordgo.InteractionType
	Type                 discordgo.InteractionResponseType
	// Data is the callback's data; HasData reports whether there was any.
	Data    Payload
	HasData bool
	// Received is when the callback arrived; Latency is the time since the
	// INTERACTION_CREATE was dispatched.
	Received time.Time
	Latency  time.Duration
}

// Callbacks returns every accepted interaction callback, in arrival order.
func (f *Fake) Callbacks() []Callback {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Callback(nil), f.rest.callbacks...)
}

// Original returns an interaction's original response message (the one
// created by callback type 4 or 5, or the component's message for 6 and 7).
func (f *Fake) Original(interactionID string) (Message, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.rest.interactions[interactionID]
	if p == nil || p.originalID == "" {
		return Message{}, false
	}
	m := f.rest.msgByID[p.originalID]
	if m == nil {
		return Message{}, false
	}
	return copyMessage(m), true
}

// Followups returns the followup messages of an interaction, in order,
// deleted ones included (check Deleted). A followup that filled a deferred
// response is the original message and is listed here too.
func (f *Fake) Followups(interactionID string) []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.rest.interactions[interactionID]
	if p == nil {
		return nil
	}
	var out []Message
	for _, id := range p.followups {
		if m := f.rest.msgByID[id]; m != nil {
			out = append(out, copyMessage(m))
		}
	}
	return out
}

// launchActivity is the LAUNCH_ACTIVITY callback (type 12): it opens the app's Activity
// for the user who acted and carries no data.
const launchActivity discordgo.InteractionResponseType = 12

// callbackFits reports whether a callback type may answer an interaction.
func callbackFits(rt discordgo.InteractionResponseType, p *pending) bool {
	switch rt {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		return p.typ == discordgo.InteractionApplicationCommand || p.typ == discordgo.InteractionMessageComponent || p.typ == discordgo.InteractionModalSubmit
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		return (p.typ == discordgo.InteractionMessageComponent || p.typ == discordgo.InteractionModalSubmit) && p.messageID != ""
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		return p.typ == discordgo.InteractionApplicationCommandAutocomplete
	case discordgo.InteractionResponseModal:
		return p.typ == discordgo.InteractionApplicationCommand || p.typ == discordgo.InteractionMessageComponent
	case launchActivity:
		return p.typ == discordgo.InteractionApplicationCommand || p.typ == discordgo.InteractionMessageComponent
	}
	return false
}

func (f *Fake) postCallback(w http.ResponseWriter, r *http.Request) {
	raw, files, err := readBody(r)
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: "+err.Error())
		return
	}
	var body struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: decode callback: "+err.Error())
		return
	}
	data := body.Data
	if string(data) == "null" {
		data = nil
	}
	d, err := decodePayload(data, files)
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: "+err.Error())
		return
	}
	d.JSON = raw

	now := time.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.rest.interactions[r.PathValue("id")]
	if p == nil || p.token != r.PathValue("token") {
		fail(w, http.StatusNotFound, codeUnknownInteraction, "Unknown interaction")
		return
	}
	if p.callback != nil {
		fail(w, http.StatusBadRequest, codeAlreadyAcknowledged, "Interaction has already been acknowledged.")
		return
	}
	if dl := f.cfg.deadline; dl > 0 && now.Sub(p.dispatched) > dl {
		if p.late == 0 {
			p.late = now.Sub(p.dispatched)
			close(p.done)
			f.notifyLocked()
		}
		fail(w, http.StatusNotFound, codeUnknownInteraction, "Unknown interaction")
		return
	}
	if !callbackFits(body.Type, p) {
		e := &formErrors{}
		e.add("type", "INTERACTION_RESPONSE_TYPE_INVALID", "Callback type %d cannot answer an interaction of type %d", body.Type, p.typ)
		failForm(w, e)
		return
	}
	e := &formErrors{prefix: "data."}
	switch body.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseUpdateMessage:
		checkMessage(d, e)
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		checkChoices(d, e)
	case discordgo.InteractionResponseModal:
		checkModal(d, e)
	}
	if !e.empty() {
		failForm(w, e)
		return
	}
	if body.Type == discordgo.InteractionResponseChannelMessageWithSource && !d.hasAny {
		fail(w, http.StatusBadRequest, codeEmptyMessage, "Cannot send an empty message")
		return
	}

	switch body.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		m := f.newMessageLocked(KindResponse, p.channelID, d)
		m.InteractionID = p.id
		f.storeMessageLocked(m)
		p.originalID = m.ID
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		m := f.newMessageLocked(KindResponse, p.channelID, &decoded{})
		m.InteractionID = p.id
		m.Flags = d.Flags&discordgo.MessageFlagsEphemeral | discordgo.MessageFlagsLoading
		f.storeMessageLocked(m)
		p.originalID = m.ID
	case discordgo.InteractionResponseDeferredMessageUpdate:
		p.originalID = p.messageID
	case discordgo.InteractionResponseUpdateMessage:
		p.originalID = p.messageID
		if m := f.rest.msgByID[p.messageID]; m != nil && !m.Deleted {
			if !f.applyEdit(m, d) {
				fail(w, http.StatusBadRequest, codeEmptyMessage, "Cannot send an empty message")
				return
			}
		}
	}
	cb := Callback{
		InteractionID: p.id, Token: p.token, InteractionType: p.typ, Type: body.Type,
		Data: d.Payload, HasData: len(data) > 0 || len(files) > 0, Received: now, Latency: now.Sub(p.dispatched),
	}
	cb.Data.Attachments = nil
	if m := f.rest.msgByID[p.originalID]; m != nil && len(d.files) > 0 {
		switch body.Type {
		case discordgo.InteractionResponseChannelMessageWithSource:
			cb.Data.Attachments = append([]Attachment(nil), m.Attachments...)
		case discordgo.InteractionResponseUpdateMessage:
			cb.Data.Attachments = append([]Attachment(nil), m.Attachments[len(m.Attachments)-len(d.files):]...)
		}
	}
	p.callback = &cb
	f.rest.callbacks = append(f.rest.callbacks, cb)
	close(p.done)
	f.notifyLocked()
	w.WriteHeader(http.StatusNoContent)
}

// webhookInteractionLocked finds the interaction behind a webhook route,
// answering 404 itself when there is none.
func (f *Fake) webhookInteractionLocked(w http.ResponseWriter, r *http.Request) *pending {
	p := f.rest.byToken[r.PathValue("token")]
	if r.PathValue("app") != f.AppID || p == nil || p.callback == nil || f.tokenExpiredLocked(p) {
		fail(w, http.StatusNotFound, codeUnknownWebhook, "Unknown Webhook")
		return nil
	}
	return p
}

// webhookMessageLocked resolves "@original" or a followup ID.
func (f *Fake) webhookMessageLocked(w http.ResponseWriter, p *pending, id string) *Message {
	if id == "@original" {
		id = p.originalID
	} else if id != p.originalID && !contains(p.followups, id) {
		id = ""
	}
	m := f.rest.msgByID[id]
	if id == "" || m == nil || m.Deleted {
		fail(w, http.StatusNotFound, codeUnknownMessage, "Unknown Message")
		return nil
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (f *Fake) postFollowup(w http.ResponseWriter, r *http.Request) {
	d, ok := decodeRequest(w, r)
	if !ok || !checkNewMessage(w, d, "") {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.webhookInteractionLocked(w, r)
	if p == nil {
		return
	}
	if p.userInstall && f.followupCountLocked(p) >= maxUserInstallFollowups {
		fail(w, http.StatusBadRequest, codeGeneral, fmt.Sprintf("An app installed by a user only may create %d followups per interaction", maxUserInstallFollowups))
		return
	}
	var m *Message
	if orig := f.rest.msgByID[p.originalID]; orig != nil && !orig.Deleted && orig.Flags&discordgo.MessageFlagsLoading != 0 && len(p.followups) == 0 {
		// The first followup after a deferred response fills it in, keeping
		// the deferral's ephemeral flag (unless it was deleted: then the followup
		// is a message of its own).
		ephemeral := orig.Flags & discordgo.MessageFlagsEphemeral
		orig.Payload = d.Payload
		orig.Attachments = f.newAttachments(d, p.channelID)
		orig.Flags = d.Flags&editedFlags | ephemeral
		m = orig
	} else {
		m = f.newMessageLocked(KindFollowup, p.channelID, d)
		m.InteractionID = p.id
		m.Flags = d.Flags & (editedFlags | discordgo.MessageFlagsEphemeral | discordgo.MessageFlagsSuppressNotifications)
		f.storeMessageLocked(m)
	}
	p.followups = append(p.followups, m.ID)
	f.notifyLocked()
	if r.URL.Query().Get("wait") != "true" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, http.StatusOK, f.wireMessageLocked(m))
}

func (f *Fake) getWebhookMessage(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.webhookInteractionLocked(w, r)
	if p == nil {
		return
	}
	if m := f.webhookMessageLocked(w, p, r.PathValue("msg")); m != nil {
		writeJSON(w, http.StatusOK, f.wireMessageLocked(m))
	}
}

func (f *Fake) patchWebhookMessage(w http.ResponseWriter, r *http.Request) {
	d, ok := decodeRequest(w, r)
	if !ok || !checkEdit(w, d) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.webhookInteractionLocked(w, r)
	if p == nil {
		return
	}
	m := f.webhookMessageLocked(w, p, r.PathValue("msg"))
	if m == nil {
		return
	}
	if !f.applyEdit(m, d) {
		fail(w, http.StatusBadRequest, codeEmptyMessage, "Cannot send an empty message")
		return
	}
	f.notifyLocked()
	writeJSON(w, http.StatusOK, f.wireMessageLocked(m))
}

func (f *Fake) deleteWebhookMessage(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.webhookInteractionLocked(w, r)
	if p == nil {
		return
	}
	m := f.webhookMessageLocked(w, p, r.PathValue("msg"))
	if m == nil {
		return
	}
	m.Deleted = true
	f.notifyLocked()
	w.WriteHeader(http.StatusNoContent)
}

// followupCountLocked counts the followup messages of an interaction (a deferral's
// filling-in of its original response is not one).
func (f *Fake) followupCountLocked(p *pending) int {
	n := 0
	for _, id := range p.followups {
		if id != p.originalID {
			n++
		}
	}
	return n
}
