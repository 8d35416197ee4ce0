package serve

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// A conditional line played out over several days of a correspondence game, on the
// fake Discord: Black plans while White thinks; White's foreseen move gets its reply
// at once (the board posted by the bot, White pinged); White's next move deviates, and
// Black alone is told. Nobody else ever sees the plan: not in the thread, not in /pgn.
func TestStoryConditionalLineWithDeviation(t *testing.T) {
	w := newWorld(t)
	bot := w.start()
	g := w.startGame("2d")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)

	plan := w.send(discordfake.Command("conditional", discordfake.SubCommand("add", discordfake.StringOpt("line", "2.Nf3 Nc6 3.Bb5 a6"))).
		From(w.bob).In(w.f.GuildID, g.thread))
	if d := plan.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "if **Nf3** then **Nc6**, if **Bb5** then **a6**") {
		t.Fatalf("/conditional add answered %q (ephemeral %v)", d.Content, d.Ephemeral())
	}
	// An illegal line is refused with the move named, privately.
	refused(t, w.send(discordfake.Command("conditional", discordfake.SubCommand("add", discordfake.StringOpt("line", "d4 Ke6"))).
		From(w.bob).In(w.f.GuildID, g.thread)), "Move 2 of the line (Ke6, your move)")
	// White asking for a plan sees only their own (none).
	list := w.send(discordfake.Command("conditional", discordfake.SubCommand("list")).From(w.alice).In(w.f.GuildID, g.thread))
	if d := list.Callback.Data; !d.Ephemeral() || strings.Contains(d.Content, "Nc6") || !strings.Contains(d.Content, "no conditional moves") {
		t.Fatalf("alice's /conditional list: %q", d.Content)
	}

	// A day later White plays 2.Nf3: the answer says a reply followed; the bot posts the
	// board after 2...Nc6, pinging White.
	w.clock.Advance(26 * time.Hour)
	boards := len(w.messagesWith(g.thread, "board.png"))
	res := g.move(w.alice, "Nf3")
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "**Nf3**") || !strings.Contains(d.Content, "conditional move") {
		t.Fatalf("the move answered by a plan: %q", d.Content)
	}
	w.waitFor("the board of the conditional reply", func() bool { return len(w.messagesWith(g.thread, "board.png")) > boards })
	b := g.latestBoard()
	if !strings.Contains(b.Content, "conditional reply **Nc6**") || !strings.Contains(b.Content, "<@"+w.alice.ID+">") ||
		b.AllowedMentions == nil || !slices.Equal(b.AllowedMentions.Users, []string{w.alice.ID}) {
		t.Fatalf("the reply's board: %q, mentions %+v", b.Content, b.AllowedMentions)
	}
	if gm := bot.bot.mustGame(t, 1); gm.Ply() != 4 || gm.SAN[3] != "Nc6" {
		t.Fatalf("the game after the reply: %v", gm.SAN)
	}

	// Two days later White deviates with 3.Bc4: Black is told, and only Black is pinged.
	w.clock.Advance(40 * time.Hour)
	g.played(g.move(w.alice, "Bc4"), "Bc4", w.bob)
	var note discordfake.Message
	w.waitFor("the note of the dropped plan", func() bool {
		for _, m := range w.f.Messages(g.thread) {
			if strings.Contains(m.Content, "conditional moves in game 1 are dropped") {
				note = m
				return true
			}
		}
		return false
	})
	if !strings.Contains(note.Content, "<@"+w.bob.ID+">") || strings.Contains(note.Content, "a6") ||
		note.AllowedMentions == nil || !slices.Equal(note.AllowedMentions.Users, []string{w.bob.ID}) {
		t.Errorf("the note: %q, mentions %+v", note.Content, note.AllowedMentions)
	}
	// The plan never shows: not in any public message of the thread, not in /pgn.
	for _, m := range w.f.Messages(g.thread) {
		if !m.Ephemeral() && (strings.Contains(m.Content, "a6") || strings.Contains(m.Content, "Bb5")) {
			t.Errorf("a post shows the plan: %q", m.Content)
		}
	}
	pgn := w.send(discordfake.Command("pgn").From(w.carol).In(w.f.GuildID, g.thread))
	if strings.Contains(pgn.Callback.Data.Content, "Bb5") {
		t.Errorf("/pgn shows the plan: %q", pgn.Callback.Data.Content)
	}
	for _, f := range pgn.Callback.Data.Attachments {
		if strings.Contains(string(f.Data), "Bb5") || strings.Contains(string(f.Data), "a6") {
			t.Errorf("/pgn shows the plan: %q", f.Data)
		}
	}
	if u := w.f.Unknown(); len(u) > 0 {
		t.Errorf("the bot used routes the fake does not know: %+v", u)
	}
}
