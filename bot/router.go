package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
)

// Router routes interactions to the commands' handlers and delivers their answers.
// It is safe for concurrent use: each interaction is served on its own goroutine.
type Router struct {
	cmds       map[string]commands.Command
	complete   map[string]commands.Autocompleter
	components map[string]commands.Handler
	defs       []*discordgo.ApplicationCommand
	middleware []commands.Middleware
	log        *slog.Logger
	now        func() time.Time
	seen       *seenSet
	claim      func(ctx context.Context, interactionID string) (bool, error)
	inflight   sync.WaitGroup
	metrics    *Metrics
	// completions limits each user's autocomplete requests (sent as people type, so
	// not counted by the per-user command limit): past it they get no choices, and no
	// handler runs.
	completions *userLimiter
	// slots holds a token per interaction being served: when all are taken (a slow
	// dependency holds them), the next interactions are told the bot is busy at once
	// instead of piling up goroutines and memory behind it.
	slots chan struct{}
}

// DefaultMaxInFlight is the most interactions a process serves at once unless
// RouterOptions.MaxInFlight says otherwise: far more than a healthy process has (an
// interaction takes milliseconds to a few seconds), few enough that the goroutines and
// memory they hold stay small when a dependency stalls.
const DefaultMaxInFlight = 512

// busyMessage answers an interaction that finds every slot taken.
const busyMessage = "Gambit is too busy to answer right now. Please try again in a few seconds."

// Each user's autocomplete requests: a burst of completionBurst, then completionRate a
// second. Discord sends one request per keystroke, a few a second at most for a fast
// typist; a script sending more gets empty lists.
const (
	completionBurst = 40
	completionRate  = 4
)

// claimTimeout bounds the shared duplicate check of one interaction (RouterOptions.Claim).
const claimTimeout = 2 * time.Second

// RouterOptions configures a Router.
type RouterOptions struct {
	// Middleware wraps every handler, the first outermost.
	Middleware []commands.Middleware
	Log        *slog.Logger
	// Now is the clock (default time.Now).
	Now     func() time.Time
	Metrics *Metrics
	// MaxInFlight bounds the interactions served at once, their answers, edits,
	// followups and Then included (default DefaultMaxInFlight); one more is answered
	// busyMessage, privately, and no handler runs.
	MaxInFlight int
	// Claim, if set, is the duplicate check shared by every process of the bot (the
	// store's): it records an interaction id as delivered and reports whether it was
	// the first delivery. An interaction it reports delivered before is ignored, as one
	// this process saw already is; when it fails, the interaction is served (the
	// receipts still keep its writes once) and the failure logged.
	Claim func(ctx context.Context, interactionID string) (first bool, err error)
}

// NewRouter builds a router for cmds and gives the list to the commands that list
// them (commands.Indexer: /help). Two commands with one name, or two handlers of one
// component route, are an error.
func NewRouter(cmds []commands.Command, opt RouterOptions) (*Router, error) {
	r := &Router{
		cmds:       map[string]commands.Command{},
		complete:   map[string]commands.Autocompleter{},
		components: map[string]commands.Handler{},
		middleware: opt.Middleware,
		log:        opt.Log,
		now:        opt.Now,
		seen:       newSeenSet(4096),
		claim:      opt.Claim,
		metrics:    opt.Metrics,
		slots:      make(chan struct{}, cmp.Or(max(opt.MaxInFlight, 0), DefaultMaxInFlight)),
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.now == nil {
		r.now = time.Now
	}
	r.completions = &userLimiter{rate: completionRate, burst: completionBurst, buckets: map[string]*bucket{}, now: r.now}
	for _, c := range cmds {
		def := c.Definition()
		if def == nil || def.Name == "" {
			return nil, fmt.Errorf("command %T has no name", c)
		}
		if _, dup := r.cmds[def.Name]; dup {
			return nil, fmt.Errorf("two commands named %q", def.Name)
		}
		r.cmds[def.Name] = c
		localized, missing := commands.Localize(def)
		if len(missing) > 0 {
			r.log.Warn("commands: texts not translated, shown in English", "command", def.Name, "missing", missing)
		}
		r.defs = append(r.defs, localized)
		if a, ok := c.(commands.Autocompleter); ok {
			r.complete[def.Name] = a
		}
		if cp, ok := c.(commands.Componenter); ok {
			for route, h := range cp.Components() {
				if _, dup := r.components[route]; dup {
					return nil, fmt.Errorf("component route %q claimed twice (by /%s)", route, def.Name)
				}
				r.components[route] = h
			}
		}
	}
	for _, c := range cmds {
		if ix, ok := c.(commands.Indexer); ok {
			ix.Index(cmds)
		}
	}
	sort.Slice(r.defs, func(i, j int) bool { return r.defs[i].Name < r.defs[j].Name })
	return r, nil
}

// Definitions returns the command definitions, sorted by name and localized in every
// shipped language (commands.Localize), for the bulk overwrite.
func (r *Router) Definitions() []*discordgo.ApplicationCommand {
	return append([]*discordgo.ApplicationCommand(nil), r.defs...)
}

// Wait blocks until every interaction being served has been answered.
func (r *Router) Wait() { r.inflight.Wait() }

// Serve answers one interaction: it decodes it, runs its handler through the
// middlewares, and sends the answer with s. It returns when the answer (and the
// response's Then) is done. A repeated interaction ID is ignored: a duplicate has
// exactly one effect.
func (r *Router) Serve(ctx context.Context, s Sender, i *discordgo.Interaction) {
	if i == nil || i.ID == "" {
		return
	}
	if !r.seen.add(i.ID) {
		r.log.Debug("duplicate interaction ignored", "interaction", i.ID)
		r.metrics.duplicate()
		return
	}
	r.inflight.Add(1)
	defer r.inflight.Done()
	select {
	case r.slots <- struct{}{}:
		defer func() { <-r.slots }()
	default:
		r.busy(ctx, s, i)
		return
	}
	if r.claim != nil {
		// Bounded on its own, not by the interaction's deadline: a replay's deadline,
		// read from its id, is long past, and the check must still run.
		claimCtx, cancel := context.WithTimeout(ctx, claimTimeout)
		first, err := r.claim(claimCtx, i.ID)
		cancel()
		switch {
		case err != nil:
			r.log.Warn("interaction: the shared duplicate check failed; served anyway", "interaction", i.ID, "err", err)
			r.metrics.failed("claim")
		case !first:
			r.log.Info("duplicate interaction ignored: delivered to another process before", "interaction", i.ID)
			r.metrics.duplicate()
			return
		}
	}
	received := r.now()
	req, h := r.prepare(i, received)
	rs := &responder{sender: s, i: i}
	req.Responder = rs
	for k := len(r.middleware) - 1; k >= 0; k-- {
		h = r.middleware[k](h)
	}
	// The first answer must reach Discord by the deadline; keep a margin for the trip.
	cbCtx, cancel := context.WithDeadline(ctx, req.Deadline.Add(-150*time.Millisecond))
	defer cancel()
	resp, err := h(cbCtx, req)
	if err != nil {
		resp = errorResponse(req, err)
	}
	if resp == nil {
		resp = commands.Private("Done.")
	}
	sendCtx := cbCtx
	if rs.Deferred() {
		// After a deferral the interaction token lasts 15 minutes; a few seconds do.
		var cancel2 context.CancelFunc
		sendCtx, cancel2 = context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel2()
	}
	if err := rs.send(sendCtx, resp); err != nil {
		req.Log.Error("answer interaction", "err", err)
		r.metrics.failed("respond")
		return
	}
	if resp.Then != nil {
		thenCtx, cancel3 := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel3()
		if err := resp.Then(thenCtx); err != nil {
			req.Log.Error("after answering", "err", err)
			r.metrics.failed("after")
		}
	}
}

// busy answers an interaction that found no free slot: privately, that the bot is
// busy (an autocomplete gets no choices), within the interaction's deadline.
func (r *Router) busy(ctx context.Context, s Sender, i *discordgo.Interaction) {
	r.metrics.failed("busy")
	r.log.Warn("interaction refused: too many in flight", "interaction", i.ID, "in_flight", cap(r.slots))
	ctx, cancel := context.WithDeadline(ctx, deadline(i.ID, r.now()).Add(-150*time.Millisecond))
	defer cancel()
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: busyMessage, Flags: discordgo.MessageFlagsEphemeral}}
	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}}
	}
	if err := s.Respond(ctx, i, resp, nil); err != nil {
		r.log.Error("answer interaction", "interaction", i.ID, "err", err)
	}
}

// prepare decodes the interaction into a Request and finds its handler.
func (r *Router) prepare(i *discordgo.Interaction, received time.Time) (*commands.Request, commands.Handler) {
	req := &commands.Request{
		Interaction: i,
		Guest:       commands.IsGuestPlace(i),
		GuildID:     i.GuildID,
		ChannelID:   i.ChannelID,
		Received:    received,
		Deadline:    deadline(i.ID, received),
		Message:     i.Message,
	}
	switch {
	case i.Member != nil && i.Member.User != nil:
		req.User = i.Member.User
		req.Permissions = i.Member.Permissions
	case i.User != nil:
		req.User = i.User
	default:
		req.User = &discordgo.User{}
	}
	log := r.log.With("interaction", i.ID, "guild", i.GuildID, "user", req.User.ID)
	if req.Guest {
		// A server without the bot is not one of Gambit's servers: nothing of it
		// (settings, ladder, games) is read or written.
		req.GuildID = ""
		log = log.With("guest", true)
	}
	var h commands.Handler
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
		if !ok {
			h = refuse(errors.New("application command without data"), "That command could not be read. Please try again.")
			break
		}
		req.Name = data.Name
		req.Resolved = data.Resolved
		req.TargetID = data.TargetID
		req.Sub, req.Options = flatten(data.Options)
		req.Focused = focused(req.Options)
		log = log.With("command", commandPath(req))
		c, ok := r.cmds[data.Name]
		switch {
		case data.CommandType == PrimaryEntryPointCommand && i.Type == discordgo.InteractionApplicationCommand:
			// The entry point, when the app handles it (EntryPointAppHandler): open the
			// Activity.
			h = func(context.Context, *commands.Request) (*commands.Response, error) {
				return &commands.Response{Kind: commands.LaunchActivity}, nil
			}
		case !ok:
			h = refuse(fmt.Errorf("unknown command %q", data.Name), "This command is not available any more.")
		case i.Type == discordgo.InteractionApplicationCommandAutocomplete:
			a := r.complete[data.Name]
			h = func(ctx context.Context, rq *commands.Request) (*commands.Response, error) {
				if a == nil {
					return &commands.Response{Kind: commands.ShowChoices}, nil
				}
				if _, ok := r.completions.take(rq.User.ID); !ok {
					rq.Log.Debug("autocomplete over the user's limit")
					return &commands.Response{Kind: commands.ShowChoices}, nil
				}
				ch, err := a.Autocomplete(ctx, rq)
				if err != nil {
					return nil, err
				}
				if len(ch) > 25 {
					ch = ch[:25]
				}
				return &commands.Response{Kind: commands.ShowChoices, Choices: ch}, nil
			}
		case commands.GuardServerThing(c, req) != nil:
			h = func(_ context.Context, rq *commands.Request) (*commands.Response, error) {
				return nil, commands.GuardServerThing(c, rq)
			}
		default:
			h = c.Handle
			if p, ok := c.(commands.PrivateAnswerer); ok {
				req.Private = p.AnswersPrivately(req)
			}
		}
	case discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit:
		var customID string
		if i.Type == discordgo.InteractionMessageComponent {
			data := i.MessageComponentData()
			customID, req.Values = data.CustomID, data.Values
		} else {
			data := i.ModalSubmitData()
			customID = data.CustomID
			req.Fields = modalFields(data.Components)
		}
		id, err := commands.ParseCustomID(customID)
		log = log.With("component", customID)
		switch {
		case errors.Is(err, commands.ErrCustomIDVersion):
			h = refuse(err, "This button comes from an older version of Gambit. Use /board for fresh buttons.")
		case err != nil:
			h = refuse(err, "This button could not be read. Use /board for fresh buttons.")
		default:
			req.ID = id
			req.Name = id.Route()
			if id.Kind == "game" {
				log = log.With("game", id.ID)
			}
			if ch, ok := r.components[id.Route()]; ok {
				h = ch
			} else {
				h = refuse(fmt.Errorf("no handler for route %q", id.Route()), "This button does nothing any more. Use /board for fresh buttons.")
			}
		}
	default:
		h = refuse(fmt.Errorf("interaction type %d", i.Type), "Gambit cannot answer this kind of interaction.")
	}
	req.Log = log
	return req, h
}

// discordEpoch is the instant of snowflake time 0 (2015-01-01, in ms since 1970).
const discordEpoch = 1420070400000

// deadline is when Discord stops accepting the first answer: three seconds after the
// interaction was created, which its ID (a snowflake) records, so time lost before it
// reached the bot (a busy gateway) counts. A clock that disagrees with Discord's by
// more than two seconds is not trusted that far: the bot then keeps at least one
// second, and never more than three from receipt.
func deadline(interactionID string, received time.Time) time.Time {
	latest := received.Add(commands.InteractionDeadline)
	id, err := strconv.ParseUint(interactionID, 10, 64)
	if err != nil || id>>22 == 0 {
		return latest
	}
	created := time.UnixMilli(int64(id>>22) + discordEpoch)
	d := created.Add(commands.InteractionDeadline)
	if earliest := received.Add(time.Second); d.Before(earliest) {
		d = earliest
	}
	if d.After(latest) {
		d = latest
	}
	return d
}

// refuse returns a handler that fails with a message for the user.
func refuse(cause error, msg string) commands.Handler {
	return func(context.Context, *commands.Request) (*commands.Response, error) {
		return nil, commands.Explain(cause, msg)
	}
}

// errorResponse is how every error reaches the user: ephemeral, pinging no one.
func errorResponse(req *commands.Request, err error) *commands.Response {
	var ue *commands.UserError
	switch {
	case errors.As(err, &ue) && ue.Private:
		req.Log.Info("refused", "reason", "private to the user")
	case ue != nil:
		req.Log.Info("refused", "reason", ue.Message, "err", err)
	default:
		req.Log.Error("handler failed", "err", err)
	}
	if req.IsAutocomplete() {
		return &commands.Response{Kind: commands.ShowChoices}
	}
	return &commands.Response{Content: commands.UserMessage(err), Ephemeral: true}
}

// flatten returns the subcommand path and the options under it.
func flatten(opts []*discordgo.ApplicationCommandInteractionDataOption) (string, []*discordgo.ApplicationCommandInteractionDataOption) {
	sub := ""
	for len(opts) == 1 && opts[0] != nil &&
		(opts[0].Type == discordgo.ApplicationCommandOptionSubCommand || opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
		if sub != "" {
			sub += " "
		}
		sub += opts[0].Name
		opts = opts[0].Options
	}
	return sub, opts
}

func focused(opts []*discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	for _, o := range opts {
		if o != nil && o.Focused {
			return o
		}
	}
	return nil
}

func commandPath(r *commands.Request) string {
	if r.Sub != "" {
		return r.Name + " " + r.Sub
	}
	return r.Name
}

func modalFields(rows []discordgo.MessageComponent) map[string]string {
	out := map[string]string{}
	for _, row := range rows {
		ar, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range ar.Components {
			if ti, ok := c.(*discordgo.TextInput); ok {
				out[ti.CustomID] = ti.Value
			}
		}
	}
	return out
}

// responder acknowledges and answers one interaction.
type responder struct {
	sender Sender
	i      *discordgo.Interaction

	mu           sync.Mutex
	deferred     bool
	deferredType discordgo.InteractionResponseType
	// deferredPrivate: the deferral's "thinking..." is shown to the user only.
	deferredPrivate bool
	answered        bool
}

// Defer implements commands.Responder: type 5 for commands (ephemeral when private),
// type 6 for components.
func (rs *responder) Defer(ctx context.Context, private bool) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.deferred || rs.answered {
		return nil
	}
	t := discordgo.InteractionResponseDeferredChannelMessageWithSource
	if rs.i.Type == discordgo.InteractionMessageComponent || (rs.i.Type == discordgo.InteractionModalSubmit && rs.i.Message != nil) {
		t = discordgo.InteractionResponseDeferredMessageUpdate
	}
	if rs.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		return errors.New("autocomplete cannot be deferred")
	}
	ir := &discordgo.InteractionResponse{Type: t}
	if private && t == discordgo.InteractionResponseDeferredChannelMessageWithSource {
		ir.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	if err := rs.sender.Respond(ctx, rs.i, ir, nil); err != nil {
		return err
	}
	rs.deferred, rs.deferredType, rs.deferredPrivate = true, t, ir.Data != nil
	return nil
}

// Deferred implements commands.Responder.
func (rs *responder) Deferred() bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.deferred
}

// send delivers the response: as the callback, or after a deferral as an edit of
// the original response or a followup.
func (rs *responder) send(ctx context.Context, resp *commands.Response) error {
	rs.mu.Lock()
	deferred, dt, private := rs.deferred, rs.deferredType, rs.deferredPrivate
	rs.answered = true
	rs.mu.Unlock()
	mentions := commands.AllowedMentions(resp.Mentions...)
	var flags discordgo.MessageFlags
	if resp.Ephemeral {
		flags = discordgo.MessageFlagsEphemeral
	}
	if !deferred {
		ir := &discordgo.InteractionResponse{Data: &discordgo.InteractionResponseData{
			Content: resp.Content, Embeds: resp.Embeds, Components: resp.Components,
			AllowedMentions: mentions, Flags: flags,
		}}
		switch resp.Kind {
		case commands.NewMessage:
			ir.Type = discordgo.InteractionResponseChannelMessageWithSource
		case commands.UpdateMessage:
			ir.Type = discordgo.InteractionResponseUpdateMessage
			if rs.i.Type != discordgo.InteractionMessageComponent && rs.i.Message == nil {
				ir.Type = discordgo.InteractionResponseChannelMessageWithSource
			} else {
				// An update is the whole new message: on Discord a null field means
				// "unchanged" (the old buttons would stay live), an empty list removes.
				if ir.Data.Components == nil {
					ir.Data.Components = []discordgo.MessageComponent{}
				}
				if ir.Data.Embeds == nil {
					ir.Data.Embeds = []*discordgo.MessageEmbed{}
				}
			}
			ir.Data.Flags = 0
			if len(resp.Files) > 0 {
				ir.Data.Attachments = &[]*discordgo.MessageAttachment{}
			}
		case commands.ShowChoices:
			ir.Type = discordgo.InteractionApplicationCommandAutocompleteResult
			ir.Data = &discordgo.InteractionResponseData{Choices: resp.Choices}
			if ir.Data.Choices == nil {
				ir.Data.Choices = []*discordgo.ApplicationCommandOptionChoice{}
			}
		case commands.ShowModal:
			ir.Type = discordgo.InteractionResponseModal
			ir.Data = &discordgo.InteractionResponseData{CustomID: resp.ModalID, Title: resp.ModalTitle, Components: resp.Components}
		case commands.LaunchActivity:
			ir = &discordgo.InteractionResponse{Type: InteractionResponseLaunchActivity}
		}
		return rs.sender.Respond(ctx, rs.i, ir, resp.Files)
	}
	if resp.Kind == commands.ShowChoices || resp.Kind == commands.ShowModal || resp.Kind == commands.LaunchActivity {
		return fmt.Errorf("response kind %d cannot follow a deferral", resp.Kind)
	}
	edit := func() error {
		content, comps, embeds := resp.Content, resp.Components, resp.Embeds
		if comps == nil {
			comps = []discordgo.MessageComponent{}
		}
		if embeds == nil {
			embeds = []*discordgo.MessageEmbed{}
		}
		e := &discordgo.WebhookEdit{Content: &content, Components: &comps, Embeds: &embeds, AllowedMentions: mentions}
		if len(resp.Files) > 0 {
			e.Attachments = &[]*discordgo.MessageAttachment{}
		}
		return rs.sender.EditOriginal(ctx, rs.i, e, resp.Files)
	}
	followup := func() error {
		return rs.sender.Followup(ctx, rs.i, &discordgo.WebhookParams{
			Content: resp.Content, Embeds: resp.Embeds, Components: resp.Components,
			AllowedMentions: mentions, Flags: flags,
		}, resp.Files)
	}
	switch {
	case resp.Kind == commands.UpdateMessage:
		return edit()
	case dt == discordgo.InteractionResponseDeferredMessageUpdate:
		return followup()
	case resp.Ephemeral == private:
		return edit()
	default:
		// A "thinking..." cannot change who sees it: replace it.
		if err := rs.sender.DeleteOriginal(ctx, rs.i); err != nil {
			return err
		}
		return followup()
	}
}

// seenSet remembers the last n interaction IDs.
type seenSet struct {
	mu   sync.Mutex
	set  map[string]struct{}
	ring []string
	next int
}

func newSeenSet(n int) *seenSet {
	return &seenSet{set: make(map[string]struct{}, n), ring: make([]string, n)}
}

// add records id and reports whether it was new.
func (s *seenSet) add(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.set[id]; ok {
		return false
	}
	if old := s.ring[s.next]; old != "" {
		delete(s.set, old)
	}
	s.ring[s.next] = id
	s.next = (s.next + 1) % len(s.ring)
	s.set[id] = struct{}{}
	return true
}
