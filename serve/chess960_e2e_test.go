package serve

// End-to-end story of Chess960 on the fake Discord: a challenge at a chosen start
// position, both castlings typed in two notations, and the PGN and board that follow.

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
)

func TestStoryChess960BothCastlings(t *testing.T) {
	w := newWorld(t)
	w.start()
	// Bad options are refused privately, and nothing is posted.
	refused(t, w.send(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID), discordfake.IntOpt("position", 12))), "for Chess960")
	refused(t, w.send(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID),
		discordfake.StringOpt("variant", "chess960"), discordfake.IntOpt("position", 960))), "no Chess960 position 960")

	threadsBefore := len(w.f.Threads())
	res := w.send(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID), discordfake.StringOpt("time", "5+3"),
		discordfake.StringOpt("color", "white"), discordfake.StringOpt("variant", "chess960"), discordfake.IntOpt("position", 446)))
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "Chess960 #446") {
		t.Fatalf("challenge answered %q", d.Content)
	}
	acc := w.send(discordfake.Button(customID(t, res.Callback.Data.CustomIDs(), "accept")).From(w.bob))
	if acc.Callback.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(acc.Callback.Data.Content, "accepted") {
		t.Fatalf("accept answered %q", acc.Callback.Data.Content)
	}
	var thread string
	w.waitFor("the Chess960 game's thread", func() bool {
		th := w.f.Threads()
		if len(th) > threadsBefore {
			thread = th[len(th)-1].ID
			return len(w.messagesWith(thread, "board.png")) > 0
		}
		return false
	})
	g := &game{w: w, thread: thread, white: w.alice, black: w.bob}
	// RNNQKBBR: White clears f1 and g1, Black b8, c8 and d8; White castles by moving its
	// king onto its rook (as UCI_Chess960 writes it), Black with O-O-O.
	for i, mv := range []struct{ typed, san string }{
		{"e3", "e3"}, {"Na6", "Na6"}, {"Be2", "Be2"}, {"Nb6", "Nb6"}, {"f4", "f4"}, {"d5", "d5"}, {"Bf2", "Bf2"}, {"Qd6", "Qd6"},
		{"e1h1", "O-O"}, {"O-O-O", "O-O-O"},
	} {
		who, next := w.alice, w.bob
		if i%2 == 1 {
			who, next = w.bob, w.alice
		}
		g.played(g.move(who, mv.typed), mv.san, next)
	}
	// The king's step onto a castling square that is also an ordinary move would be
	// ambiguous; here castling rights are gone, so Kh1 is a plain king move.
	g.played(g.move(w.alice, "Kh1"), "Kh1", w.bob)
	d := w.ask(discordfake.Command("pgn").From(w.alice).In(w.f.GuildID, thread))
	text := d.Content
	for _, f := range d.Attachments {
		text += string(f.Data)
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{`[Variant "Chess960"]`, `[SetUp "1"]`, `[FEN "rnnqkbbr/pppppppp/8/8/8/8/PPPPPPPP/RNNQKBBR w KQkq - 0 1"]`, "5. O-O", "5... O-O-O"} {
		if !strings.Contains(flat, want) {
			t.Errorf("/pgn lacks %q: %s", want, flat)
		}
	}
	if u := w.f.Unknown(); len(u) > 0 {
		t.Errorf("the bot used routes the fake does not know: %+v", u)
	}
}
