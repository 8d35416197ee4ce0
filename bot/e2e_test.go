package bot

// End-to-end stories: `gambit serve`'s wiring (Run) against the fake Discord, driven
// through interactions, checked against what Discord would have received.

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/commands"
)

// game is a game started in a story: its thread and players.
type game struct {
	w            *world
	thread       string
	white, black *discordgo.User
}

// startGame challenges bob (alice plays white), has bob accept, and waits for the
// game's thread and first board.
func (w *world) startGame(control string) *game {
	w.t.Helper()
	threadsBefore := len(w.f.Threads())
	res := w.send(discordfake.Command("challenge",
		discordfake.UserOpt("opponent", w.bob.ID), discordfake.StringOpt("time", control), discordfake.StringOpt("color", "white")))
	cb := res.Callback
	if cb.Type != discordgo.InteractionResponseChannelMessageWithSource || cb.Data.Ephemeral() {
		w.t.Fatalf("challenge answered with type %d ephemeral=%v: %q", cb.Type, cb.Data.Ephemeral(), cb.Data.Content)
	}
	am := cb.Data.AllowedMentions
	if am == nil || len(am.Parse) != 0 || !slices.Equal(am.Users, []string{w.bob.ID}) {
		w.t.Fatalf("challenge allowed_mentions = %+v, want exactly bob", am)
	}
	if !strings.Contains(cb.Data.Content, "<@"+w.bob.ID+">") {
		w.t.Fatalf("challenge does not mention bob: %q", cb.Data.Content)
	}
	accept := customID(w.t, cb.Data.CustomIDs(), "accept")
	res = w.send(discordfake.Button(accept).From(w.bob))
	if res.Callback.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(res.Callback.Data.Content, "accepted") {
		w.t.Fatalf("accept answered type %d %q", res.Callback.Type, res.Callback.Data.Content)
	}
	if len(res.Callback.Data.Components) != 0 {
		w.t.Errorf("the accepted challenge keeps its buttons: %v", res.Callback.Data.CustomIDs())
	}
	var thread string
	w.waitFor("the game's thread", func() bool {
		th := w.f.Threads()
		if len(th) > threadsBefore {
			thread = th[len(th)-1].ID
			return len(w.messagesWith(thread, "board.png")) > 0
		}
		return false
	})
	first := w.messagesWith(thread, "board.png")[0]
	if !strings.Contains(first.Content, "<@"+w.alice.ID+">") || first.AllowedMentions == nil || !slices.Equal(first.AllowedMentions.Users, []string{w.alice.ID}) {
		w.t.Fatalf("first board does not ping exactly White: %q, %+v", first.Content, first.AllowedMentions)
	}
	return &game{w: w, thread: thread, white: w.alice, black: w.bob}
}

// move types /move in the game's thread and returns the answer.
func (g *game) move(u *discordgo.User, san string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordfake.InteractionResult {
	g.w.t.Helper()
	opts = append([]*discordgo.ApplicationCommandInteractionDataOption{discordfake.StringOpt("move", san)}, opts...)
	return g.w.send(discordfake.Command("move", opts...).From(u).In(g.w.f.GuildID, g.thread))
}

// played checks that an answer is the public board after a move, pinging exactly the
// player to move.
func (g *game) played(res *discordfake.InteractionResult, san string, next *discordgo.User) {
	g.w.t.Helper()
	cb := res.Callback
	d := cb.Data
	if cb.Type != discordgo.InteractionResponseChannelMessageWithSource || d.Ephemeral() {
		g.w.t.Fatalf("move %s: answered type %d ephemeral=%v: %q", san, cb.Type, d.Ephemeral(), d.Content)
	}
	if !strings.Contains(d.Content, "**"+san+"**") {
		g.w.t.Errorf("move %s: the answer does not name the move: %q", san, d.Content)
	}
	if _, ok := d.File("board.png"); !ok {
		g.w.t.Errorf("move %s: no board image", san)
	}
	if d.AllowedMentions == nil || len(d.AllowedMentions.Parse) != 0 || !slices.Equal(d.AllowedMentions.Users, []string{next.ID}) {
		g.w.t.Errorf("move %s: allowed_mentions %+v, want exactly %s", san, d.AllowedMentions, next.Username)
	}
}

func TestStoryChallengeToCheckmate(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("5+3")

	// Typed.
	g.played(g.move(w.alice, "f3"), "f3", w.bob)
	// Autocomplete, filtered by what is typed, then the chosen value.
	ac := w.send(discordfake.Autocomplete("move", discordfake.Focused(discordfake.StringOpt("move", "e"))).From(w.bob).In(w.f.GuildID, g.thread))
	if ac.Callback.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
		t.Fatalf("autocomplete answered type %d", ac.Callback.Type)
	}
	var names []string
	for _, c := range ac.Callback.Data.Choices {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"e5", "e6"}) {
		t.Errorf("autocomplete for %q = %v, want [e5 e6]", "e", names)
	}
	g.played(g.move(w.bob, names[0]), "e5", w.alice)

	// Buttons: the piece menu on the latest board, then the destination.
	boards := w.messagesWith(g.thread, "board.png")
	pick := customID(t, boards[len(boards)-1].CustomIDs(), "pick")
	res := w.send(discordfake.Select(pick, "g2").From(w.alice).In(w.f.GuildID, g.thread))
	if !res.Callback.Data.Ephemeral() {
		t.Fatalf("the destination menu is not ephemeral: %q", res.Callback.Data.Content)
	}
	to := customID(t, res.Callback.Data.CustomIDs(), "to/g2")
	res = w.send(discordfake.Select(to, "g4").From(w.alice).In(w.f.GuildID, g.thread))
	g.played(res, "g4", w.bob)

	// Mate.
	res = g.move(w.bob, "Qh4#")
	d := res.Callback.Data
	if d.Ephemeral() || !strings.Contains(d.Content, "0-1") || !strings.Contains(d.Content, "checkmate") {
		t.Fatalf("mate answered %q", d.Content)
	}
	pgn, ok := d.File("gambit-game-1.pgn")
	if !ok || !strings.Contains(string(pgn.Data), "1. f3 {[%clk 0:05:00]} 1... e5") || !strings.Contains(string(pgn.Data), "Qh4#") || !strings.Contains(string(pgn.Data), `[Result "0-1"]`) {
		t.Errorf("PGN attachment: %v %q", ok, pgn.Data)
	}
	if _, ok := d.File("board.png"); !ok {
		t.Error("no final board")
	}
	if !strings.Contains(d.Content, "https://lichess.org/analysis/pgn/1.%20f3%20e5%202.%20g4%20Qh4%23") {
		t.Errorf("no lichess link in %q", d.Content)
	}
	// The game is over: a move now is refused, privately.
	res = g.move(w.alice, "e4")
	if !res.Callback.Data.Ephemeral() || !strings.Contains(res.Callback.Data.Content, "over") {
		t.Errorf("move after the end answered %q (ephemeral %v)", res.Callback.Data.Content, res.Callback.Data.Ephemeral())
	}
	// Nothing was posted twice: one board per move in the thread, one game-over.
	w.f.WaitFor(func() bool { return false }, 200*time.Millisecond) // let the notifier catch up
	if n := len(w.messagesWith(g.thread, "board.png")); n != 5 {
		t.Errorf("%d boards in the thread, want 5 (start, 3 moves, the end)", n)
	}
	if u := w.f.Unknown(); len(u) > 0 {
		t.Errorf("the bot used routes the fake does not know: %+v", u)
	}
	_ = commands.CustomIDVersion
}
