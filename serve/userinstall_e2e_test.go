package serve

// Stories of Gambit installed on a person's account and used where the bot is not a
// member (a group DM, a server that never added it): every board is the answer to an
// interaction, the bot never posts there on its own, and what happens while nobody
// acts reaches the players by DM or with their next answer.

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// guestGame is a game started with a user install in a channel where the bot is not a
// member.
type guestGame struct {
	w       *world
	channel string
}

// startGuestGame has alice challenge bob (alice White) in channel, bob accept, and
// checks that the accepted challenge became the first board.
func (w *world) startGuestGame(channel, control string) *guestGame {
	w.t.Helper()
	res := w.send(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID),
		discordfake.StringOpt("time", control), discordfake.StringOpt("color", "white")).At(channel))
	cb := res.Callback
	if cb.Type != discordgo.InteractionResponseChannelMessageWithSource || cb.Data.Ephemeral() || !strings.Contains(cb.Data.Content, "<@"+w.bob.ID+">") {
		w.t.Fatalf("guest challenge answered type %d ephemeral=%v: %q", cb.Type, cb.Data.Ephemeral(), cb.Data.Content)
	}
	res = w.send(discordfake.Button(customID(w.t, cb.Data.CustomIDs(), "accept")).From(w.bob).At(channel))
	d := res.Callback.Data
	if res.Callback.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(d.Content, "accepted") {
		w.t.Fatalf("accept answered type %d %q", res.Callback.Type, d.Content)
	}
	if _, ok := d.File("board.png"); !ok || !strings.Contains(d.Content, "<@"+w.alice.ID+">") {
		w.t.Fatalf("the accepted guest challenge is not the first board pinging White: %q", d.Content)
	}
	return &guestGame{w: w, channel: channel}
}

// move types /move in the game's channel.
func (g *guestGame) move(u *discordgo.User, san string) *discordfake.InteractionResult {
	g.w.t.Helper()
	return g.w.send(discordfake.Command("move", discordfake.StringOpt("move", san)).From(u).At(g.channel))
}

// played checks that an answer is the public board after a move.
func (g *guestGame) played(res *discordfake.InteractionResult, san string, next *discordgo.User) {
	g.w.t.Helper()
	(&game{w: g.w}).played(res, san, next)
}

// botStayedOut checks that the bot made no REST call of its own to channel (each would
// have been refused 403 Missing Access): all it showed there were its answers.
func (w *world) botStayedOut(channel string) {
	w.t.Helper()
	for _, r := range w.f.Requests() {
		if strings.HasPrefix(r.Path, "channels/"+channel) || r.Status == 403 {
			w.t.Errorf("the bot called %s %s (HTTP %d) where it is not a member", r.Method, r.Path, r.Status)
		}
	}
	for _, m := range w.f.Messages(channel) {
		if m.Kind == discordfake.KindChannel {
			w.t.Errorf("a message of the bot's own in %s: %q", channel, m.Content)
		}
	}
}

func TestStoryUserInstallGroupDMToMate(t *testing.T) { groupDMToMate(t) }

// The same story with the interactions delivered over HTTP, each first answer the HTTP
// response.
func TestStoryUserInstallGroupDMToMateOverHTTP(t *testing.T) {
	overHTTP(t)
	groupDMToMate(t)
}

func groupDMToMate(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	gdm := w.f.AddGroupDM("chess club", w.alice, w.bob, w.carol)
	g := w.startGuestGame(gdm, "5+3")
	if gg := r.bot.mustGame(t, 1); !gg.Guest || gg.GuildID != "" || gg.ChannelID != gdm {
		t.Fatalf("game 1: guest %v guild %q channel %q", gg.Guest, gg.GuildID, gg.ChannelID)
	}
	g.played(g.move(w.alice, "f3"), "f3", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	g.played(g.move(w.alice, "g4"), "g4", w.bob)
	// Carol, in the group DM, watches the game there; from the bot's DM it is not hers.
	res := w.send(discordfake.Command("board", discordfake.IntOpt("game", 1)).From(w.carol).At(gdm))
	if _, ok := res.Callback.Data.File("board.png"); !ok || !res.Callback.Data.Ephemeral() {
		t.Errorf("carol's /board in the group DM: %q", res.Callback.Data.Content)
	}
	refused(t, w.send(discordfake.Command("board", discordfake.IntOpt("game", 1)).From(w.carol).InDM()), "There is no game 1")
	// Carol cannot move for either side.
	if res := g.move(w.carol, "Qh4#"); !res.Callback.Data.Ephemeral() {
		t.Errorf("carol moved: %q", res.Callback.Data.Content)
	}
	res = g.move(w.bob, "Qh4#")
	d := res.Callback.Data
	if d.Ephemeral() || !strings.Contains(d.Content, "0-1") || !strings.Contains(d.Content, "checkmate") {
		t.Fatalf("mate answered %q", d.Content)
	}
	if _, ok := d.File("gambit-game-1.pgn"); !ok {
		t.Error("no PGN with the result")
	}
	w.f.WaitFor(func() bool { return false }, 200*time.Millisecond) // let the notifier catch up
	w.botStayedOut(gdm)
	if u := w.f.Unknown(); len(u) > 0 {
		t.Errorf("the bot used routes the fake does not know: %+v", u)
	}
}

func TestStoryUserInstallServerWithoutTheBot(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	_, general := w.f.AddGuildWithoutBot("no bot here")
	// The server things say they are; a rated game is refused; nothing is written.
	refused(t, w.send(discordfake.Command("settings").At(general)), "server thing")
	refused(t, w.send(discordfake.Command("ladder").At(general)), "server thing")
	refused(t, w.send(discordfake.Command("challenge", discordfake.UserOpt("opponent", w.bob.ID), discordfake.BoolOpt("rated", true)).At(general)), "Rated games")

	g := w.startGuestGame(general, "10+0")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	if gg := r.bot.mustGame(t, 1); !gg.Guest || gg.GuildID != "" {
		t.Fatalf("game 1: guest %v guild %q: a game of a server without the bot is no server's", gg.Guest, gg.GuildID)
	}
	// Nobody sees it from a server, even the bot's own; its players do.
	refused(t, w.send(discordfake.Command("board", discordfake.IntOpt("game", 1)).From(w.carol)), "There is no game 1")
	refused(t, w.send(discordfake.Command("board", discordfake.IntOpt("game", 1)).From(w.carol).At(general)), "There is no game 1")
	// Alice resigns there, confirming with the button of her private answer.
	res := w.send(discordfake.Command("resign").At(general))
	res = w.send(discordfake.Button(customID(t, res.Callback.Data.CustomIDs(), "resign-confirm")).At(general))
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "0-1") || !strings.Contains(d.Content, "resign") {
		t.Fatalf("resignation answered %q", d.Content)
	}
	w.f.WaitFor(func() bool { return false }, 200*time.Millisecond)
	w.botStayedOut(general)
}

func TestStoryUserInstallCorrespondenceFlagFalls(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	gdm := w.f.AddGroupDM("slow chess", w.alice, w.bob)
	// Alice allows DMs; bob does not.
	w.send(discordfake.Command("notify", discordfake.BoolOpt("dm_on_turn", true)).At(gdm))
	g := w.startGuestGame(gdm, "1d")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	// Two days pass; nobody acts. White's day runs out.
	w.clock.Advance(25 * time.Hour)
	if n := r.bot.Games.FireDue(); n == 0 {
		t.Fatal("no timer was due after White's day")
	}
	if gg := r.bot.mustGame(t, 1); gg.Live() {
		t.Fatal("the game is still live after White's day")
	}
	var dm discordfake.Message
	w.waitFor("the result in alice's DM", func() bool {
		ch, ok := w.f.DMChannel(w.alice.ID)
		if !ok {
			return false
		}
		for _, m := range w.f.Messages(ch) {
			if strings.Contains(m.Content, "flag fell") {
				dm = m
				return true
			}
		}
		return false
	})
	if !strings.Contains(dm.Content, "0-1") {
		t.Errorf("the DM says %q, want the result", dm.Content)
	}
	if _, ok := w.f.DMChannel(w.bob.ID); ok {
		t.Error("bob, who allowed no DMs, got one")
	}
	// Alice picks a piece from the last board's menu: the answer is the end, for all.
	boards := w.messagesWith(gdm, "board.png")
	last := boards[len(boards)-1]
	res := w.send(discordfake.Select(customID(t, last.CustomIDs(), "pick"), "g1").At(gdm).OnMessage(last.ID))
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "flag fell") {
		t.Errorf("alice's pick after the flag answered %q (ephemeral %v)", d.Content, d.Ephemeral())
	}
	// Bob acts the next day: his answer shows everyone the end too.
	w.clock.Advance(24 * time.Hour)
	res = g.move(w.bob, "Nf6")
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "flag fell") || !strings.Contains(d.Content, "0-1") {
		t.Fatalf("bob's move after the flag answered %q (ephemeral %v)", d.Content, d.Ephemeral())
	}
	w.botStayedOut(gdm)
}

func TestStoryUserMenus(t *testing.T) {
	w := newWorld(t)
	w.start()
	for _, name := range []string{"Challenge to chess", "Chess rating"} {
		found := false
		for _, c := range w.f.Commands() {
			found = found || (c.Name == name && c.Type == discordgo.UserApplicationCommand)
		}
		if !found {
			t.Fatalf("the user menu %q is not registered", name)
		}
	}
	// Right-click bob: his ratings, privately.
	res := w.send(discordfake.UserMenu("Chess rating", w.bob.ID))
	refusedPayload(t, res.Callback.Data, "bob has no rated games")
	// Right-click bob: the time controls, privately, then the challenge for all to see.
	res = w.send(discordfake.UserMenu("Challenge to chess", w.bob.ID))
	d := res.Callback.Data
	if !d.Ephemeral() || !strings.Contains(d.Content, "<@"+w.bob.ID+">") {
		t.Fatalf("the challenge menu answered %q (ephemeral %v)", d.Content, d.Ephemeral())
	}
	menu := customID(t, d.CustomIDs(), "challenge")
	res = w.send(discordfake.Select(menu, "5+3").OnMessage(mustOriginal(t, w, res)))
	d = res.Callback.Data
	if res.Callback.Type != discordgo.InteractionResponseChannelMessageWithSource || d.Ephemeral() || !strings.Contains(d.Content, "challenges you to a 5+3") {
		t.Fatalf("the menu's choice answered type %d %q (ephemeral %v)", res.Callback.Type, d.Content, d.Ephemeral())
	}
	accept := customID(t, d.CustomIDs(), "accept")
	if res := w.send(discordfake.Button(accept).From(w.bob)); !strings.Contains(res.Callback.Data.Content, "accepted") {
		t.Fatalf("accept answered %q", res.Callback.Data.Content)
	}
	// The menus in a group DM: the challenge works, the ratings say they are a server's.
	gdm := w.f.AddGroupDM("friends", w.alice, w.carol)
	if _, err := w.f.SendInteraction(context.Background(), discordfake.UserMenu("Chess rating", w.carol.ID).At(gdm)); !errors.Is(err, discordfake.ErrUnknownCommand) {
		t.Errorf("Chess rating in a group DM: %v, want it not offered there", err)
	}
	res = w.send(discordfake.UserMenu("Challenge to chess", w.carol.ID).At(gdm))
	res = w.send(discordfake.Select(customID(t, res.Callback.Data.CustomIDs(), "challenge"), "1d").At(gdm).OnMessage(mustOriginal(t, w, res)))
	if d := res.Callback.Data; d.Ephemeral() || !strings.Contains(d.Content, "<@"+w.carol.ID+">") {
		t.Fatalf("the group DM challenge answered %q", d.Content)
	}
	_, general := w.f.AddGuildWithoutBot("elsewhere")
	refused(t, w.send(discordfake.UserMenu("Chess rating", w.bob.ID).At(general)), "server thing")
	w.botStayedOut(gdm)
}

// mustOriginal is the message an interaction's first answer made.
func mustOriginal(t testing.TB, w *world, res *discordfake.InteractionResult) string {
	t.Helper()
	m, ok := w.f.Original(res.ID)
	if !ok {
		t.Fatalf("interaction %s has no original message", res.ID)
	}
	return m.ID
}

// With the Activity on, the global commands carry the entry point (type 4, Discord
// launching the Activity), the boards a Play in Discord button that answers with the
// launch response (type 12), and an entry point invocation handed to the app is answered
// the same way; with discord.guild_id there is no entry point, and the guild's commands
// carry no integration types or contexts, which only global commands take.
func TestStoryPlayInDiscordAndEntryPoint(t *testing.T) {
	w := newWebWorld(t)
	w.cfg.Discord.ClientSecret = w.f.ClientSecret
	r := w.start()
	cmd, handler, ok := w.f.EntryPoint()
	if !ok || cmd.Name != "launch" || handler != 2 || cmd.IntegrationTypes == nil || len(*cmd.IntegrationTypes) != 2 {
		t.Fatalf("entry point %+v, handler %d, registered %v", cmd, handler, ok)
	}
	g := w.startGame("10+0")
	res := g.click(w.bob, "activity")
	if res.Callback.Type != 12 || res.Callback.HasData {
		t.Errorf("Play in Discord answered type %d (data %v), want 12 without data", res.Callback.Type, res.Callback.HasData)
	}
	spec := discordfake.Command("launch")
	spec.CommandType = discordfake.EntryPointCommandType
	if res := w.send(spec.In(w.f.GuildID, g.thread)); res.Callback.Type != 12 {
		t.Errorf("the entry point answered type %d, want 12", res.Callback.Type)
	}
	r.stop()

	w.cfg.Discord.GuildID = w.f.GuildID
	w.cfg.Discord.ApplicationID = w.f.AppID
	w.start()
	for _, c := range w.f.GuildCommands(w.f.GuildID) {
		if c.Type == discordfake.EntryPointCommandType || c.IntegrationTypes != nil || c.Contexts != nil {
			t.Errorf("guild command %s: type %d, integration types %v, contexts %v", c.Name, c.Type, c.IntegrationTypes, c.Contexts)
		}
	}
}

// An open challenge in a group DM, accepted by two members at once: one game, whose
// first board is one answer; the other member is told privately (or, when the first
// answer had already replaced the challenge, had no button left to press).
func TestStoryUserInstallOpenChallengeRace(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	gdm := w.f.AddGroupDM("three", w.alice, w.bob, w.carol)
	res := w.send(discordfake.Command("challenge", discordfake.StringOpt("time", "5+0")).At(gdm))
	accept := customID(t, res.Callback.Data.CustomIDs(), "accept")
	msg := mustOriginal(t, w, res)
	results := make(chan *discordfake.InteractionResult, 2)
	errs := make(chan error, 2)
	for _, u := range []*discordgo.User{w.bob, w.carol} {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res, err := w.f.SendInteraction(ctx, discordfake.Button(accept).From(u).At(gdm).OnMessage(msg))
			results <- res
			errs <- err
		}()
	}
	boards, private := 0, 0
	for range 2 {
		res, err := <-results, <-errs
		if errors.Is(err, discordfake.ErrNoComponent) {
			private++ // the first answer had replaced the button before this click left
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		d := res.Callback.Data
		switch {
		case !d.Ephemeral() && strings.Contains(d.Content, "accepted"):
			if _, ok := d.File("board.png"); ok {
				boards++
			}
		case d.Ephemeral():
			private++
		}
	}
	if boards != 1 || private != 1 {
		t.Errorf("%d first boards and %d private answers, want one of each", boards, private)
	}
	if _, err := r.bot.Games.Game(context.Background(), 2); err == nil {
		t.Error("two accepts made two games")
	}
	w.botStayedOut(gdm)
}

// The Activity is a guest game's home between interactions: opened in the group DM it
// is played in, it lists the game and serves its view to a player; opened in another
// DM it lists nothing and the game is not found.
func TestStoryUserInstallActivityListsGuestGames(t *testing.T) {
	w, _, host := newActivityWorld(t)
	gdm := w.f.AddGroupDM("chess club", w.alice, w.bob)
	g := w.startGuestGame(gdm, "10+0")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	session := func(u *discordgo.User, inst string) (string, []any) {
		t.Helper()
		st, out := activityPost(t, host, "api/token", map[string]string{"code": w.f.MintCode(u.ID)}, "")
		if st != 200 {
			t.Fatalf("exchange %s's code: %d %v", u.Username, st, out)
		}
		st, out = activityPost(t, host, "api/session", map[string]string{"access_token": out["access_token"].(string), "instance_id": inst}, "")
		if st != 200 {
			t.Fatalf("%s's session: %d %v", u.Username, st, out)
		}
		return out["session"].(string), out["games"].([]any)
	}
	get := func(path, bearer string) int {
		req, _ := http.NewRequest(http.MethodGet, host.URL()+"/.proxy/"+path, nil)
		req.Header.Set("Authorization", "Bearer "+bearer)
		st, _ := activityDo(t, req)
		return st
	}
	ses, list := session(w.bob, w.f.StartActivity("", gdm, w.alice.ID, w.bob.ID))
	if len(list) != 1 || list[0].(map[string]any)["id"] != float64(1) {
		t.Errorf("the group DM's Activity lists %v, want game 1", list)
	}
	if st := get("api/games/1", ses); st != http.StatusOK {
		t.Errorf("bob reads game 1 in the group DM's Activity: %d, want 200", st)
	}
	other := w.f.AddGroupDM("elsewhere", w.alice, w.carol)
	ses, list = session(w.alice, w.f.StartActivity("", other, w.alice.ID, w.carol.ID))
	if len(list) != 0 {
		t.Errorf("another group DM's Activity lists %v", list)
	}
	if st := get("api/games/1", ses); st != http.StatusNotFound {
		t.Errorf("another group DM's session reads game 1: %d, want 404", st)
	}
	w.botStayedOut(gdm)
}
