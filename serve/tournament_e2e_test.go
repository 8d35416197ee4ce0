package serve

// End-to-end stories of the tournaments: a whole Swiss (with a bye, a forfeit by
// absence, a restart mid-round and rated games), a round robin, an arena on the fake
// clock (with a restart mid-arena) and a knockout decided by Armageddon, all through the
// fake Discord: /tournament, the games in their threads, the posted pairings and the
// final standings with the TRF.

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/tournaments"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/trf"
)

// tourWorld is a world with more players and the bot running it.
type tourWorld struct {
	*world
	r       *running
	players []*discordgo.User
	byID    map[string]*discordgo.User
}

func newTourWorld(t *testing.T, n int) *tourWorld {
	w := newWorld(t)
	tw := &tourWorld{world: w, byID: map[string]*discordgo.User{}}
	tw.players = []*discordgo.User{w.alice, w.bob, w.carol}
	for i := len(tw.players); i < n; i++ {
		tw.players = append(tw.players, w.f.NewUser(fmt.Sprintf("player%d", i+1)))
	}
	tw.players = tw.players[:n]
	for _, u := range tw.players {
		tw.byID[u.ID] = u
	}
	tw.r = w.start()
	return tw
}

// create makes alice (Manage Server) create an event and every player join it.
func (tw *tourWorld) create(opts ...*discordgo.ApplicationCommandInteractionDataOption) uint64 {
	tw.t.Helper()
	before, _ := tw.r.bot.Tournaments.List(context.Background(), tw.f.GuildID, false)
	d := tw.ask(admin(subCommand("create", opts...)))
	vs, _ := tw.r.bot.Tournaments.List(context.Background(), tw.f.GuildID, false)
	if len(vs) != len(before)+1 {
		tw.t.Fatalf("create answered %q", d.Content)
	}
	id := vs[0].ID
	for _, u := range tw.players {
		d := tw.ask(subCommand("join").From(u))
		if !strings.Contains(d.Content, "joined") || d.Ephemeral() {
			tw.t.Fatalf("join answered %q", d.Content)
		}
	}
	return id
}

// subCommand builds /tournament <sub> with options.
func subCommand(sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) discordfake.InteractionSpec {
	return discordfake.Command("tournament", &discordgo.ApplicationCommandInteractionDataOption{
		Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts})
}

func (tw *tourWorld) view(id uint64) *tournaments.View {
	tw.t.Helper()
	v, err := tw.r.bot.Tournaments.Get(context.Background(), id)
	if err != nil {
		tw.t.Fatal(err)
	}
	return v
}

// live waits until the event has want games under way, each with its thread and
// first board, and returns them.
func (tw *tourWorld) live(id uint64, want int) []*storage.Game {
	tw.t.Helper()
	var out []*storage.Game
	tw.waitFor(fmt.Sprintf("%d tournament games with threads", want), func() bool {
		out = out[:0]
		_, ps, err := tw.view(id).Pairings(0)
		if err != nil {
			return false
		}
		for _, p := range ps {
			if p.GameID == 0 || p.Result != "…" {
				continue
			}
			g, err := tw.r.bot.Games.Game(context.Background(), p.GameID)
			if err != nil || g.ThreadID == "" || len(tw.messagesWith(g.ThreadID, "board.png")) == 0 {
				return false
			}
			out = append(out, &g.Game)
		}
		return len(out) == want
	})
	return out
}

// play ends a game through its thread: "1-0" (Black resigns after 1. e4 e5: a game in
// which a side never moved is not rated), "0-1" (White resigns after 1. e4 e5), "draw"
// (agreed after 2. Nf3).
func (tw *tourWorld) play(g *storage.Game, result string) {
	tw.t.Helper()
	white, black := tw.byID[g.White.ID], tw.byID[g.Black.ID]
	gm := &game{w: tw.world, thread: g.ThreadID, white: white, black: black}
	mv := func(u *discordgo.User, san string, opts ...*discordgo.ApplicationCommandInteractionDataOption) {
		if d := tw.final(gm.move(u, san, opts...)); d.Ephemeral() {
			tw.t.Fatalf("game %d: %s answered %q", g.ID, san, d.Content)
		}
	}
	resign := func(u *discordgo.User) {
		res := tw.send(discordfake.Command("resign").From(u).In(tw.f.GuildID, g.ThreadID))
		confirm := customID(tw.t, res.Callback.Data.CustomIDs(), "resign-confirm")
		if d := tw.final(tw.send(discordfake.Button(confirm).From(u).In(tw.f.GuildID, g.ThreadID))); !strings.Contains(d.Content, "resign") {
			tw.t.Fatalf("game %d: resignation answered %q", g.ID, d.Content)
		}
	}
	switch result {
	case "1-0":
		mv(white, "e4")
		mv(black, "e5")
		resign(black)
	case "0-1":
		mv(white, "e4")
		mv(black, "e5")
		resign(white)
	case "draw":
		mv(white, "e4")
		mv(black, "e5")
		mv(white, "Nf3", discordfake.BoolOpt("offer_draw", true))
		if d := tw.final(gm.click(black, "draw-accept")); !strings.Contains(d.Content, "agreement") {
			tw.t.Fatalf("game %d: accepting the draw answered %q", g.ID, d.Content)
		}
	}
}

// finalPost waits for the final standings in the channel and returns them, checking
// the card and, unless an arena, the TRF (parsed back and consistent).
func (tw *tourWorld) finalPost(t *testing.T, id uint64, rounds int) (discordfake.Message, *tournament.Event) {
	t.Helper()
	var msg discordfake.Message
	tw.waitFor("the final standings", func() bool {
		for _, m := range tw.f.Messages(tw.f.ChannelID) {
			if strings.Contains(m.Content, "Final standings") && strings.Contains(m.Content, tw.view(id).Name) {
				msg = m
				return true
			}
		}
		return false
	})
	picture(t, msg.Payload, "standings.png", fmt.Sprintf("tournament-%d.png", id))
	if rounds == 0 {
		return msg, nil
	}
	a, ok := msg.File(fmt.Sprintf("tournament-%d.trf", id))
	if !ok {
		t.Fatalf("no TRF with the final standings %q", msg.Content)
	}
	ev, err := trf.Parse(bytes.NewReader(a.Data))
	if err != nil {
		t.Fatalf("TRF: %v\n%s", err, a.Data)
	}
	if err := ev.Validate(); err != nil || ev.RoundsRecorded() != rounds {
		t.Fatalf("TRF with %d rounds (%v), want %d\n%s", ev.RoundsRecorded(), err, rounds, a.Data)
	}
	return msg, ev
}

func TestStoryTournamentSwiss(t *testing.T) {
	tw := newTourWorld(t, 5)
	ctx := context.Background()
	// A member without Manage Server may not create one.
	d := tw.ask(subCommand("create", discordfake.StringOpt("format", "swiss"), discordfake.IntOpt("rounds", 3)).From(tw.bob))
	if !d.Ephemeral() || !strings.Contains(d.Content, "Manage Server") {
		t.Errorf("create by a member answered %q", d.Content)
	}
	d = tw.ask(admin(subCommand("create", discordfake.StringOpt("format", "swiss"), discordfake.IntOpt("rounds", 30))))
	if !d.Ephemeral() {
		t.Errorf("30 rounds answered %q", d.Content)
	}
	d = tw.ask(admin(subCommand("create", discordfake.StringOpt("format", "swiss"), discordfake.IntOpt("rounds", 3),
		discordfake.StringOpt("time", "5+3"), discordfake.BoolOpt("rated", true), discordfake.IntOpt("forfeit", 30), discordfake.StringOpt("name", "Spring Swiss"))))
	if d.Ephemeral() || !strings.Contains(d.Content, "**Spring Swiss** (tournament 1): Swiss, 3 rounds, 5+3, rated") {
		t.Fatalf("create answered %q", d.Content)
	}
	join := customID(t, d.CustomIDs(), "join")
	for _, u := range tw.players {
		spec := subCommand("join").From(u)
		if u == tw.bob { // bob clicks the announcement's Join button
			spec = discordfake.Button(join).From(u)
		}
		if d := tw.ask(spec); !strings.Contains(d.Content, "joined") {
			t.Fatalf("join answered %q", d.Content)
		}
	}
	if d := tw.ask(discordfake.Button(join).From(tw.bob)); !d.Ephemeral() || !strings.Contains(d.Content, "already joined") {
		t.Errorf("second join answered %q", d.Content)
	}
	if d := tw.ask(subCommand("start").From(tw.bob)); !d.Ephemeral() || !strings.Contains(d.Content, "creator") {
		t.Errorf("start by a player answered %q", d.Content)
	}
	if d := tw.ask(admin(subCommand("start"))); !strings.Contains(d.Content, "has started with 5 players") {
		t.Fatalf("start answered %q", d.Content)
	}
	// Round 1: two games in threads, a bye, the pairings posted.
	r1 := tw.live(1, 2)
	tw.waitFor("the round 1 post", func() bool {
		for _, m := range tw.f.Messages(tw.f.ChannelID) {
			if strings.Contains(m.Content, "**Spring Swiss**: round 1") && strings.Contains(m.Content, "bye") {
				return true
			}
		}
		return false
	})
	tw.play(r1[0], "1-0")
	tw.play(r1[1], "draw")
	// Round 2: White of board 1 never moves and loses by forfeit; board 2 is played.
	r2 := tw.live(1, 2)
	tw.play(r2[1], "0-1")
	tw.clock.Advance(31 * time.Second)
	tw.r.bot.Games.FireDue()
	tw.waitFor("the forfeit", func() bool {
		g, err := tw.r.bot.Games.Game(ctx, r2[0].ID)
		return err == nil && g.Outcome.Termination == chesscore.NoShow
	})
	// The game-over post says what happened.
	tw.waitFor("the forfeit's game-over post", func() bool {
		for _, m := range tw.f.Messages(r2[0].ThreadID) {
			if strings.Contains(m.Content, "0-1 · Black wins by forfeit: White made no first move in time") {
				return true
			}
		}
		return false
	})
	// Round 3 goes on across a restart.
	r3 := tw.live(1, 2)
	tw.play(r3[0], "1-0")
	tw.r.stop()
	tw.r = tw.start()
	tw.play(r3[1], "draw")
	_, ev := tw.finalPost(t, 1, 3)
	var pts tournament.Points
	forfeits, byes := 0, 0
	for i := range ev.Players {
		pts += ev.Score(&ev.Players[i], -1)
		for _, c := range ev.Players[i].Results {
			switch c.Code {
			case tournament.ForfeitWin, tournament.ForfeitLoss:
				forfeits++
			case tournament.PAB:
				byes++
			}
		}
	}
	if pts != tournament.Pts(9) || forfeits != 2 || byes != 3 {
		t.Errorf("TRF: %v points, %d forfeit cells, %d byes; want 9, 2, 3", pts, forfeits, byes)
	}
	// The ladder has the five games played, not the forfeit.
	rs, err := storage.Read(ctx, tw.r.store(), func(tx storage.Tx) ([]storage.RatedResult, error) { return tx.RatedResults(tw.f.GuildID) })
	if err != nil || len(rs) != 5 {
		t.Errorf("%d rated results (%v), want 5", len(rs), err)
	}
	// /tournament standings answers with the card and the tie-break columns.
	d = tw.ask(subCommand("standings", discordfake.IntOpt("tournament", 1)).From(tw.carol))
	if !strings.Contains(d.Content, "BH/C1") || !strings.Contains(d.Content, "final, 3 rounds") {
		t.Errorf("standings answered %q", d.Content)
	}
	picture(t, d, "standings.png", "swiss-standings.png")
	if d := tw.ask(subCommand("pairings", discordfake.IntOpt("tournament", 1), discordfake.IntOpt("round", 2))); !strings.Contains(d.Content, "-/+") {
		t.Errorf("pairings of round 2 answered %q", d.Content)
	}
}

func TestStoryTournamentRoundRobin(t *testing.T) {
	tw := newTourWorld(t, 4)
	id := tw.create(discordfake.StringOpt("format", "roundrobin"), discordfake.StringOpt("time", "3+2"))
	if d := tw.ask(admin(subCommand("start"))); !strings.Contains(d.Content, "has started") {
		t.Fatalf("start answered %q", d.Content)
	}
	results := []string{"1-0", "0-1", "draw"}
	quitter := tw.players[3]
	for round := 0; round < 3; round++ {
		want := 2
		if round == 1 { // the fourth player withdraws during round 2: round 3 has a forfeit
			d := tw.ask(subCommand("withdraw").From(quitter))
			if d.Ephemeral() || !strings.Contains(d.Content, "withdrew") {
				t.Fatalf("withdraw answered %q", d.Content)
			}
		}
		if round == 2 {
			want = 1
		}
		for i, g := range tw.live(id, want) {
			if round == 2 && (g.White.ID == quitter.ID || g.Black.ID == quitter.ID) {
				t.Errorf("round %d: the withdrawn player has a game", round+1)
			}
			tw.play(g, results[(round+i)%3])
		}
		if round == 0 {
			tw.live(id, 2) // round 2 is paired before the withdrawal
		}
	}
	msg, ev := tw.finalPost(t, id, 3)
	forfeits := 0
	for _, p := range ev.Players {
		for _, c := range p.Results {
			if c.Code == tournament.ForfeitWin || c.Code == tournament.ForfeitLoss {
				forfeits++
			}
		}
	}
	if forfeits != 2 || !strings.Contains(msg.Content, "(withdrawn)") {
		t.Errorf("%d forfeit cells, final standings %q", forfeits, msg.Content)
	}
	if !strings.Contains(msg.Content, "DE") || !strings.Contains(msg.Content, "SB") {
		t.Errorf("final standings lack the tie-breaks: %q", msg.Content)
	}
	var pts tournament.Points
	for i := range ev.Players {
		pts += ev.Score(&ev.Players[i], -1)
	}
	if pts != tournament.Pts(6) {
		t.Errorf("%v points in a 4-player round robin", pts)
	}
}

func TestStoryTournamentArena(t *testing.T) {
	tw := newTourWorld(t, 3)
	id := tw.create(discordfake.StringOpt("format", "arena"), discordfake.StringOpt("time", "1+0"), discordfake.IntOpt("minutes", 5))
	if d := tw.ask(admin(subCommand("start"))); !strings.Contains(d.Content, "has started") {
		t.Fatalf("start answered %q", d.Content)
	}
	played := 0
	for i := 0; i < 3; i++ { // three players: one game at a time, re-paired at once
		g := tw.live(id, 1)[0]
		if i == 0 { // White goes berserk: half of a minute, and a bonus point for the win
			white := tw.byID[g.White.ID]
			d := tw.ask(subCommand("berserk").From(white).In(tw.f.GuildID, g.ThreadID))
			if d.Ephemeral() || !strings.Contains(d.Content, "goes berserk") || !strings.Contains(d.Content, "0:30") {
				t.Fatalf("berserk answered %q", d.Content)
			}
			if d := tw.ask(subCommand("berserk").From(white).In(tw.f.GuildID, g.ThreadID)); !d.Ephemeral() || !strings.Contains(d.Content, "already") {
				t.Errorf("second berserk answered %q", d.Content)
			}
			defer func(user string) {
				rows := tw.view(id).Standings().Rows
				for _, r := range rows {
					if n, _ := strconv.Atoi(r.Points); r.UserID == user && n < 3 {
						t.Errorf("the berserk winner has %s points, want at least 3 (%+v)", r.Points, rows)
					}
				}
			}(white.ID)
		}
		tw.clock.Advance(time.Minute)
		tw.play(g, "1-0")
		played++
		if i == 1 { // mid-arena restart
			tw.live(id, 1)
			tw.r.stop()
			tw.r = tw.start()
		}
	}
	last := tw.live(id, 1)[0]
	tw.clock.Advance(3 * time.Minute) // past the end: no new pairings, the game is played out
	tw.r.bot.Tournaments.FireDue(context.Background())
	if v := tw.view(id); v.Status != storage.TournamentRunning {
		t.Fatalf("the arena closed with a game under way: %s", v.Status)
	}
	tw.play(last, "draw")
	played++
	msg, _ := tw.finalPost(t, id, 0)
	if _, ok := msg.File(fmt.Sprintf("tournament-%d.trf", id)); ok {
		t.Error("an arena posted a TRF")
	}
	if v := tw.view(id); len(v.State.ArenaGames) != played {
		t.Errorf("%d arena games, want %d", len(v.State.ArenaGames), played)
	}
}

func TestStoryTournamentKnockoutArmageddon(t *testing.T) {
	tw := newTourWorld(t, 2)
	id := tw.create(discordfake.StringOpt("format", "knockout"), discordfake.StringOpt("time", "5+3"),
		discordfake.IntOpt("games", 1), discordfake.IntOpt("rapid", 0), discordfake.IntOpt("blitz", 0),
		discordfake.StringOpt("armageddon", "4.5/3"))
	if d := tw.ask(admin(subCommand("start"))); !strings.Contains(d.Content, "has started") {
		t.Fatalf("start answered %q", d.Content)
	}
	tw.play(tw.live(id, 1)[0], "draw") // the match is level
	arm := tw.live(id, 1)[0]
	if arm.Control.String() != "270s+0" || arm.Clock == nil || arm.Clock.Left != [2]time.Duration{270 * time.Second, 3 * time.Minute} {
		t.Errorf("Armageddon played at %s with clocks %+v, want White 4:30 and Black 3:00", arm.Control, arm.Clock)
	}
	tw.play(arm, "draw") // Black goes through with a draw
	msg, _ := tw.finalPost(t, id, 2)
	v := tw.view(id)
	if m := v.State.Brackets[0][0]; m.Winner == 0 || v.State.Players[m.Winner-1].UserID != arm.Black.ID {
		t.Errorf("winner %+v, Armageddon's Black was %s", m, arm.Black.Name)
	}
	if !strings.Contains(msg.Content, "winner") {
		t.Errorf("final standings %q", msg.Content)
	}
}

func TestStoryTournamentDuplicateCreate(t *testing.T) {
	tw := newTourWorld(t, 2)
	res := tw.send(admin(subCommand("create", discordfake.StringOpt("format", "swiss"), discordfake.IntOpt("rounds", 1))))
	if !strings.Contains(res.Callback.Data.Content, "tournament 1") {
		t.Fatalf("create answered %q", res.Callback.Data.Content)
	}
	count := func() int {
		vs, err := tw.r.bot.Tournaments.List(context.Background(), tw.f.GuildID, false)
		if err != nil {
			t.Fatal(err)
		}
		return len(vs)
	}
	// The same interaction delivered again, to the same bot and after a restart (which
	// forgets the interactions it saw): still one tournament.
	for round := 0; round < 2; round++ {
		if round == 1 {
			tw.r.stop()
			tw.r = tw.start()
		}
		if _, err := tw.f.Dispatch("INTERACTION_CREATE", tw.f.GuildID, res.Payload); err != nil {
			t.Fatal(err)
		}
		tw.f.WaitFor(func() bool { return false }, 300*time.Millisecond)
		if n := count(); n != 1 {
			t.Fatalf("%d tournaments after a duplicate create (delivery %d)", n, round+1)
		}
	}
}
