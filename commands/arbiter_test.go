package commands

// arbiter_test.go: /arbiter: who may use it, what it answers where, and that another
// server's game looks exactly like a missing one.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

// placedOutbox records the posts with their channels.
type placedOutbox struct {
	mu    sync.Mutex
	posts []placedPost
}

type placedPost struct {
	channel string
	m       *Response
}

func (p *placedOutbox) Post(_ context.Context, channel string, m *Response) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.posts = append(p.posts, placedPost{channel, m})
	return fmt.Sprint(len(p.posts)), nil
}

func (p *placedOutbox) StartThread(context.Context, string, string, string) (string, error) {
	return "t", nil
}

// arbiterDeps is a game service with game 1 (alice White, bob Black, 5+3, rated) in
// guild g1, channel c1, thread t1, after 1. e4 e5, and an outbox.
func arbiterDeps(t *testing.T) (*Deps, *placedOutbox) {
	t.Helper()
	_, clk, gs, _ := testServices(t)
	out := &placedOutbox{}
	d := &Deps{Games: gs, Now: clk.Now, Outbox: out, Ledger: NewPostLedger(clk.Now)}
	ctx := context.Background()
	if _, err := gs.StartGame(ctx, games.StartRequest{GuildID: "g1", ChannelID: "c1", White: alice, Black: bob, Control: "5+3", Rated: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := gs.SetGameThread(ctx, 1, "t1"); err != nil {
		t.Fatal(err)
	}
	for i, san := range []string{"e4", "e5"} {
		p := []string{alice.ID, bob.ID}[i]
		if _, err := gs.Move(ctx, games.MoveRequest{Action: games.Action{GameID: 1, UserID: p}, Move: san}); err != nil {
			t.Fatal(err)
		}
	}
	return d, out
}

var arbiterSeq int

// arbiterRequest is /arbiter sub by user in guild and channel, with the given member
// permissions and roles.
func arbiterRequest(sub, user, guild, channel string, perms int64, roles []string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *Request {
	arbiterSeq++
	return &Request{
		Interaction: &discordgo.Interaction{ID: fmt.Sprint("arb-", arbiterSeq), Type: discordgo.InteractionApplicationCommand,
			Member: &discordgo.Member{Roles: roles, Nick: "Ruth"}},
		GuildID: guild, ChannelID: channel, User: &discordgo.User{ID: user, Username: user}, Permissions: perms,
		Name: "arbiter", Sub: sub, Options: opts, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

func TestParseAddedTime(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"2m", 2 * time.Minute, ""},
		{"90s", 90 * time.Second, ""},
		{"1h30m", 90 * time.Minute, ""},
		{"1h 30min", 90 * time.Minute, ""},
		{"2d", 48 * time.Hour, ""},
		{"1D12H", 36 * time.Hour, ""},
		{"30d", 30 * 24 * time.Hour, ""},
		{"", 0, "give the time"},
		{"5", 0, "a number and a unit"},
		{"m", 0, "a number and a unit"},
		{"5 weeks", 0, "a number and a unit"},
		{"-5m", 0, "a number and a unit"},
		{"0s", 0, "from 1 second"},
		{"31d", 0, "to 30 days"},
		{"99999999999999999999s", 0, "a number and a unit"},
		{"100000d100000d13504d", 0, "to 30 days"}, // wrapped around to 25 min 26 s
		{"100000d100000d", 0, "to 30 days"},
		{"29d23h59m60s", 30 * 24 * time.Hour, ""},
		{"29d23h59m61s", 0, "to 30 days"},
	}
	for _, c := range cases {
		got, err := ParseAddedTime(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseAddedTime(%q) = %v, %v; want %v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseAddedTime(%q) = %v, %v; want an error saying %q", c.in, got, err, c.err)
		}
	}
}

func TestArbiterNeedsManageServerOrTheRole(t *testing.T) {
	d, _ := arbiterDeps(t)
	c := NewArbiter(d)
	ctx := context.Background()
	if def := c.Definition(); def.DefaultMemberPermissions == nil || *def.DefaultMemberPermissions != discordgo.PermissionManageGuild {
		t.Errorf("default member permissions %v, want Manage Server", def.DefaultMemberPermissions)
	}
	abort := func(perms int64, roles ...string) error {
		_, err := c.Handle(ctx, arbiterRequest("addtime", "u7", "g1", "c1", perms, roles,
			intOpt("game", 1), strOpt("player", "white"), strOpt("time", "1m"), strOpt("reason", "r")))
		return err
	}
	err := abort(0)
	if err == nil || !strings.Contains(UserMessage(err), "Only members with the Manage Server permission") {
		t.Errorf("a member without the permission: %v", err)
	}
	// A member with the role may not choose the role.
	_, err = c.Handle(ctx, arbiterRequest("role", "u7", "g1", "c1", 0, []string{"r9"}, roleOpt("role", "r9")))
	if err == nil || !strings.Contains(UserMessage(err), "Only members with the Manage Server permission can choose") {
		t.Errorf("the role set by a member: %v", err)
	}
	resp, err := c.Handle(ctx, arbiterRequest("role", "u8", "g1", "c1", discordgo.PermissionManageGuild, nil, roleOpt("role", "r9")))
	if err != nil || !resp.Ephemeral || !strings.Contains(resp.Content, "<@&r9>") || len(resp.Mentions) != 0 {
		t.Fatalf("/arbiter role: %+v, %v", resp, err)
	}
	if gs, _ := d.Games.Settings().FreshGuild(ctx, "g1"); gs.ArbiterRole != "r9" {
		t.Errorf("arbiter role %q", gs.ArbiterRole)
	}
	err = abort(0, "r1")
	if err == nil || !strings.Contains(UserMessage(err), "Manage Server or <@&r9>") {
		t.Errorf("a member without the role: %v", err)
	}
	if err := abort(0, "r1", "r9"); err != nil {
		t.Errorf("a member with the role: %v", err)
	}
	if err := abort(discordgo.PermissionAdministrator); err != nil {
		t.Errorf("an administrator: %v", err)
	}
	if n := len(mustGame(t, d, 1).Notes); n != 2 {
		t.Errorf("%d notes, want 2 (the role's and the administrator's)", n)
	}
	// Clearing the role leaves Manage Server only.
	if _, err := c.Handle(ctx, arbiterRequest("role", "u8", "g1", "c1", discordgo.PermissionManageGuild, nil)); err != nil {
		t.Fatal(err)
	}
	if err := abort(0, "r9"); err == nil {
		t.Error("the cleared role still arbitrates")
	}
	if _, err := c.Handle(ctx, arbiterRequest("abort", "u8", "", "dm", discordgo.PermissionManageGuild, nil, strOpt("reason", "r"))); err == nil ||
		!strings.Contains(UserMessage(err), "in a server") {
		t.Errorf("in a direct message: %v", err)
	}
}

// TestArbiterNeverDecidesOwnGame: a player of the game with Manage Server (or the
// role) is told to ask another arbiter, and the game is left as it was.
func TestArbiterNeverDecidesOwnGame(t *testing.T) {
	d, out := arbiterDeps(t)
	c := NewArbiter(d)
	ctx := context.Background()
	reqs := []*Request{
		arbiterRequest("addtime", alice.ID, "g1", "t1", discordgo.PermissionManageGuild, nil,
			strOpt("player", "white"), strOpt("time", "30d"), strOpt("reason", "mine")),
		arbiterRequest("adjudicate", bob.ID, "g1", "c1", discordgo.PermissionAdministrator, nil,
			intOpt("game", 1), strOpt("result", "0-1"), strOpt("reason", "mine")),
	}
	for _, r := range reqs {
		_, err := c.Handle(ctx, r)
		if err == nil || !strings.Contains(UserMessage(err), "You play in game 1: an arbiter never decides their own game") {
			t.Errorf("/arbiter %s by a player: %v (%q)", r.Sub, err, UserMessage(err))
		}
	}
	if g := mustGame(t, d, 1); len(g.Notes) != 0 || !g.Live() || len(out.posts) != 0 {
		t.Errorf("the refusals changed the game: notes %+v, live %v, %d posts", g.Notes, g.Live(), len(out.posts))
	}
	// Nor does the completion offer a player their own game.
	r := arbiterRequest("abort", alice.ID, "g1", "c1", discordgo.PermissionManageGuild, nil)
	r.Interaction.Type = discordgo.InteractionApplicationCommandAutocomplete
	if choices, err := c.Autocomplete(ctx, r); err != nil || len(choices) != 0 {
		t.Errorf("completion for a player of the game: %v, %v", choices, err)
	}
}

func mustGame(t *testing.T, d *Deps, id uint64) *games.Game {
	t.Helper()
	g, err := d.Games.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// In the game's thread the decision is the public answer; elsewhere it is posted in
// the thread and the arbiter gets a private confirmation. Echoed text pings nobody.
func TestArbiterAnnouncesInTheGamesThread(t *testing.T) {
	d, out := arbiterDeps(t)
	c := NewArbiter(d)
	ctx := context.Background()
	hostile := "a power cut @everyone <@u2> **bold**"
	resp, err := c.Handle(ctx, arbiterRequest("addtime", "u8", "g1", "t1", discordgo.PermissionManageGuild, nil,
		strOpt("player", "black"), strOpt("time", "2m"), strOpt("reason", hostile)))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Ephemeral || len(resp.Mentions) != 0 || !strings.Contains(resp.Content, "⚖ **Arbiter's decision** in game 1: Ruth added 2 min to Black's clock. Reason: a power cut") ||
		!strings.Contains(resp.Content, `\*\*bold\*\*`) || !strings.Contains(resp.Content, "⏱ White 5:00 · Black 7:00") {
		t.Errorf("in the thread: %+v", resp)
	}
	if len(out.posts) != 0 {
		t.Errorf("posted %d messages besides the answer", len(out.posts))
	}
	// From another channel: posted in the thread, confirmed privately.
	adjudicate := arbiterRequest("adjudicate", "u8", "g1", "c9", discordgo.PermissionManageGuild, nil,
		intOpt("game", 1), strOpt("result", "1/2-1/2"), strOpt("reason", "agreed by phone"))
	resp, err = c.Handle(ctx, adjudicate)
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Ephemeral || !strings.Contains(resp.Content, "announced in <#t1>") || len(resp.Mentions) != 0 {
		t.Errorf("elsewhere: %+v", resp)
	}
	if len(out.posts) != 1 || out.posts[0].channel != "t1" {
		t.Fatalf("posts %+v", out.posts)
	}
	post := out.posts[0].m
	if !strings.Contains(post.Content, "Ruth adjudicated the game 1/2-1/2. Reason: agreed by phone") || !strings.Contains(post.Content, "½-½ · draw by adjudication") {
		t.Errorf("the game-over announcement: %q", post.Content)
	}
	pgn := ""
	for _, f := range post.Files {
		if strings.HasSuffix(f.Name, ".pgn") {
			pgn = string(f.Data)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(pgn), " "), "Arbiter Ruth adjudicated the game 1/2-1/2: agreed by phone.") {
		t.Errorf("the PGN does not carry the decision:\n%s", pgn)
	}
	// The notifier will not post the game-over a second time.
	if !d.Ledger.Consume(GamePost(1, 2, EventOver)) {
		t.Error("the game-over post was not reserved")
	}
	// The same interaction again (a retry) does nothing more.
	if again, err := c.Handle(ctx, adjudicate); err != nil || !again.Ephemeral || !strings.Contains(again.Content, "Already done") || len(out.posts) != 1 {
		t.Errorf("the same interaction again: %+v, %v, %d posts", again, err, len(out.posts))
	}
	g := mustGame(t, d, 1)
	if len(g.Notes) != 2 {
		t.Errorf("%d notes, want 2", len(g.Notes))
	}
	if g.Live() || g.Outcome != (chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Adjudication}) {
		t.Errorf("outcome %v", g.Outcome)
	}
	_, err = c.Handle(ctx, arbiterRequest("abort", "u8", "g1", "t1", discordgo.PermissionManageGuild, nil, strOpt("reason", "late")))
	if err == nil || !strings.Contains(UserMessage(err), "No game is in progress in this channel: add game:<number>") {
		t.Errorf("a decision in a finished game's thread: %v", err)
	}
	_, err = c.Handle(ctx, arbiterRequest("abort", "u8", "g1", "t1", discordgo.PermissionManageGuild, nil, intOpt("game", 1), strOpt("reason", "late")))
	if err == nil || !strings.Contains(UserMessage(err), "Game 1 is over") {
		t.Errorf("a decision on a finished game: %v", err)
	}
}

// A game of another server is answered word for word as a game that does not exist,
// and is left alone.
func TestArbiterOtherServersGameLooksMissing(t *testing.T) {
	ctx := context.Background()
	answer := func(d *Deps, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) string {
		_, err := NewArbiter(d).Handle(ctx, arbiterRequest(sub, "u8", "g2", "c2", discordgo.PermissionManageGuild, nil, opts...))
		if err == nil {
			t.Fatalf("/arbiter %s game:1 from another server was carried out", sub)
		}
		return UserMessage(err)
	}
	withGame, _ := arbiterDeps(t)
	_, _, gs, _ := testServices(t)
	without := &Deps{Games: gs, Outbox: &placedOutbox{}, Ledger: NewPostLedger(nil)}
	for _, sub := range []struct {
		name string
		opts []*discordgo.ApplicationCommandInteractionDataOption
	}{
		{"abort", []*discordgo.ApplicationCommandInteractionDataOption{intOpt("game", 1), strOpt("reason", "r")}},
		{"forfeit", []*discordgo.ApplicationCommandInteractionDataOption{intOpt("game", 1), strOpt("player", "white"), strOpt("reason", "r")}},
		{"addtime", []*discordgo.ApplicationCommandInteractionDataOption{intOpt("game", 1), strOpt("player", "white"), strOpt("time", "1m"), strOpt("reason", "r")}},
		{"adjudicate", []*discordgo.ApplicationCommandInteractionDataOption{intOpt("game", 1), strOpt("result", "1-0"), strOpt("reason", "r")}},
	} {
		hidden, missing := answer(withGame, sub.name, sub.opts...), answer(without, sub.name, sub.opts...)
		if hidden != missing {
			t.Errorf("/arbiter %s: another server's game answers %q, a missing one %q", sub.name, hidden, missing)
		}
	}
	if g := mustGame(t, withGame, 1); !g.Live() || len(g.Notes) != 0 {
		t.Errorf("another server's arbiter changed the game: %v %+v", g.Outcome, g.Notes)
	}
	// Nor does its completion list the game.
	r := arbiterRequest("abort", "u8", "g2", "c2", discordgo.PermissionManageGuild, nil)
	r.Interaction.Type = discordgo.InteractionApplicationCommandAutocomplete
	if choices, err := NewArbiter(withGame).Autocomplete(ctx, r); err != nil || len(choices) != 0 {
		t.Errorf("completion in another server: %v, %v", choices, err)
	}
	r.GuildID = "g1"
	if choices, err := NewArbiter(withGame).Autocomplete(ctx, r); err != nil || len(choices) != 1 || choices[0].Value != uint64(1) {
		t.Errorf("completion in the game's server: %v, %v", choices, err)
	}
}
