package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// The your-move list: /games shows first the games where it is the asker's move, the
// least time left first, with the time left and the last move; in a server only that
// server's games, in a direct message all of them.
func TestStoryYourMoveList(t *testing.T) {
	w := newWorld(t)
	otherGuild, otherChannel := w.f.AddGuild("elsewhere")
	w.start()
	slow := w.startGame("3d") // game 1: alice to move, 3 days
	slow.played(slow.move(w.alice, "e4"), "e4", w.bob)
	slow.played(slow.move(w.bob, "e5"), "e5", w.alice)
	fast := w.startGame("1d") // game 2: alice to move, 1 day
	fast.played(fast.move(w.alice, "d4"), "d4", w.bob)
	fast.played(fast.move(w.bob, "d5"), "d5", w.alice)
	theirs := w.startGame("2d") // game 3: bob to move
	theirs.played(theirs.move(w.alice, "c4"), "c4", w.bob)
	// Game 4, in another server.
	res := w.send(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID), discordfake.StringOpt("time", "2d"),
		discordfake.StringOpt("color", "white")).In(otherGuild, otherChannel))
	w.send(discordfake.Button(customID(t, res.Callback.Data.CustomIDs(), "accept")).From(w.bob).In(otherGuild, otherChannel))
	w.waitFor("game 4's thread", func() bool { return len(w.f.Threads()) >= 4 })
	w.clock.Advance(2 * time.Hour)

	list := w.send(discordfake.Command("games").In(w.f.GuildID, w.f.ChannelID)).Callback.Data
	if !list.Ephemeral() {
		t.Fatalf("/games is public: %q", list.Content)
	}
	lines := strings.Split(list.Content, "\n")
	if len(lines) != 4 {
		t.Fatalf("/games in the server lists %d lines, want a title and games 1 to 3:\n%s", len(lines), list.Content)
	}
	for i, want := range []struct{ start, has string }{
		{"▶ **2**", "your move, 22h 0m left · last: 1… Black played **d5**"},
		{"▶ **1**", "your move, 2d 22h left · last: 1… Black played **e5**"},
		{"• **3**", "Black to move"},
	} {
		if l := lines[i+1]; !strings.HasPrefix(l, want.start) || !strings.Contains(l, want.has) {
			t.Errorf("line %d: %q, want it to start %q and say %q", i+1, l, want.start, want.has)
		}
	}
	// Bob's list starts with the game where it is his move.
	bobs := w.send(discordfake.Command("games").From(w.bob).In(w.f.GuildID, w.f.ChannelID)).Callback.Data.Content
	if l := strings.Split(bobs, "\n"); len(l) < 2 || !strings.HasPrefix(l[1], "▶ **3**") {
		t.Errorf("bob's /games:\n%s", bobs)
	}
	// In a direct message, every game of the player, the other server's too.
	dm := w.send(discordfake.Command("games").InDM()).Callback.Data.Content
	if n := strings.Count(dm, "\n"); n != 4 || !strings.Contains(dm, "**4**") {
		t.Errorf("/games in a direct message:\n%s", dm)
	}
}
