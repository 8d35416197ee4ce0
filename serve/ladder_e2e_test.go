package serve

// End-to-end stories of the ladders: rated games through the fake Discord move the
// ratings; /ladder, /rating, /elo and the ladder settings answer as a server sees them.
// GAMBIT_TEST_IMAGES=dir writes the pictures the bot sent to dir, to look at them.

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/service/ladder"
	"github.com/gambitchess/gambit/storage"
)

// final returns what an interaction finally answered: the callback's data, or, for a
// deferred answer, the original message once it is filled.
func (w *world) final(res *discordfake.InteractionResult) discordfake.Payload {
	w.t.Helper()
	if res.Callback.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return res.Callback.Data
	}
	var out discordfake.Payload
	w.waitFor("the deferred answer", func() bool {
		m, ok := w.f.Original(res.ID)
		if ok && (m.Content != "" || len(m.Embeds) > 0) {
			out = m.Payload
			return true
		}
		return false
	})
	out.Flags |= res.Callback.Data.Flags & discordgo.MessageFlagsEphemeral
	return out
}

// ask sends an interaction and returns its final answer.
func (w *world) ask(spec discordfake.InteractionSpec) discordfake.Payload {
	w.t.Helper()
	return w.final(w.send(spec))
}

// startRated is startGame for a rated game: alice (White) challenges bob, who accepts.
func (w *world) startRated(control string) *game {
	w.t.Helper()
	threadsBefore := len(w.f.Threads())
	d := w.ask(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID),
		discordfake.StringOpt("time", control), discordfake.StringOpt("color", "white"), discordfake.BoolOpt("rated", true)))
	if !strings.Contains(d.Content, "rated") {
		w.t.Fatalf("rated challenge answered %q", d.Content)
	}
	res := w.send(discordfake.Button(customID(w.t, d.CustomIDs(), "accept")).From(w.bob))
	if !strings.Contains(res.Callback.Data.Content, "accepted") {
		w.t.Fatalf("accept answered %q", res.Callback.Data.Content)
	}
	var thread string
	w.waitFor("the rated game's thread", func() bool {
		th := w.f.Threads()
		if len(th) > threadsBefore {
			thread = th[len(th)-1].ID
			return len(w.messagesWith(thread, "board.png")) > 0
		}
		return false
	})
	return &game{w: w, thread: thread, white: w.alice, black: w.bob}
}

// foolsMate plays 1. f3 e5 2. g4 Qh4# (Black wins) and returns the final answer.
func (g *game) foolsMate() discordfake.Payload {
	g.w.t.Helper()
	for _, mv := range []struct {
		u   *discordgo.User
		san string
	}{{g.white, "f3"}, {g.black, "e5"}, {g.white, "g4"}} {
		if d := g.w.final(g.move(mv.u, mv.san)); !strings.Contains(d.Content, mv.san) || d.Ephemeral() {
			g.w.t.Fatalf("move %s answered %q", mv.san, d.Content)
		}
	}
	d := g.w.final(g.move(g.black, "Qh4#"))
	if !strings.Contains(d.Content, "0-1") || !strings.Contains(d.Content, "checkmate") {
		g.w.t.Fatalf("mate answered %q", d.Content)
	}
	return d
}

// picture returns an attached PNG, checking that it decodes, and writes it to
// $GAMBIT_TEST_IMAGES when set.
func picture(t *testing.T, d discordfake.Payload, name, saveAs string) []byte {
	t.Helper()
	a, ok := d.File(name)
	if !ok {
		t.Fatalf("no %s attached to %q", name, d.Content)
	}
	img, err := png.Decode(bytes.NewReader(a.Data))
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 100 {
		t.Errorf("%s is %v", name, b)
	}
	if dir := os.Getenv("GAMBIT_TEST_IMAGES"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, saveAs), a.Data, 0o644); err != nil {
			t.Error(err)
		}
	}
	return a.Data
}

// admin makes an interaction come from a member with Manage Server.
func admin(s discordfake.InteractionSpec) discordfake.InteractionSpec {
	s.Permissions = discordgo.PermissionManageGuild | discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
		discordgo.PermissionUseApplicationCommands
	return s
}

// ladderLines returns the numbered lines of a /ladder answer.
func ladderLines(content string) []string {
	var out []string
	for _, l := range strings.Split(content, "\n") {
		if len(l) > 2 && l[0] >= '1' && l[0] <= '9' && strings.Contains(l[:3], ". ") {
			out = append(out, l)
		}
	}
	return out
}

func TestStoryLadders(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	ctx := context.Background()
	var names []string
	for _, d := range r.bot.Discord.Router.Definitions() {
		names = append(names, d.Name)
	}
	for _, n := range []string{"ladder", "rating", "elo"} {
		if !slices.Contains(names, n) {
			t.Errorf("/%s is not registered (%v)", n, names)
		}
	}

	// An empty ladder says so, with its card.
	d := w.ask(discordfake.Command("ladder", discordfake.StringOpt("category", "blitz")))
	if !strings.Contains(d.Content, "Blitz ladder") || !strings.Contains(d.Content, "No rated blitz games yet") || d.Ephemeral() {
		t.Errorf("empty /ladder answered %q", d.Content)
	}
	picture(t, d, "ladder.png", "ladder-empty.png")

	// A rated blitz game to mate: both ratings move by 20 (K 40, equal ratings), shown
	// with the result.
	mate := w.startRated("3+2").foolsMate()
	if !strings.Contains(mate.Content, "Blitz rating: alice 1500 → 1480 (−20) · bob 1500 → 1520 (+20)") {
		t.Errorf("the game-over message lacks the rating changes: %q", mate.Content)
	}
	// A casual game and an aborted rated game change nothing.
	casual := w.startGame("3+2").foolsMate()
	if strings.Contains(casual.Content, "rating:") {
		t.Errorf("a casual game shows rating changes: %q", casual.Content)
	}
	aborted := w.startRated("3+2")
	if d := w.final(w.send(discordfake.Command("abort").From(w.alice).In(w.f.GuildID, aborted.thread))); !strings.Contains(strings.ToLower(d.Content), "abort") {
		t.Fatalf("abort answered %q", d.Content)
	}
	if g, err := r.bot.Games.GamesByUser(ctx, w.alice.ID, storage.Query{}); err != nil || len(g) != 3 || g[0].Outcome.Result != 0 || !g[0].Rated {
		t.Fatalf("alice's games: %d, %v (newest %+v)", len(g), err, g[0].Outcome)
	}
	rs, err := storage.Read(ctx, r.store(), func(tx storage.Tx) ([]storage.RatedResult, error) { return tx.RatedResults(w.f.GuildID) })
	if err != nil || len(rs) != 1 {
		t.Fatalf("rated results %+v, %v; want only the rated game to mate", rs, err)
	}

	// /ladder: bob first, both provisional, with the card.
	d = w.ask(discordfake.Command("ladder"))
	lines := ladderLines(d.Content)
	if len(lines) != 2 || lines[0] != "1. **bob** 1520? (1–0–0)" || lines[1] != "2. **alice** 1480? (0–0–1)" {
		t.Errorf("/ladder lines %q in %q", lines, d.Content)
	}
	if !strings.Contains(d.Content, "FIDE Elo") || !strings.Contains(d.Content, "provisional") || d.Ephemeral() {
		t.Errorf("/ladder answered %q", d.Content)
	}
	if d.AllowedMentions == nil || len(d.AllowedMentions.Parse) != 0 || len(d.AllowedMentions.Users) != 0 {
		t.Errorf("/ladder may ping: %+v", d.AllowedMentions)
	}
	card := picture(t, d, "ladder.png", "ladder-fide.png")
	empty, _ := w.ask(discordfake.Command("ladder", discordfake.StringOpt("category", "rapid"))).File("ladder.png")
	if bytes.Equal(card, empty.Data) {
		t.Error("the card with two players is the empty card")
	}

	// /rating: bob's card, and alice's through the user option.
	d = w.ask(discordfake.Command("rating").From(w.bob))
	if len(d.Embeds) != 1 {
		t.Fatalf("/rating answered %q with %d embeds", d.Content, len(d.Embeds))
	}
	e := d.Embeds[0]
	if e.Title != "Ratings of bob" || len(e.Fields) != 1 || e.Fields[0].Name != "Blitz" || !strings.HasPrefix(e.Fields[0].Value, "**1520?**\n#1 of 2\n1–0–0") ||
		!strings.Contains(e.Description, "1 rated game: 1 win, 0 draws, 0 losses") || e.Image == nil || e.Image.URL != "attachment://rating.png" {
		t.Errorf("bob's card: %+v, fields %+v", e, e.Fields)
	}
	if !strings.Contains(d.Content, "Blitz 1520?") {
		t.Errorf("/rating text: %q", d.Content)
	}
	picture(t, d, "rating.png", "rating-bob.png")
	d = w.ask(discordfake.Command("rating", discordfake.UserOpt("user", w.alice.ID)).From(w.bob))
	if len(d.Embeds) != 1 || !strings.HasPrefix(d.Embeds[0].Fields[0].Value, "**1480?**\n#2 of 2\n0–0–1") {
		t.Errorf("alice's card: %q %+v", d.Content, d.Embeds)
	}
	if d := w.ask(discordfake.Command("rating").From(w.carol)); !d.Ephemeral() || !strings.Contains(d.Content, "no rated games") {
		t.Errorf("/rating of a player without games: %q", d.Content)
	}

	// /elo: the seed's example, 1600 beating 1800 with K 20.
	d = w.ask(discordfake.Command("elo", discordfake.IntOpt("rating", 1600), discordfake.IntOpt("opponent", 1800),
		discordfake.StringOpt("result", "1"), discordfake.IntOpt("k", 20)))
	for _, want := range []string{"K **20**", "expected 0.24", "**+15.2**", "rounded **+15**", "new rating **1615**"} {
		if !strings.Contains(d.Content, want) {
			t.Errorf("/elo lacks %q: %q", want, d.Content)
		}
	}

	// The ladders survive a restart.
	r.stop()
	w.start()
	if lines := ladderLines(w.ask(discordfake.Command("ladder")).Content); len(lines) != 2 || !strings.Contains(lines[0], "bob** 1520?") {
		t.Errorf("after a restart: %q", lines)
	}

	// Settings: a member without Manage Server cannot change the system; an admin
	// switches to Glicko-2 and every ladder is recomputed.
	if d := w.ask(discordfake.Command("settings", discordfake.SubCommand("ratings", discordfake.StringOpt("system", "glicko2")))); !d.Ephemeral() ||
		!strings.Contains(d.Content, "Manage Server") {
		t.Errorf("a member changed the rating system: %q", d.Content)
	}
	d = w.ask(admin(discordfake.Command("settings", discordfake.SubCommand("ratings", discordfake.StringOpt("system", "glicko2")))))
	if !strings.Contains(d.Content, "Glicko-2") || !strings.Contains(d.Content, "1 rated game") {
		t.Fatalf("switch to Glicko-2 answered %q", d.Content)
	}
	set := ladder.Settings{System: ladder.Glicko2, StartRating: 1500}
	nw, nb, _, _, err := ladder.Apply(set, ladder.NewPlayer(set, w.alice.ID), ladder.NewPlayer(set, w.bob.ID),
		ladder.Game{GameID: rs[0].GameID, White: w.alice.ID, Black: w.bob.ID, Score: 0, Category: clock.Blitz, At: rs[0].Ended})
	if err != nil {
		t.Fatal(err)
	}
	wantBob, wantAlice := int(math.Round(nb.Rating)), int(math.Round(nw.Rating))
	if wantBob < 1600 || wantAlice > 1400 {
		t.Fatalf("Glicko-2 of one win from 1500/350: %d and %d", wantBob, wantAlice)
	}
	d = w.ask(discordfake.Command("ladder"))
	lines = ladderLines(d.Content)
	if len(lines) != 2 || lines[0] != fmt.Sprintf("1. **bob** %d? (1–0–0)", wantBob) || lines[1] != fmt.Sprintf("2. **alice** %d? (0–0–1)", wantAlice) ||
		!strings.Contains(d.Content, "Glicko-2") {
		t.Errorf("Glicko-2 ladder %q (want bob %d, alice %d) in %q", lines, wantBob, wantAlice, d.Content)
	}
	picture(t, d, "ladder.png", "ladder-glicko2.png")
	if show := w.ask(admin(discordfake.Command("settings", discordfake.SubCommand("show")))); !strings.Contains(show.Content, "Ratings: Glicko-2, newcomers start at 1500") {
		t.Errorf("/settings show: %q", show.Content)
	}

	// An admin seeds carol's known rating: she enters the blitz ladder there.
	d = w.ask(admin(discordfake.Command("settings", discordfake.SubCommand("seed_rating",
		discordfake.UserOpt("user", w.carol.ID), discordfake.StringOpt("category", "blitz"), discordfake.IntOpt("rating", 2100)))))
	if !strings.Contains(d.Content, "carol** enters the blitz ladder at 2100") {
		t.Errorf("seed answered %q", d.Content)
	}
	if lines := ladderLines(w.ask(discordfake.Command("ladder")).Content); len(lines) != 3 || !strings.HasPrefix(lines[0], "1. **carol** 2100") {
		t.Errorf("after the seed: %q", lines)
	}
	// Back to FIDE: the first ratings again, carol not provisional (seeded).
	w.ask(admin(discordfake.Command("settings", discordfake.SubCommand("ratings", discordfake.StringOpt("system", "fide")))))
	d = w.ask(discordfake.Command("ladder"))
	lines = ladderLines(d.Content)
	if len(lines) != 3 || lines[0] != "1. **carol** 2100 (0–0–0)" || lines[1] != "2. **bob** 1520? (1–0–0)" || lines[2] != "3. **alice** 1480? (0–0–1)" {
		t.Errorf("back to FIDE: %q", lines)
	}
	picture(t, d, "ladder.png", "ladder-seeded.png")
	if u := w.f.Unknown(); len(u) > 0 {
		t.Errorf("the bot used routes the fake does not know: %+v", u)
	}
}
