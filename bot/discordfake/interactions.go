package discordfake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// ErrLate is returned when the bot's callback came after the interaction
// deadline (Discord's 3 seconds) and was refused.
var ErrLate = errors.New("discordfake: interaction callback came after the deadline")

// pending is a dispatched interaction; Fake.mu guards it.
type pending struct {
	id, token          string
	typ                discordgo.InteractionType
	guildID, channelID string
	messageID          string // the message of a component (or of a modal opened from one)
	dispatched         time.Time
	// issued is when the interaction was created on the fake's clock: its token's
	// webhook routes expire WebhookTokenLifetime later.
	issued time.Time
	// userInstall: the interaction came from a place where only a user installed the
	// app (places.go), where an interaction takes at most maxUserInstallFollowups.
	userInstall bool
	callback    *Callback
	late        time.Duration // set when a callback was refused as late
	done        chan struct{} // closed on callback or refusal
	originalID  string
	followups   []string
}

// memberPermissions are what an ordinary member may do in a text channel.
const memberPermissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionReadMessageHistory | discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles |
	discordgo.PermissionAddReactions | discordgo.PermissionUseExternalEmojis | discordgo.PermissionUseApplicationCommands |
	discordgo.PermissionSendMessagesInThreads | discordgo.PermissionCreatePublicThreads

// botPermissions are the bot's permissions in every channel.
const botPermissions = memberPermissions | discordgo.PermissionManageMessages | discordgo.PermissionManageThreads |
	discordgo.PermissionCreatePrivateThreads

// InteractionSpec describes an interaction a user performs. Build one with
// Command, Autocomplete, Button, Select or ModalSubmit and adjust it with
// From, In, InDM and OnMessage.
type InteractionSpec struct {
	Type discordgo.InteractionType

	// Name, CommandType and Options describe an application command or an
	// autocomplete request. The command must be registered; options are
	// checked against its definition, and an option of type 0 takes the
	// type the definition gives it.
	Name        string
	CommandType discordgo.ApplicationCommandType
	Options     []*discordgo.ApplicationCommandInteractionDataOption
	// TargetID is the user a user context menu command is used on (UserMenu).
	TargetID string

	// CustomID, ComponentType and Values describe a component interaction
	// or, with Fields, a modal submission.
	CustomID      string
	ComponentType discordgo.ComponentType
	Values        []string
	Fields        []TextValue

	// MessageID is the message carrying the component; when empty, the
	// newest message in the channel with a component of CustomID is used.
	MessageID string

	// GuildID and ChannelID say where (default: the fake's first guild and
	// channel); DM sends it from a direct message instead.
	GuildID, ChannelID string
	DM                 bool
	// User is who acts (default: Fake.User). Roles and Permissions are the
	// member's (default: none and an ordinary member's).
	User        *discordgo.User
	Roles       []string
	Permissions int64
	Locale      discordgo.Locale
}

// TextValue is what a user typed into one text input of a modal.
type TextValue struct {
	CustomID, Value string
}

// Command builds a slash command invocation.
func Command(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) InteractionSpec {
	return InteractionSpec{Type: discordgo.InteractionApplicationCommand, Name: name, CommandType: discordgo.ChatApplicationCommand, Options: opts}
}

// UserMenu builds the use of the user context menu command name on the user
// targetID (right-click a member, Apps); the target is in the resolved data.
func UserMenu(name, targetID string) InteractionSpec {
	return InteractionSpec{Type: discordgo.InteractionApplicationCommand, Name: name, CommandType: discordgo.UserApplicationCommand, TargetID: targetID}
}

// Autocomplete builds an autocomplete request; mark the option being typed
// with Focused.
func Autocomplete(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) InteractionSpec {
	s := Command(name, opts...)
	s.Type = discordgo.InteractionApplicationCommandAutocomplete
	return s
}

// Button builds a click on the button with customID.
func Button(customID string) InteractionSpec {
	return InteractionSpec{Type: discordgo.InteractionMessageComponent, CustomID: customID, ComponentType: discordgo.ButtonComponent}
}

// Select builds a choice in the string select menu with customID.
func Select(customID string, values ...string) InteractionSpec {
	return InteractionSpec{Type: discordgo.InteractionMessageComponent, CustomID: customID, ComponentType: discordgo.SelectMenuComponent, Values: values}
}

// ModalSubmit builds the submission of the modal with customID, which the
// bot must have shown (callback type 9).
func ModalSubmit(customID string, fields ...TextValue) InteractionSpec {
	return InteractionSpec{Type: discordgo.InteractionModalSubmit, CustomID: customID, Fields: fields}
}

// From sets who performs the interaction.
func (s InteractionSpec) From(u *discordgo.User) InteractionSpec { s.User = u; return s }

// In sets the guild and channel of the interaction.
func (s InteractionSpec) In(guildID, channelID string) InteractionSpec {
	s.GuildID, s.ChannelID, s.DM = guildID, channelID, false
	return s
}

// At makes the interaction come from a channel where the bot is not a member
// (AddPrivateDM, AddGroupDM, AddGuildWithoutBot), through the user's install of the
// app.
func (s InteractionSpec) At(channelID string) InteractionSpec {
	s.ChannelID, s.GuildID, s.DM = channelID, "", false
	return s
}

// InDM makes the interaction come from the user's direct messages with the bot.
func (s InteractionSpec) InDM() InteractionSpec { s.DM = true; s.GuildID = ""; return s }

// OnMessage sets the message the component is on.
func (s InteractionSpec) OnMessage(messageID string) InteractionSpec {
	s.MessageID = messageID
	return s
}

func option(name string, t discordgo.ApplicationCommandOptionType, v any) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: t, Value: v}
}

// StringOpt is a string option.
func StringOpt(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
	return option(name, discordgo.ApplicationCommandOptionString, v)
}

// IntOpt is an integer option.
func IntOpt(name string, v int64) *discordgo.ApplicationCommandInteractionDataOption {
	return option(name, discordgo.ApplicationCommandOptionInteger, v)
}

// NumberOpt is a number option.
func NumberOpt(name string, v float64) *discordgo.ApplicationCommandInteractionDataOption {
	return option(name, discordgo.ApplicationCommandOptionNumber, v)
}

// BoolOpt is a boolean option.
func BoolOpt(name string, v bool) *discordgo.ApplicationCommandInteractionDataOption {
	return option(name, discordgo.ApplicationCommandOptionBoolean, v)
}

// UserOpt is a user option; the user appears in the resolved data.
func UserOpt(name, userID string) *discordgo.ApplicationCommandInteractionDataOption {
	return option(name, discordgo.ApplicationCommandOptionUser, userID)
}

// ChannelOpt is a channel option; the channel appears in the resolved data.
func ChannelOpt(name, channelID string) *discordgo.ApplicationCommandInteractionDataOption {
	return option(name, discordgo.ApplicationCommandOptionChannel, channelID)
}

// SubCommand is a subcommand with its options.
func SubCommand(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}
}

// SubCommandGroup is a subcommand group holding one subcommand.
func SubCommandGroup(name string, sub *discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommandGroup, Options: []*discordgo.ApplicationCommandInteractionDataOption{sub}}
}

// Focused marks an option as the one being typed in an autocomplete request.
func Focused(o *discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	c := *o
	c.Focused = true
	return &c
}

// InteractionResult is a dispatched interaction and the bot's answer.
type InteractionResult struct {
	ID, Token string
	// Payload is the INTERACTION_CREATE data as dispatched.
	Payload json.RawMessage
	// Seq is the gateway sequence number of the dispatch.
	Seq      int64
	Callback Callback
	// Latency is the time from dispatch to the callback's arrival.
	Latency time.Duration
}

// SendInteraction dispatches an INTERACTION_CREATE built from spec with a
// fresh interaction ID and token, waits until the bot's callback arrives
// and returns it. It waits for a gateway session covering the guild's shard
// if there is none yet. With SetInteractionsURL it POSTs the interaction to
// the bot's endpoint instead and takes the HTTP response as the callback. It fails if ctx ends first, if the callback came
// after the deadline (ErrLate), or if spec names something the bot never
// offered (ErrUnknownCommand, ErrNoComponent).
func (f *Fake) SendInteraction(ctx context.Context, spec InteractionSpec) (*InteractionResult, error) {
	payload, err := f.buildInteraction(spec)
	if err != nil {
		return nil, err
	}
	return f.send(ctx, payload)
}

// SendRawInteraction dispatches an interaction from raw JSON, such as a
// payload copied from Discord's documentation, and waits for the callback
// like SendInteraction. The fake replaces id, token and application_id
// with its own so the bot's answer can reach it; everything else is sent
// as given.
func (f *Fake) SendRawInteraction(ctx context.Context, raw []byte) (*InteractionResult, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode raw interaction: %w", err)
	}
	if m == nil {
		return nil, errors.New("decode raw interaction: not an object")
	}
	return f.send(ctx, m)
}

// send registers, dispatches and awaits an interaction payload.
func (f *Fake) send(ctx context.Context, m map[string]any) (*InteractionResult, error) {
	return f.sendTo(ctx, m, f.InteractionsURL())
}

// sendTo is send with the interactions endpoint given: hookURL, or the gateway when
// it is "".
func (f *Fake) sendTo(ctx context.Context, m map[string]any, hookURL string) (*InteractionResult, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode interaction: %w", err)
	}
	var head struct {
		Type      discordgo.InteractionType `json:"type"`
		GuildID   string                    `json:"guild_id"`
		ChannelID string                    `json:"channel_id"`
		Message   *struct {
			ID string `json:"id"`
		} `json:"message"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("decode interaction: %w", err)
	}
	guildID, messageID := head.GuildID, ""
	if head.Message != nil {
		messageID = head.Message.ID
	}
	var s *session
	if hookURL == "" {
		if s, err = f.awaitSession(ctx, guildID); err != nil {
			return nil, err
		}
	}
	p := &pending{
		id: f.ids.next(), token: "fake-interaction." + randomHex(32), typ: head.Type,
		guildID: guildID, channelID: head.ChannelID, messageID: messageID, done: make(chan struct{}),
	}
	m["id"], m["token"], m["application_id"] = p.id, p.token, f.AppID
	payload, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode interaction: %w", err)
	}
	f.mu.Lock()
	p.userInstall = f.places[head.ChannelID] != nil
	f.rest.interactions[p.id] = p
	f.rest.byToken[p.token] = p
	p.dispatched = time.Now()
	p.issued = f.now()
	if hookURL != "" {
		f.openHTTPLocked(p.token)
	}
	f.mu.Unlock()
	if hookURL != "" {
		return f.deliver(ctx, hookURL, p, payload)
	}
	seq, err := s.dispatch("INTERACTION_CREATE", json.RawMessage(payload))
	if err != nil {
		return nil, err
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for callback to interaction %s: %w", p.id, ctx.Err())
	case <-f.done:
		return nil, fmt.Errorf("wait for callback to interaction %s: %w", p.id, ErrClosed)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if p.callback == nil {
		return nil, fmt.Errorf("interaction %s answered %v after dispatch, deadline %v: %w", p.id, p.late, f.cfg.deadline, ErrLate)
	}
	return &InteractionResult{ID: p.id, Token: p.token, Payload: payload, Seq: seq, Callback: *p.callback, Latency: p.callback.Latency}, nil
}

// awaitSession waits until a gateway session covers a guild's shard.
func (f *Fake) awaitSession(ctx context.Context, guildID string) (*session, error) {
	for {
		f.mu.Lock()
		s := f.sessionForLocked(guildID)
		ch, closed := f.changed, f.closed
		f.mu.Unlock()
		if closed {
			return nil, ErrClosed
		}
		if s != nil {
			return s, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for a gateway session for guild %q: %w (%w)", guildID, ErrNoSession, ctx.Err())
		}
	}
}

// wireOption is an option as Discord sends it: value always present.
type wireOption struct {
	Name    string                                 `json:"name"`
	Type    discordgo.ApplicationCommandOptionType `json:"type"`
	Value   any                                    `json:"value,omitempty"`
	Options []wireOption                           `json:"options,omitempty"`
	Focused bool                                   `json:"focused,omitempty"`
}

type zeroValue struct{ v any }

func (z zeroValue) MarshalJSON() ([]byte, error) { return json.Marshal(z.v) }

func (f *Fake) buildInteraction(spec InteractionSpec) (map[string]any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	user := spec.User
	if user == nil {
		user = f.User
	}
	if spec.Locale == "" {
		spec.Locale = discordgo.EnglishUS
	}
	perms := spec.Permissions
	if perms == 0 {
		perms = memberPermissions
	}
	m := map[string]any{
		"type": spec.Type, "version": 1, "locale": spec.Locale, "entitlements": []any{},
		"app_permissions": fmt.Sprint(botPermissions),
	}
	pl := f.places[spec.ChannelID]
	if spec.DM {
		pl = nil
	}
	if pl != nil {
		if err := f.placeInteractionLocked(m, &spec, pl, user, perms); err != nil {
			return nil, err
		}
	} else if spec.DM {
		var dm *discordgo.Channel
		for _, ch := range f.channels {
			if ch.Type == discordgo.ChannelTypeDM && len(ch.Recipients) == 1 && ch.Recipients[0].ID == user.ID {
				dm = ch
			}
		}
		if dm == nil {
			dm = &discordgo.Channel{ID: f.ids.next(), Type: discordgo.ChannelTypeDM, Recipients: []*discordgo.User{copyUser(user)}}
			f.channels[dm.ID] = dm
		}
		spec.ChannelID = dm.ID
		m["user"] = user
		m["context"] = discordgo.InteractionContextBotDM
		m["authorizing_integration_owners"] = map[string]string{"1": user.ID}
	} else {
		if spec.GuildID == "" {
			spec.GuildID = f.GuildID
		}
		if spec.ChannelID == "" {
			spec.ChannelID = f.ChannelID
		}
		g := f.guildLocked(spec.GuildID)
		if g == nil {
			return nil, fmt.Errorf("interaction in unknown guild %s", spec.GuildID)
		}
		roles := spec.Roles
		if roles == nil {
			roles = []string{}
		}
		m["guild_id"] = spec.GuildID
		m["guild_locale"] = discordgo.EnglishUS
		m["member"] = map[string]any{
			"user": user, "roles": roles, "permissions": fmt.Sprint(perms), "joined_at": g.joined,
			"deaf": false, "mute": false, "flags": 0, "pending": false, "nick": nil,
		}
		m["context"] = discordgo.InteractionContextGuild
		m["authorizing_integration_owners"] = map[string]string{"0": spec.GuildID}
	}
	ch := f.channels[spec.ChannelID]
	if ch == nil || ch.GuildID != spec.GuildID {
		return nil, fmt.Errorf("interaction in unknown channel %s of guild %q", spec.ChannelID, spec.GuildID)
	}
	m["channel_id"] = ch.ID
	m["channel"] = copyChannel(ch)

	switch spec.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		if pl != nil {
			if err := f.installedForLocked(spec, pl.context); err != nil {
				return nil, err
			}
		}
		data, err := f.commandDataLocked(spec)
		if err != nil {
			return nil, err
		}
		m["data"] = data
	case discordgo.InteractionMessageComponent:
		msg, err := f.componentMessageLocked(spec)
		if err != nil {
			return nil, err
		}
		m["message"] = msg
		data := map[string]any{"custom_id": spec.CustomID, "component_type": spec.ComponentType}
		if isSelect(spec.ComponentType) {
			values := spec.Values
			if values == nil {
				values = []string{}
			}
			data["values"] = values
		}
		m["data"] = data
	case discordgo.InteractionModalSubmit:
		data, err := f.modalDataLocked(spec)
		if err != nil {
			return nil, err
		}
		if spec.MessageID != "" {
			if msg := f.rest.msgByID[spec.MessageID]; msg != nil {
				m["message"] = f.wireMessageLocked(msg)
			}
		}
		m["data"] = data
	default:
		return nil, fmt.Errorf("interaction type %d: not one the fake can send", spec.Type)
	}
	return m, nil
}

func (f *Fake) commandDataLocked(spec InteractionSpec) (map[string]any, error) {
	ct := spec.CommandType
	if ct == 0 {
		ct = discordgo.ChatApplicationCommand
	}
	gid := spec.GuildID
	def := f.commandLocked(gid, spec.Name, ct, spec.Locale)
	if def == nil {
		return nil, fmt.Errorf("interaction for /%s: %w", spec.Name, ErrUnknownCommand)
	}
	resolved := map[string]map[string]any{}
	opts, err := f.invocationLocked(def.Name, def.Options, spec.Options, spec.Type == discordgo.InteractionApplicationCommandAutocomplete, resolved, spec.Locale)
	if err != nil {
		return nil, err
	}
	data := map[string]any{"id": def.ID, "name": def.Name, "type": ct}
	if ct == discordgo.UserApplicationCommand {
		if f.users[spec.TargetID] == nil {
			return nil, fmt.Errorf("user menu %q on unknown user %q", spec.Name, spec.TargetID)
		}
		data["target_id"] = spec.TargetID
		f.resolveLocked(discordgo.ApplicationCommandOptionUser, spec.TargetID, resolved)
	}
	if len(opts) > 0 {
		data["options"] = opts
	}
	if def.GuildID != "" {
		data["guild_id"] = def.GuildID
	}
	if len(resolved) > 0 {
		data["resolved"] = resolved
	}
	return data, nil
}

// invocationLocked checks given options against their definitions and
// converts them to the wire form, collecting resolved users and channels. A
// given option may be named as the member's locale names it; the wire form
// carries its canonical name, as Discord sends it whatever the member's
// language.
func (f *Fake) invocationLocked(path string, defs []*discordgo.ApplicationCommandOption, given []*discordgo.ApplicationCommandInteractionDataOption, partial bool, resolved map[string]map[string]any, loc discordgo.Locale) ([]wireOption, error) {
	var out []wireOption
	seen := map[string]bool{}
	for _, o := range given {
		var def *discordgo.ApplicationCommandOption
		for _, d := range defs {
			if d.Name == o.Name || (loc != "" && d.NameLocalizations[loc] == o.Name) {
				def = d
			}
		}
		if def == nil {
			return nil, fmt.Errorf("/%s has no option %q: %w", path, o.Name, ErrUnknownCommand)
		}
		t := o.Type
		if t == 0 {
			t = def.Type
		}
		if t != def.Type {
			return nil, fmt.Errorf("/%s option %q is of type %d, not %d", path, o.Name, def.Type, t)
		}
		seen[def.Name] = true
		w := wireOption{Name: def.Name, Type: t, Focused: o.Focused}
		switch t {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			sub, err := f.invocationLocked(path+" "+def.Name, def.Options, o.Options, partial, resolved, loc)
			if err != nil {
				return nil, err
			}
			w.Options = sub
		default:
			w.Value = zeroValue{o.Value}
			if !o.Focused && len(def.Choices) > 0 && !slices.ContainsFunc(def.Choices, func(c *discordgo.ApplicationCommandOptionChoice) bool {
				return fmt.Sprint(c.Value) == fmt.Sprint(o.Value)
			}) {
				return nil, fmt.Errorf("/%s option %q: %v is not one of its choices", path, o.Name, o.Value)
			}
			f.resolveLocked(t, o.Value, resolved)
		}
		out = append(out, w)
	}
	if !partial {
		for _, d := range defs {
			if d.Required && !seen[d.Name] {
				return nil, fmt.Errorf("/%s: required option %q missing", path, d.Name)
			}
		}
	}
	return out, nil
}

func (f *Fake) resolveLocked(t discordgo.ApplicationCommandOptionType, v any, resolved map[string]map[string]any) {
	id, _ := v.(string)
	add := func(kind string, obj any) {
		if resolved[kind] == nil {
			resolved[kind] = map[string]any{}
		}
		resolved[kind][id] = obj
	}
	switch t {
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		if u := f.users[id]; u != nil {
			add("users", u)
		}
	case discordgo.ApplicationCommandOptionChannel:
		if ch := f.channels[id]; ch != nil {
			add("channels", map[string]any{"id": ch.ID, "name": ch.Name, "type": ch.Type, "parent_id": ch.ParentID, "permissions": fmt.Sprint(memberPermissions)})
		}
	}
}

// componentMessageLocked finds the message a component interaction acts on.
func (f *Fake) componentMessageLocked(spec InteractionSpec) (any, error) {
	var msg *Message
	if spec.MessageID != "" {
		msg = f.rest.msgByID[spec.MessageID]
		if msg == nil {
			return map[string]any{"id": spec.MessageID, "channel_id": spec.ChannelID}, nil
		}
	} else {
		list := f.rest.messages[spec.ChannelID]
		for i := len(list) - 1; i >= 0; i-- {
			if !list[i].Deleted && list[i].HasCustomID(spec.CustomID) {
				msg = list[i]
				break
			}
		}
	}
	if msg == nil || msg.Deleted {
		return nil, fmt.Errorf("component %q in channel %s: %w", spec.CustomID, spec.ChannelID, ErrNoComponent)
	}
	c := findComponent(msg.tree, spec.CustomID)
	if c == nil {
		return nil, fmt.Errorf("component %q on message %s: %w", spec.CustomID, msg.ID, ErrNoComponent)
	}
	if c.Disabled {
		return nil, fmt.Errorf("component %q on message %s is disabled: %w", spec.CustomID, msg.ID, ErrNoComponent)
	}
	if c.Type != spec.ComponentType {
		return nil, fmt.Errorf("component %q on message %s has type %d, not %d", spec.CustomID, msg.ID, c.Type, spec.ComponentType)
	}
	if c.Type == discordgo.SelectMenuComponent {
		lo, hi := 1, 1
		if c.MinValues != nil {
			lo = *c.MinValues
		}
		if c.MaxValues != nil {
			hi = *c.MaxValues
		}
		if len(spec.Values) < lo || len(spec.Values) > hi {
			return nil, fmt.Errorf("select %q takes %d to %d values, not %d", spec.CustomID, lo, hi, len(spec.Values))
		}
		for _, v := range spec.Values {
			if !slices.ContainsFunc(c.Options, func(o selectOption) bool { return o.Value == v }) {
				return nil, fmt.Errorf("select %q has no option %q", spec.CustomID, v)
			}
		}
	}
	return f.wireMessageLocked(msg), nil
}

// modalDataLocked checks a modal submission against the modal the bot showed.
func (f *Fake) modalDataLocked(spec InteractionSpec) (map[string]any, error) {
	var modal *Callback
	for i := len(f.rest.callbacks) - 1; i >= 0; i-- {
		cb := &f.rest.callbacks[i]
		if cb.Type == discordgo.InteractionResponseModal && cb.Data.CustomID == spec.CustomID {
			modal = cb
			break
		}
	}
	if modal == nil {
		return nil, fmt.Errorf("modal %q was never shown: %w", spec.CustomID, ErrNoComponent)
	}
	rows := []map[string]any{}
	for _, fv := range spec.Fields {
		if !modal.Data.HasCustomID(fv.CustomID) {
			return nil, fmt.Errorf("modal %q has no text input %q: %w", spec.CustomID, fv.CustomID, ErrNoComponent)
		}
		rows = append(rows, map[string]any{
			"type":       discordgo.ActionsRowComponent,
			"components": []map[string]any{{"type": discordgo.TextInputComponent, "custom_id": fv.CustomID, "value": fv.Value}},
		})
	}
	return map[string]any{"custom_id": spec.CustomID, "components": rows}, nil
}
