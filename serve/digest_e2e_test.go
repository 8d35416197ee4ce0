package serve

// Stories of the daily digest on the fake Discord: the digest DM at the player's hour
// with their games and links, and a refused DM that turns the digest off with a note
// on the player's next answer, once.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// gameID returns the id of the live game of thread in which u plays.
func (r *running) gameID(t testing.TB, u, thread string) uint64 {
	t.Helper()
	gs, err := r.bot.Games.GamesByUser(context.Background(), u, storage.Query{LiveOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if g.ThreadID == thread {
			return g.ID
		}
	}
	t.Fatalf("no live game of %s in thread %s", u, thread)
	return 0
}

// dms returns the messages the bot posted in its DM channel with a user.
func (w *world) dms(userID string) []discordfake.Message {
	ch, ok := w.f.DMChannel(userID)
	if !ok {
		return nil
	}
	return w.f.Messages(ch)
}

// optIn turns u's digest on at hour (UTC) with /notify and checks the answer.
func (w *world) optIn(u *discordgo.User, hour int64) {
	w.t.Helper()
	d := w.answer(w.send(discordfake.Command("notify", discordfake.BoolOpt("digest", true), discordfake.IntOpt("digest_hour", hour)).From(u)))
	want := fmt.Sprintf("Daily digest by direct message of the games where it is your move: yes (at %02d:00 UTC", hour)
	if !d.Ephemeral() || !strings.Contains(d.Content, want) {
		w.t.Fatalf("/notify digest answered %q, want it to say %q", d.Content, want)
	}
}

func TestStoryDailyDigest(t *testing.T) {
	w := newWorld(t)
	club, clubChannel := w.f.AddGuild("Chess *Club*")
	r := w.start()
	soon := w.startGame("1d")   // alice to move
	theirs := w.startGame("2d") // bob to move, after alice's e4
	theirs.played(theirs.move(w.alice, "e4"), "e4", w.bob)
	later := w.startGame("3d") // alice to move
	soonID, theirsID, laterID := r.gameID(t, w.alice.ID, soon.thread), r.gameID(t, w.alice.ID, theirs.thread), r.gameID(t, w.alice.ID, later.thread)
	// A game in another server, alice to move, 5 days.
	res := w.send(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID), discordfake.StringOpt("time", "5d"),
		discordfake.StringOpt("color", "white")).In(club, clubChannel))
	w.send(discordfake.Button(customID(t, res.Callback.Data.CustomIDs(), "accept")).From(w.bob).In(club, clubChannel))
	w.waitFor("the other server's thread", func() bool { return len(w.f.Threads()) == 4 })
	clubThread := w.f.Threads()[3].ID
	if ch, ok := w.f.Channel(clubThread); !ok || ch.GuildID != club {
		t.Fatalf("thread %s is not the other server's", clubThread)
	}

	// A hostile hour is refused and changes nothing.
	refused(t, w.send(discordfake.Command("notify", discordfake.BoolOpt("digest", true), discordfake.IntOpt("digest_hour", 24))), "digest_hour 24")
	if d := w.answer(w.send(discordfake.Command("notify"))); !strings.Contains(d.Content, "your move: no (at 00:00 UTC") {
		t.Fatalf("after the refused hour /notify says %q, want the digest still off", d.Content)
	}
	w.optIn(w.alice, 13) // at 12:00

	r.bot.Digest.FireDue()
	if n := len(w.dms(w.alice.ID)); n != 0 {
		t.Fatalf("%d DMs before 13:00", n)
	}
	w.clock.Advance(time.Hour)
	r.bot.Digest.FireDue()
	w.waitFor("the digest DM", func() bool { return len(w.dms(w.alice.ID)) == 1 })
	dm := w.dms(w.alice.ID)[0]
	link := func(thread string) string { return "https://discord.com/channels/" + w.f.GuildID + "/" + thread }
	clubLink := "https://discord.com/channels/" + club + "/" + clubThread
	for _, want := range []string{"Your daily digest**: it is your move in 3 games", fmt.Sprintf("**Game %d**", soonID), "· 23h 0m left",
		"Guild 1: " + link(soon.thread), fmt.Sprintf("**Game %d**", laterID), "· 2d 23h left", "Guild 1: " + link(later.thread),
		"· 4d 23h left", `Chess \*Club\*: ` + clubLink} {
		if !strings.Contains(dm.Content, want) {
			t.Errorf("the digest DM does not say %q:\n%s", want, dm.Content)
		}
	}
	if strings.Contains(dm.Content, fmt.Sprintf("**Game %d**", theirsID)) || strings.Contains(dm.Content, link(theirs.thread)) {
		t.Errorf("the digest lists game %d, where it is bob's move:\n%s", theirsID, dm.Content)
	}
	if i, j, k := strings.Index(dm.Content, link(soon.thread)), strings.Index(dm.Content, link(later.thread)), strings.Index(dm.Content, clubLink); i > j || j > k {
		t.Errorf("the nearest deadline does not come first:\n%s", dm.Content)
	}
	if am := dm.AllowedMentions; am == nil || len(am.Parse) != 0 || len(am.Users) != 0 {
		t.Errorf("the digest may ping: %+v", am)
	}
	if n := len(w.dms(w.bob.ID)); n != 0 {
		t.Errorf("bob, who did not opt in, got %d DMs", n)
	}

	// A restart within the hour sends nothing more; the next day's digest comes at 13:00.
	r.stop()
	r2 := w.start()
	r2.bot.Digest.FireDue()
	w.f.WaitFor(func() bool { return false }, 300*time.Millisecond)
	if n := len(w.dms(w.alice.ID)); n != 1 {
		t.Fatalf("%d digests after a restart in the hour, want 1", n)
	}
	w.clock.Advance(24 * time.Hour)
	r2.bot.Digest.FireDue()
	w.waitFor("the next day's digest", func() bool { return len(w.dms(w.alice.ID)) == 2 })
}

func TestStoryDigestRefusedDM(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	g := w.startGame("1d")
	g.played(g.move(w.alice, "e4"), "e4", w.bob) // bob to move
	w.optIn(w.bob, 13)
	w.f.RefuseDMs(w.bob.ID)
	r.bot.Digest.FireDue()
	w.clock.Advance(time.Hour)
	r.bot.Digest.FireDue()
	w.waitFor("the digest turned off", func() bool {
		p, err := r.bot.Games.Settings().FreshPrefs(context.Background(), w.bob.ID)
		return err == nil && !p.Digest && p.DigestRefused
	})
	if _, opened := w.f.DMChannel(w.bob.ID); !opened || len(w.dms(w.bob.ID)) != 0 {
		t.Fatalf("DM channel opened %v with %d messages; want it opened and the message refused", opened, len(w.dms(w.bob.ID)))
	}

	// Bob's next answer, a public board, is followed by the note, for him alone.
	res := g.move(w.bob, "e5")
	g.played(res, "e5", w.alice)
	note := "Your daily digest is turned off: Discord refused the direct message"
	if strings.Contains(res.Callback.Data.Content, note) {
		t.Errorf("the note is in the public board: %q", res.Callback.Data.Content)
	}
	var fu []discordfake.Message
	w.waitFor("the note's followup", func() bool { fu = w.f.Followups(res.ID); return len(fu) > 0 })
	if len(fu) != 1 || !fu[0].Ephemeral() || !strings.Contains(fu[0].Content, note) {
		t.Fatalf("followups of bob's move: %+v, want one ephemeral note", fu)
	}
	// Once: the answer after it carries none.
	d := w.answer(w.send(discordfake.Command("notify").From(w.bob)))
	if strings.Contains(d.Content, note) || !strings.Contains(d.Content, "your move: no (at 13:00 UTC") {
		t.Errorf("bob's second answer %q: want the digest off and no note", d.Content)
	}
	// Nothing more the next day: the digest is off.
	w.clock.Advance(24 * time.Hour)
	r.bot.Digest.FireDue()
	if p, err := r.bot.Games.Settings().FreshPrefs(context.Background(), w.bob.ID); err != nil || p.DigestRefused || p.Digest {
		t.Errorf("bob's preferences a day later: %+v, %v", p, err)
	}

	// Bob turns it back on with his DMs still closed: refused again at 13:00 the next
	// day, and this time his next answer is private, so it carries the note itself.
	g2 := w.startGame("7d")
	g2.played(g2.move(w.alice, "e4"), "e4", w.bob) // bob to move again
	w.optIn(w.bob, 13)
	w.clock.Advance(24 * time.Hour)
	r.bot.Digest.FireDue()
	w.waitFor("the digest turned off again", func() bool {
		p, err := r.bot.Games.Settings().FreshPrefs(context.Background(), w.bob.ID)
		return err == nil && !p.Digest && p.DigestRefused
	})
	res = w.send(discordfake.Command("notify").From(w.bob))
	if d := w.answer(res); !d.Ephemeral() || !strings.Contains(d.Content, "your move: no") || !strings.Contains(d.Content, note) {
		t.Errorf("bob's private answer after the second refusal: %q, want it to carry the note", d.Content)
	}
	if fu := w.f.Followups(res.ID); len(fu) != 0 {
		t.Errorf("a private answer with the note in it got %d followups", len(fu))
	}
	if d := w.answer(w.send(discordfake.Command("notify").From(w.bob))); strings.Contains(d.Content, note) {
		t.Errorf("the note shows twice: %q", d.Content)
	}
}

// Two processes on one PostgreSQL store sweep the same hour at once: the digest DM
// leaves once.
func TestStoryDigestOnceAcrossProcessesOnPostgres(t *testing.T) {
	overHTTP(t) // two processes, one endpoint at a time
	dsn := storagetest.PostgresDSN(t)
	w := newWorld(t)
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
	cfg1, cfg2 := w.cfg, w.cfg
	cfg1.Instance, cfg2.Instance = "web-1", "web-2"
	r1 := w.startWith(cfg1, Deps{})
	w.startGame("1d") // alice to move
	w.optIn(w.alice, 13)
	r2 := w.startWith(cfg2, Deps{})
	w.clock.Advance(time.Hour)
	var wg sync.WaitGroup
	for _, r := range []*running{r1, r2} {
		wg.Add(1)
		go func() { defer wg.Done(); r.bot.Digest.FireDue() }()
	}
	wg.Wait()
	w.waitFor("the digest DM", func() bool { return len(w.dms(w.alice.ID)) >= 1 })
	w.f.WaitFor(func() bool { return false }, 300*time.Millisecond)
	if n := len(w.dms(w.alice.ID)); n != 1 {
		t.Fatalf("%d digest DMs from two processes, want 1", n)
	}
}
