package serve

// pester_e2e_test.go: one member cannot pester another with challenges or flood a
// channel with them, and a member who wants no challenge pings gets none.

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// pings reports whether a message notifies the user: it mentions them and its
// allowed_mentions let the mention through (no allowed_mentions: Discord's default,
// every mention pings).
func pings(m discordfake.Payload, userID string) bool {
	if m.Ephemeral() || !strings.Contains(m.Content, "<@"+userID+">") {
		return false
	}
	am := m.AllowedMentions
	return am == nil || slices.Contains(am.Users, userID) || slices.Contains(am.Parse, discordgo.AllowedMentionTypeUsers)
}

// pingsIn counts the messages of a channel that notify the user.
func (w *world) pingsIn(channelID, userID string) int {
	n := 0
	for _, m := range w.f.Messages(channelID) {
		if pings(m.Payload, userID) {
			n++
		}
	}
	return n
}

// challengeFrom is /challenge by from, to opponent (nil: an open challenge).
func (w *world) challengeFrom(from, opponent *discordgo.User) discordfake.Payload {
	w.t.Helper()
	var opts []*discordgo.ApplicationCommandInteractionDataOption
	if opponent != nil {
		opts = append(opts, discordfake.UserOpt("opponent", opponent.ID))
	}
	return w.send(discordfake.Command("challenge", opts...).From(from)).Callback.Data
}

// posted checks that a challenge was posted for the channel to see, naming its
// addressee, and that it pings them only if ping says so.
func posted(t testing.TB, d discordfake.Payload, from, to *discordgo.User, ping bool) {
	t.Helper()
	if d.Ephemeral() || !strings.Contains(d.Content, fmt.Sprintf("<@%s>, **%s** challenges you", to.ID, from.Username)) {
		t.Fatalf("challenge from %s to %s: %q (ephemeral %v), want it posted", from.Username, to.Username, d.Content, d.Ephemeral())
	}
	if pings(d, to.ID) != ping {
		t.Fatalf("challenge from %s to %s pings them: %v, want %v (allowed_mentions %+v)", from.Username, to.Username, !ping, ping, d.AllowedMentions)
	}
	if am := d.AllowedMentions; am == nil || len(am.Parse) != 0 || len(am.Users) > 1 {
		t.Fatalf("challenge allowed_mentions %+v: want no parse and at most the addressee", am)
	}
}

func TestStoryPester(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	alice, bob, carol := w.alice, w.bob, w.carol
	dave, erin, frank := w.f.NewUser("dave"), w.f.NewUser("erin"), w.f.NewUser("frank")
	channel := w.f.ChannelID

	// Carol wants no challenge pings.
	if d := w.send(discordfake.Command("notify", discordfake.BoolOpt("ping_on_challenge", false)).From(carol)).Callback.Data; !d.Ephemeral() ||
		!strings.Contains(d.Content, "Mention you when someone challenges you: no") {
		t.Fatalf("/notify ping_on_challenge:false answered %q", d.Content)
	}

	// Alice challenges bob ten times in a row: three challenges are posted, each pinging
	// him; the other seven are refused, privately, saying when she may try again.
	retry := fmt.Sprintf("You challenged <@%s> 3 times in the last 10 minutes: try again <t:%d:R>.", bob.ID, epoch.Add(10*time.Minute).Unix())
	for i := range 10 {
		d := w.challengeFrom(alice, bob)
		if i < 3 {
			posted(t, d, alice, bob, true)
		} else {
			refusedPayload(t, d, retry)
		}
	}
	// Others challenge bob too: their challenges are posted, naming him without a ping,
	// as he was pinged three times in ten minutes.
	for _, u := range []*discordgo.User{dave, erin} {
		posted(t, w.challengeFrom(u, bob), u, bob, false)
	}

	// Carol is never pinged by a challenge: alice's (her fourth waiting) or dave's.
	posted(t, w.challengeFrom(alice, carol), alice, carol, false)
	posted(t, w.challengeFrom(dave, carol), dave, carol, false)

	// An open challenge is alice's fifth waiting; a sixth is refused, open or not.
	open := w.challengeFrom(alice, nil)
	if open.Ephemeral() || !strings.Contains(open.Content, "anyone may accept") {
		t.Fatalf("alice's open challenge: %q (ephemeral %v)", open.Content, open.Ephemeral())
	}
	full := "You already have 5 challenges waiting: cancel one or wait for an answer."
	refusedPayload(t, w.challengeFrom(alice, frank), full)
	refusedPayload(t, w.challengeFrom(alice, nil), full)

	// The caps hold across a restart: they are counted from the store.
	r.stop()
	w.clock.Advance(time.Minute)
	w.start()
	refusedPayload(t, w.challengeFrom(alice, frank), full)
	posted(t, w.challengeFrom(frank, bob), frank, bob, false)
	posted(t, w.challengeFrom(erin, carol), erin, carol, false)

	// Alice withdraws her open challenge: a place is free, but not for bob, challenged
	// three times a minute ago; frank is challenged (and pinged: he was not yet).
	if d := w.send(discordfake.Button(customID(t, open.CustomIDs(), "cancel")).From(alice)).Callback.Data; !strings.Contains(d.Content, "withdrew") {
		t.Fatalf("cancel answered %q", d.Content)
	}
	refusedPayload(t, w.challengeFrom(alice, bob), retry)
	posted(t, w.challengeFrom(alice, frank), alice, frank, true)

	// In the whole channel, bob was pinged three times and carol never.
	if n := w.pingsIn(channel, bob.ID); n != 3 {
		t.Errorf("bob was pinged %d times by challenges in the channel, want 3", n)
	}
	if n := w.pingsIn(channel, carol.ID); n != 0 {
		t.Errorf("carol, who turned challenge pings off, was pinged %d times", n)
	}
}
