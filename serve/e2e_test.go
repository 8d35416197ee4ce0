package serve

// End-to-end stories: `gambit serve`'s wiring (Run) against the fake Discord, driven
// through interactions, checked against what Discord would have received.

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/service/games"
)

// mustGame returns game id as the service has it.
func (b *Server) mustGame(t testing.TB, id uint64) *games.Game {
	t.Helper()
	g, err := b.Games.Game(context.Background(), id)
	if err != nil {
		t.Fatalf("game %d: %v", id, err)
	}
	return g
}

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

// latestBoard returns the newest board message in the game's thread.
func (g *game) latestBoard() discordfake.Message {
	g.w.t.Helper()
	boards := g.w.messagesWith(g.thread, "board.png")
	if len(boards) == 0 {
		g.w.t.Fatal("no board in the thread")
	}
	return boards[len(boards)-1]
}

// click presses a button of the latest board.
func (g *game) click(u *discordgo.User, action string) *discordfake.InteractionResult {
	g.w.t.Helper()
	b := g.latestBoard()
	return g.w.send(discordfake.Button(customID(g.w.t, b.CustomIDs(), action)).From(u).In(g.w.f.GuildID, g.thread).OnMessage(b.ID))
}

// refused checks that an answer is an ephemeral refusal containing want.
func refused(t testing.TB, res *discordfake.InteractionResult, want string) {
	t.Helper()
	refusedPayload(t, res.Callback.Data, want)
}

// refusedPayload checks that an answer is a private refusal saying want.
func refusedPayload(t testing.TB, d discordfake.Payload, want string) {
	t.Helper()
	if !d.Ephemeral() || !strings.Contains(d.Content, want) {
		t.Errorf("answer %q (ephemeral %v), want a private refusal saying %q", d.Content, d.Ephemeral(), want)
	}
	if d.AllowedMentions == nil || len(d.AllowedMentions.Parse) != 0 || len(d.AllowedMentions.Users) != 0 {
		t.Errorf("refusal may ping: %+v", d.AllowedMentions)
	}
}

func TestStoryDrawOfferAccepted(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("10+0")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	res := g.move(w.alice, "Nf3", discordfake.BoolOpt("offer_draw", true))
	g.played(res, "Nf3", w.bob)
	if !strings.Contains(res.Callback.Data.Content, "offers a draw") {
		t.Errorf("the board does not show the offer: %q", res.Callback.Data.Content)
	}
	// Only the opponent can accept.
	refused(t, g.click(w.alice, "draw-accept"), "own")
	res = g.click(w.bob, "draw-accept")
	d := res.Callback.Data
	if d.Ephemeral() || !strings.Contains(d.Content, "½-½") || !strings.Contains(d.Content, "agreement") {
		t.Fatalf("accepting the draw answered %q", d.Content)
	}
	if _, ok := d.File("gambit-game-1.pgn"); !ok {
		t.Error("no PGN with the result")
	}
}

func TestStoryResignation(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("10+0")
	g.played(g.move(w.alice, "d4"), "d4", w.bob)
	g.played(g.move(w.bob, "d5"), "d5", w.alice) // before both sides move, resigning aborts
	res := w.send(discordfake.Command("resign").In(w.f.GuildID, g.thread))
	if !res.Callback.Data.Ephemeral() || !strings.Contains(res.Callback.Data.Content, "cannot be undone") {
		t.Fatalf("/resign did not ask privately for confirmation: %q", res.Callback.Data.Content)
	}
	// Only alice can confirm her own resignation; the confirmation is hers alone.
	confirm := customID(t, res.Callback.Data.CustomIDs(), "resign-confirm")
	res = w.send(discordfake.Button(confirm).In(w.f.GuildID, g.thread))
	d := res.Callback.Data
	if d.Ephemeral() || !strings.Contains(d.Content, "0-1") || !strings.Contains(d.Content, "resign") {
		t.Fatalf("resignation answered %q", d.Content)
	}
}

func TestStoryFlagFall(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	g := w.startGame("1+0")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	// White's clock runs now (first moves are free). A minute and a bit later...
	w.clock.Advance(61 * time.Second)
	if n := r.bot.Games.FireDue(); n == 0 {
		t.Fatal("no timer was due after White's minute")
	}
	var over discordfake.Message
	w.waitFor("the flag-fall message", func() bool {
		for _, m := range w.messagesWith(g.thread, "gambit-game-1.pgn") {
			over = m
			return true
		}
		return false
	})
	if !strings.Contains(over.Content, "flag fell") || !strings.Contains(over.Content, "0-1") || !strings.Contains(over.Content, "time forfeit") {
		t.Errorf("flag fall posted %q", over.Content)
	}
	// A move after the flag is refused.
	refused(t, g.move(w.alice, "Nf3"), "over")
}

func TestStoryNonPlayerCannotMove(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("10+0")
	refused(t, g.move(w.carol, "e4"), "Only the two players")
	b := g.latestBoard()
	res := w.send(discordfake.Select(customID(t, b.CustomIDs(), "pick"), "e2").From(w.carol).In(w.f.GuildID, g.thread))
	refused(t, res, "Only the two players")
	refused(t, g.click(w.carol, "resign"), "Only the two players")
	// Out of turn is refused too, and the watcher may still look at the board.
	refused(t, g.move(w.bob, "e5"), "not your turn")
	res = g.click(w.carol, "board")
	if !res.Callback.Data.Ephemeral() {
		t.Errorf("a watcher's board is not private")
	}
	if _, ok := res.Callback.Data.File("board.png"); !ok {
		t.Errorf("a watcher gets no board")
	}
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
}

func TestStoryStaleButton(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("10+0")
	first := g.latestBoard()
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "c5"), "c5", w.alice)
	// Alice uses the menu of the first board: made for ply 0, the game is at ply 2.
	res := w.send(discordfake.Select(customID(t, first.CustomIDs(), "pick"), "g1").In(w.f.GuildID, g.thread).OnMessage(first.ID))
	refused(t, res, "out of date")
	// A destination menu opened before the opponent moved is stale as well.
	res = w.send(discordfake.Select(customID(t, g.latestBoard().CustomIDs(), "pick"), "g1").In(w.f.GuildID, g.thread))
	menu := customID(t, res.Callback.Data.CustomIDs(), "to/g1")
	g.played(g.move(w.alice, "Nf3"), "Nf3", w.bob)
	refused(t, w.send(discordfake.Select(menu, "h3").In(w.f.GuildID, g.thread)), "")
}

// remaining returns a side's clock in game id as the running bot sees it now.
func (r *running) remaining(t testing.TB, id uint64, c chesscore.Color) time.Duration {
	t.Helper()
	g, err := r.bot.Games.Game(context.Background(), id)
	if err != nil {
		t.Fatalf("game %d: %v", id, err)
	}
	left, ok := g.Remaining(c, r.w.clock.Now())
	if !ok {
		t.Fatalf("game %d has no clock", id)
	}
	return left
}

func TestStoryRestartMidGame(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	g := w.startGame("5+3")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	g.played(g.move(w.alice, "Nf3"), "Nf3", w.bob)
	w.clock.Advance(10 * time.Second) // Black thinks for ten seconds...
	before := r.remaining(t, 1, chesscore.Black)
	r.stop()                         // ...and the bot restarts (graceful: SIGTERM)
	w.clock.Advance(5 * time.Minute) // five minutes of downtime, charged to nobody
	r2 := w.start()
	after := r2.remaining(t, 1, chesscore.Black)
	if after > before || before-after > 3*time.Second {
		t.Errorf("Black had %v at shutdown and %v after five minutes down; the downtime must not be charged", before, after)
	}
	// The game goes on in its thread, with the same buttons scheme.
	g.played(g.move(w.bob, "Nc6"), "Nc6", w.alice)
	if w.f.Identifies() != 2 {
		t.Errorf("identifies = %d, want 2 (one per run)", w.f.Identifies())
	}
	if n := len(w.f.Overwrites()); n != 2 {
		t.Errorf("%d command overwrites, want one per start", n)
	}
}

func TestStoryCrashImageRestart(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	g := w.startGame("5+3")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	// The file as a crash would leave it: a consistent image taken while running,
	// after the last acknowledged move.
	image := filepath.Join(t.TempDir(), "crash.db")
	if _, err := r.store().BackupFile(t.Context(), image); err != nil {
		t.Fatal(err)
	}
	r.stop()
	w.clock.Advance(time.Hour)
	cfg := w.cfg
	cfg.Storage.Path = image
	r2 := w.startWith(cfg, Deps{})
	if left := r2.remaining(t, 1, chesscore.White); left < 4*time.Minute+50*time.Second {
		t.Errorf("White has %v after an hour's crash; the downtime must not be charged", left)
	}
	g.played(g.move(w.alice, "Nf3"), "Nf3", w.bob)
}

func TestStoryDuplicateInteraction(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	g := w.startGame("10+0")
	res := g.move(w.alice, "e4")
	g.played(res, "e4", w.bob)
	// The same INTERACTION_CREATE delivered again (same id and token).
	if _, err := w.f.Dispatch("INTERACTION_CREATE", w.f.GuildID, res.Payload); err != nil {
		t.Fatal(err)
	}
	w.f.WaitFor(func() bool { return false }, 300*time.Millisecond)
	n := 0
	for _, q := range w.f.Requests() {
		if strings.Contains(q.Path, "interactions/"+res.ID+"/") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the bot answered the duplicate: %d callbacks to interaction %s", n, res.ID)
	}
	// A double click: two selects of the same destination at once, one move.
	b := g.latestBoard()
	menu := w.send(discordfake.Select(customID(t, b.CustomIDs(), "pick"), "e7").From(w.bob).In(w.f.GuildID, g.thread))
	to := customID(t, menu.Callback.Data.CustomIDs(), "to/e7")
	var wg sync.WaitGroup
	answers := make([]*discordfake.InteractionResult, 2)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			a, err := w.f.SendInteraction(ctx, discordfake.Select(to, "e5").From(w.bob).In(w.f.GuildID, g.thread))
			if err != nil {
				t.Errorf("click %d: %v", i, err)
			}
			answers[i] = a
		}()
	}
	wg.Wait()
	public := 0
	for _, a := range answers {
		if a != nil && !a.Callback.Data.Ephemeral() {
			public++
		}
	}
	if public != 1 {
		t.Errorf("%d public answers to a double click, want 1", public)
	}
	if ply := r.bot.mustGame(t, 1).Ply(); ply != 2 {
		t.Errorf("game at ply %d after e4 and a double-clicked e5, want 2", ply)
	}
}

func TestStoryRateLimits(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("10+0")

	// A 429 on the callback: retried after retry_after, within the deadline.
	w.f.FailNext("POST interactions/*/*/callback", 1)
	res := g.move(w.alice, "e4")
	g.played(res, "e4", w.bob)
	// The fake logs a request once its handler has answered, which may be just after
	// the callback reached the test: wait for the log.
	var statuses []int
	w.f.WaitFor(func() bool {
		statuses = statuses[:0]
		for _, q := range w.f.Requests() {
			if strings.HasPrefix(q.Path, "interactions/"+res.ID+"/") {
				statuses = append(statuses, q.Status)
			}
		}
		return len(statuses) >= 2
	}, 5*time.Second)
	if !slices.Equal(statuses, []int{429, 204}) {
		t.Errorf("callback statuses %v, want [429 204]", statuses)
	}

	// 429s on the notifier's post (a move made outside the thread): retried too.
	w.f.FailNext("POST channels/*/messages", 2)
	res = w.send(discordfake.Command("move", discordfake.StringOpt("move", "e5")).From(w.bob))
	if !res.Callback.Data.Ephemeral() || !strings.Contains(res.Callback.Data.Content, "<#"+g.thread+">") {
		t.Errorf("a move outside the thread answered %q", res.Callback.Data.Content)
	}
	w.waitFor("the board posted in the thread", func() bool {
		for _, m := range w.messagesWith(g.thread, "board.png") {
			if strings.Contains(m.Content, "**e5**") {
				return true
			}
		}
		return false
	})

	// A retry_after longer than what is left of the 3 seconds: the bot gives up at
	// once rather than sleep past the deadline.
	w.f.Fail(discordfake.Failure{Route: "POST interactions/*/*/callback", Count: 1, RetryAfter: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err := w.f.SendInteraction(ctx, discordfake.Command("fen").In(w.f.GuildID, g.thread))
	if err == nil {
		t.Fatal("a callback arrived although the only attempt was rate limited for 10s")
	}
	w.f.WaitFor(func() bool { return false }, 500*time.Millisecond)
	for _, q := range w.f.Requests() {
		if q.At.After(start) && strings.HasPrefix(q.Path, "interactions/") && q.Status != 429 {
			t.Errorf("the bot tried again after a 10s retry_after: %+v", q)
		}
	}
}

func TestStoryGatewayDisconnectAndResume(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("10+0")
	w.f.Disconnect()
	// Dispatched while the bot is away: replayed when it resumes, answered in time.
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	if w.f.Resumes() < 1 {
		t.Errorf("resumes = %d, want the session resumed", w.f.Resumes())
	}
	w.f.RequestReconnect()
	w.waitFor("the resume after op 7", func() bool { return w.f.Resumes() >= 2 && w.f.Connected() == 1 })
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	if n := w.f.Identifies(); n != 1 {
		t.Errorf("identifies = %d, want 1 (resumes, not new sessions)", n)
	}
}

func TestShardsAndRegistration(t *testing.T) {
	w := newWorld(t, discordfake.WithShards(2), discordfake.WithGuilds(2))
	w.cfg.Metrics.Address = "127.0.0.1:0"
	r := w.start()
	ids := w.f.IdentifyLog()
	var shards []int
	for _, id := range ids {
		if id.ShardCount != 2 {
			t.Errorf("shard %d identified with count %d, want 2 (auto from gateway/bot)", id.ShardID, id.ShardCount)
		}
		shards = append(shards, id.ShardID)
	}
	slices.Sort(shards)
	if !slices.Equal(shards, []int{0, 1}) {
		t.Errorf("shards %v, want [0 1]", shards)
	}
	// Each guild's interactions come on its own shard, and are answered.
	g1, g2 := w.f.Guilds()[0], w.f.Guilds()[1]
	if bot.ShardFor(g1, 2) == bot.ShardFor(g2, 2) {
		t.Fatalf("guilds %s and %s share a shard", g1, g2)
	}
	c2, err := w.f.AddChannel(g2, "chess")
	if err != nil {
		t.Fatal(err)
	}
	res := w.send(discordfake.Command("games").In(g2, c2))
	if !res.Callback.Data.Ephemeral() || !strings.Contains(res.Callback.Data.Content, "no games") {
		t.Errorf("/games in the second guild answered %q", res.Callback.Data.Content)
	}

	// One bulk overwrite, global, with every command.
	ow := w.f.Overwrites()
	if len(ow) != 1 || ow[0].GuildID != "" {
		t.Fatalf("overwrites %+v, want one global", ow)
	}
	var defs []string
	for _, d := range r.bot.Discord.Router.Definitions() {
		defs = append(defs, d.Name)
	}
	if !slices.Equal(ow[0].Names, defs) {
		t.Errorf("registered %v, want every command of the router: %v", ow[0].Names, defs)
	}
	for _, name := range []string{"abort", "board", "challenge", "draw", "fen", "games", "move", "notify", "pgn", "resign", "settings", "takeback"} {
		if !slices.Contains(defs, name) {
			t.Errorf("/%s is not registered", name)
		}
	}

	// Health and metrics.
	body := httpGet(t, "http://"+r.bot.OpsAddr+"/healthz", 200)
	if !strings.Contains(body, `"status":"ok"`) {
		t.Errorf("healthz: %s", body)
	}
	// The live backup is off without backups.endpoint_token (ops_e2e_test.go has it on).
	httpGet(t, "http://"+r.bot.OpsAddr+"/backup", 404)
	metrics := httpGet(t, "http://"+r.bot.OpsAddr+"/metrics", 200)
	for _, m := range []string{`gambit_interactions_total{command="games",outcome="ok"} 1`, "gambit_live_games 0", "gambit_interaction_seconds_bucket"} {
		if !strings.Contains(metrics, m) {
			t.Errorf("metrics lack %q", m)
		}
	}
}

func TestGuildRegistration(t *testing.T) {
	w := newWorld(t)
	w.cfg.Discord.GuildID = w.f.GuildID
	w.cfg.Discord.ApplicationID = w.f.AppID
	w.start()
	ow := w.f.Overwrites()
	if len(ow) != 1 || ow[0].GuildID != w.f.GuildID {
		t.Fatalf("overwrites %+v, want one in the development guild", ow)
	}
	if len(w.f.Commands()) != 0 {
		t.Errorf("global commands registered in development mode: %d", len(w.f.Commands()))
	}
	w.startGame("3+2")
}

func httpGet(t testing.TB, url string, status int) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Errorf("GET %s: %d, want %d: %s", url, resp.StatusCode, status, b)
	}
	return string(b)
}

// rawPayload reads a Discord-documentation-shaped interaction from testdata and fills
// in the IDs of this world.
func (w *world) rawPayload(name string, vars map[string]string) []byte {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "interactions", name))
	if err != nil {
		w.t.Fatal(err)
	}
	s := string(b)
	for k, v := range vars {
		s = strings.ReplaceAll(s, "{{"+k+"}}", v)
	}
	if i := strings.Index(s, "{{"); i >= 0 {
		w.t.Fatalf("%s: unfilled placeholder at %q", name, s[i:min(len(s), i+20)])
	}
	return []byte(s)
}

func (w *world) sendRaw(name string, vars map[string]string) *discordfake.InteractionResult {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := w.f.SendRawInteraction(ctx, w.rawPayload(name, vars))
	if err != nil {
		w.t.Fatalf("%s: %v", name, err)
	}
	return res
}

// TestRawInteractionPayloads replays interactions shaped like the examples of
// Discord's documentation (every field Discord sends, not only those discordgo's
// helpers fill) through the real bot.
func TestRawInteractionPayloads(t *testing.T) {
	w := newWorld(t)
	w.start()
	vars := map[string]string{"GUILD": w.f.GuildID, "CHANNEL": w.f.ChannelID, "USER": w.alice.ID, "OPPONENT": w.bob.ID}

	res := w.sendRaw("slash_challenge.json", vars)
	d := res.Callback.Data
	if !strings.Contains(d.Content, "3+2") || !strings.Contains(d.Content, "<@"+w.bob.ID+">") || d.Ephemeral() {
		t.Fatalf("challenge answered %q", d.Content)
	}
	orig, ok := w.f.Original(res.ID)
	if !ok {
		t.Fatal("the challenge message was not stored")
	}
	vars["CUSTOM_ID"] = customID(t, d.CustomIDs(), "accept")
	vars["MESSAGE"] = orig.ID
	res = w.sendRaw("button_accept.json", vars)
	if res.Callback.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("accept answered type %d: %q", res.Callback.Type, res.Callback.Data.Content)
	}
	var thread string
	w.waitFor("the thread", func() bool {
		for _, th := range w.f.Threads() {
			thread = th.ID
		}
		return thread != "" && len(w.messagesWith(thread, "board.png")) > 0
	})
	first := w.messagesWith(thread, "board.png")[0]
	// The accepter's display name tries to ping a role and everyone: it prints as
	// text, and allowed_mentions lets exactly White be pinged.
	if strings.Contains(first.Content, "@everyone") || strings.Contains(first.Content, "<@&123>") {
		t.Errorf("the board echoes a name's mentions: %q", first.Content)
	}
	if am := first.AllowedMentions; am == nil || len(am.Parse) != 0 || !slices.Equal(am.Users, []string{w.alice.ID}) {
		t.Errorf("allowed_mentions %+v, want exactly White", am)
	}

	vars["CHANNEL"] = thread
	res = w.sendRaw("autocomplete_move.json", vars)
	var names []string
	for _, c := range res.Callback.Data.Choices {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"Na3", "Nc3", "Nf3", "Nh3"}) {
		t.Errorf("autocomplete for N: %v", names)
	}

	vars["CUSTOM_ID"] = customID(t, first.CustomIDs(), "pick")
	vars["MESSAGE"] = first.ID
	res = w.sendRaw("select_pick.json", vars)
	if !res.Callback.Data.Ephemeral() || len(res.Callback.Data.CustomIDs()) != 1 {
		t.Errorf("piece menu answered %q with %v", res.Callback.Data.Content, res.Callback.Data.CustomIDs())
	}

	vars["CHANNEL"] = "1200000000000000000"
	res = w.sendRaw("dm_games.json", vars)
	if d := res.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "**1**") {
		t.Errorf("/games from a DM answered %q", d.Content)
	}
}

func TestStoryTakebackAbortAndRecords(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("10+0")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	g.played(g.move(w.alice, "Bc4"), "Bc4", w.bob)
	// Alice asks to take back Bc4; the request pings bob, who grants it.
	res := w.send(discordfake.Command("takeback").In(w.f.GuildID, g.thread))
	d := res.Callback.Data
	if d.Ephemeral() || !strings.Contains(d.Content, "take back") || !slices.Equal(d.AllowedMentions.Users, []string{w.bob.ID}) {
		t.Fatalf("takeback request answered %q %+v", d.Content, d.AllowedMentions)
	}
	accept := customID(t, d.CustomIDs(), "takeback-accept")
	refused(t, w.send(discordfake.Button(accept).In(w.f.GuildID, g.thread)), "own")
	res = w.send(discordfake.Button(accept).From(w.bob).In(w.f.GuildID, g.thread))
	if d := res.Callback.Data; !strings.Contains(d.Content, "Takeback granted") || !strings.Contains(d.Content, "White") {
		t.Fatalf("granting the takeback answered %q", d.Content)
	}
	g.played(g.move(w.alice, "Nf3"), "Nf3", w.bob)

	// Records, for anyone watching.
	res = w.send(discordfake.Command("pgn").From(w.carol).In(w.f.GuildID, g.thread))
	if pgn, ok := res.Callback.Data.File("gambit-game-1.pgn"); !ok || !strings.Contains(string(pgn.Data), "2. Nf3") || strings.Contains(string(pgn.Data), "Bc4") {
		t.Errorf("/pgn: %v %q", ok, pgn.Data)
	}
	res = w.send(discordfake.Command("fen").From(w.carol).In(w.f.GuildID, g.thread))
	if !strings.Contains(res.Callback.Data.Content, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2") {
		t.Errorf("/fen answered %q", res.Callback.Data.Content)
	}
	res = w.send(discordfake.Command("games"))
	if !strings.Contains(res.Callback.Data.Content, "<#"+g.thread+">") {
		t.Errorf("/games answered %q", res.Callback.Data.Content)
	}
	// "This channel", asked inside the game's thread, is the channel the thread is in.
	res = w.send(discordfake.Command("games", discordfake.StringOpt("where", "channel")).From(w.carol).In(w.f.GuildID, g.thread))
	if d := res.Callback.Data; !strings.Contains(d.Content, "Games of this channel") || !strings.Contains(d.Content, "<#"+g.thread+">") {
		t.Errorf("/games where:channel in the thread answered %q", d.Content)
	}

	// A second game, aborted before its first move with the button.
	g2 := w.startGame("5+0")
	res = g2.click(w.bob, "abort")
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "aborted") {
		t.Errorf("abort answered %q", d.Content)
	}
}

func TestStoryOpenChallengeSettingsAndNotify(t *testing.T) {
	w := newWorld(t)
	w.start()
	admin := int64(discordgo.PermissionManageGuild | discordgo.PermissionViewChannel | discordgo.PermissionSendMessages)
	// Settings: refused to a member, accepted from an admin.
	refused(t, w.send(discordfake.Command("settings", discordfake.SubCommand("threads", discordfake.BoolOpt("enabled", false))).From(w.bob)), "Manage Server")
	spec := discordfake.Command("settings", discordfake.SubCommand("threads", discordfake.BoolOpt("enabled", false)))
	spec.Permissions = admin
	if d := w.send(spec).Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "A thread per game: no") {
		t.Fatalf("settings answered %q", d.Content)
	}
	// Bob turns off pings on his turn.
	if d := w.send(discordfake.Command("notify", discordfake.BoolOpt("ping_on_turn", false)).From(w.bob)).Callback.Data; !strings.Contains(d.Content, "Mention you on your turn: no") {
		t.Fatalf("notify answered %q", d.Content)
	}
	// An open challenge: the challenger cannot accept it, carol can.
	res := w.send(discordfake.Command("challenge", discordfake.StringOpt("time", "3+2"), discordfake.StringOpt("color", "black")).From(w.bob))
	if d := res.Callback.Data; !strings.Contains(d.Content, "anyone may accept") || len(d.AllowedMentions.Users) != 0 {
		t.Fatalf("open challenge %q %+v", d.Content, d.AllowedMentions)
	}
	accept := customID(t, res.Callback.Data.CustomIDs(), "accept")
	refused(t, w.send(discordfake.Button(accept).From(w.bob)), "own challenge")
	w.send(discordfake.Button(accept).From(w.carol))
	// No thread now: the board comes in the channel, pinging carol (White).
	w.waitFor("the first board in the channel", func() bool { return len(w.messagesWith(w.f.ChannelID, "board.png")) > 0 })
	if n := len(w.f.Threads()); n != 0 {
		t.Errorf("%d threads opened with threads off", n)
	}
	g := &game{w: w, thread: w.f.ChannelID, white: w.carol, black: w.bob}
	res = g.move(w.carol, "d4")
	d := res.Callback.Data
	if strings.Contains(d.Content, "<@"+w.bob.ID+">") || len(d.AllowedMentions.Users) != 0 {
		t.Errorf("bob asked not to be pinged, yet: %q %+v", d.Content, d.AllowedMentions)
	}
	// A challenge to a bot is refused.
	refused(t, w.send(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.f.Bot.ID))), "bot")
}

func TestStoryPromotionWithButtons(t *testing.T) {
	w := newWorld(t)
	w.start()
	g := w.startGame("10+0")
	for i, san := range []string{"a4", "b5", "axb5", "a6", "bxa6", "Bb7", "axb7", "Nc6"} {
		mover, next := w.alice, w.bob
		if i%2 == 1 {
			mover, next = w.bob, w.alice
		}
		g.played(g.move(mover, san), san, next)
	}
	res := w.send(discordfake.Select(customID(t, g.latestBoard().CustomIDs(), "pick"), "b7").In(w.f.GuildID, g.thread))
	menu := customID(t, res.Callback.Data.CustomIDs(), "to/b7")
	res = w.send(discordfake.Select(menu, "a8").In(w.f.GuildID, g.thread))
	if res.Callback.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(res.Callback.Data.Content, "Promote") {
		t.Fatalf("choosing a8 answered type %d %q", res.Callback.Type, res.Callback.Data.Content)
	}
	knight := customID(t, res.Callback.Data.CustomIDs(), "promote/b7a8n")
	res = w.send(discordfake.Button(knight).In(w.f.GuildID, g.thread))
	g.played(res, "bxa8=N", w.bob)
}
