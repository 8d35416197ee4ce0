package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// vacation sends /vacation sub as u and returns the answer, which must be private.
func (w *world) vacation(u *discordgo.User, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) discordfake.Payload {
	w.t.Helper()
	d := w.ask(discordfake.Command("vacation", discordfake.SubCommand(sub, opts...)).From(u).In(w.f.GuildID, w.f.ChannelID))
	if !d.Ephemeral() {
		w.t.Fatalf("/vacation %s answered in public: %q", sub, d.Content)
	}
	return d
}

// storedGameOn reads game id from db.
func storedGameOn(t *testing.T, db storage.Store, id uint64) *storage.Game {
	t.Helper()
	g, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A vacation on PostgreSQL across a restart and a process takeover: bob goes on
// vacation for three days; alice's move hands him a turn whose clock waits, which her
// board, /games and a new correspondence challenge to him say; the bot restarts, then a
// second process takes the server over from the first; when the days are over the
// process that owns the server ends the vacation, counting exactly three days, and
// bob's clock runs again.
func TestStoryVacationAcrossRestartAndTakeoverOnPostgres(t *testing.T) {
	overHTTP(t) // two processes, one endpoint at a time: the second takes the interactions over
	dsn := storagetest.PostgresDSN(t)
	w := newWorld(t)
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
	db := storagetest.OpenPostgresDSN(t, dsn, nil)
	cfg1 := w.cfg
	cfg1.Instance = "web-1"
	r1 := w.startWith(cfg1, Deps{})
	g := w.startGame("1d")
	const id = 1

	// Bad input first: more days than a year allows, then ending a vacation not begun.
	if d := w.vacation(w.bob, "end"); !strings.Contains(d.Content, "not on vacation") {
		t.Fatalf("/vacation end without one: %q", d.Content)
	}
	if d := w.vacation(w.bob, "start", discordfake.IntOpt("days", 20)); !strings.Contains(d.Content, "14 left") {
		t.Fatalf("/vacation start days:20 of 14: %q", d.Content)
	}
	d := w.vacation(w.bob, "start", discordfake.IntOpt("days", 3))
	if !strings.Contains(d.Content, "You are on vacation until") {
		t.Fatalf("/vacation start: %q", d.Content)
	}
	if d := w.vacation(w.bob, "start", discordfake.IntOpt("days", 1)); !strings.Contains(d.Content, "already on vacation") {
		t.Fatalf("a second /vacation start: %q", d.Content)
	}
	res := g.move(w.alice, "e4")
	g.played(res, "e4", w.bob)
	if !strings.Contains(res.Callback.Data.Content, "bob is on vacation until") {
		t.Errorf("the board after alice's move does not say bob is away: %q", res.Callback.Data.Content)
	}
	if c := storedGameOn(t, db, id).Clock; c.State != clock.Paused || c.Turn != chesscore.Black {
		t.Fatalf("bob's clock: %v, turn %v; want paused on his turn", c.State, c.Turn)
	}
	if d := w.ask(discordfake.Command("games").From(w.alice)); !strings.Contains(d.Content, "bob is on vacation until") {
		t.Errorf("/games does not say bob is away: %q", d.Content)
	}
	ch := w.ask(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID), discordfake.StringOpt("time", "3d")).From(w.carol))
	if !strings.Contains(ch.Content, "bob is on vacation until") {
		t.Errorf("a correspondence challenge to bob does not say he is away: %q", ch.Content)
	}

	// A restart: the clock still waits, past the move's deadline.
	r1.stop()
	r1 = w.startWith(cfg1, Deps{})
	w.clock.Advance(2 * storage.VacationDay)
	r1.bot.Games.FireDue()
	if g := storedGameOn(t, db, id); !g.Live() || g.Clock.State != clock.Paused {
		t.Fatalf("after the restart and two days: live %v, clock %v; want the game waiting", g.Live(), g.Clock.State)
	}

	// A takeover: web-2 starts, web-1 stops and releases its servers, web-2 adopts them.
	cfg2 := w.cfg
	cfg2.Instance = "web-2"
	r2 := w.startWith(cfg2, Deps{})
	r1.stop()
	w.waitFor("web-2 to own the server", func() bool { return r2.bot.Owns(w.f.GuildID) })
	w.clock.Advance(storage.VacationDay + time.Minute) // the three days are over
	w.waitFor("the vacation's end in web-2", func() bool {
		r2.bot.Games.FireDue()
		v, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Vacation, error) { return tx.Vacation(w.f.GuildID, w.bob.ID) })
		return err == nil && !v.Open()
	})
	v, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Vacation, error) { return tx.Vacation(w.f.GuildID, w.bob.ID) })
	if err != nil || v.Used != 3 || v.Taken != 1 {
		t.Fatalf("vacation record: %+v, %v; want 3 days used by one vacation", v, err)
	}
	if c := storedGameOn(t, db, id).Clock; c.State != clock.Running || c.Remaining(chesscore.Black, w.clock.Now()) < 23*time.Hour {
		t.Fatalf("bob's clock after the vacation: %v with %v; want running with his whole day", c.State, c.Remaining(chesscore.Black, w.clock.Now()))
	}
	if d := w.vacation(w.bob, "status"); !strings.Contains(d.Content, "3 of 14 used, 11 left") || !strings.Contains(d.Content, "Not on vacation") {
		t.Errorf("/vacation status: %q", d.Content)
	}
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
}

// Auto vacation at a flag: alice opts in; the deadline of her move passes; instead of
// losing, she is on vacation, which her game's thread is told; the game waits.
func TestStoryAutoVacationAtTheFlag(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	if d := w.vacation(w.alice, "auto", discordfake.BoolOpt("enabled", true)); !strings.Contains(d.Content, "Auto vacation: on") {
		t.Fatalf("/vacation auto: %q", d.Content)
	}
	g := w.startGame("1d")
	w.clock.Advance(storage.VacationDay + time.Minute)
	w.waitFor("the auto vacation's announcement", func() bool {
		r.bot.Games.FireDue()
		for _, m := range w.f.Messages(g.thread) {
			if strings.Contains(m.Content, "auto vacation started") {
				return true
			}
		}
		return false
	})
	if gm := r.bot.mustGame(t, 1); !gm.Live() || gm.Clock.State != clock.Paused {
		t.Fatalf("the game at alice's deadline: live %v, clock %v; want it waiting", gm.Live(), gm.Clock.State)
	}
	if n := flagNotes(w, g.thread); n != 0 {
		t.Errorf("%d flag falls announced, want none", n)
	}
	if d := w.vacation(w.alice, "status"); !strings.Contains(d.Content, "started automatically") {
		t.Errorf("/vacation status: %q", d.Content)
	}
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
}

// A server's own number of vacation days, and a server that allows none: /settings
// vacation_days (Manage Server) changes what /vacation allows; a member without the
// permission is refused and changes nothing.
func TestStoryVacationDaysOfAServer(t *testing.T) {
	w := newWorld(t)
	w.start()
	settings := func(perm int64, opts ...*discordgo.ApplicationCommandInteractionDataOption) discordfake.Payload {
		spec := discordfake.Command("settings", discordfake.SubCommand("vacation_days", opts...)).In(w.f.GuildID, w.f.ChannelID)
		spec.Permissions = perm
		return w.ask(spec)
	}
	if d := settings(0, discordfake.IntOpt("days", 0)); !d.Ephemeral() || !strings.Contains(d.Content, "Manage Server") {
		t.Fatalf("/settings vacation_days without the permission: %q", d.Content)
	}
	if d := w.vacation(w.bob, "status"); !strings.Contains(d.Content, "0 of 14 used, 14 left") {
		t.Fatalf("/vacation status by default: %q", d.Content)
	}
	if d := settings(discordgo.PermissionManageGuild, discordfake.IntOpt("days", 30)); !strings.Contains(d.Content, "Vacation days a year: 30") {
		t.Fatalf("/settings vacation_days days:30: %q", d.Content)
	}
	if d := w.vacation(w.bob, "start", discordfake.IntOpt("days", 20)); !strings.Contains(d.Content, "You are on vacation until") {
		t.Fatalf("20 of 30 days: %q", d.Content)
	}
	if d := w.vacation(w.bob, "end"); !strings.Contains(d.Content, "1 of 30 used, 29 left") {
		t.Fatalf("/vacation end at once: %q", d.Content)
	}
	if d := settings(discordgo.PermissionManageGuild, discordfake.IntOpt("days", 0)); !strings.Contains(d.Content, "Vacations: none") {
		t.Fatalf("/settings vacation_days days:0: %q", d.Content)
	}
	if d := w.vacation(w.alice, "start"); !strings.Contains(d.Content, "allows no vacations") {
		t.Fatalf("/vacation start where none are allowed: %q", d.Content)
	}
	if d := settings(discordgo.PermissionManageGuild); !strings.Contains(d.Content, "Gambit's default") {
		t.Fatalf("/settings vacation_days without days: %q", d.Content)
	}
}

// The live board says who is away: bob starts a vacation in a correspondence game; the
// page of his opponent and a spectator's show it beside his clock, which does not run on
// his turn; when he ends it the note goes, at the next state.
func TestWebBoardShowsAVacation(t *testing.T) {
	w := newWebWorld(t)
	w.start()
	g := w.startGame("2d")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	link := liveBoardURL(t, g.lastBoard().Payload)
	w.vacation(w.bob, "start", discordfake.IntOpt("days", 2))
	alice, watcher := g.signedIn(w.alice), openPage(t, link)
	for _, p := range []*page{alice, watcher} {
		p.waitJS("bob's vacation beside his clock", `(function(){const a=document.querySelector('[data-away=black]');return a && !a.hidden && a.textContent.startsWith('on vacation until ')})()`)
		if on := eval[bool](p, `document.querySelector('[data-away=white]').hidden`); !on {
			t.Error("alice is shown on vacation")
		}
		if running := eval[bool](p, `document.querySelector('[data-clock=black]').classList.contains('running')`); running {
			t.Error("bob's clock runs on the page while he is away")
		}
	}
	w.vacation(w.bob, "end")
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	alice.waitJS("the note gone", `document.querySelector('[data-away=black]').hidden`)
}
