package serve

// The configuration's keys as the running bot obeys them: each test sets a key and
// checks its effect through the fake Discord (or the store), against `gambit serve`'s
// wiring.

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/internal/syncbuf"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// runErr runs a bot that must fail to start and returns its error.
func (w *world) runErr(cfg config.Config) error {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := Run(ctx, cfg, Deps{Logger: testLogger(w.t), Clock: w.clock, Ready: func(*Server) { w.t.Error("the bot started") }})
	if err == nil {
		w.t.Fatal("Run returned nil")
	}
	return err
}

// TestWrongTokenSaysSo: Discord answering 401 to the first call is reported as a
// refused token, naming the keys to check, whether that first call reads the
// application (discord.application_id empty) or registers the commands.
func TestWrongTokenSaysSo(t *testing.T) {
	for _, appID := range []bool{false, true} {
		w := newWorld(t)
		cfg := w.cfg
		cfg.Discord.Token = "not-" + w.f.Token
		if appID {
			cfg.Discord.ApplicationID = w.f.AppID
		}
		err := w.runErr(cfg)
		if !errors.Is(err, bot.ErrTokenRefused) {
			t.Errorf("application id set %v: %v, want ErrTokenRefused", appID, err)
		}
		msg := err.Error()
		for _, want := range []string{"Discord refused the bot token (401 Unauthorized)", "discord.token", "GAMBIT_DISCORD_TOKEN"} {
			if !strings.Contains(msg, want) {
				t.Errorf("application id set %v: %q does not say %q", appID, msg, want)
			}
		}
		if strings.Contains(msg, "application_id is not set") || strings.Contains(msg, cfg.Discord.Token) {
			t.Errorf("application id set %v: %q", appID, msg)
		}
		if n := len(w.f.Overwrites()); n != 0 {
			t.Errorf("%d command overwrites with a refused token", n)
		}
	}
}

// TestApplicationIDSavesARequest: with discord.application_id set the bot does not ask
// Discord for it.
func TestApplicationIDSavesARequest(t *testing.T) {
	for _, set := range []bool{false, true} {
		w := newWorld(t)
		if set {
			w.cfg.Discord.ApplicationID = w.f.AppID
		}
		r := w.start()
		asked := slices.ContainsFunc(w.f.Requests(), func(q discordfake.Request) bool { return strings.HasSuffix(q.Path, "applications/@me") })
		if asked == set || r.bot.Discord.AppID != w.f.AppID {
			t.Errorf("application_id set %v: asked Discord %v, application %q", set, asked, r.bot.Discord.AppID)
		}
		r.stop()
	}
}

// TestShardCountConfigured: discord.shards as a number is used as it is, not what
// gateway/bot recommends.
func TestShardCountConfigured(t *testing.T) {
	w := newWorld(t, discordfake.WithShards(2))
	w.cfg.Discord.Shards = 3
	r := w.start()
	var ids []int
	for _, id := range w.f.IdentifyLog() {
		if id.ShardCount != 3 {
			t.Errorf("shard %d identified with count %d, want the configured 3", id.ShardID, id.ShardCount)
		}
		ids = append(ids, id.ShardID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []int{0, 1, 2}) || r.bot.Discord.Gateway.Count() != 3 {
		t.Errorf("shards %v (gateway %d), want 0, 1 and 2", ids, r.bot.Discord.Gateway.Count())
	}
}

// TestDefaultTimeControlConfigured: games.default_time_control is the control of a
// /challenge without time until the server sets its own, and what /settings shows.
func TestDefaultTimeControlConfigured(t *testing.T) {
	w := newWorld(t)
	w.cfg.Games.DefaultTimeControl = "3+2"
	w.start()
	open := func() string {
		t.Helper()
		return w.send(discordfake.Command("challenge")).Callback.Data.Content
	}
	if c := open(); !strings.Contains(c, "open 3+2") {
		t.Errorf("a challenge without time: %q, want the configured 3+2", c)
	}
	show := w.puzzleAnswer(asAdmin(discordfake.Command("settings", discordfake.SubCommand("show"))))
	if !strings.Contains(show.Content, "Default time control: 3+2") {
		t.Errorf("/settings show: %q", show.Content)
	}
	// Another setting saved leaves the server on the configured control.
	w.puzzleAnswer(asAdmin(discordfake.Command("settings", discordfake.SubCommand("threads", discordfake.BoolOpt("enabled", true)))))
	if c := open(); !strings.Contains(c, "open 3+2") {
		t.Errorf("after /settings threads: %q", c)
	}
	// The server's own choice wins.
	set := w.puzzleAnswer(asAdmin(discordfake.Command("settings", discordfake.SubCommand("time_control", discordfake.StringOpt("value", "5+0")))))
	if !strings.Contains(set.Content, "Default time control: 5+0") {
		t.Errorf("/settings time_control: %q", set.Content)
	}
	if c := open(); !strings.Contains(c, "open 5+0") {
		t.Errorf("after /settings time_control 5+0: %q", c)
	}
}

// TestBadDefaultTimeControlRefused: Run refuses a configuration whose default control
// does not parse (config.Load names the file and line; Run names the key).
func TestBadDefaultTimeControlRefused(t *testing.T) {
	w := newWorld(t)
	cfg := w.cfg
	cfg.Games.DefaultTimeControl = "fast"
	if err := w.runErr(cfg); !strings.Contains(err.Error(), "games.default_time_control") {
		t.Errorf("Run: %v", err)
	}
}

// TestChallengeExpiryAndFirstMoveTimeout: games.challenge_expiry is how long a
// challenge waits; games.first_move_timeout how long a game waits for its first moves.
func TestChallengeExpiryAndFirstMoveTimeout(t *testing.T) {
	w := newWorld(t)
	w.cfg.Games.ChallengeExpiry = 90 * time.Minute
	w.cfg.Games.FirstMoveTimeout = 30 * time.Second
	r := w.start()
	w.send(discordfake.Command("challenge", discordfake.StringOpt("time", "5+3")))
	pending, err := r.bot.Games.PendingChallenges(context.Background())
	if err != nil || len(pending) != 1 || !pending[0].ExpiresAt.Equal(epoch.Add(90*time.Minute)) {
		t.Fatalf("pending challenges %+v, %v; want one expiring at %v", pending, err, epoch.Add(90*time.Minute))
	}

	w.startGame("5+3")
	w.clock.Advance(29 * time.Second)
	r.bot.Games.FireDue()
	if g := r.bot.mustGame(t, 1); !g.Live() {
		t.Fatalf("game over before the first-move timeout: %+v", g.Outcome)
	}
	w.clock.Advance(2 * time.Second)
	r.bot.Games.FireDue()
	w.waitFor("the abort", func() bool { return r.bot.mustGame(t, 1).Outcome.Termination == chesscore.Aborted })
}

// TestRestartGrace: games.restart_grace is how often the bot records that it is alive;
// after a crash the side to move gets back at most that much. With a minute, the 50 s
// between the last heartbeat and the crash are not charged; with 100 ms they are.
func TestRestartGrace(t *testing.T) {
	for _, c := range []struct {
		grace    time.Duration
		lo, hi   time.Duration // White's clock after the crash
		charged  bool
		describe string
	}{
		{time.Minute, 4*time.Minute + 55*time.Second, 5*time.Minute + 5*time.Second, false, "not charged"},
		{100 * time.Millisecond, 4*time.Minute + 5*time.Second, 4*time.Minute + 15*time.Second, true, "charged"},
	} {
		w := newWorld(t)
		w.cfg.Games.RestartGrace = c.grace
		r := w.start()
		g := w.startGame("5+3")
		g.played(g.move(w.alice, "e4"), "e4", w.bob)
		g.played(g.move(w.bob, "e5"), "e5", w.alice)
		w.clock.Advance(50 * time.Second) // White thinks; the heartbeat is due only if grace < 50 s
		r.bot.Games.FireDue()
		image := filepath.Join(t.TempDir(), "crash.db")
		if _, err := r.store().BackupFile(t.Context(), image); err != nil {
			t.Fatal(err)
		}
		r.stop()
		w.clock.Advance(time.Hour)
		cfg := w.cfg
		cfg.Storage.Path = image
		r2 := w.startWith(cfg, Deps{})
		if left := r2.remaining(t, 1, chesscore.White); left < c.lo || left > c.hi {
			t.Errorf("restart_grace %v: White has %v after the crash, want %v to %v (the 50 s %s)", c.grace, left, c.lo, c.hi, c.describe)
		}
		r2.stop()
	}
}

// TestPerUserLimitConfigured: commands.per_user_per_minute bounds one user's commands.
func TestPerUserLimitConfigured(t *testing.T) {
	w := newWorld(t)
	w.cfg.Commands.PerUserPerMinute = 2
	w.start()
	for i := range 2 {
		if res := w.send(discordfake.Command("games")); strings.Contains(res.Callback.Data.Content, "too fast") {
			t.Fatalf("command %d refused: %q", i+1, res.Callback.Data.Content)
		}
	}
	refused(t, w.send(discordfake.Command("games")), "You are sending commands too fast")
	if res := w.send(discordfake.Command("games").From(w.bob)); strings.Contains(res.Callback.Data.Content, "too fast") {
		t.Errorf("another user was refused: %q", res.Callback.Data.Content)
	}
}

// TestPuzzlesDisabled: puzzles.enabled false stops the puzzle service and the daily
// post, and /puzzle is not registered. The same store with puzzles on makes the post
// the day is owed at once, so the silence is the setting's doing.
func TestPuzzlesDisabled(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	w.setDaily("13:00") // at 12:00
	r.stop()
	w.clock.Advance(2 * time.Hour) // 14:00: the day's post is owed

	off := w.cfg
	off.Puzzles.Enabled = false
	r2 := w.startWith(off, Deps{})
	if r2.bot.Puzzles != nil {
		t.Error("the puzzle service runs")
	}
	ow := w.f.Overwrites()
	if names := ow[len(ow)-1].Names; slices.Contains(names, "puzzle") || !slices.Contains(names, "challenge") {
		t.Errorf("registered %v: want every command but /puzzle", names)
	}
	// Discord (the fake too) offers no command that is not registered.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := w.f.SendInteraction(ctx, discordfake.Command("puzzle", discordfake.SubCommand("today"))); err == nil || !strings.Contains(err.Error(), "not registered") {
		t.Errorf("/puzzle with puzzles off: %v, want it unknown to Discord", err)
	}
	w.f.WaitFor(func() bool { return false }, 500*time.Millisecond)
	if n := len(w.dailyPosts(w.f.ChannelID)); n != 0 {
		t.Fatalf("%d daily posts with puzzles off", n)
	}
	r2.stop()

	r3 := w.start()
	w.waitFor("the owed post once puzzles are on again", func() bool { return len(w.dailyPosts(w.f.ChannelID)) == 1 })
	ow = w.f.Overwrites()
	if !slices.Contains(ow[len(ow)-1].Names, "puzzle") || r3.bot.Puzzles == nil {
		t.Error("/puzzle is not back")
	}
}

// TestInviteURLLogged: the start-up log carries the invite URL for the application,
// with both scopes and the permissions of invite.go, and the user install's URL.
func TestInviteURLLogged(t *testing.T) {
	w := newWorld(t)
	var log syncLog
	w.startWith(w.cfg, Deps{Logger: log.logger()})
	for _, want := range []string{
		"client_id=" + w.f.AppID + "&integration_type=0&permissions=317827697664&scope=bot+applications.commands",
		"client_id=" + w.f.AppID + "&integration_type=1&scope=applications.commands",
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the start-up log lacks %q:\n%s", want, log.String())
		}
	}
}

// TestScheduledBackupsRun: with backups.dir set, the running bot writes a copy at once
// (there is none yet), readable by its user only, that opens as a store holding the
// games.
func TestScheduledBackupsRun(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	w.startGame("5+3")
	r.stop()
	dir := filepath.Join(t.TempDir(), "backups")
	w.cfg.Backups.Dir = dir
	r = w.start()
	w.waitFor("the first scheduled backup", func() bool { return r.bot.backups.made.Load() == 1 })
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("backup dir: %v, %v", entries, err)
	}
	path := filepath.Join(dir, entries[0].Name())
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("backup %s: %v, %v; want mode 0600", path, fi.Mode(), err)
	}
	checkBackup(t, path, 1)
}

// checkBackup opens a backup read-only, checks it, and counts its games.
func checkBackup(t *testing.T, path string, games int) {
	t.Helper()
	db, err := bolt.Open(path, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("backup %s does not open: %v", path, err)
	}
	defer db.Close()
	if err := db.Check(t.Context()); err != nil {
		t.Errorf("backup %s fails its check: %v", path, err)
	}
	if total, _ := storagetest.CountGames(t, db); total != games {
		t.Errorf("backup %s has %d games, want %d", path, total, games)
	}
}

// syncLog collects a text log safely across goroutines.
type syncLog struct{ syncbuf.Buffer }

// logger returns a text logger writing to l.
func (l *syncLog) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }
