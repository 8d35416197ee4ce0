package commands

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/tournaments"
	"github.com/gambitchess/gambit/storage"
)

// recordingOutbox records the posts.
type recordingOutbox struct {
	mu    sync.Mutex
	posts []*Response
}

func (p *recordingOutbox) Post(_ context.Context, _ string, m *Response) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.posts = append(p.posts, m)
	return fmt.Sprint(len(p.posts)), nil
}
func (p *recordingOutbox) StartThread(context.Context, string, string, string) (string, error) {
	return "t", nil
}

func tournamentDeps(t *testing.T) (*Deps, *recordingOutbox) {
	t.Helper()
	db, clk, gs, quiet := testServices(t)
	p := &recordingOutbox{}
	d := &Deps{Games: gs, Now: clk.Now, Outbox: p}
	d.Tournaments = tournaments.New(db, gs, tournaments.Options{Clock: clk, Notifier: d, Logger: quiet})
	return d, p
}

func tournamentRequest(user, sub string, perms int64, opts ...*discordgo.ApplicationCommandInteractionDataOption) *Request {
	return &Request{
		Interaction: &discordgo.Interaction{ID: "i-" + sub + user + fmt.Sprint(len(opts)), Type: discordgo.InteractionApplicationCommand,
			Member: &discordgo.Member{Roles: []string{"r-" + user}}},
		GuildID: "g1", ChannelID: "c1", User: &discordgo.User{ID: user, Username: user}, Permissions: perms,
		Name: "tournament", Sub: sub, Options: opts, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

func strOpt(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
}

func intOpt(name string, v int) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: float64(v)}
}

func roleOpt(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionRole, Value: v}
}

// userErr checks that err is shown to the user and says want.
func userErr(t *testing.T, what string, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(UserMessage(err), want) {
		t.Errorf("%s: error %v (user reads %q), want %q", what, err, UserMessage(err), want)
	}
}

func TestTournamentCommand(t *testing.T) {
	d, posts := tournamentDeps(t)
	c := NewTournament(d)
	ctx := context.Background()
	admin := int64(discordgo.PermissionManageGuild)

	// Who may create.
	_, err := c.Handle(ctx, tournamentRequest("u2", "create", 0, strOpt("format", "swiss"), intOpt("rounds", 3)))
	userErr(t, "create by a member", err, "Manage Server")
	if _, err := c.Handle(ctx, tournamentRequest("u2", "creators", 0, roleOpt("role", "r-u2"))); err == nil {
		t.Error("a member chose the creators' role")
	}
	if _, err := c.Handle(ctx, tournamentRequest("u1", "creators", admin, roleOpt("role", "r-u2"))); err != nil {
		t.Fatal(err)
	}
	// Errors of the settings.
	_, err = c.Handle(ctx, tournamentRequest("u2", "create", 0, strOpt("format", "swiss")))
	userErr(t, "Swiss without rounds", err, "0 rounds: a Swiss has 1 to 20")
	_, err = c.Handle(ctx, tournamentRequest("u2", "create", 0, strOpt("format", "ladder")))
	userErr(t, "unknown format", err, "want swiss, roundrobin, arena or knockout")
	_, err = c.Handle(ctx, tournamentRequest("u2", "create", 0, strOpt("format", "arena")))
	userErr(t, "arena without minutes", err, "minutes")
	_, err = c.Handle(ctx, tournamentRequest("u2", "create", 0, strOpt("format", "swiss"), intOpt("rounds", 3), strOpt("time", "2d")))
	userErr(t, "correspondence", err, "live clock")
	_, err = c.Handle(ctx, tournamentRequest("u2", "join", 0))
	userErr(t, "join with none", err, "no open or running tournament")

	resp, err := c.Handle(ctx, tournamentRequest("u2", "create", 0, strOpt("format", "swiss"), intOpt("rounds", 2), strOpt("name", "Club Swiss"), strOpt("time", "3+2")))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Ephemeral || !strings.Contains(resp.Content, "**Club Swiss** (tournament 1): Swiss, 2 rounds, 3+2, casual") {
		t.Errorf("create answered %q", resp.Content)
	}
	// The announcement's buttons join and leave.
	if len(resp.Components) != 1 {
		t.Fatalf("create answered without buttons: %+v", resp)
	}
	var ids []string
	for _, b := range resp.Components[0].(discordgo.ActionsRow).Components {
		ids = append(ids, b.(discordgo.Button).CustomID)
	}
	joinID, err := ParseCustomID(ids[0])
	if err != nil || joinID.Route() != "tournament/join" || joinID.ID != 1 {
		t.Fatalf("buttons %v", ids)
	}
	leaveID, _ := ParseCustomID(ids[1])
	click := func(user string, id CustomID) (*Response, error) {
		r := tournamentRequest(user, "", 0)
		r.Name, r.ID = id.Route(), id
		return c.Components()[id.Route()](ctx, r)
	}
	for _, u := range []string{"u1", "u2", "u3"} {
		if _, err := c.Handle(ctx, tournamentRequest(u, "join", 0)); err != nil {
			t.Fatal(err)
		}
	}
	if resp, err := click("u4", joinID); err != nil || !strings.Contains(resp.Content, "u4 joined **Club Swiss** (4 players)") {
		t.Fatalf("join button: %+v, %v", resp, err)
	}
	if resp, err := click("u4", leaveID); err != nil || !strings.Contains(resp.Content, "(3 players)") {
		t.Fatalf("leave button: %+v, %v", resp, err)
	}
	if _, err := click("u4", joinID); err != nil {
		t.Fatal(err)
	}
	_, err = click("u4", joinID)
	userErr(t, "second join by button", err, "already joined")
	_, err = c.Handle(ctx, tournamentRequest("u3", "join", 0))
	userErr(t, "second join", err, "already joined")
	_, err = c.Handle(ctx, tournamentRequest("u3", "start", 0))
	userErr(t, "start by a player", err, "Only the tournament's creator")
	_, err = c.Handle(ctx, tournamentRequest("u3", "withdraw", 0))
	userErr(t, "withdraw before the start", err, "leave before the start")
	_, err = c.Handle(ctx, tournamentRequest("u3", "pairings", 0))
	userErr(t, "pairings before the start", err, "not started")
	resp, err = c.Handle(ctx, tournamentRequest("u2", "standings", 0))
	if err != nil || len(resp.Files) != 1 || !strings.Contains(resp.Content, "not started") {
		t.Errorf("standings before the start: %+v, %v", resp, err)
	}
	if resp, err = c.Handle(ctx, tournamentRequest("u2", "start", 0)); err != nil || !strings.Contains(resp.Content, "has started with 4 players") {
		t.Fatalf("start: %+v, %v", resp, err)
	}
	_, err = c.Handle(ctx, tournamentRequest("u5", "join", 0))
	userErr(t, "join after the start", err, "already started")
	// The round's pairings were posted in the channel.
	if len(posts.posts) != 1 || !strings.Contains(posts.posts[0].Content, "**Club Swiss**: round 1") || strings.Count(posts.posts[0].Content, " · game ") != 2 {
		t.Errorf("posts %+v", posts.posts)
	}
	resp, err = c.Handle(ctx, tournamentRequest("u4", "pairings", 0, intOpt("round", 1)))
	if err != nil || !strings.Contains(resp.Content, "1. **u1** – **u3**  …") {
		t.Errorf("pairings: %+v, %v", resp, err)
	}
	_, err = c.Handle(ctx, tournamentRequest("u4", "pairings", 0, intOpt("round", 2)))
	userErr(t, "a round not paired yet", err, "No such round: 2")
	if _, err := c.Handle(ctx, tournamentRequest("u4", "withdraw", 0)); err != nil {
		t.Fatal(err)
	}
	_, err = c.Handle(ctx, tournamentRequest("u4", "withdraw", 0))
	userErr(t, "second withdrawal", err, "already withdrawn")
	resp, err = c.Handle(ctx, tournamentRequest("u4", "list", 0))
	if err != nil || !resp.Ephemeral || !strings.Contains(resp.Content, "1. **Club Swiss**: Swiss, running, 4 players") {
		t.Errorf("list: %+v, %v", resp, err)
	}
	_, err = c.Handle(ctx, tournamentRequest("u4", "standings", 0, intOpt("tournament", 9)))
	userErr(t, "unknown tournament", err, "no such tournament")
}

func TestStandingsMessageFinal(t *testing.T) {
	d, _ := tournamentDeps(t)
	ctx := context.Background()
	v, err := d.Tournaments.Create(ctx, tournaments.CreateRequest{GuildID: "g", ChannelID: "c", By: storage.Player{ID: "a", Name: "A"},
		Name: "RR", Settings: tournaments.Settings{Format: tournaments.RoundRobin}})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"a", "b"} {
		if _, err := d.Tournaments.Join(ctx, v.ID, "g", storage.Player{ID: u, Name: strings.ToUpper(u)}); err != nil {
			t.Fatal(err)
		}
	}
	msg, err := StandingsMessage(v, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Files) != 2 || msg.Files[0].Name != "standings.png" || msg.Files[1].Name != "tournament-1.trf" ||
		!strings.Contains(string(msg.Files[1].Data), "012 RR") || !strings.Contains(msg.Content, "DE      SB      KS     WON") {
		t.Errorf("final standings %q with %d files", msg.Content, len(msg.Files))
	}
}

func TestTournamentTextFitsDiscord(t *testing.T) {
	v := &tournaments.View{Name: "Big", State: &tournaments.State{Settings: tournaments.Settings{Format: tournaments.Swiss, Rounds: 5, TieBreaks: "BH/C1, BH, SB, DE"}}}
	tb := tournaments.Table{Caption: "after round 1 of 5", Columns: []string{"BH/C1", "BH", "SB", "DE"}}
	for i := range 200 {
		v.State.Players = append(v.State.Players, tournaments.Entrant{UserID: fmt.Sprint(i), Name: strings.Repeat("n", 40)})
		tb.Rows = append(tb.Rows, tournaments.Row{Rank: i + 1, Name: strings.Repeat("n", 40), Points: "1.0", Values: []string{"1.00", "1.00", "1.00", "1.00"}, Note: "withdrawn"})
	}
	if text := standingsText(v, tb); len(text) > 2000 || !strings.Contains(text, "more (see the card)") || !strings.HasSuffix(text, "```") {
		t.Errorf("standings text of %d bytes: ...%s", len(text), text[len(text)-80:])
	}
	var round tournaments.Round
	for i := 0; i < 200; i += 2 {
		round.Boards = append(round.Boards, tournaments.Board{White: i + 1, Black: i + 2, GameID: uint64(1000 + i)})
	}
	v.State.Rounds = []tournaments.Round{round}
	text, err := PairingsText(v, 1)
	if err != nil || len(text) > 2000 || !strings.Contains(text, "more boards") {
		t.Errorf("pairings text of %d bytes, %v", len(text), err)
	}
}

func TestParseArmageddon(t *testing.T) {
	for _, tc := range []struct {
		in           string
		white, black time.Duration
		ok           bool
	}{
		{"5/4", 5 * time.Minute, 4 * time.Minute, true},
		{" 4.5 / 3 ", 270 * time.Second, 3 * time.Minute, true},
		{"10/7.5", 10 * time.Minute, 450 * time.Second, true},
		{"4/5", 0, 0, false},   // White must have more
		{"5/5", 0, 0, false},   // ... strictly
		{"5", 0, 0, false},     // both sides
		{"5/0", 0, 0, false},   // Black needs time
		{"90/4", 0, 0, false},  // an hour at most
		{"x/4", 0, 0, false},   // numbers
		{"NaN/4", 0, 0, false}, // numbers
	} {
		w, b, err := parseArmageddon(tc.in)
		if (err == nil) != tc.ok || w != tc.white || b != tc.black {
			t.Errorf("parseArmageddon(%q) = %v, %v, %v", tc.in, w, b, err)
		}
	}
}

// FuzzParseArmageddon checks that any accepted Armageddon option gives White more time
// than Black, both positive, within an hour, in whole seconds, and that writing the
// times back as minutes reads the same.
func FuzzParseArmageddon(f *testing.F) {
	for _, s := range []string{"5/4", "4.5/3", "10/7.5", "4/5", "5", "/", "5/", "/4", "0/0", "60/59.99", "1e1/5", "+5/-4", " 5 / 4 ", "NaN/1", "Inf/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, b, err := parseArmageddon(s)
		if err != nil {
			if w != 0 || b != 0 {
				t.Fatalf("%q: refused but gave %v, %v", s, w, b)
			}
			return
		}
		if b <= 0 || w <= b || w > time.Hour || w%time.Second != 0 || b%time.Second != 0 {
			t.Fatalf("%q gave White %v, Black %v", s, w, b)
		}
		again := strconv.FormatFloat(w.Minutes(), 'f', -1, 64) + "/" + strconv.FormatFloat(b.Minutes(), 'f', -1, 64)
		w2, b2, err := parseArmageddon(again)
		if err != nil || w2 != w || b2 != b {
			t.Fatalf("%q: %v/%v written as %q read back as %v/%v (%v)", s, w, b, again, w2, b2, err)
		}
	})
}

// The service gives a running arena's end as a time; the text shows it as Discord
// shows times, the card in UTC.
func TestStandingsCaption(t *testing.T) {
	ends := time.Date(2026, 3, 1, 14, 30, 0, 0, time.FixedZone("CET", 3600))
	for _, tt := range []struct {
		tb   tournaments.Table
		card bool
		want string
	}{
		{tournaments.Table{Caption: "after round 1 of 5"}, false, "after round 1 of 5"},
		{tournaments.Table{Caption: "final"}, true, "final"},
		{tournaments.Table{Caption: "arena", Ends: ends}, false, fmt.Sprintf("ends <t:%d:R>", ends.Unix())},
		{tournaments.Table{Caption: "arena", Ends: ends}, true, "ends 13:30 UTC"},
	} {
		if got := standingsCaption(tt.tb, tt.card); got != tt.want {
			t.Errorf("standingsCaption(%+v, card %v) = %q, want %q", tt.tb, tt.card, got, tt.want)
		}
	}
}
