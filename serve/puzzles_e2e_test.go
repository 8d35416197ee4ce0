package serve

// End-to-end stories of the puzzles: the daily post on the fake Discord, solving it
// with private answers, hints, stats and the leaderboard, and the post across
// restarts and a crash.

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/storage"
)

// puzzleAnswer sends an interaction and returns its final answer (following a
// deferral).
func (w *world) puzzleAnswer(spec discordfake.InteractionSpec) discordfake.Payload {
	w.t.Helper()
	return w.answer(w.send(spec))
}

// answer is what the user finally sees of an interaction's answer: the callback's, or
// after a deferral the original response once filled in, or the followup that replaced
// it (with the message's own ephemeral flag).
func (w *world) answer(res *discordfake.InteractionResult) discordfake.Payload {
	w.t.Helper()
	if res.Callback.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return res.Callback.Data
	}
	var out discordfake.Payload
	w.waitFor("the deferred answer", func() bool {
		if m, ok := w.f.Original(res.ID); ok && !m.Deleted && (m.Content != "" || len(m.Attachments) > 0) {
			out = m.Payload
			out.Flags = m.Flags
			return true
		}
		if f := w.f.Followups(res.ID); len(f) > 0 {
			out = f[0].Payload
			out.Flags = f[0].Flags
			return true
		}
		return false
	})
	return out
}

// asAdmin gives an interaction the Manage Server permission.
func asAdmin(s discordfake.InteractionSpec) discordfake.InteractionSpec {
	s.Permissions = discordgo.PermissionManageGuild | discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
		discordgo.PermissionUseApplicationCommands
	return s
}

// dailyPosts returns the bot's own posts (not interaction answers) in a channel that
// carry a puzzle board.
func (w *world) dailyPosts(channelID string) []discordfake.Message {
	var out []discordfake.Message
	for _, m := range w.f.Messages(channelID) {
		if _, ok := m.File("puzzle.png"); ok && m.Kind == discordfake.KindChannel {
			out = append(out, m)
		}
	}
	return out
}

// setDaily sets the daily post up in the world's channel at hh:mm UTC.
func (w *world) setDaily(at string) {
	w.t.Helper()
	d := w.puzzleAnswer(asAdmin(discordfake.Command("settings", discordfake.SubCommand("puzzle",
		discordfake.ChannelOpt("channel", w.f.ChannelID), discordfake.StringOpt("time", at), discordfake.StringOpt("timezone", "UTC")))))
	if !d.Ephemeral() || !strings.Contains(d.Content, "Daily puzzle: in <#"+w.f.ChannelID+"> at "+at+" UTC") {
		w.t.Fatalf("/settings puzzle answered %q", d.Content)
	}
}

// solution returns the solver's moves of a puzzle in SAN.
func (r *running) solution(t testing.TB, id string) []string {
	t.Helper()
	_, l, err := r.bot.Puzzles.Puzzle(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	pos := l.Start
	for i, m := range l.Moves {
		if i%2 == 1 {
			out = append(out, pos.SAN(m))
		}
		pos = pos.Play(m)
	}
	return out
}

// todaysPuzzle returns the id of the guild's puzzle of the day.
func (r *running) todaysPuzzle(t testing.TB) string {
	t.Helper()
	d, err := r.bot.Puzzles.TodayDaily(context.Background(), r.w.f.GuildID)
	if err != nil {
		t.Fatal(err)
	}
	return d.PuzzleID
}

// private checks that an answer is ephemeral, pings nobody and carries a board.
func private(t testing.TB, d discordfake.Payload, want string) {
	t.Helper()
	if !d.Ephemeral() || !strings.Contains(d.Content, want) {
		t.Errorf("answer %q (ephemeral %v), want a private answer saying %q", d.Content, d.Ephemeral(), want)
	}
	if am := d.AllowedMentions; am == nil || len(am.Parse) != 0 || len(am.Users) != 0 {
		t.Errorf("answer %q may ping: %+v", d.Content, am)
	}
	if _, ok := d.File("puzzle.png"); !ok {
		t.Errorf("answer %q has no board", d.Content)
	}
}

func solveCmd(move string) discordfake.InteractionSpec {
	return discordfake.Command("puzzle", discordfake.SubCommand("solve", discordfake.StringOpt("move", move)))
}

func TestStoryDailyPuzzleSolvedPrivately(t *testing.T) {
	t.Run("answered at once", func(t *testing.T) { storyDailyPuzzleSolvedPrivately(t, 0) })
	// Every answer deferred, as on a slow day: the deferrals are private too, so not
	// even a "thinking..." shows to the others.
	t.Run("every answer deferred", func(t *testing.T) { storyDailyPuzzleSolvedPrivately(t, time.Nanosecond) })
}

func storyDailyPuzzleSolvedPrivately(t *testing.T, deferAfter time.Duration) {
	w := newWorld(t)
	r := w.startWith(w.cfg, Deps{DeferAfter: deferAfter})
	refusedPayload(t, w.puzzleAnswer(discordfake.Command("settings", discordfake.SubCommand("puzzle", discordfake.ChannelOpt("channel", w.f.ChannelID))).From(w.bob)), "Manage Server")
	w.setDaily("13:00") // at 12:00: the first post is at 13:00 today
	// The settings change set the guild's timer to now: the bot's scheduler or this
	// FireDue handles it (whichever comes first), and neither posts before 13:00.
	r.bot.Puzzles.FireDue()
	if n := len(w.dailyPosts(w.f.ChannelID)); n != 0 {
		t.Fatalf("%d posts before the posting time", n)
	}
	w.clock.Advance(time.Hour)
	r.bot.Puzzles.FireDue()
	w.waitFor("the daily post", func() bool { return len(w.dailyPosts(w.f.ChannelID)) == 1 })
	post := w.dailyPosts(w.f.ChannelID)[0]
	if !strings.Contains(post.Content, "Puzzle of the day") || !strings.Contains(post.Content, "Sunday 1 March 2026") ||
		!strings.Contains(post.Content, "/puzzle solve") {
		t.Errorf("daily post %q", post.Content)
	}
	if am := post.AllowedMentions; am == nil || len(am.Parse) != 0 || len(am.Users) != 0 {
		t.Errorf("the daily post may ping: %+v", am)
	}
	id := r.todaysPuzzle(t)
	if !strings.Contains(post.Content, "`"+id+"`") {
		t.Errorf("the post does not name puzzle %s: %q", id, post.Content)
	}
	sol := r.solution(t, id)
	posted := len(w.f.Messages(w.f.ChannelID))

	// Alice looks at it, then types the start of her first move: the list is the legal
	// moves that fit.
	d := w.puzzleAnswer(discordfake.Command("puzzle", discordfake.SubCommand("today")))
	private(t, d, "to move")
	ac := w.send(discordfake.Autocomplete("puzzle", discordfake.SubCommand("solve", discordfake.Focused(discordfake.StringOpt("move", sol[0][:1])))))
	var names []string
	for _, c := range ac.Callback.Data.Choices {
		names = append(names, c.Name)
	}
	if !slices.Contains(names, sol[0]) {
		t.Errorf("autocomplete for %q = %v, lacks the solution %s", sol[0][:1], names, sol[0])
	}
	// Bob gets it wrong at once: a miss, privately.
	wrong := wrongMove(t, r, id)
	res := w.send(solveCmd(wrong).From(w.bob))
	if deferAfter > 0 && (res.Callback.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !res.Callback.Data.Ephemeral()) {
		t.Errorf("a slow /puzzle solve was acknowledged with type %d, flags %d: want a private deferral", res.Callback.Type, res.Callback.Data.Flags)
	}
	d = w.answer(res)
	private(t, d, "is not the move")
	if !strings.Contains(d.Content, "counts as a miss: rating 1500 → ") {
		t.Errorf("bob's miss: %q", d.Content)
	}
	// Alice plays the line; the bot answers each move, privately.
	for i, mv := range sol {
		d = w.puzzleAnswer(solveCmd(mv))
		if i < len(sol)-1 {
			private(t, d, "is right. The opponent answers")
		} else {
			private(t, d, "solved!")
			if !strings.Contains(d.Content, "Puzzle rating: rating 1500 → ") || !strings.Contains(d.Content, "Daily streak: 1") {
				t.Errorf("alice's solve: %q", d.Content)
			}
		}
	}
	// Carol asks for a hint: the piece to move, marked on a private board.
	d = w.puzzleAnswer(discordfake.Command("puzzle", discordfake.SubCommand("hint")).From(w.carol))
	private(t, d, "Move the piece on")
	// Nothing of this appeared for the others: only interaction answers, all private.
	for _, m := range w.f.Messages(w.f.ChannelID)[posted:] {
		if m.Kind == discordfake.KindChannel || !m.Ephemeral() {
			t.Errorf("a public message while solving: %+v", m.Content)
		}
	}
	d = w.puzzleAnswer(discordfake.Command("puzzle", discordfake.SubCommand("stats")))
	if !d.Ephemeral() || !strings.Contains(d.Content, "Solved at the first try: 1 of 1") || !strings.Contains(d.Content, "Daily streak: 1") ||
		!strings.Contains(d.Content, "Rank on this server: 1 of 3") {
		t.Errorf("alice's stats: %q", d.Content)
	}
	d = w.puzzleAnswer(discordfake.Command("puzzle", discordfake.SubCommand("leaderboard")))
	if d.Ephemeral() || !strings.HasPrefix(strings.Split(d.Content, "\n")[1], "1. alice") {
		t.Errorf("leaderboard: %q", d.Content)
	}
	// The next day's post gives the solution and who solved it.
	w.clock.Advance(24 * time.Hour)
	r.bot.Puzzles.FireDue()
	w.waitFor("the second post", func() bool { return len(w.dailyPosts(w.f.ChannelID)) == 2 })
	second := w.dailyPosts(w.f.ChannelID)[1]
	if !strings.Contains(second.Content, "Yesterday's solution") || !strings.Contains(second.Content, sol[0]) ||
		!strings.Contains(second.Content, "Solved by alice (1 at the first try)") {
		t.Errorf("second post %q", second.Content)
	}
	if r.todaysPuzzle(t) == id {
		t.Error("the same puzzle two days running")
	}
	// A random puzzle, privately.
	d = w.puzzleAnswer(discordfake.Command("puzzle", discordfake.SubCommand("random", discordfake.IntOpt("rating", 1200))).From(w.bob))
	private(t, d, "Puzzle")
	if u := w.f.Unknown(); len(u) > 0 {
		t.Errorf("the bot used routes the fake does not know: %+v", u)
	}
}

// wrongMove returns a legal first move that does not solve the puzzle.
func wrongMove(t testing.TB, r *running, id string) string {
	t.Helper()
	_, l, err := r.bot.Puzzles.Puzzle(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var ml chesscore.MoveList
	l.Shown.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if v, _ := puzzle.Check(l, 0, m); v == puzzle.Wrong {
			return l.Shown.SAN(m)
		}
	}
	t.Fatalf("every move solves %s", id)
	return ""
}

func TestStoryDailyPuzzleAcrossRestarts(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	w.setDaily("13:00")
	// The bot stops at 12:30 and is back at 14:00: the missed post is made at once.
	w.clock.Advance(30 * time.Minute)
	r.stop()
	w.clock.Advance(90 * time.Minute)
	r2 := w.start()
	w.waitFor("the missed post", func() bool { return len(w.dailyPosts(w.f.ChannelID)) == 1 })
	first := r2.todaysPuzzle(t)
	// Restarts on the same day post nothing more.
	r2.stop()
	r3 := w.start()
	r3.bot.Puzzles.FireDue()
	w.f.WaitFor(func() bool { return false }, 300*time.Millisecond)
	if n := len(w.dailyPosts(w.f.ChannelID)); n != 1 {
		t.Fatalf("%d posts after a second restart on the same day", n)
	}
	if r3.todaysPuzzle(t) != first {
		t.Error("the puzzle of the day changed across a restart")
	}

	// A crash between the commit and the post: the next day's post fails (Discord
	// answers 500), the store is copied as a crash would leave it, and the bot comes
	// back from that copy: the planned post is made, once.
	w.clock.Advance(23 * time.Hour) // day 2, 13:00
	w.f.Fail(discordfake.Failure{Route: "POST channels/" + w.f.ChannelID + "/messages", Count: 1, Status: 500})
	r3.bot.Puzzles.FireDue()
	var planned *storage.Daily
	w.waitFor("the planned post", func() bool {
		d, err := storage.Read(t.Context(), r3.store(), func(tx storage.Tx) (*storage.Daily, error) { return tx.Daily(w.f.GuildID, "2026-03-02") })
		planned = d
		return err == nil && d.State == storage.DailyPlanned
	})
	image := filepath.Join(t.TempDir(), "crash.db")
	if _, err := r3.store().BackupFile(t.Context(), image); err != nil {
		t.Fatal(err)
	}
	r3.stop()
	w.clock.Advance(10 * time.Minute)
	cfg := w.cfg
	cfg.Storage.Path = image
	r4 := w.startWith(cfg, Deps{})
	w.waitFor("the planned post after the crash", func() bool { return len(w.dailyPosts(w.f.ChannelID)) == 2 })
	r4.bot.Puzzles.FireDue()
	w.f.WaitFor(func() bool { return false }, 300*time.Millisecond)
	if n := len(w.dailyPosts(w.f.ChannelID)); n != 2 {
		t.Errorf("%d posts after the crash, want 2", n)
	}
	d, err := storage.Read(t.Context(), r4.store(), func(tx storage.Tx) (*storage.Daily, error) { return tx.Daily(w.f.GuildID, "2026-03-02") })
	if err != nil || d.State != storage.DailyPosted || d.PuzzleID != planned.PuzzleID || d.MessageID != w.dailyPosts(w.f.ChannelID)[1].ID {
		t.Errorf("day 2 after the crash: %+v, %v (planned %s)", d, err, planned.PuzzleID)
	}
}
