package serve

// The arbiter end to end: /arbiter on the fake Discord, through restarts of the bot on
// the same store, with the permission, the per-server role, the announcements in the
// game's thread, mentions that ping nobody, and another server's view of the game.

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// arbiterRole is the role the story's server names for its arbiters.
const arbiterRole = "7000000000000000001"

// arbiter is /arbiter sub with its options, by u in channel with the given member
// permissions (0: an ordinary member's) and roles.
func arbiter(sub string, u *discordgo.User, guild, channel string, perms int64, roles []string, opts ...*discordgo.ApplicationCommandInteractionDataOption) discordfake.InteractionSpec {
	spec := discordfake.Command("arbiter", discordfake.SubCommand(sub, opts...)).From(u).In(guild, channel)
	spec.Permissions, spec.Roles = perms, roles
	return spec
}

// noPings checks that a message may ping nobody.
func noPings(t testing.TB, what string, d discordfake.Payload) {
	t.Helper()
	if am := d.AllowedMentions; am == nil || len(am.Parse) != 0 || len(am.Users) != 0 || len(am.Roles) != 0 {
		t.Errorf("%s may ping: %+v", what, am)
	}
}

// gameOvers returns the game-over messages of game id in a thread.
func (w *world) gameOvers(thread string, id uint64) []discordfake.Message {
	return w.messagesWith(thread, fmt.Sprintf("gambit-game-%d.pgn", id))
}

func TestStoryArbiterAcrossRestarts(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	g := w.startRated("5+3")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	guild := w.f.GuildID
	ruth := w.f.NewUser("ruth") // the server's arbiter, by role
	hostile := "a power cut @everyone @here <@" + w.bob.ID + "> <@&" + arbiterRole + ">"
	addTime := func(by *discordgo.User, perms int64, roles ...string) discordfake.Payload {
		return w.ask(arbiter("addtime", by, guild, g.thread, perms, roles,
			discordfake.StringOpt("player", "white"), discordfake.StringOpt("time", "2m"), discordfake.StringOpt("reason", hostile)))
	}

	// An ordinary member may not; nor may a member with the role before the server names it.
	refusedPayload(t, addTime(w.carol, 0), "Only members with the Manage Server permission can act as arbiter")
	refusedPayload(t, addTime(ruth, 0, arbiterRole), "Only members with the Manage Server permission can act as arbiter")
	// Nor may the role's members name the role; Manage Server does.
	refusedPayload(t, w.ask(arbiter("role", ruth, guild, w.f.ChannelID, 0, []string{arbiterRole}, roleOpt(arbiterRole))), "Only members with the Manage Server permission can choose")
	d := w.ask(arbiter("role", w.carol, guild, w.f.ChannelID, discordgo.PermissionManageGuild, nil, roleOpt(arbiterRole)))
	if !d.Ephemeral() || !strings.Contains(d.Content, "<@&"+arbiterRole+">") || !strings.Contains(d.Content, "Integrations") {
		t.Fatalf("/arbiter role answered %q", d.Content)
	}
	noPings(t, "/arbiter role", d)
	before := r.remaining(t, 1, chesscore.White)

	// The bot restarts: the role stands. Ruth adds two minutes in the game's thread:
	// the answer is the announcement, public, pinging nobody whatever the reason says.
	r.stop()
	r = w.start()
	d = addTime(ruth, 0, arbiterRole)
	if d.Ephemeral() || !strings.Contains(d.Content, "⚖ **Arbiter's decision** in game 1: ruth added 2 min to White's clock. Reason: a power cut") {
		t.Fatalf("/arbiter addtime answered %q (ephemeral %v)", d.Content, d.Ephemeral())
	}
	noPings(t, "the announcement", d)
	after := r.remaining(t, 1, chesscore.White)
	if gain := after - before; gain < 2*time.Minute-3*time.Second || gain > 2*time.Minute+3*time.Second {
		t.Errorf("White had %v, now %v: want two minutes more", before, after)
	}

	// Another server's arbiter is answered as if the game did not exist.
	otherGuild, otherChannel := w.f.AddGuild("elsewhere")
	dave := w.f.NewUser("dave")
	hidden := w.ask(arbiter("abort", dave, otherGuild, otherChannel, discordgo.PermissionManageGuild, nil,
		discordfake.IntOpt("game", 1), discordfake.StringOpt("reason", "mine now")))
	missing := w.ask(arbiter("abort", dave, otherGuild, otherChannel, discordgo.PermissionManageGuild, nil,
		discordfake.IntOpt("game", 424242), discordfake.StringOpt("reason", "mine now")))
	if strings.ReplaceAll(missing.Content, "424242", "1") != hidden.Content || !hidden.Ephemeral() || !strings.Contains(hidden.Content, "There is no game 1") {
		t.Errorf("another server's game answered %q, a missing one %q", hidden.Content, missing.Content)
	}

	// A second restart: the added time and the decision are still there.
	r.stop()
	r = w.start()
	if left := r.remaining(t, 1, chesscore.White); left < after-3*time.Second || left > after {
		t.Errorf("White has %v after the restart, had %v", left, after)
	}
	rec := r.bot.mustGame(t, 1)
	if len(rec.Notes) != 1 || rec.Notes[0].By.ID != ruth.ID || !rec.Live() {
		t.Fatalf("after the restart: notes %+v, live %v", rec.Notes, rec.Live())
	}

	// From the server's main channel, Manage Server forfeits Black, who has left: the
	// thread gets one game-over message with the decision (and its PGN), the arbiter a
	// private confirmation.
	d = w.ask(arbiter("forfeit", w.carol, guild, w.f.ChannelID, discordgo.PermissionManageGuild, nil,
		discordfake.IntOpt("game", 1), discordfake.StringOpt("player", "black"), discordfake.StringOpt("reason", "left the server, says <@"+ruth.ID+">")))
	if !d.Ephemeral() || !strings.Contains(d.Content, "announced in <#"+g.thread+">") {
		t.Fatalf("/arbiter forfeit answered %q", d.Content)
	}
	noPings(t, "the confirmation", d)
	var over discordfake.Message
	w.waitFor("the game-over message in the thread", func() bool {
		if m := w.gameOvers(g.thread, 1); len(m) > 0 {
			over = m[0]
			return true
		}
		return false
	})
	if !strings.Contains(over.Content, "carol forfeited Black, who has left the game. Reason: left the server") ||
		!strings.Contains(over.Content, "1-0 · White wins by abandoned") {
		t.Errorf("game-over message %q", over.Content)
	}
	if am := over.AllowedMentions; am == nil || len(am.Parse) != 0 || slices.Contains(am.Users, ruth.ID) {
		t.Errorf("the game-over message may ping beyond the players: %+v", am)
	}
	pgn, _ := over.File("gambit-game-1.pgn")
	flat := strings.Join(strings.Fields(string(pgn.Data)), " ")
	for _, want := range []string{"Arbiter ruth added 2 min to White's clock: a power cut", "Arbiter carol forfeited Black, who has left the game: left the server", `[Termination "abandoned"]`, `[Result "1-0"]`} {
		if !strings.Contains(flat, want) {
			t.Errorf("the PGN lacks %q:\n%s", want, pgn.Data)
		}
	}
	// One game-over message, not two (the notifier's is the arbiter's).
	w.f.WaitFor(func() bool { return false }, 300*time.Millisecond)
	if n := len(w.gameOvers(g.thread, 1)); n != 1 {
		t.Errorf("%d game-over messages in the thread", n)
	}
	// Both sides had moved: the forfeit is rated.
	rs, err := storage.Read(t.Context(), r.store(), func(tx storage.Tx) ([]storage.RatedResult, error) { return tx.RatedResults(guild) })
	if err != nil || len(rs) != 1 {
		t.Errorf("%d rated results (%v), want 1", len(rs), err)
	}
	// A finished game takes no more decisions, also after a restart.
	r.stop()
	r = w.start()
	refusedPayload(t, w.ask(arbiter("abort", w.carol, guild, w.f.ChannelID, discordgo.PermissionManageGuild, nil,
		discordfake.IntOpt("game", 1), discordfake.StringOpt("reason", "too late"))), "Game 1 is over")
	if rec := r.bot.mustGame(t, 1); len(rec.Notes) != 2 || rec.Outcome != (chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Abandoned}) {
		t.Errorf("after the last restart: %v, %d notes", rec.Outcome, len(rec.Notes))
	}
}

// roleOpt is a role option.
func roleOpt(id string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: "role", Type: discordgo.ApplicationCommandOptionRole, Value: id}
}

// The rules of the game on the fake Discord: no takebacks in a rated game unless the
// server allows them; a rated game resigned before both sides moved is aborted and
// unrated; a draw offer in the opponent's time is refused, one on one's turn goes with
// the move. (Named for -run Arbiter: the arbiter's issue.)
func TestStoryArbiterRulesOfPlay(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	g := w.startRated("5+3")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	refusedPayload(t, w.ask(discordfake.Command("takeback").From(w.alice).In(w.f.GuildID, g.thread)), "No takebacks here: in a rated game a completed move is final (FIDE 4.7)")
	// Resigning now (Black has not moved) aborts: no result, nothing rated.
	d := w.ask(discordfake.Command("resign").From(w.bob).In(w.f.GuildID, g.thread))
	if !strings.Contains(d.Content, "Until both sides have moved, resigning calls the game off") {
		t.Fatalf("/resign answered %q", d.Content)
	}
	d = w.ask(discordfake.Button(customID(t, d.CustomIDs(), "resign-confirm")).From(w.bob).In(w.f.GuildID, g.thread))
	if !strings.Contains(d.Content, "aborted · no result") {
		t.Fatalf("the resignation answered %q", d.Content)
	}
	rs, err := storage.Read(t.Context(), r.store(), func(tx storage.Tx) ([]storage.RatedResult, error) { return tx.RatedResults(w.f.GuildID) })
	if err != nil || len(rs) != 0 {
		t.Errorf("%d rated results (%v), want none", len(rs), err)
	}

	// The server allows rated takebacks: asked and granted.
	settings := discordfake.Command("settings", discordfake.SubCommand("takebacks", discordfake.BoolOpt("rated", true))).In(w.f.GuildID, w.f.ChannelID)
	settings.Permissions = discordgo.PermissionManageGuild
	d = w.ask(settings)
	if !strings.Contains(d.Content, "Takebacks: in casual and rated games") {
		t.Fatalf("/settings takebacks answered %q", d.Content)
	}
	g = w.startRated("5+3")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	if d := w.ask(discordfake.Command("takeback").From(w.bob).In(w.f.GuildID, g.thread)); d.Ephemeral() || !strings.Contains(d.Content, "take back") {
		t.Fatalf("takeback request answered %q", d.Content)
	}
	if d := w.ask(discordfake.Command("takeback").From(w.alice).In(w.f.GuildID, g.thread)); !strings.Contains(d.Content, "Takeback granted") {
		t.Fatalf("granting answered %q", d.Content)
	}
	// Black plays again; White, to move, offers a draw: it waits for White's move.
	g.played(g.move(w.bob, "c5"), "c5", w.alice)
	d = w.ask(discordfake.Command("draw", discordfake.SubCommand("offer")).From(w.alice).In(w.f.GuildID, g.thread))
	if !d.Ephemeral() || !strings.Contains(d.Content, "goes with your next move") {
		t.Fatalf("offer on one's turn answered %q", d.Content)
	}
	res := g.move(w.alice, "Nf3")
	g.played(res, "Nf3", w.bob)
	if !strings.Contains(res.Callback.Data.Content, "offers a draw") {
		t.Errorf("the move's board does not show the offer: %q", res.Callback.Data.Content)
	}
	if d := w.final(g.click(w.bob, "draw-decline")); !strings.Contains(d.Content, "declined the draw offer") {
		t.Fatalf("declining answered %q", d.Content)
	}
	g.played(g.move(w.bob, "d6"), "d6", w.alice)
	// Black, thinking over an offer while White thinks, is refused.
	w.clock.Advance(time.Minute)
	refusedPayload(t, w.ask(discordfake.Command("draw", discordfake.SubCommand("offer")).From(w.bob).In(w.f.GuildID, g.thread)),
		"Your opponent is thinking: a draw is offered with your own move (FIDE 9.1.2.1)")
}
