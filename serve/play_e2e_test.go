package serve

// End-to-end stories of games against the engine (/play bot) and of /analyze, through
// the real wiring and the fake Discord.

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// playBot runs /play bot with the options and waits for the game's thread and first
// board.
func (w *world) playBot(r *running, opts ...*discordgo.ApplicationCommandInteractionDataOption) (*game, uint64) {
	w.t.Helper()
	threadsBefore := len(w.f.Threads())
	res := w.send(discordfake.Command("play", discordfake.SubCommand("bot", opts...)))
	cb := res.Callback
	if cb.Type != discordgo.InteractionResponseChannelMessageWithSource || cb.Data.Ephemeral() || !strings.Contains(cb.Data.Content, "plays the engine at level") ||
		!strings.Contains(cb.Data.Content, "unrated") {
		w.t.Fatalf("/play bot answered type %d ephemeral=%v: %q", cb.Type, cb.Data.Ephemeral(), cb.Data.Content)
	}
	var thread string
	w.waitFor("the game's thread and first board", func() bool {
		th := w.f.Threads()
		if len(th) > threadsBefore {
			thread = th[len(th)-1].ID
			return len(w.messagesWith(thread, "board.png")) > 0
		}
		return false
	})
	open, err := r.bot.Games.GamesByUser(context.Background(), w.alice.ID, storage.Query{LiveOnly: true})
	if err != nil || len(open) == 0 {
		w.t.Fatalf("alice has no live game: %v", err)
	}
	id := open[0].ID
	g := &game{w: w, thread: thread, white: w.alice}
	return g, id
}

// engineReplied waits for the n-th board of the engine's replies (alice plays White),
// which pings alice, and returns it.
func (w *world) engineReplied(thread string, n int) discordfake.Message {
	w.t.Helper()
	var last discordfake.Message
	w.waitFor("the engine's reply", func() bool {
		var replies []discordfake.Message
		for _, m := range w.messagesWith(thread, "board.png") {
			if strings.Contains(m.Content, "Black played") {
				replies = append(replies, m)
			}
		}
		if len(replies) < n {
			return false
		}
		last = replies[n-1]
		return true
	})
	if !strings.Contains(last.Content, "<@"+w.alice.ID+">") || last.AllowedMentions == nil || !slices.Equal(last.AllowedMentions.Users, []string{w.alice.ID}) {
		w.t.Errorf("the engine's reply does not ping exactly alice: %q %+v", last.Content, last.AllowedMentions)
	}
	return last
}

func TestStoryPlayBot(t *testing.T) {
	w := newWorld(t)
	w.cfg.Engine.ReplyDelay = 0
	r := w.start()
	g, id := w.playBot(r, discordfake.IntOpt("level", 1), discordfake.StringOpt("time", "5+3"), discordfake.StringOpt("color", "white"))
	first := w.messagesWith(g.thread, "board.png")[0]
	if !strings.Contains(first.Content, "<@"+w.alice.ID+">") {
		t.Errorf("the first board does not ping alice (White): %q", first.Content)
	}
	rec := r.bot.mustGame(t, id)
	if rec.Rated || rec.Black.ID != r.bot.Discord.AppID || rec.Black.Name != "Gambit engine level 1" {
		t.Fatalf("game %d: rated %v, black %+v (the bot is %s)", id, rec.Rated, rec.Black, r.bot.Discord.AppID)
	}

	// Alice moves; her answer is the board (the engine to move pings nobody); the engine's
	// reply follows as a board that pings her.
	res := g.move(w.alice, "e4")
	if d := res.Callback.Data; !strings.Contains(d.Content, "**e4**") || d.AllowedMentions == nil || len(d.AllowedMentions.Users) != 0 {
		t.Errorf("alice's move: %q, mentions %+v", d.Content, d.AllowedMentions)
	}
	w.engineReplied(g.thread, 1)
	g.move(w.alice, "Nc3")
	w.engineReplied(g.thread, 2)
	if got := r.bot.mustGame(t, id); got.Ply() != 4 || got.Turn() != chesscore.White {
		t.Fatalf("after two exchanges: ply %d, %s to move", got.Ply(), got.Turn())
	}

	// A takeback is granted at once: alice is to move again at the same ply count less two.
	res = w.send(discordfake.Command("takeback").In(w.f.GuildID, g.thread))
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "The engine grants takebacks") ||
		len(d.CustomIDs()) != 0 || len(d.AllowedMentions.Users) != 0 {
		t.Fatalf("/takeback answered %q with buttons %v, mentions %+v: want the engine's note, no buttons, no ping", d.Content, d.CustomIDs(), d.AllowedMentions)
	}
	w.waitFor("the takeback", func() bool { return r.bot.mustGame(t, id).Ply() == 2 })
	// The board after the takeback: alice to move, pinged.
	w.waitFor("the board after the takeback", func() bool {
		ms := w.f.Messages(g.thread)
		granted := -1
		for i, m := range ms {
			if strings.Contains(m.Content, "takeback was granted") {
				granted = i
			}
			if granted >= 0 && i > granted && strings.Contains(m.Content, "<@"+w.alice.ID+"> (alice) to move") {
				return true
			}
		}
		return false
	})

	// Alice resigns: the game ends, unrated.
	res = w.send(discordfake.Command("resign").In(w.f.GuildID, g.thread))
	confirm := customID(t, res.Callback.Data.CustomIDs(), "resign-confirm")
	res = w.send(discordfake.Button(confirm).In(w.f.GuildID, g.thread))
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "0-1") {
		t.Fatalf("resignation answered %q", d.Content)
	}
	if got := r.bot.mustGame(t, id); got.Live() {
		t.Fatal("the game is still live after the resignation")
	}

	// The analysis of the game: the summary, the graph and the table.
	d := w.puzzleAnswer(discordfake.Command("analyze", discordfake.IntOpt("game", int64(id))))
	if d.Ephemeral() || !strings.Contains(d.Content, "Analysis of game") || !strings.Contains(d.Content, "White (") {
		t.Fatalf("/analyze answered %q", d.Content)
	}
	if _, ok := d.File("evaluation.png"); !ok {
		t.Error("/analyze has no evaluation graph")
	}
	for _, ext := range []string{".txt", ".pgn"} {
		if _, ok := d.File("gambit-analysis-" + strconv.FormatUint(id, 10) + ext); !ok {
			t.Errorf("/analyze has no %s file", ext)
		}
	}
}

func TestStoryPlayBotBlackAndAnalyzeMistakes(t *testing.T) {
	w := newWorld(t)
	w.cfg.Engine.ReplyDelay = 0
	w.cfg.Engine.AnalysisTime = 20 * time.Millisecond
	r := w.start()
	// Alice plays Black: the engine opens on the first board.
	g, id := w.playBot(r, discordfake.IntOpt("level", 2), discordfake.StringOpt("time", "-"), discordfake.StringOpt("color", "black"))
	w.waitFor("the engine's first move", func() bool { return r.bot.mustGame(t, id).Ply() == 1 })
	_ = g

	// A game between people with a blunder: g4?? allows mate.
	h := w.startGame("5+3")
	h.move(w.alice, "f3")
	h.move(w.bob, "e5")
	h.move(w.alice, "g4")
	h.move(w.bob, "Qh4#")
	d := w.puzzleAnswer(discordfake.Command("analyze").In(w.f.GuildID, h.thread)) // it may be deferred
	if d.Ephemeral() || !strings.Contains(d.Content, "**g4??**") || !strings.Contains(d.Content, "better **") || !strings.Contains(d.Content, "1 blunder") {
		t.Fatalf("/analyze of the fool's mate: %q", d.Content)
	}
	t.Logf("/analyze answered:\n%s", d.Content)
	for _, m := range w.f.Messages(g.thread) {
		t.Logf("thread of the game against the engine: %q", m.Content)
	}
	png, ok := d.File("evaluation.png")
	if !ok || len(png.Data) < 1000 {
		t.Errorf("evaluation graph missing or tiny (%d bytes)", len(png.Data))
	}
}

func TestStoryPlayBotRestartWhileEngineToMove(t *testing.T) {
	w := newWorld(t)
	// The first bot holds the engine's reply long enough to be stopped before it.
	w.cfg.Engine.ReplyDelay = 10 * time.Second
	r := w.start()
	g, id := w.playBot(r, discordfake.IntOpt("level", 1), discordfake.StringOpt("time", "-"), discordfake.StringOpt("color", "white"))
	g.move(w.alice, "d4")
	r.stop()
	db := storagetest.OpenFile(t, w.cfg.Storage.Path, &bolt.Options{ReadOnly: true})
	rec, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	db.Close()
	if err != nil || rec.Ply() != 1 {
		t.Fatalf("before the restart: ply %d, %v (the engine must not have moved)", rec.Ply(), err)
	}
	// After the restart the engine finds itself to move and replies.
	w.cfg.Engine.ReplyDelay = 0
	r2 := w.start()
	w.engineReplied(g.thread, 1)
	if got := r2.bot.mustGame(t, id); got.Ply() != 2 {
		t.Errorf("after the restart: ply %d, want 2", got.Ply())
	}
}

func TestPlayAndAnalyzeRefusals(t *testing.T) {
	w := newWorld(t)
	w.cfg.Engine.ReplyDelay = 0
	r := w.start()
	refused := func(d discordfake.Payload, want string) {
		t.Helper()
		if !d.Ephemeral() || !strings.Contains(d.Content, want) {
			t.Errorf("answered ephemeral=%v %q, want a private %q", d.Ephemeral(), d.Content, want)
		}
	}
	refused(w.puzzleAnswer(discordfake.Command("play", discordfake.SubCommand("bot", discordfake.StringOpt("time", "5+x")))), "I do not know the time control")
	refused(w.puzzleAnswer(discordfake.Command("analyze", discordfake.IntOpt("game", 999))), "There is no game 999")
	refused(w.puzzleAnswer(discordfake.Command("analyze")), "no finished game")
	_, id := w.playBot(r, discordfake.IntOpt("level", 1), discordfake.StringOpt("color", "black"))
	refused(w.puzzleAnswer(discordfake.Command("analyze", discordfake.IntOpt("game", int64(id)))), "still being played")
}
