package discordfake

// End-to-end tests: a real discordgo session, pointed at the fake with
// discordnet.Configure, exercised through its public API.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordnet"
)

// TestMain fails the run if goroutines of discordgo or of the fake outlive
// the tests: shutdown must leave nothing blocked.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if leaked := waitForLeaks(10 * time.Second); leaked != "" {
			fmt.Fprintf(os.Stderr, "goroutines left running after the tests:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
}

func waitForLeaks(timeout time.Duration) string {
	deadline := time.Now().Add(timeout)
	for {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var leaked []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "discordfake.TestMain") || strings.Contains(g, "testing.(*M)") {
				continue
			}
			if strings.Contains(g, "bwmarrin/discordgo") || strings.Contains(g, "bot/discordfake.") || strings.Contains(g, "gorilla/websocket") {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 {
			return ""
		}
		if time.Now().After(deadline) {
			return strings.Join(leaked, "\n\n")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// newFake starts a fake with Discord's heartbeat interval (see
// DefaultHeartbeatInterval); TestHeartbeats alone shortens it.
func newFake(t testing.TB, opts ...Option) *Fake {
	t.Helper()
	return New(t, opts...)
}

// hangGuard bounds waits for the client to get somewhere it gets to on its
// own schedule (a resume after discordgo's one-second Close, a handler
// goroutine): long enough that only a client that is stuck or took the
// wrong path reaches it, on any machine.
const hangGuard = 2 * time.Minute

// open connects a real discordgo session to f; setup runs before Open.
func open(t testing.TB, f *Fake, setup func(s *discordgo.Session)) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + f.Token)
	if err != nil {
		t.Fatalf("discordgo.New: %v", err)
	}
	if err := discordnet.Configure(s, f.RESTURL(), f.GatewayURL()); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	if setup != nil {
		setup(s)
	}
	if err := s.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { discordnet.Close(s) })
	return s
}

// eventLog records the type of every dispatch a session handles.
type eventLog struct {
	mu    sync.Mutex
	types []string
}

func (l *eventLog) attach(s *discordgo.Session) {
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
		l.mu.Lock()
		l.types = append(l.types, e.Type)
		l.mu.Unlock()
	})
}

func (l *eventLog) count(typ string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, t := range l.types {
		if t == typ {
			n++
		}
	}
	return n
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// errs collects errors from handlers, which must not call t themselves.
type errs struct {
	mu   sync.Mutex
	list []error
}

func (e *errs) add(err error) {
	if err != nil {
		e.mu.Lock()
		e.list = append(e.list, err)
		e.mu.Unlock()
	}
}

func (e *errs) check(t *testing.T) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, err := range e.list {
		t.Errorf("handler: %v", err)
	}
}

var testCommands = []*discordgo.ApplicationCommand{
	{Name: "ping", Description: "Check the bot answers"},
	{Name: "move", Description: "Play a move", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionString, Name: "san", Description: "The move", Required: true, Autocomplete: true},
		{Type: discordgo.ApplicationCommandOptionBoolean, Name: "draw", Description: "Offer a draw"},
	}},
	{Name: "board", Description: "Show the board"},
	{Name: "resign", Description: "Resign the game"},
	{Name: "challenge", Description: "Challenge someone", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who", Required: true},
		{Type: discordgo.ApplicationCommandOptionString, Name: "time", Description: "Time control"},
		{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Rated game"},
	}},
}

func register(t testing.TB, s *discordgo.Session, f *Fake) {
	t.Helper()
	if _, err := s.ApplicationCommandBulkOverwrite(f.AppID, "", testCommands); err != nil {
		t.Fatalf("bulk overwrite: %v", err)
	}
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, x%h, color.RGBA{R: 200, A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestOpenReady(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var log eventLog
	s := open(t, f, log.attach)
	if !f.WaitFor(func() bool { return log.count("GUILD_CREATE") == 1 }, hangGuard) {
		t.Fatal("no GUILD_CREATE after READY")
	}
	s.State.RLock()
	user, guilds := s.State.User, len(s.State.Guilds)
	s.State.RUnlock()
	if user == nil || user.ID != f.Bot.ID || !user.Bot {
		t.Errorf("State.User = %+v, want the bot %s", user, f.Bot.ID)
	}
	if guilds != 1 {
		t.Errorf("State has %d guilds, want 1", guilds)
	}
	if ch, err := s.State.Channel(f.ChannelID); err != nil || ch.Name != "general" {
		t.Errorf("State.Channel(%s) = %v, %v; want general", f.ChannelID, ch, err)
	}
	ids := f.IdentifyLog()
	if len(ids) != 1 {
		t.Fatalf("identifies = %d, want 1", len(ids))
	}
	got := ids[0]
	if got.ShardID != 0 || got.ShardCount != 1 || !got.Compress || got.Version != "9" || got.Encoding != "json" ||
		got.Intents != discordgo.IntentsAllWithoutPrivileged {
		t.Errorf("identify = %+v, want shard 0/1, compress, v=9 json, default intents", got)
	}
	// The first heartbeat goes out as soon as the connection is up.
	if !f.WaitFor(func() bool { return f.Heartbeats() >= 1 }, hangGuard) {
		t.Errorf("heartbeats = %d, want the first one", f.Heartbeats())
	}
	me, err := s.User("@me")
	if err != nil || me.ID != f.Bot.ID {
		t.Errorf("User(@me) = %v, %v", me, err)
	}
}

func TestWrongToken(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s, _ := discordgo.New("Bot not-the-token")
	s.LogLevel = -1
	if err := discordnet.Configure(s, f.RESTURL(), f.GatewayURL()); err != nil {
		t.Fatal(err)
	}
	_, err := s.User("@me")
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response.StatusCode != http.StatusUnauthorized {
		t.Errorf("User(@me) with a wrong token: %v, want HTTP 401", err)
	}
	if err := s.Open(); err == nil {
		s.Close()
		t.Error("Open with a wrong token succeeded")
	}
	if n := f.Identifies(); n != 0 {
		t.Errorf("identifies = %d, want 0", n)
	}
}

func TestBulkOverwrite(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s := open(t, f, nil)
	got, err := s.ApplicationCommandBulkOverwrite(f.AppID, "", testCommands)
	if err != nil {
		t.Fatalf("bulk overwrite: %v", err)
	}
	if len(got) != len(testCommands) {
		t.Fatalf("overwrite returned %d commands, want %d", len(got), len(testCommands))
	}
	ids := map[string]string{}
	for _, c := range got {
		if c.ID == "" || c.ApplicationID != f.AppID || c.Version == "" {
			t.Errorf("command %s came back without id, application id or version: %+v", c.Name, c)
		}
		ids[c.Name] = c.ID
	}
	// A second overwrite keeps the IDs of commands that stay.
	again, err := s.ApplicationCommandBulkOverwrite(f.AppID, "", testCommands[:2])
	if err != nil {
		t.Fatalf("second overwrite: %v", err)
	}
	for _, c := range again {
		if ids[c.Name] != c.ID {
			t.Errorf("command %s changed id %s → %s on overwrite", c.Name, ids[c.Name], c.ID)
		}
	}
	if n := len(f.Commands()); n != 2 {
		t.Errorf("Commands() has %d, want 2 after the second overwrite", n)
	}
	if _, err := s.ApplicationCommandBulkOverwrite(f.AppID, f.GuildID, testCommands[:1]); err != nil {
		t.Fatalf("guild overwrite: %v", err)
	}
	if g := f.GuildCommands(f.GuildID); len(g) != 1 || g[0].GuildID != f.GuildID {
		t.Errorf("GuildCommands = %+v, want ping in the guild", g)
	}
	listed, err := s.ApplicationCommands(f.AppID, "")
	if err != nil || len(listed) != 2 {
		t.Errorf("ApplicationCommands = %d, %v; want 2", len(listed), err)
	}
	if ow := f.Overwrites(); len(ow) != 3 || ow[2].GuildID != f.GuildID {
		t.Errorf("Overwrites() = %+v, want 3 with the last in the guild", ow)
	}

	_, err = s.ApplicationCommandBulkOverwrite(f.AppID, "", []*discordgo.ApplicationCommand{{Name: "Move", Description: "bad"}})
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != codeInvalidFormBody {
		t.Errorf("overwrite with an upper-case name: %v, want 400 Invalid Form Body", err)
	}
}

// TestInteractionRoundTrip answers a slash command with a message and a
// button, clicks the button and updates the message.
func TestInteractionRoundTrip(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			switch i.Type {
			case discordgo.InteractionApplicationCommand:
				d := i.ApplicationCommandData()
				herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{
						Content:         fmt.Sprintf("%s played %s", i.Member.User.Username, d.Options[0].StringValue()),
						AllowedMentions: &discordgo.MessageAllowedMentions{},
						Embeds:          []*discordgo.MessageEmbed{{Title: "Game 42"}},
						Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
							discordgo.Button{Label: "Accept", CustomID: "game/42/accept"},
							discordgo.Button{Label: "Decline", CustomID: "game/42/decline", Style: discordgo.DangerButton},
						}}},
					},
				}))
			case discordgo.InteractionMessageComponent:
				d := i.MessageComponentData()
				herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseUpdateMessage,
					Data: &discordgo.InteractionResponseData{
						Content:    "clicked " + d.CustomID + " on " + i.Message.ID,
						Components: []discordgo.MessageComponent{},
					},
				}))
			}
		})
	})
	register(t, s, f)

	ctx := ctxFor(t)
	res, err := f.SendInteraction(ctx, Command("move", StringOpt("san", "e4")))
	if err != nil {
		t.Fatalf("SendInteraction: %v", err)
	}
	cb := res.Callback
	if cb.Type != discordgo.InteractionResponseChannelMessageWithSource || cb.Data.Content != "alice played e4" {
		t.Errorf("callback = type %d %q, want 4 \"alice played e4\"", cb.Type, cb.Data.Content)
	}
	if len(cb.Data.Embeds) != 1 || cb.Data.Embeds[0].Title != "Game 42" {
		t.Errorf("callback embeds = %+v", cb.Data.Embeds)
	}
	if am := cb.Data.AllowedMentions; am == nil || len(am.Parse) != 0 {
		t.Errorf("allowed_mentions = %+v, want an empty parse list", am)
	}
	if ids := cb.Data.CustomIDs(); strings.Join(ids, ",") != "game/42/accept,game/42/decline" {
		t.Errorf("custom ids = %q", ids)
	}
	if res.Latency <= 0 || res.Latency > 5*time.Second {
		t.Errorf("latency = %v", res.Latency)
	}
	orig, ok := f.Original(res.ID)
	if !ok || orig.Kind != KindResponse || orig.Content != "alice played e4" || orig.ChannelID != f.ChannelID {
		t.Fatalf("Original = %+v, %v", orig, ok)
	}

	click, err := f.SendInteraction(ctx, Button("game/42/accept"))
	if err != nil {
		t.Fatalf("click: %v", err)
	}
	if want := "clicked game/42/accept on " + orig.ID; click.Callback.Data.Content != want {
		t.Errorf("click callback %q, want %q", click.Callback.Data.Content, want)
	}
	msgs := f.Messages(f.ChannelID)
	if len(msgs) != 1 || msgs[0].Content != "clicked game/42/accept on "+orig.ID || len(msgs[0].Components) != 0 || msgs[0].Edits != 1 {
		t.Errorf("channel messages after the update = %+v", msgs)
	}
	// The buttons are gone, so another click has nothing to press.
	if _, err := f.SendInteraction(ctx, Button("game/42/decline")); !errors.Is(err, ErrNoComponent) {
		t.Errorf("click on a removed button: %v, want ErrNoComponent", err)
	}
	if _, err := f.SendInteraction(ctx, Command("castle")); !errors.Is(err, ErrUnknownCommand) {
		t.Errorf("unregistered command: %v, want ErrUnknownCommand", err)
	}
	if _, err := f.SendInteraction(ctx, Command("move")); err == nil || !strings.Contains(err.Error(), "required option") {
		t.Errorf("command without its required option: %v", err)
	}
	herr.check(t)
}

func TestInteractionWithFile(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	board := pngBytes(t, 64, 48)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{
					Content: "your board",
					Flags:   discordgo.MessageFlagsEphemeral,
					Files:   []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(board)}},
					Embeds:  []*discordgo.MessageEmbed{{Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
				},
			}))
		})
	})
	register(t, s, f)
	res, err := f.SendInteraction(ctxFor(t), Command("board"))
	if err != nil {
		t.Fatalf("SendInteraction: %v", err)
	}
	d := res.Callback.Data
	if !d.Ephemeral() || d.Content != "your board" {
		t.Errorf("callback flags %d content %q, want ephemeral \"your board\"", d.Flags, d.Content)
	}
	a, ok := d.File("board.png")
	if !ok || !bytes.Equal(a.Data, board) || a.ContentType != "image/png" || a.Width != 64 || a.Height != 48 {
		t.Fatalf("attachment = %+v (ok %v), want the 64x48 PNG", a, ok)
	}
	resp, err := http.Get(a.URL)
	if err != nil {
		t.Fatalf("GET %s: %v", a.URL, err)
	}
	served, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(served, board) {
		t.Errorf("attachment URL served %d bytes, want the %d uploaded", len(served), len(board))
	}
	herr.check(t)
}

// TestDeferredThenEdit defers, edits the original, sends and edits a
// followup and deletes it.
func TestDeferredThenEdit(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	done := make(chan error, 1)
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			done <- func() error {
				if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
					return fmt.Errorf("defer: %w", err)
				}
				content := "thought about it"
				if _, err := s.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content}); err != nil {
					return fmt.Errorf("edit original: %w", err)
				}
				m, err := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "also this", Flags: discordgo.MessageFlagsEphemeral})
				if err != nil {
					return fmt.Errorf("followup: %w", err)
				}
				edited := "also that"
				if _, err := s.FollowupMessageEdit(i.Interaction, m.ID, &discordgo.WebhookEdit{Content: &edited}); err != nil {
					return fmt.Errorf("edit followup: %w", err)
				}
				if err := s.FollowupMessageDelete(i.Interaction, m.ID); err != nil {
					return fmt.Errorf("delete followup: %w", err)
				}
				if _, err := s.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: new(string)}); err == nil {
					return errors.New("emptying the original succeeded")
				}
				got, err := s.InteractionResponse(i.Interaction)
				if err != nil || got.Content != content {
					return fmt.Errorf("get original = %v, %v", got, err)
				}
				return nil
			}()
		})
	})
	register(t, s, f)
	res, err := f.SendInteraction(ctxFor(t), Command("ping"))
	if err != nil {
		t.Fatalf("SendInteraction: %v", err)
	}
	if res.Callback.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || res.Callback.HasData {
		t.Errorf("callback = %+v, want a bare type 5", res.Callback)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	orig, _ := f.Original(res.ID)
	if orig.Content != "thought about it" || orig.Flags&discordgo.MessageFlagsLoading != 0 || orig.Edits != 1 {
		t.Errorf("original = %+v, want edited once, no longer loading", orig)
	}
	fu := f.Followups(res.ID)
	if len(fu) != 1 || fu[0].Content != "also that" || !fu[0].Deleted || !fu[0].Ephemeral() {
		t.Errorf("followups = %+v, want one ephemeral, edited, deleted", fu)
	}
}

func TestDeferredThenFollowup(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
			}))
			_, err := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "done"})
			herr.add(err)
		})
	})
	register(t, s, f)
	res, err := f.SendInteraction(ctxFor(t), Command("ping"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.WaitFor(func() bool { return len(f.Followups(res.ID)) == 1 }, hangGuard) {
		t.Fatal("no followup")
	}
	orig, _ := f.Original(res.ID)
	if orig.Content != "done" || !orig.Ephemeral() || orig.Flags&discordgo.MessageFlagsLoading != 0 {
		t.Errorf("original = %+v, want the first followup filling the ephemeral deferral", orig)
	}
	if n := len(f.Messages(f.ChannelID)); n != 1 {
		t.Errorf("channel has %d messages, want 1", n)
	}
	herr.check(t)
}

func TestCallbackRules(t *testing.T) {
	t.Parallel()
	f := newFake(t, WithInteractionDeadline(300*time.Millisecond))
	second := make(chan error, 1)
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			name := i.ApplicationCommandData().Name
			if name == "resign" {
				time.Sleep(600 * time.Millisecond)
			}
			pong := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "ok"}}
			s.InteractionRespond(i.Interaction, pong)
			if name == "ping" {
				second <- s.InteractionRespond(i.Interaction, pong)
			}
		})
	})
	register(t, s, f)
	ctx := ctxFor(t)
	if _, err := f.SendInteraction(ctx, Command("ping")); err != nil {
		t.Fatalf("ping: %v", err)
	}
	var rest *discordgo.RESTError
	if err := <-second; !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != codeAlreadyAcknowledged {
		t.Errorf("second callback: %v, want 40060 already acknowledged", err)
	}
	if _, err := f.SendInteraction(ctx, Command("resign")); !errors.Is(err, ErrLate) {
		t.Errorf("slow callback: %v, want ErrLate", err)
	}
	if n := len(f.Callbacks()); n != 1 {
		t.Errorf("accepted callbacks = %d, want 1", n)
	}
}

func TestAutocompleteAndModal(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			var resp *discordgo.InteractionResponse
			switch i.Type {
			case discordgo.InteractionApplicationCommandAutocomplete:
				typed := i.ApplicationCommandData().Options[0].StringValue()
				resp = &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: &discordgo.InteractionResponseData{
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: typed + "4", Value: typed + "4"}, {Name: typed + "3", Value: typed + "3"}},
				}}
			case discordgo.InteractionApplicationCommand:
				resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: &discordgo.InteractionResponseData{
					CustomID: "resign/42", Title: "Resign game 42?",
					Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.TextInput{CustomID: "reason", Label: "Why", Style: discordgo.TextInputShort, MaxLength: 100},
					}}},
				}}
			case discordgo.InteractionModalSubmit:
				d := i.ModalSubmitData()
				row := d.Components[0].(*discordgo.ActionsRow)
				in := row.Components[0].(*discordgo.TextInput)
				resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
					Content: d.CustomID + ": " + in.Value,
				}}
			}
			herr.add(s.InteractionRespond(i.Interaction, resp))
		})
	})
	register(t, s, f)
	ctx := ctxFor(t)
	ac, err := f.SendInteraction(ctx, Autocomplete("move", Focused(StringOpt("san", "e"))))
	if err != nil {
		t.Fatalf("autocomplete: %v", err)
	}
	if ch := ac.Callback.Data.Choices; ac.Callback.Type != discordgo.InteractionApplicationCommandAutocompleteResult || len(ch) != 2 || ch[0].Value != "e4" {
		t.Errorf("autocomplete callback = %+v", ac.Callback)
	}
	if _, err := f.SendInteraction(ctx, ModalSubmit("resign/42", TextValue{"reason", "lost"})); !errors.Is(err, ErrNoComponent) {
		t.Errorf("submitting a modal never shown: %v, want ErrNoComponent", err)
	}
	modal, err := f.SendInteraction(ctx, Command("resign"))
	if err != nil {
		t.Fatalf("resign: %v", err)
	}
	if modal.Callback.Type != discordgo.InteractionResponseModal || modal.Callback.Data.Title != "Resign game 42?" {
		t.Errorf("modal callback = %+v", modal.Callback)
	}
	sub, err := f.SendInteraction(ctx, ModalSubmit("resign/42", TextValue{"reason", "lost on time"}))
	if err != nil {
		t.Fatalf("modal submit: %v", err)
	}
	if sub.Callback.Data.Content != "resign/42: lost on time" {
		t.Errorf("modal answer %q", sub.Callback.Data.Content)
	}
	herr.check(t)
}

func TestSelectMenu(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	picked := make(chan []string, 1)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			if i.Type == discordgo.InteractionMessageComponent {
				picked <- i.MessageComponentData().Values
				herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}))
			}
		})
	})
	zero := 1
	_, err := s.ChannelMessageSendComplex(f.ChannelID, &discordgo.MessageSend{
		Content: "Promote to?",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: "game/42/promote", MinValues: &zero, MaxValues: 1, Options: []discordgo.SelectMenuOption{
				{Label: "Queen", Value: "q"}, {Label: "Knight", Value: "n"},
			}},
		}}},
	})
	if err != nil {
		t.Fatalf("send select: %v", err)
	}
	ctx := ctxFor(t)
	if _, err := f.SendInteraction(ctx, Select("game/42/promote", "k")); err == nil {
		t.Error("choosing a value the menu lacks succeeded")
	}
	res, err := f.SendInteraction(ctx, Select("game/42/promote", "n"))
	if err != nil {
		t.Fatalf("select: %v", err)
	}
	if v := <-picked; len(v) != 1 || v[0] != "n" {
		t.Errorf("bot saw values %q, want [n]", v)
	}
	if res.Callback.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Errorf("callback type %d, want 6", res.Callback.Type)
	}
	herr.check(t)
}

func TestChannelMessageWithFile(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s := open(t, f, nil)
	pgn := []byte("1. e4 e5 2. Nf3 *")
	m, err := s.ChannelMessageSendComplex(f.ChannelID, &discordgo.MessageSend{
		Content: "game over",
		Files: []*discordgo.File{
			{Name: "game.pgn", ContentType: "application/x-chess-pgn", Reader: bytes.NewReader(pgn)},
			{Name: "board.png", Reader: bytes.NewReader(pngBytes(t, 8, 8))},
		},
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{f.User.ID}},
	})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if m.ID == "" || m.Author == nil || m.Author.ID != f.Bot.ID || len(m.Attachments) != 2 || m.Attachments[0].Filename != "game.pgn" {
		t.Errorf("returned message = %+v", m)
	}
	if ts, err := SnowflakeTime(m.ID); err != nil || time.Since(ts) > time.Minute || time.Since(ts) < -time.Second {
		t.Errorf("message id %s dates from %v (%v), want now", m.ID, ts, err)
	}
	msgs := f.Messages(f.ChannelID)
	if len(msgs) != 1 {
		t.Fatalf("recorded %d messages, want 1", len(msgs))
	}
	got := msgs[0]
	if a, ok := got.File("game.pgn"); !ok || !bytes.Equal(a.Data, pgn) || a.ContentType != "application/x-chess-pgn" {
		t.Errorf("pgn attachment = %+v", a)
	}
	if a, ok := got.File("board.png"); !ok || a.ContentType != "image/png" || a.Width != 8 {
		t.Errorf("png attachment = %+v, want its type sniffed and size read", a)
	}
	if got.AllowedMentions == nil || len(got.AllowedMentions.Users) != 1 {
		t.Errorf("allowed mentions = %+v", got.AllowedMentions)
	}
	second, err := s.ChannelMessageSend(f.ChannelID, "second")
	if err != nil || !idAfter(second.ID, m.ID) {
		t.Errorf("second message id %v not after %s (%v)", second, m.ID, err)
	}
	edited, err := s.ChannelMessageEdit(f.ChannelID, m.ID, "game over: 1-0")
	if err != nil || edited.Content != "game over: 1-0" || len(edited.Attachments) != 2 || edited.EditedTimestamp == nil {
		t.Errorf("edit = %+v, %v", edited, err)
	}
	if err := s.ChannelMessageDelete(f.ChannelID, second.ID); err != nil {
		t.Errorf("delete: %v", err)
	}
	if n := len(f.Messages(f.ChannelID)); n != 1 {
		t.Errorf("%d messages after the delete, want 1", n)
	}
	// Discord's limits.
	var rest *discordgo.RESTError
	if _, err := s.ChannelMessageSend(f.ChannelID, strings.Repeat("x", 2001)); !errors.As(err, &rest) || rest.Message.Code != codeInvalidFormBody {
		t.Errorf("2001-character message: %v, want Invalid Form Body", err)
	}
	if _, err := s.ChannelMessageSendComplex(f.ChannelID, &discordgo.MessageSend{}); !errors.As(err, &rest) || rest.Message.Code != codeEmptyMessage {
		t.Errorf("empty message: %v, want 50006", err)
	}
	if _, err := s.ChannelMessageSend("1", "to nowhere"); !errors.As(err, &rest) || rest.Message.Code != codeUnknownChannel {
		t.Errorf("unknown channel: %v, want 10003", err)
	}
}

func TestThreads(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var log eventLog
	s := open(t, f, log.attach)
	m, err := s.ChannelMessageSend(f.ChannelID, "Game 42: alice vs bob")
	if err != nil {
		t.Fatal(err)
	}
	th, err := s.MessageThreadStart(f.ChannelID, m.ID, "alice vs bob", 1440)
	if err != nil {
		t.Fatalf("start thread from message: %v", err)
	}
	if th.ID != m.ID || th.ParentID != f.ChannelID || th.Type != discordgo.ChannelTypeGuildPublicThread || th.ThreadMetadata.AutoArchiveDuration != 1440 {
		t.Errorf("thread = %+v", th)
	}
	if _, err := s.MessageThreadStart(f.ChannelID, m.ID, "again", 60); err == nil {
		t.Error("a second thread on one message succeeded")
	}
	priv, err := s.ThreadStartComplex(f.ChannelID, &discordgo.ThreadStart{Name: "analysis", Invitable: true})
	if err != nil {
		t.Fatalf("start thread: %v", err)
	}
	if priv.Type != discordgo.ChannelTypeGuildPrivateThread || !priv.ThreadMetadata.Invitable {
		t.Errorf("thread without a type = %+v, want an invitable private thread", priv)
	}
	if ts := f.Threads(); len(ts) != 2 || ts[0].Name != "alice vs bob" {
		t.Errorf("Threads() = %+v", ts)
	}
	if _, err := s.ChannelMessageSend(th.ID, "1. e4"); err != nil {
		t.Errorf("post in thread: %v", err)
	}
	archived := true
	if _, err := s.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &archived}); err != nil {
		t.Fatalf("archive: %v", err)
	}
	got, err := s.Channel(th.ID)
	if err != nil || !got.ThreadMetadata.Archived || got.MessageCount != 1 {
		t.Errorf("GET thread = %+v, %v; want archived with 1 message", got, err)
	}
	if !f.WaitFor(func() bool { return log.count("THREAD_CREATE") == 2 && log.count("THREAD_UPDATE") == 1 }, hangGuard) {
		t.Errorf("thread events: %d creates, %d updates; want 2 and 1", log.count("THREAD_CREATE"), log.count("THREAD_UPDATE"))
	}
	if _, err := s.State.Channel(priv.ID); err != nil {
		t.Errorf("state lacks the new thread: %v", err)
	}
	// Posting into an archived (unlocked) thread unarchives it.
	if _, err := s.ChannelMessageSend(th.ID, "1... e5"); err != nil {
		t.Errorf("post in archived thread: %v", err)
	}
	if c, _ := f.Channel(th.ID); c.ThreadMetadata.Archived {
		t.Error("thread still archived after a post")
	}
}

func TestRateLimitRetry(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s := open(t, f, nil)
	var mu sync.Mutex
	var limited []string
	s.AddHandler(func(_ *discordgo.Session, rl *discordgo.RateLimit) {
		mu.Lock()
		limited = append(limited, rl.URL)
		mu.Unlock()
	})
	f.FailNext("POST channels/*/messages", 2)
	start := time.Now()
	if _, err := s.ChannelMessageSend(f.ChannelID, "after the limit"); err != nil {
		t.Fatalf("send: %v", err)
	}
	if el := time.Since(start); el < 100*time.Millisecond {
		t.Errorf("send took %v; two 50 ms rate limits should make it wait at least 100 ms", el)
	}
	var statuses []int
	for _, r := range f.Requests() {
		if r.Method == "POST" && strings.HasSuffix(r.Path, "/messages") {
			statuses = append(statuses, r.Status)
		}
	}
	if fmt.Sprint(statuses) != "[429 429 200]" {
		t.Errorf("statuses = %v, want [429 429 200]", statuses)
	}
	if n := len(f.Messages(f.ChannelID)); n != 1 {
		t.Errorf("%d messages, want exactly 1", n)
	}
	if !f.WaitFor(func() bool { mu.Lock(); defer mu.Unlock(); return len(limited) == 2 }, hangGuard) {
		t.Errorf("RateLimit events = %d, want 2", len(limited))
	}

	// A 502 is retried by discordgo; a 500 is not.
	f.Fail(Failure{Route: "POST channels/*/messages", Count: 1, Status: http.StatusBadGateway})
	if _, err := s.ChannelMessageSend(f.ChannelID, "after a 502"); err != nil {
		t.Errorf("send after 502: %v", err)
	}
	f.Fail(Failure{Route: "* channels/*/messages", Count: 1, Status: http.StatusInternalServerError})
	if _, err := s.ChannelMessageSend(f.ChannelID, "after a 500"); err == nil {
		t.Error("send after 500 succeeded; discordgo does not retry 500")
	}
	// A global limit.
	f.Fail(Failure{Route: "GET users/@me", Count: 1, Global: true, RetryAfter: 20 * time.Millisecond})
	if _, err := s.User("@me"); err != nil {
		t.Errorf("User after a global limit: %v", err)
	}
}

func TestDisconnectResume(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var log eventLog
	resumed := make(chan struct{}, 4)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		log.attach(s)
		s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) { resumed <- struct{}{} })
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "pong"},
			}))
		})
	})
	register(t, s, f)
	f.Disconnect()
	// Dispatched while the bot is away: must arrive on resume.
	if _, err := f.Dispatch("TYPING_START", f.GuildID, map[string]any{"channel_id": f.ChannelID, "guild_id": f.GuildID, "user_id": f.User.ID, "timestamp": time.Now().Unix()}); err != nil {
		t.Fatalf("Dispatch while disconnected: %v", err)
	}
	awaitResume(t, f, resumed, "Disconnect")
	if !f.WaitFor(func() bool { return log.count("TYPING_START") == 1 }, hangGuard) {
		t.Error("the event dispatched during the outage was not replayed")
	}
	if f.Identifies() != 1 || f.Resumes() != 1 {
		t.Errorf("identifies %d resumes %d, want 1 and 1", f.Identifies(), f.Resumes())
	}
	res, err := f.SendInteraction(ctxFor(t), Command("ping"))
	if err != nil || res.Callback.Data.Content != "pong" {
		t.Fatalf("interaction after resume: %v, %v", res, err)
	}

	// Op 7 Reconnect: the client closes with 1012 and resumes.
	f.RequestReconnect()
	awaitResume(t, f, resumed, "op 7")
	if f.Resumes() != 2 || f.Identifies() != 1 {
		t.Errorf("after op 7: identifies %d resumes %d, want 1 and 2", f.Identifies(), f.Resumes())
	}
	if log.count("READY") != 1 {
		t.Errorf("READY seen %d times, want 1", log.count("READY"))
	}
	herr.check(t)
}

// awaitResume waits until the client has resumed after what: its RESUMED
// handler fired (resumed), or, failing the test at once, the fake saw a new
// Identify, which means the session was lost instead of resumed. The wait
// ends on those events; discordgo needs a second or more to get there (its
// Close sleeps a second before it reconnects, a failed dial backs off 1, 2,
// 4... seconds), so the only clock is hangGuard.
func awaitResume(t *testing.T, f *Fake, resumed <-chan struct{}, what string) {
	t.Helper()
	identifies := f.Identifies()
	got := false
	f.WaitFor(func() bool {
		select {
		case <-resumed:
			got = true
		default:
		}
		return got || f.Identifies() > identifies
	}, hangGuard)
	switch {
	case got:
	case f.Identifies() > identifies:
		t.Fatalf("after %s the client identified again (identifies %d, resumes %d): the session was lost, not resumed", what, f.Identifies(), f.Resumes())
	default:
		t.Fatalf("no RESUMED and no new identify within %v of %s (resumes %d, connected %d)", hangGuard, what, f.Resumes(), f.Connected())
	}
}

// TestHeartbeats: the interval in Hello is the one the client heartbeats at;
// with a short one, discordgo's periodic heartbeats reach the fake (the ACK
// itself is checked on a raw connection in TestGatewayRawSession).
func TestHeartbeats(t *testing.T) {
	t.Parallel()
	f := newFake(t, WithHeartbeatInterval(50*time.Millisecond))
	open(t, f, nil)
	if !f.WaitFor(func() bool { return f.Heartbeats() >= 3 }, hangGuard) {
		t.Fatalf("heartbeats = %d, want at least 3", f.Heartbeats())
	}
}

func TestInvalidSession(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var log eventLog
	open(t, f, log.attach)
	f.InvalidateSessions()
	if !f.WaitFor(func() bool { return f.Identifies() == 2 && log.count("READY") == 2 }, hangGuard) {
		t.Fatalf("after op 9: identifies %d, READY %d; want 2 and 2", f.Identifies(), log.count("READY"))
	}
}

func TestShards(t *testing.T) {
	t.Parallel()
	f := newFake(t, WithGuilds(4), WithShards(2))
	guilds := f.Guilds()
	for i, g := range guilds {
		if got := ShardFor(g, 2); got != i%2 {
			t.Fatalf("guild %d (%s) is on shard %d, want %d", i, g, got, i%2)
		}
	}
	bot, err := func() (*discordgo.GatewayBotResponse, error) {
		s, _ := discordgo.New("Bot " + f.Token)
		discordnet.Configure(s, f.RESTURL(), "")
		return s.GatewayBot()
	}()
	if err != nil || bot.Shards != 2 || bot.URL != f.GatewayURL()+"/" {
		t.Fatalf("GatewayBot = %+v, %v", bot, err)
	}
	served := make([]chan string, 2)
	sessions := make([]*discordgo.Session, 2)
	var herr errs
	for id := range sessions {
		served[id] = make(chan string, 8)
		sessions[id] = open(t, f, func(s *discordgo.Session) {
			s.ShardID, s.ShardCount = id, 2
			s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
				served[id] <- i.GuildID
				herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
					Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: fmt.Sprint("shard ", id)},
				}))
			})
		})
	}
	register(t, sessions[0], f)
	for id, s := range sessions {
		ok := f.WaitFor(func() bool {
			s.State.RLock()
			defer s.State.RUnlock()
			return len(s.State.Guilds) == 2
		}, hangGuard)
		if !ok {
			t.Fatalf("shard %d state has the wrong guilds", id)
		}
	}
	ctx := ctxFor(t)
	for i, g := range guilds {
		chans := f.channelsOf(g)
		res, err := f.SendInteraction(ctx, Command("ping").In(g, chans[0]))
		if err != nil {
			t.Fatalf("ping in guild %d: %v", i, err)
		}
		if want := fmt.Sprint("shard ", i%2); res.Callback.Data.Content != want {
			t.Errorf("guild %d answered by %q, want %q", i, res.Callback.Data.Content, want)
		}
		if got := <-served[i%2]; got != g {
			t.Errorf("shard %d served guild %s, want %s", i%2, got, g)
		}
	}
	// A guild added later arrives with GUILD_CREATE on its shard.
	g5, _ := f.AddGuild("late")
	s := sessions[ShardFor(g5, 2)]
	if !f.WaitFor(func() bool { _, err := s.State.Guild(g5); return err == nil }, hangGuard) {
		t.Error("late guild missing from its shard's state")
	}
	if log := f.IdentifyLog(); len(log) != 2 || log[0].ShardCount != 2 {
		t.Errorf("identify log = %+v", log)
	}
	herr.check(t)
}

func (f *Fake) channelsOf(guildID string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.guildLocked(guildID).channels...)
}

func TestRawInteraction(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	got := make(chan *discordgo.InteractionCreate, 1)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			got <- i
			herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "challenge sent"},
			}))
		})
	})
	register(t, s, f)
	raw, err := os.ReadFile("testdata/interaction_chat_input.json")
	if err != nil {
		t.Fatal(err)
	}
	raw = bytes.ReplaceAll(raw, []byte("GUILD_ID"), []byte(f.GuildID))
	raw = bytes.ReplaceAll(raw, []byte("CHANNEL_ID"), []byte(f.ChannelID))
	res, err := f.SendRawInteraction(ctxFor(t), raw)
	if err != nil {
		t.Fatalf("SendRawInteraction: %v", err)
	}
	if res.Callback.Data.Content != "challenge sent" {
		t.Errorf("callback %q", res.Callback.Data.Content)
	}
	i := <-got
	d := i.ApplicationCommandData()
	if i.ID != res.ID || i.AppID != f.AppID || i.Member.User.Username != "carol" || d.Name != "challenge" {
		t.Errorf("bot saw %+v", i.Interaction)
	}
	if opp := d.Options[0].UserValue(nil); opp.ID != "1200000000000000004" {
		t.Errorf("opponent = %+v", opp)
	}
	if rated := d.Options[2]; rated.BoolValue() {
		t.Error("rated = true, want false")
	}
	herr.check(t)
}

func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s := open(t, f, nil)
	if _, err := s.GuildMember(f.GuildID, f.User.ID); err == nil {
		t.Error("GET guild member succeeded on a route the fake lacks")
	}
	unk := f.Unknown()
	if len(unk) != 1 || unk[0].Path != "guilds/"+f.GuildID+"/members/"+f.User.ID || unk[0].Status != http.StatusNotFound {
		t.Errorf("Unknown() = %+v", unk)
	}
	if u, err := s.User(f.User.ID); err != nil || u.Username != "alice" {
		t.Errorf("GET user = %v, %v", u, err)
	}
	dm, err := s.UserChannelCreate(f.User.ID)
	if err != nil || dm.Type != discordgo.ChannelTypeDM {
		t.Fatalf("open DM = %+v, %v", dm, err)
	}
	if _, err := s.ChannelMessageSend(dm.ID, "your move"); err != nil {
		t.Errorf("send DM: %v", err)
	}
	if id, ok := f.DMChannel(f.User.ID); !ok || id != dm.ID || len(f.Messages(dm.ID)) != 1 {
		t.Errorf("DMChannel = %s %v", id, ok)
	}
}

// BenchmarkInteractionRoundTrip measures the fake and a real discordgo
// session together: INTERACTION_CREATE out, callback back, with a handler
// that answers at once. It bounds what an end-to-end benchmark of the bot
// can measure.
func BenchmarkInteractionRoundTrip(b *testing.B) {
	f := newFake(b)
	s := open(b, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "pong"},
			})
		})
	})
	register(b, s, f)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		res, err := f.SendInteraction(ctx, Command("ping"))
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, res.Latency)
	}
	b.StopTimer()
	slices.Sort(lat)
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}

func TestDMInteractionAndChannels(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	if _, err := f.Dispatch("TYPING_START", "", map[string]any{}); !errors.Is(err, ErrNoSession) {
		t.Errorf("Dispatch before any session: %v, want ErrNoSession", err)
	}
	seen := make(chan *discordgo.InteractionCreate, 2)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			seen <- i
			herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "hi"},
			}))
		})
	})
	register(t, s, f)
	ctx := ctxFor(t)
	bob := f.NewUser("bob")
	if _, err := f.SendInteraction(ctx, Command("ping").From(bob).InDM()); err != nil {
		t.Fatalf("DM interaction: %v", err)
	}
	i := <-seen
	if i.GuildID != "" || i.Member != nil || i.User == nil || i.User.ID != bob.ID {
		t.Errorf("DM interaction = guild %q member %v user %v; want bob, no guild", i.GuildID, i.Member, i.User)
	}
	dm, ok := f.DMChannel(bob.ID)
	if !ok || i.ChannelID != dm || len(f.Messages(dm)) != 1 {
		t.Errorf("DM channel %s (%v), interaction channel %s", dm, ok, i.ChannelID)
	}
	cid, err := f.AddChannel(f.GuildID, "ladder")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.SendInteraction(ctx, Command("ping", SubCommand("nope")).In(f.GuildID, cid)); !errors.Is(err, ErrUnknownCommand) {
		t.Errorf("unknown option: %v, want ErrUnknownCommand", err)
	}
	if _, err := f.SendInteraction(ctx, Command("challenge", UserOpt("opponent", bob.ID), BoolOpt("rated", false)).In(f.GuildID, cid)); err != nil {
		t.Fatalf("challenge: %v", err)
	}
	i = <-seen
	d := i.ApplicationCommandData()
	if i.ChannelID != cid || len(d.Options) != 2 || d.Options[1].Value != false || d.Resolved == nil || d.Resolved.Users[bob.ID] == nil {
		t.Errorf("challenge data = %+v in %s; want opponent resolved and rated=false present", d, i.ChannelID)
	}
	if ch, ok := f.Channel(cid); !ok || ch.Name != "ladder" {
		t.Errorf("Channel(%s) = %v, %v", cid, ch, ok)
	}
	if _, err := f.AddChannel("1", "x"); err == nil {
		t.Error("AddChannel in an unknown guild succeeded")
	}
	herr.check(t)
}

func TestSubcommandsAndOptions(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			content := "?"
			if i.Type == discordgo.InteractionApplicationCommand {
				group := i.ApplicationCommandData().Options[0]
				join := group.Options[0]
				o := join.Options
				content = fmt.Sprintf("%s %s rating=%d k=%v where=%s", group.Name, join.Name, o[0].IntValue(), o[1].FloatValue(), o[2].ChannelValue(nil).ID)
			} else {
				content = "clicked " + i.Message.ID
			}
			herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: content},
			}))
		})
	})
	sub := func(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: "d", Options: opts}
	}
	_, err := s.ApplicationCommandBulkOverwrite(f.AppID, f.GuildID, []*discordgo.ApplicationCommand{{
		Name: "game", Description: "Games",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "ladder", Description: "Ladder", Options: []*discordgo.ApplicationCommandOption{
				sub("join",
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "rating", Description: "d", Required: true,
						Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "1500", Value: 1500}, {Name: "1200", Value: 1200}}},
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionNumber, Name: "k", Description: "d"},
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionChannel, Name: "where", Description: "d"},
				),
			}},
			sub("show"),
		},
	}})
	if err != nil {
		t.Fatalf("overwrite: %v", err)
	}
	ctx := ctxFor(t)
	join := func(rating int64) InteractionSpec {
		return Command("game", SubCommandGroup("ladder", SubCommand("join", IntOpt("rating", rating), NumberOpt("k", 20.5), ChannelOpt("where", f.ChannelID))))
	}
	res, err := f.SendInteraction(ctx, join(1500))
	if err != nil {
		t.Fatalf("game ladder join: %v", err)
	}
	if want := "ladder join rating=1500 k=20.5 where=" + f.ChannelID; res.Callback.Data.Content != want {
		t.Errorf("answer %q, want %q", res.Callback.Data.Content, want)
	}
	if _, err := f.SendInteraction(ctx, join(1600)); err == nil || !strings.Contains(err.Error(), "choices") {
		t.Errorf("value outside the choices: %v", err)
	}
	if _, err := f.SendInteraction(ctx, Command("game", StringOpt("ladder", "x"))); err == nil {
		t.Error("a string where a subcommand group belongs was accepted")
	}

	m, err := s.ChannelMessageSendComplex(f.ChannelID, &discordgo.MessageSend{Content: "board", Components: []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Flip", CustomID: "flip"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.ChannelMessage(f.ChannelID, m.ID); err != nil || got.Content != "board" || len(got.Components) != 1 {
		t.Errorf("GET message = %+v, %v", got, err)
	}
	click, err := f.SendInteraction(ctx, Button("flip").OnMessage(m.ID))
	if err != nil || click.Callback.Data.Content != "clicked "+m.ID {
		t.Errorf("click = %+v, %v", click, err)
	}
	if rec, ok := f.Message(m.ID); !ok || rec.Kind != KindChannel || rec.Kind.String() != "channel" {
		t.Errorf("Message(%s) = %+v, %v", m.ID, rec, ok)
	}
	herr.check(t)
}

// idAfter reports whether snowflake a is greater than b.
func idAfter(a, b string) bool {
	x, err1 := strconv.ParseUint(a, 10, 64)
	y, err2 := strconv.ParseUint(b, 10, 64)
	return err1 == nil && err2 == nil && x > y
}

// A user who refuses direct messages: the DM channel opens, each message is refused
// with 403 and code 50007, as on Discord; nothing is recorded; AcceptDMs undoes it.
func TestRefusedDMs(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s := open(t, f, nil)
	bob := f.NewUser("bob")
	f.RefuseDMs(bob.ID)
	ch, err := s.UserChannelCreate(bob.ID)
	if err != nil || ch.Type != discordgo.ChannelTypeDM {
		t.Fatalf("open the DM channel: %+v, %v; want it opened", ch, err)
	}
	var rest *discordgo.RESTError
	_, err = s.ChannelMessageSend(ch.ID, "hello")
	if !errors.As(err, &rest) || rest.Response.StatusCode != 403 || rest.Message.Code != codeCannotSendToUser ||
		rest.Message.Message != "Cannot send messages to this user" {
		t.Fatalf("a DM to a user who refuses them: %v, want 403 with code 50007", err)
	}
	if n := len(f.Messages(ch.ID)); n != 0 {
		t.Errorf("%d messages recorded in the refused DM channel", n)
	}
	if _, err := s.ChannelMessageSend(f.ChannelID, "in the guild"); err != nil {
		t.Errorf("a guild message while DMs are refused: %v", err)
	}
	f.AcceptDMs(bob.ID)
	if _, err := s.ChannelMessageSend(ch.ID, "hello again"); err != nil || len(f.Messages(ch.ID)) != 1 {
		t.Errorf("after AcceptDMs: %v, %d messages; want the DM sent", err, len(f.Messages(ch.ID)))
	}
}

// GET guilds/{id}: the bot's guilds with their names; any other is Missing Access.
func TestGetGuild(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s := open(t, f, nil)
	club, _ := f.AddGuild("Chess Club")
	for id, want := range map[string]string{f.GuildID: "Guild 1", club: "Chess Club"} {
		if g, err := s.Guild(id); err != nil || g.ID != id || g.Name != want {
			t.Errorf("guild %s: %+v, %v; want %q", id, g, err, want)
		}
	}
	var rest *discordgo.RESTError
	if _, err := s.Guild("1"); !errors.As(err, &rest) || rest.Response.StatusCode != 403 || rest.Message.Code != codeMissingAccess {
		t.Errorf("a guild the bot is not in: %v, want 403 Missing Access", err)
	}
}

// TestBulkOverwriteLocalized: localized names and descriptions are stored and
// listed back as sent, and an overwrite with one bad localization is refused
// whole, with Discord's 400 Invalid Form Body naming the field, leaving the
// commands as they were.
func TestBulkOverwriteLocalized(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s := open(t, f, nil)
	good := []*discordgo.ApplicationCommand{{
		Name: "board", Description: "Show the board",
		NameLocalizations:        locs("de", "brett", "uk", "дошка"),
		DescriptionLocalizations: locs("de", "Das Brett zeigen", "uk", "Показати дошку"),
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "Side",
			NameLocalizations: *locs("de", "farbe"), DescriptionLocalizations: *locs("de", "Seite"),
			Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "white", Value: "white", NameLocalizations: *locs("de", "Weiß")}},
		}},
	}}
	if _, err := s.ApplicationCommandBulkOverwrite(f.AppID, "", good); err != nil {
		t.Fatalf("localized overwrite: %v", err)
	}
	listed, err := s.ApplicationCommands(f.AppID, "")
	if err != nil || len(listed) != 1 {
		t.Fatalf("ApplicationCommands = %d, %v; want 1", len(listed), err)
	}
	c := listed[0]
	if c.NameLocalizations == nil || (*c.NameLocalizations)["uk"] != "дошка" || (*c.DescriptionLocalizations)["de"] != "Das Brett zeigen" ||
		c.Options[0].NameLocalizations["de"] != "farbe" || c.Options[0].Choices[0].NameLocalizations["de"] != "Weiß" {
		t.Errorf("listed command lost its localizations: %+v", c)
	}

	bad := []*discordgo.ApplicationCommand{{
		Name: "board", Description: "Show the board",
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "Side",
			NameLocalizations: *locs("de", "Farbe"),
		}},
	}, {Name: "fen", Description: "FEN", NameLocalizations: locs("xx", "fen")}}
	_, err = s.ApplicationCommandBulkOverwrite(f.AppID, "", bad)
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response.StatusCode != http.StatusBadRequest || rest.Message == nil || rest.Message.Code != codeInvalidFormBody {
		t.Fatalf("overwrite with bad localizations: %v, want 400 Invalid Form Body", err)
	}
	for _, want := range []string{`"options":{"0":{"name_localizations":{"de":{"_errors":[{"code":"APPLICATION_COMMAND_INVALID_NAME"`, `"name_localizations":{"xx":{"_errors"`} {
		if !strings.Contains(string(rest.ResponseBody), want) {
			t.Errorf("error body %s lacks %s", rest.ResponseBody, want)
		}
	}
	if got := f.Commands(); len(got) != 1 || (*got[0].NameLocalizations)["de"] != "brett" {
		t.Errorf("a refused overwrite changed the commands: %+v", got)
	}
}
