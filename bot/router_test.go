package bot

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
)

// recorder is a Sender that keeps what the router sent, like an
// httptest.ResponseRecorder.
type recorder struct {
	mu        sync.Mutex
	calls     []string // "respond:4", "edit", "delete", "followup"
	responses []*discordgo.InteractionResponse
	edits     []*discordgo.WebhookEdit
	followups []*discordgo.WebhookParams
	files     [][]commands.File
	fail      error // returned by every call when set
}

func (r *recorder) Respond(_ context.Context, _ *discordgo.Interaction, resp *discordgo.InteractionResponse, files []commands.File) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "respond:"+itoa(int(resp.Type)))
	r.responses = append(r.responses, resp)
	r.files = append(r.files, files)
	return r.fail
}

func (r *recorder) EditOriginal(_ context.Context, _ *discordgo.Interaction, e *discordgo.WebhookEdit, files []commands.File) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "edit")
	r.edits = append(r.edits, e)
	r.files = append(r.files, files)
	return r.fail
}

func (r *recorder) DeleteOriginal(context.Context, *discordgo.Interaction) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "delete")
	return r.fail
}

func (r *recorder) Followup(_ context.Context, _ *discordgo.Interaction, p *discordgo.WebhookParams, files []commands.File) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "followup")
	r.followups = append(r.followups, p)
	r.files = append(r.files, files)
	return r.fail
}

func (r *recorder) Calls() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.calls, " ")
}

func itoa(n int) string { return strconv.Itoa(n) }

// stub is a test command.
type stub struct {
	name   string
	handle commands.Handler
	comps  map[string]commands.Handler
	choose func(ctx context.Context, r *commands.Request) ([]*discordgo.ApplicationCommandOptionChoice, error)
}

func (s *stub) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{Name: s.name, Description: "test"}
}
func (s *stub) Handle(ctx context.Context, r *commands.Request) (*commands.Response, error) {
	return s.handle(ctx, r)
}
func (s *stub) Components() map[string]commands.Handler { return s.comps }

// privateStub is a stub whose answers are private (commands.PrivateAnswerer).
type privateStub struct{ *stub }

func (s privateStub) AnswersPrivately(*commands.Request) bool { return true }
func (s *stub) Autocomplete(ctx context.Context, r *commands.Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	return s.choose(ctx, r)
}

var nextID atomic.Int64

func command(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	return &discordgo.Interaction{
		ID: "i" + strconv.FormatInt(nextID.Add(1), 10), Type: discordgo.InteractionApplicationCommand, GuildID: "g", ChannelID: "c",
		Member: &discordgo.Member{User: &discordgo.User{ID: "u1", Username: "alice"}},
		Data:   discordgo.ApplicationCommandInteractionData{Name: name, Options: opts},
	}
}

func component(customID string, values ...string) *discordgo.Interaction {
	i := command("")
	i.Type = discordgo.InteractionMessageComponent
	i.Message = &discordgo.Message{ID: "m1", ChannelID: "c"}
	i.Data = discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent, Values: values}
	return i
}

func newTestRouter(t *testing.T, mw []commands.Middleware, cmds ...commands.Command) *Router {
	t.Helper()
	r, err := NewRouter(cmds, RouterOptions{Middleware: mw})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRouterAnswers(t *testing.T) {
	ok := &stub{name: "ok", handle: func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
		return &commands.Response{Content: "hi <@u2> @everyone", Mentions: []string{"u2"}}, nil
	}, comps: map[string]commands.Handler{
		"game/x": func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
			if r.ID.ID != 7 || r.ID.Ply != 3 || r.ID.Arg(0) != "a" {
				t.Errorf("custom id %+v", r.ID)
			}
			return &commands.Response{Kind: commands.UpdateMessage, Content: "updated"}, nil
		},
	}}
	refusing := &stub{name: "no", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		return nil, commands.Errorf("Do this instead.")
	}}
	broken := &stub{name: "broken", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		return nil, errors.New("disk on fire at /var/secret")
	}}
	panicking := &stub{name: "panic", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		panic("boom")
	}}
	r := newTestRouter(t, []commands.Middleware{Recover()}, ok, refusing, broken, panicking)
	cases := []struct {
		name        string
		i           *discordgo.Interaction
		calls       string
		content     string
		ephemeral   bool
		mentionable []string
	}{
		{"answer", command("ok"), "respond:4", "hi <@u2>", false, []string{"u2"}},
		{"user error", command("no"), "respond:4", "Do this instead.", true, nil},
		{"internal error", command("broken"), "respond:4", "Something went wrong on our side", true, nil},
		{"panic", command("panic"), "respond:4", "Something went wrong on our side", true, nil},
		{"unknown command", command("gone"), "respond:4", "not available", true, nil},
		{"component", component("v1/game/7/3/x/a"), "respond:7", "updated", false, nil},
		{"older version", component("v0/game/7/3/x"), "respond:4", "Use /board", true, nil},
		{"newer version", component("v2/game/7/3/x"), "respond:4", "older version", true, nil},
		{"no route", component("v1/game/7/3/nothing"), "respond:4", "does nothing any more", true, nil},
	}
	for _, c := range cases {
		rec := &recorder{}
		r.Serve(context.Background(), rec, c.i)
		if got := rec.Calls(); got != c.calls {
			t.Errorf("%s: calls %q, want %q", c.name, got, c.calls)
			continue
		}
		d := rec.responses[0].Data
		if !strings.Contains(d.Content, c.content) {
			t.Errorf("%s: content %q, want %q", c.name, d.Content, c.content)
		}
		if strings.Contains(d.Content, "secret") {
			t.Errorf("%s: the cause leaked to the user: %q", c.name, d.Content)
		}
		if eph := d.Flags&discordgo.MessageFlagsEphemeral != 0; eph != c.ephemeral {
			t.Errorf("%s: ephemeral %v, want %v", c.name, eph, c.ephemeral)
		}
		am := d.AllowedMentions
		if am == nil || am.Parse == nil || len(am.Parse) != 0 || strings.Join(am.Users, ",") != strings.Join(c.mentionable, ",") {
			t.Errorf("%s: allowed_mentions %+v, want users %v and nothing parsed", c.name, am, c.mentionable)
		}
	}
}

func TestRouterDuplicateHasOneEffect(t *testing.T) {
	n := 0
	r := newTestRouter(t, nil, &stub{name: "count", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		n++
		return commands.Reply("%d", n), nil
	}})
	i := command("count")
	rec := &recorder{}
	r.Serve(context.Background(), rec, i)
	r.Serve(context.Background(), rec, i)
	if n != 1 || rec.Calls() != "respond:4" {
		t.Errorf("handler ran %d times, calls %q; want once", n, rec.Calls())
	}
}

func TestRouterDefersSlowHandlers(t *testing.T) {
	// A slow handler answers only once the middleware has deferred: slow is "still
	// running after 20 ms" however late the middleware's timer gets to run.
	slow := func(resp *commands.Response) commands.Handler {
		return func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
			for giveUp := time.Now().Add(hangGuard); !r.Responder.Deferred(); time.Sleep(time.Millisecond) {
				if time.Now().After(giveUp) {
					return nil, errors.New(r.Name + ": never deferred")
				}
			}
			return resp, nil
		}
	}
	public := &stub{name: "public", handle: slow(commands.Reply("done")),
		comps: map[string]commands.Handler{
			"game/new":    slow(commands.Reply("a new message")),
			"game/update": slow(&commands.Response{Kind: commands.UpdateMessage, Content: "edited"}),
		}}
	private := &stub{name: "private", handle: slow(commands.Private("only you"))}
	fast := &stub{name: "fast", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		return commands.Reply("quick"), nil
	}}
	secret := privateStub{&stub{name: "secret", handle: slow(commands.Private("between us"))}}
	announced := privateStub{&stub{name: "announced", handle: slow(commands.Reply("for everyone after all"))}}
	r := newTestRouter(t, []commands.Middleware{DeferIfSlow(20*time.Millisecond, 0)}, public, private, fast, secret, announced)
	cases := []struct {
		i     *discordgo.Interaction
		calls string
	}{
		{command("fast"), "respond:4"},
		{command("public"), "respond:5 edit"},
		{command("private"), "respond:5 delete followup"},
		{command("secret"), "respond:5 edit"},               // deferred privately: the answer fills it in
		{command("announced"), "respond:5 delete followup"}, // a private deferral cannot turn public
		{component("v1/game/1/0/new"), "respond:6 followup"},
		{component("v1/game/1/0/update"), "respond:6 edit"},
	}
	for _, c := range cases {
		rec := &recorder{}
		r.Serve(context.Background(), rec, c.i)
		if got := rec.Calls(); got != c.calls {
			t.Errorf("%s: calls %q, want %q", c.i.Data, got, c.calls)
		}
	}
	rec := &recorder{}
	r.Serve(context.Background(), rec, command("private"))
	if f := rec.followups; len(f) != 1 || f[0].Flags&discordgo.MessageFlagsEphemeral == 0 || f[0].Content != "only you" {
		t.Errorf("private answer after a deferral: %+v", f)
	}
	for name, private := range map[string]bool{"public": false, "private": false, "secret": true} {
		rec := &recorder{}
		r.Serve(context.Background(), rec, command(name))
		d := rec.responses[0].Data
		if got := d != nil && d.Flags&discordgo.MessageFlagsEphemeral != 0; got != private {
			t.Errorf("%s: deferral private %v, want %v", name, got, private)
		}
	}
	rec = &recorder{}
	r.Serve(context.Background(), rec, command("announced"))
	if f := rec.followups; len(f) != 1 || f[0].Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Errorf("public answer after a private deferral: %+v", f)
	}
}

func TestPerUserLimit(t *testing.T) {
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	r := newTestRouter(t, []commands.Middleware{PerUserLimit(3, clock)}, &stub{name: "x", handle: func(context.Context, *commands.Request) (*commands.Response, error) {
		return commands.Reply("ok"), nil
	}})
	var got []string
	for k := 0; k < 5; k++ {
		rec := &recorder{}
		r.Serve(context.Background(), rec, command("x"))
		got = append(got, rec.responses[0].Data.Content)
	}
	if got[2] != "ok" || !strings.Contains(got[3], "too fast") {
		t.Errorf("answers %q: want three ok, then slow down", got)
	}
	now = now.Add(20 * time.Second) // a token per 20 s at 3 a minute
	rec := &recorder{}
	r.Serve(context.Background(), rec, command("x"))
	if rec.responses[0].Data.Content != "ok" {
		t.Errorf("after 20 s: %q", rec.responses[0].Data.Content)
	}
}

func TestRouterAutocomplete(t *testing.T) {
	s := &stub{name: "ac", handle: nil, choose: func(ctx context.Context, r *commands.Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
		if r.Focused == nil || r.Focused.Name != "move" {
			return nil, errors.New("no focused option")
		}
		var out []*discordgo.ApplicationCommandOptionChoice
		for k := 0; k < 30; k++ {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: "m", Value: "m"})
		}
		return out, nil
	}}
	r := newTestRouter(t, nil, s)
	i := command("ac", &discordgo.ApplicationCommandInteractionDataOption{Name: "move", Type: discordgo.ApplicationCommandOptionString, Value: "e", Focused: true})
	i.Type = discordgo.InteractionApplicationCommandAutocomplete
	rec := &recorder{}
	r.Serve(context.Background(), rec, i)
	if rec.Calls() != "respond:8" || len(rec.responses[0].Data.Choices) != 25 {
		t.Errorf("autocomplete: %q with %d choices, want 8 with 25", rec.Calls(), len(rec.responses[0].Data.Choices))
	}
	i = command("ac")
	i.Type = discordgo.InteractionApplicationCommandAutocomplete
	rec = &recorder{}
	r.Serve(context.Background(), rec, i)
	if rec.Calls() != "respond:8" || len(rec.responses[0].Data.Choices) != 0 || rec.responses[0].Data.Choices == nil {
		t.Errorf("failing autocomplete: %q %+v, want an empty list", rec.Calls(), rec.responses[0].Data)
	}
}

func TestNewRouterRefusesClashes(t *testing.T) {
	a := &stub{name: "a", comps: map[string]commands.Handler{"game/x": nil}}
	if _, err := NewRouter([]commands.Command{a, &stub{name: "a"}}, RouterOptions{}); err == nil {
		t.Error("two commands named a accepted")
	}
	if _, err := NewRouter([]commands.Command{a, &stub{name: "b", comps: map[string]commands.Handler{"game/x": nil}}}, RouterOptions{}); err == nil {
		t.Error("a component route claimed twice accepted")
	}
}

func TestShardFor(t *testing.T) {
	cases := []struct {
		guild string
		n     int
		want  int
	}{
		{"", 4, 0},
		{"41771983423143937", 1, 0},
		// Discord's documented example: (41771983423143937 >> 22) % 2 = ... computed.
		{"41771983423143937", 2, int((uint64(41771983423143937) >> 22) % 2)},
		{"41771983423143937", 16, int((uint64(41771983423143937) >> 22) % 16)},
		{"not a number", 4, 0},
	}
	for _, c := range cases {
		if got := ShardFor(c.guild, c.n); got != c.want {
			t.Errorf("ShardFor(%q, %d) = %d, want %d", c.guild, c.n, got, c.want)
		}
	}
}

// FuzzRouterPayload feeds arbitrary JSON to the router as an interaction: it must
// never panic, and answer at most once.
func FuzzRouterPayload(f *testing.F) {
	for _, s := range []string{
		`{"id":"1","type":2,"guild_id":"g","channel_id":"c","member":{"user":{"id":"u"}},"data":{"name":"ok","options":[{"name":"a","type":3,"value":"x"}]}}`,
		`{"id":"2","type":3,"channel_id":"c","user":{"id":"u"},"message":{"id":"m"},"data":{"custom_id":"v1/game/1/2/x/a","component_type":2}}`,
		`{"id":"3","type":4,"data":{"name":"ok","options":[{"name":"sub","type":1,"options":[{"name":"m","type":3,"value":"e","focused":true}]}]}}`,
		`{"id":"4","type":5,"data":{"custom_id":"v9/x","components":[{"type":1,"components":[{"type":4,"custom_id":"t","value":"v"}]}]}}`,
		`{"id":"5","type":1}`,
	} {
		f.Add([]byte(s))
	}
	ok := &stub{name: "ok", handle: func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
		var o struct {
			A string `option:"a"`
			M string `option:"m"`
		}
		if err := commands.DecodeOptions(r, &o); err != nil {
			return nil, err
		}
		return commands.Reply("%s", o.A), nil
	}, comps: map[string]commands.Handler{"game/x": func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
		return &commands.Response{Kind: commands.UpdateMessage, Content: r.ID.Arg(0)}, nil
	}}, choose: func(ctx context.Context, r *commands.Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
		return nil, nil
	}}
	r, err := NewRouter([]commands.Command{ok}, RouterOptions{Middleware: []commands.Middleware{Recover()}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var i discordgo.Interaction
		if err := json.Unmarshal(data, &i); err != nil {
			return
		}
		rec := &recorder{}
		r.Serve(context.Background(), rec, &i)
		if n := len(rec.responses); n > 1 {
			t.Fatalf("%d callbacks for one interaction", n)
		}
	})
}

func TestDeadlineFromSnowflake(t *testing.T) {
	at := func(t0 time.Time) string {
		return strconv.FormatUint(uint64(t0.UnixMilli()-discordEpoch)<<22|12345, 10)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name     string
		id       string
		received time.Time
		want     time.Time
	}{
		{"received at once", at(now), now, now.Add(3 * time.Second)},
		{"received late", at(now), now.Add(1500 * time.Millisecond), now.Add(3 * time.Second)},
		{"received very late", at(now), now.Add(2900 * time.Millisecond), now.Add(3900 * time.Millisecond)},
		{"clock behind Discord", at(now.Add(10 * time.Second)), now, now.Add(3 * time.Second)},
		{"not a snowflake", "abc", now, now.Add(3 * time.Second)},
	}
	for _, c := range cases {
		if got := deadline(c.id, c.received); !got.Equal(c.want) {
			t.Errorf("%s: deadline %v, want %v", c.name, got.Sub(now), c.want.Sub(now))
		}
	}
}

// The router gives /help the commands it registers: /help lists those and no other.
func TestRouterIndexesCommands(t *testing.T) {
	ok := &stub{name: "ok", handle: func(context.Context, *commands.Request) (*commands.Response, error) { return nil, nil }}
	r := newTestRouter(t, nil, ok, commands.NewHelp())
	rec := &recorder{}
	r.Serve(context.Background(), rec, command("help"))
	if len(rec.responses) != 1 {
		t.Fatalf("calls %q", rec.Calls())
	}
	d := rec.responses[0].Data
	var text strings.Builder
	for _, e := range d.Embeds {
		text.WriteString(e.Description)
	}
	if d.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(text.String(), "**/ok**") || !strings.Contains(text.String(), "**/help**") ||
		strings.Contains(text.String(), "/challenge") {
		t.Errorf("/help answered flags %d with %q", d.Flags, text.String())
	}
}

// TestRouterUpdateClearsComponents: an answer that updates the message it came from
// sends the whole new message: "components": [] (and "embeds": []) when it has none,
// since on Discord null means "unchanged" and would leave the old buttons live.
func TestRouterUpdateClearsComponents(t *testing.T) {
	s := &stub{name: "x", comps: map[string]commands.Handler{
		"challenge/accept": func(context.Context, *commands.Request) (*commands.Response, error) {
			return &commands.Response{Kind: commands.UpdateMessage, Content: "Accepted."}, nil
		},
	}}
	r := newTestRouter(t, nil, s)
	rec := &recorder{}
	r.Serve(context.Background(), rec, component("v1/challenge/1/0/accept"))
	if rec.Calls() != "respond:7" {
		t.Fatalf("calls %q", rec.Calls())
	}
	body, err := json.Marshal(rec.responses[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"components":[]`, `"embeds":[]`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the update lacks %s: %s", want, body)
		}
	}
}

// TestRouterLimitsCompletionsPerUser: past a burst, a user's autocomplete requests get
// an empty list without running the handler, until time refills the bucket; other
// users are not affected.
func TestRouterLimitsCompletionsPerUser(t *testing.T) {
	var ran atomic.Int64
	s := &stub{name: "ac", choose: func(context.Context, *commands.Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
		ran.Add(1)
		return []*discordgo.ApplicationCommandOptionChoice{{Name: "e4", Value: "e4"}}, nil
	}}
	now := time.Unix(0, 0)
	r, err := NewRouter([]commands.Command{s}, RouterOptions{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	complete := func(user string) int {
		i := command("ac", &discordgo.ApplicationCommandInteractionDataOption{Name: "move", Type: discordgo.ApplicationCommandOptionString, Value: "e", Focused: true})
		i.Type = discordgo.InteractionApplicationCommandAutocomplete
		i.Member.User = &discordgo.User{ID: user}
		rec := &recorder{}
		r.Serve(context.Background(), rec, i)
		if rec.Calls() != "respond:8" {
			t.Fatalf("calls %q", rec.Calls())
		}
		return len(rec.responses[0].Data.Choices)
	}
	for k := 0; k < completionBurst; k++ {
		if complete("u1") != 1 {
			t.Fatalf("completion %d within the burst got no choices", k)
		}
	}
	if complete("u1") != 0 || ran.Load() != completionBurst {
		t.Errorf("past the burst the handler ran %d times, want %d", ran.Load(), completionBurst)
	}
	if complete("u2") != 1 {
		t.Error("another user is limited too")
	}
	now = now.Add(time.Second)
	if complete("u1") != 1 {
		t.Error("a second later the user is still limited")
	}
}

// TestRouterCapsInteractionsInFlight: with every slot held by a stalled handler, 50
// more interactions are each answered at once, privately, that the bot is busy (an
// autocomplete with no choices): no handler runs for them and no goroutine waits.
// Once the stalled ones finish, interactions are served again.
func TestRouterCapsInteractionsInFlight(t *testing.T) {
	const slots = 3
	release, entered := make(chan struct{}), make(chan struct{}, slots)
	var runs atomic.Int32
	stall := &stub{name: "stall", handle: func(ctx context.Context, _ *commands.Request) (*commands.Response, error) {
		runs.Add(1)
		entered <- struct{}{}
		<-release
		return commands.Reply("done"), nil
	}}
	r, err := NewRouter([]commands.Command{stall}, RouterOptions{MaxInFlight: slots})
	if err != nil {
		t.Fatal(err)
	}
	stalled := &recorder{}
	var wg sync.WaitGroup
	for range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Serve(context.Background(), stalled, command("stall"))
		}()
	}
	for range slots {
		<-entered
	}
	refused := &recorder{}
	for k := range 50 {
		i := command("stall")
		if k%10 == 0 {
			i.Type = discordgo.InteractionApplicationCommandAutocomplete
		}
		r.Serve(context.Background(), refused, i) // returns at once: no slot
	}
	if n := runs.Load(); n != slots {
		t.Errorf("the handler ran %d times, want %d (the refused ones run nothing)", n, slots)
	}
	refused.mu.Lock()
	busy, empty := 0, 0
	for _, resp := range refused.responses {
		switch {
		case resp.Type == discordgo.InteractionApplicationCommandAutocompleteResult && len(resp.Data.Choices) == 0:
			empty++
		case resp.Type == discordgo.InteractionResponseChannelMessageWithSource && resp.Data.Content == busyMessage &&
			resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0:
			busy++
		}
	}
	refused.mu.Unlock()
	if busy != 45 || empty != 5 {
		t.Errorf("%d private busy answers and %d empty autocompletes, want 45 and 5", busy, empty)
	}
	close(release)
	wg.Wait()
	resp := &recorder{}
	go func() { <-entered }()
	r.Serve(context.Background(), resp, command("stall"))
	if c := resp.Calls(); c != "respond:4" || resp.responses[0].Data.Content != "done" {
		t.Errorf("after the stall: %q", c)
	}
}

// A refusal marked private (it quotes a player's conditional moves) is logged without
// its text; the player still reads it.
func TestErrorResponseKeepsPrivateRefusalsOutOfTheLog(t *testing.T) {
	var buf strings.Builder
	req := &commands.Request{Log: slog.New(slog.NewTextHandler(&buf, nil))}
	secret := "Move 2 of the line (Ke6, your move) is not legal there"
	resp := errorResponse(req, &commands.UserError{Message: secret, Private: true})
	if !strings.Contains(resp.Content, secret) || !resp.Ephemeral {
		t.Errorf("the player reads %q (ephemeral %v)", resp.Content, resp.Ephemeral)
	}
	if strings.Contains(buf.String(), "Ke6") || !strings.Contains(buf.String(), "refused") {
		t.Errorf("the log: %q", buf.String())
	}
}
