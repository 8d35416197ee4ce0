package serve

// Stories of a bot that many servers invite, whose members do not know each other: a
// game is seen only in its server and by its players, buttons answer only in their
// server, an answer that replaces a message takes its buttons away, and a spectator
// typing in a game's thread hides nobody's board.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// TestStoryGamesStayInTheirServer: alice and bob play game 1 in the first server. A
// member of another server, and a stranger in a direct message, asking for game 1 by
// number get, byte for byte, the answer a bot with no game 1 gives; a member of the
// game's server and the players (anywhere) see it, and its PGN names no server.
func TestStoryGamesStayInTheirServer(t *testing.T) {
	w := newWorld(t)
	otherGuild, otherChannel := w.f.AddGuild("elsewhere")
	w.start()
	g := w.startGame("5+3")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	dave := w.f.NewUser("dave")

	// The same questions to a bot that never had a game.
	empty := newWorld(t)
	empty.start()

	asks := []struct {
		name string
		spec discordfake.InteractionSpec
	}{
		{"/pgn", discordfake.Command("pgn", discordfake.IntOpt("game", 1))},
		{"/fen", discordfake.Command("fen", discordfake.IntOpt("game", 1))},
		{"/board", discordfake.Command("board", discordfake.IntOpt("game", 1))},
		{"/analyze", discordfake.Command("analyze", discordfake.IntOpt("game", 1))},
		{"/resign", discordfake.Command("resign", discordfake.IntOpt("game", 1))},
		{"/move", discordfake.Command("move", discordfake.StringOpt("move", "e5"), discordfake.IntOpt("game", 1))},
	}
	for _, a := range asks {
		want := empty.send(a.spec.From(empty.carol))
		for _, where := range []struct {
			name string
			spec discordfake.InteractionSpec
		}{
			{"from another server", a.spec.From(dave).In(otherGuild, otherChannel)},
			{"in a direct message", a.spec.From(dave).InDM()},
			{"by a member of the game's server in a direct message", a.spec.From(w.carol).InDM()},
		} {
			got := w.send(where.spec)
			if got.Callback.Type != want.Callback.Type || string(got.Callback.Data.JSON) != string(want.Callback.Data.JSON) {
				t.Errorf("%s %s answered\n%s\nwhere a bot without game 1 answers\n%s", a.name, where.name, got.Callback.Data.JSON, want.Callback.Data.JSON)
			}
		}
	}

	// Those who may see it do.
	fen := w.answer(w.send(discordfake.Command("fen", discordfake.IntOpt("game", 1)).From(w.carol)))
	if !strings.Contains(fen.Content, "rnbqkbnr/pppppppp/8/8/4P3") {
		t.Errorf("a member of the game's server: /fen answered %q", fen.Content)
	}
	board := w.answer(w.send(discordfake.Command("board", discordfake.IntOpt("game", 1)).From(w.bob).InDM()))
	if _, ok := board.File("board.png"); !ok || !strings.Contains(board.Content, "Your move") {
		t.Errorf("a player in a direct message: /board answered %q", board.Content)
	}
	pgn := w.answer(w.send(discordfake.Command("pgn", discordfake.IntOpt("game", 1)).From(w.alice).In(otherGuild, otherChannel)))
	file, ok := pgn.File("gambit-game-1.pgn")
	if !ok {
		t.Fatalf("a player in another server: /pgn answered %q without the file", pgn.Content)
	}
	if text := string(file.Data); strings.Contains(text, w.f.GuildID) || !strings.Contains(text, `[Site "Gambit on Discord"]`) || !strings.Contains(text, "1. e4") {
		t.Errorf("the PGN names the server or lacks the game:\n%s", text)
	}
	// /games of the other server's channel does not list it.
	list := w.answer(w.send(discordfake.Command("games", discordfake.StringOpt("where", "channel")).From(dave).In(otherGuild, otherChannel)))
	if strings.Contains(list.Content, "**1**") {
		t.Errorf("/games in another server lists game 1: %q", list.Content)
	}
}

// crafted dispatches a component interaction with a custom ID the bot never put on the
// message it claims to come from: what a member of a server can send with a modified
// client.
func (w *world) crafted(guildID, channelID string, u *discordgo.User, messageID, customID string) *discordfake.InteractionResult {
	w.t.Helper()
	payload := map[string]any{
		"type": discordgo.InteractionMessageComponent, "version": 1, "locale": "en-US", "guild_locale": "en-US",
		"guild_id": guildID, "channel_id": channelID, "context": discordgo.InteractionContextGuild,
		"app_permissions": "0", "entitlements": []any{},
		"authorizing_integration_owners": map[string]string{"0": guildID},
		"member": map[string]any{"user": u, "roles": []string{}, "permissions": "2048", "joined_at": "2026-01-01T00:00:00Z",
			"deaf": false, "mute": false, "flags": 0, "pending": false},
		"message": map[string]any{"id": messageID, "channel_id": channelID, "content": "", "components": []any{}},
		"data":    map[string]any{"custom_id": customID, "component_type": discordgo.ButtonComponent},
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		w.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := w.f.SendRawInteraction(ctx, raw)
	if err != nil {
		w.t.Fatalf("crafted %s: %v", customID, err)
	}
	return res
}

// TestStoryCraftedButtonsStayInTheirServer: a member of another server who edits a
// button's custom ID to name alice's open challenge, or her game, is told there is no
// such challenge, or game; the challenge stays open for alice's own server.
func TestStoryCraftedButtonsStayInTheirServer(t *testing.T) {
	w := newWorld(t)
	otherGuild, otherChannel := w.f.AddGuild("elsewhere")
	w.start()
	dave := w.f.NewUser("dave")

	open := w.send(discordfake.Command("challenge", discordfake.StringOpt("time", "5+3")))
	accept := customID(t, open.Callback.Data.CustomIDs(), "accept")
	// Dave's own open challenge in his server carries the crafted click.
	his := w.send(discordfake.Command("challenge", discordfake.StringOpt("time", "5+3")).From(dave).In(otherGuild, otherChannel))
	carrier := w.f.Messages(otherChannel)
	if len(carrier) == 0 || len(his.Callback.Data.CustomIDs()) == 0 {
		t.Fatal("dave's challenge was not posted")
	}
	threads := len(w.f.Threads())
	for _, action := range []string{"accept", "cancel"} {
		id := strings.Replace(accept, "/accept", "/"+action, 1)
		res := w.crafted(otherGuild, otherChannel, dave, carrier[len(carrier)-1].ID, id)
		refused(t, res, "There is no such challenge any more.")
	}
	if len(w.f.Threads()) != threads {
		t.Fatal("a game started from another server's click")
	}
	msgs := w.f.Messages(w.f.ChannelID)
	if ids := msgs[len(msgs)-1].CustomIDs(); len(ids) != 2 {
		t.Fatalf("alice's challenge lost its buttons: %v", ids)
	}
	// In alice's server, bob accepts it.
	res := w.send(discordfake.Button(accept).From(w.bob))
	if !strings.Contains(res.Callback.Data.Content, "accepted") {
		t.Fatalf("bob's accept answered %q", res.Callback.Data.Content)
	}
	w.waitFor("the game's thread", func() bool { return len(w.f.Threads()) > threads })

	// A game's button, crafted from the other server, is a game that does not exist.
	board := w.crafted(otherGuild, otherChannel, dave, carrier[len(carrier)-1].ID, "v1/game/1/0/board")
	missing := w.crafted(otherGuild, otherChannel, dave, carrier[len(carrier)-1].ID, "v1/game/999/0/board")
	if got, want := board.Callback.Data.Content, strings.ReplaceAll(missing.Callback.Data.Content, "999", "1"); got != want || !board.Callback.Data.Ephemeral() {
		t.Errorf("another server's My board button on game 1: %q, for a game that does not exist %q", got, want)
	}
}

// TestStoryAnsweredChallengeLosesItsButtons: once a challenge is accepted, declined or
// withdrawn, its message on Discord carries no button (an answer with "components":
// null would have left Accept and Cancel live).
func TestStoryAnsweredChallengeLosesItsButtons(t *testing.T) {
	w := newWorld(t)
	w.start()
	for _, c := range []struct {
		action string
		by     *discordgo.User
	}{{"accept", w.bob}, {"decline", w.bob}, {"cancel", w.alice}} {
		res := w.send(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID), discordfake.StringOpt("time", "5+3")))
		msgs := w.f.Messages(w.f.ChannelID)
		msg := msgs[len(msgs)-1]
		if msg.InteractionID != res.ID {
			t.Fatalf("the newest message is not the challenge")
		}
		w.send(discordfake.Button(customID(t, res.Callback.Data.CustomIDs(), c.action)).From(c.by))
		got, _ := w.f.Message(msg.ID)
		if ids := got.CustomIDs(); len(ids) != 0 {
			t.Errorf("after %s the challenge still shows the buttons %v: %q", c.action, ids, got.Content)
		}
	}
}

// TestStorySpectatorHidesNoBoard hammers the thread of a game with a spectator's
// /move while the players move from the channel (their boards are then posted in the
// thread by the notifier): every move's board must appear in the thread, once.
func TestStorySpectatorHidesNoBoard(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("-")
	moves := []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "Nc3", "Nf6", "h3", "h6"}
	const spectators = 4
	for ply, san := range moves {
		mover := []*discordgo.User{w.alice, w.bob}[ply%2]
		var wg sync.WaitGroup
		start := make(chan struct{})
		for k := 0; k < spectators; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				_, err := w.f.SendInteraction(ctx, discordfake.Command("move", discordfake.StringOpt("move", "a6")).From(w.carol).In(w.f.GuildID, g.thread))
				if err != nil {
					t.Errorf("spectator's /move: %v", err)
				}
			}()
		}
		close(start)
		res := w.send(discordfake.Command("move", discordfake.StringOpt("move", san), discordfake.IntOpt("game", 1)).From(mover))
		if d := res.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "You played **"+san+"**") {
			t.Fatalf("%s from the channel answered %q", san, d.Content)
		}
		wg.Wait()
		want := ply + 2 // the first board, and one a move
		if !w.f.WaitFor(func() bool { return len(w.messagesWith(g.thread, "board.png")) >= want }, 5*time.Second) {
			t.Fatalf("after %s the thread has %d boards, want %d: a spectator's /move hid the board", san, len(w.messagesWith(g.thread, "board.png")), want)
		}
	}
	time.Sleep(200 * time.Millisecond) // a late duplicate would show now
	if n, want := len(w.messagesWith(g.thread, "board.png")), len(moves)+1; n != want {
		t.Errorf("the thread has %d boards, want %d", n, want)
	}
	var contents []string
	for _, m := range w.messagesWith(g.thread, "board.png") {
		contents = append(contents, fmt.Sprintf("%.40q", m.Content))
	}
	t.Logf("boards: %v", contents)
}

// TestStoryDoubleMoveOneBoard: a player sends the same move twice at once in the
// game's thread (a double click, a retry): one goes through, and the thread shows its
// board once; the refused twin must not give back the winner's reservation.
func TestStoryDoubleMoveOneBoard(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("-")
	moves := []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "Nc3", "Nf6"}
	for ply, san := range moves {
		mover := []*discordgo.User{w.alice, w.bob}[ply%2]
		var wg sync.WaitGroup
		start := make(chan struct{})
		for k := 0; k < 2; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				if _, err := w.f.SendInteraction(ctx, discordfake.Command("move", discordfake.StringOpt("move", san)).From(mover).In(w.f.GuildID, g.thread)); err != nil {
					t.Errorf("/move %s: %v", san, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		want := ply + 2
		if !w.f.WaitFor(func() bool { return len(w.messagesWith(g.thread, "board.png")) >= want }, 5*time.Second) {
			t.Fatalf("after %s the thread has %d boards, want %d", san, len(w.messagesWith(g.thread, "board.png")), want)
		}
	}
	time.Sleep(200 * time.Millisecond) // a late duplicate would show now
	if n, want := len(w.messagesWith(g.thread, "board.png")), len(moves)+1; n != want {
		t.Errorf("the thread has %d boards for %d moves, want %d", n, len(moves), want)
	}
}
