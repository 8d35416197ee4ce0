// End-to-end tests of interactions over HTTP: the bot with discord.interactions_address,
// the fake POSTing each interaction to it signed, as Discord does.
package serve

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
)

// TestStoriesOverHTTP runs stories written for the gateway with the interactions
// delivered over HTTP instead: the same answers, whichever way they come.
func TestStoriesOverHTTP(t *testing.T) {
	for _, s := range []struct {
		name  string
		story func(*testing.T)
	}{
		{"ChallengeToCheckmate", TestStoryChallengeToCheckmate}, // commands, autocomplete, selects, files in the response
		{"DrawOfferAccepted", TestStoryDrawOfferAccepted},
		{"TakebackAbortAndRecords", TestStoryTakebackAbortAndRecords},
		{"PromotionWithButtons", TestStoryPromotionWithButtons},
		{"PlayBotBlackAndAnalyzeMistakes", TestStoryPlayBotBlackAndAnalyzeMistakes}, // /analyze may defer
	} {
		t.Run(s.name, func(t *testing.T) {
			overHTTP(t)
			s.story(t)
		})
	}
}

// httpWorld starts a bot that receives its interactions over HTTP.
func httpWorld(t *testing.T, deps Deps) (*world, *running) {
	t.Helper()
	overHTTP(t)
	w := newWorld(t)
	return w, w.startWith(w.cfg, deps)
}

// TestInteractionsEndpointOfTheBot: in HTTP mode the bot opens no gateway, registers
// its commands through REST, and its endpoint refuses what Discord did not sign now:
// a stale or future timestamp, a signature of other bytes, none at all.
func TestInteractionsEndpointOfTheBot(t *testing.T) {
	w, r := httpWorld(t, Deps{})
	url := "http://" + r.bot.Discord.Interactions.Addr() + bot.InteractionsPath
	if r.bot.Discord.Gateway != nil || w.f.Identifies() != 0 || w.f.Connected() != 0 {
		t.Errorf("HTTP mode opened the gateway: %d identifies, %d connected", w.f.Identifies(), w.f.Connected())
	}
	if len(w.f.Overwrites()) == 0 {
		t.Error("no command registration in HTTP mode")
	}
	// SetInteractionsURL (in start) checked the PING and the refusals Discord checks.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	status, answer, err := w.f.PostSigned(ctx, url, []byte(`{"id":"1","application_id":"`+w.f.AppID+`","type":1,"token":"t","version":1}`), time.Now())
	if err != nil || status != http.StatusOK || string(answer) != `{"type":1}` {
		t.Errorf("PING answered %d %s (%v)", status, answer, err)
	}

	// A real challenge, signed at the wrong time: refused, and nothing happens.
	challenge := w.rawPayload("slash_challenge.json", map[string]string{"GUILD": w.f.GuildID, "CHANNEL": w.f.ChannelID, "USER": w.alice.ID, "OPPONENT": w.bob.ID})
	for _, at := range []time.Time{time.Now().Add(-6 * time.Minute), time.Now().Add(6 * time.Minute)} {
		status, _, err := w.f.PostSigned(ctx, url, challenge, at)
		if err != nil || status != http.StatusUnauthorized {
			t.Errorf("a challenge signed at %v answered %d (%v), want 401", at, status, err)
		}
	}
	sig, ts := w.f.Sign([]byte(`{"type":1}`), time.Now())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(challenge)))
	req.Header.Set("X-Signature-Ed25519", sig)
	req.Header.Set("X-Signature-Timestamp", ts)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a challenge with another body's signature answered %d, want 401", resp.StatusCode)
	}
	if n := len(w.f.Messages(w.f.ChannelID)); n != 0 {
		t.Errorf("%d messages after refused interactions, want none", n)
	}
	// The load balancer's health check, on the same address.
	if body := httpGet(t, "http://"+r.bot.Discord.Interactions.Addr()+"/healthz", http.StatusOK); !strings.Contains(body, `"ok"`) {
		t.Errorf("/healthz = %s", body)
	}
}

// TestDeferredAnswersOverHTTP: with every handler deferred at once (DeferAfter 1ns),
// the acknowledgement is the HTTP response (type 5 for a command, 6 for a button) and
// the answer follows through REST as an edit of the original response or a followup.
// A game goes from the challenge to three moves that way; no callback goes through REST.
func TestDeferredAnswersOverHTTP(t *testing.T) {
	w, r := httpWorld(t, Deps{DeferAfter: time.Nanosecond})
	deferred := 0
	count := func(res *discordfake.InteractionResult) *discordfake.InteractionResult {
		switch res.Callback.Type {
		case discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate:
			deferred++
		}
		return res
	}
	res := count(w.send(discordfake.Command("challenge",
		discordfake.UserOpt("opponent", w.bob.ID), discordfake.StringOpt("time", "10+0"), discordfake.StringOpt("color", "white"))))
	var challenge discordfake.Message
	w.waitFor("the challenge with its buttons", func() bool {
		m, ok := w.f.Original(res.ID)
		challenge = m
		return ok && strings.Contains(m.Content, "<@"+w.bob.ID+">") && len(m.CustomIDs()) > 0
	})
	count(w.send(discordfake.Button(customID(t, challenge.CustomIDs(), "accept")).From(w.bob).OnMessage(challenge.ID)))
	w.waitFor("the challenge accepted", func() bool {
		m, ok := w.f.Message(challenge.ID)
		return ok && strings.Contains(m.Content, "accepted")
	})
	var thread string
	w.waitFor("the game's thread and board", func() bool {
		if th := w.f.Threads(); len(th) > 0 {
			thread = th[len(th)-1].ID
			return len(w.messagesWith(thread, "board.png")) > 0
		}
		return false
	})
	g := &game{w: w, thread: thread, white: w.alice, black: w.bob}
	for k, mv := range []struct {
		by, next *discordgo.User
		san      string
	}{{w.alice, w.bob, "e4"}, {w.bob, w.alice, "e5"}, {w.alice, w.bob, "Nf3"}} {
		d := w.answer(count(g.move(mv.by, mv.san)))
		if d.Ephemeral() || !strings.Contains(d.Content, "**"+mv.san+"**") {
			t.Fatalf("move %d %s answered ephemeral=%v %q", k+1, mv.san, d.Ephemeral(), d.Content)
		}
	}
	if ply := r.bot.mustGame(t, 1).Ply(); ply != 3 {
		t.Errorf("game at ply %d, want 3", ply)
	}
	t.Logf("%d of 5 interactions deferred", deferred)
	if deferred == 0 {
		t.Error("no interaction was deferred although every handler is deferred after 1ns")
	}
	for _, q := range w.f.Requests() {
		if strings.HasPrefix(q.Path, "interactions/") {
			t.Errorf("a callback went through REST in HTTP mode: %+v", q)
		}
		if strings.HasPrefix(q.Path, "webhooks/") && q.Status >= 300 {
			t.Errorf("an edit or followup failed: %+v", q)
		}
	}
	if u := w.f.Unknown(); len(u) > 0 {
		t.Errorf("the bot used routes the fake does not know: %+v", u)
	}
}

// TestHTTPModeShutdown: a bot in HTTP mode stops cleanly, and its endpoint with it.
func TestHTTPModeShutdown(t *testing.T) {
	w, r := httpWorld(t, Deps{})
	addr := r.bot.Discord.Interactions.Addr()
	w.startGame("10+0")
	r.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, _, err := w.f.PostSigned(ctx, "http://"+addr+bot.InteractionsPath, []byte(`{"type":1}`), time.Now()); err == nil {
		t.Error("the endpoint still answers after the bot stopped")
	}
}
