package commands

// challenge_test.go: what /challenge says when a cap refuses a challenge, and the
// mentions of a challenge; /notify's challenge pings.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

var challengeSeq int

// challengeRequest is /challenge from one user, to another (nil: open).
func challengeRequest(from, to *discordgo.User) *Request {
	challengeSeq++
	r := &Request{
		Interaction: &discordgo.Interaction{ID: fmt.Sprint("ch-", challengeSeq), Type: discordgo.InteractionApplicationCommand},
		GuildID:     "g1", ChannelID: "c1", User: from, Name: "challenge",
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if to != nil {
		r.Options = []*discordgo.ApplicationCommandInteractionDataOption{{Name: "opponent", Type: discordgo.ApplicationCommandOptionUser, Value: to.ID}}
		r.Resolved = &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{to.ID: to}}
	}
	return r
}

func TestChallengeCapsAndPings(t *testing.T) {
	_, clk, gs, _ := testServices(t)
	d := &Deps{Games: gs, Now: clk.Now}
	c := NewChallenge(d)
	alice, bob := &discordgo.User{ID: "100", Username: "alice"}, &discordgo.User{ID: "200", Username: "bob"}
	ctx := context.Background()

	// Three challenges to bob ping him; the fourth within 10 minutes is refused, saying
	// when to try again.
	for i := range 3 {
		resp, err := c.Handle(ctx, challengeRequest(alice, bob))
		if err != nil {
			t.Fatalf("challenge %d: %v", i+1, err)
		}
		if !slices.Equal(resp.Mentions, []string{bob.ID}) || !strings.Contains(resp.Content, "<@200>") {
			t.Fatalf("challenge %d: %q mentioning %v, want a ping of bob", i+1, resp.Content, resp.Mentions)
		}
		clk.Advance(time.Minute)
	}
	_, err := c.Handle(ctx, challengeRequest(alice, bob))
	retry := time.Date(2026, 3, 1, 12, 10, 0, 0, time.UTC)
	if want := fmt.Sprintf("You challenged <@200> 3 times in the last 10 minutes: try again <t:%d:R>.", retry.Unix()); UserMessage(err) != want {
		t.Errorf("fourth challenge to bob: %q, want %q", UserMessage(err), want)
	}

	// A fourth ping of bob within the window, by someone else: posted without it.
	carol := &discordgo.User{ID: "300", Username: "carol"}
	resp, err := c.Handle(ctx, challengeRequest(carol, bob))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Mentions) != 0 || !strings.Contains(resp.Content, "<@200>, **carol** challenges you") {
		t.Errorf("a fourth challenge to bob: %q mentioning %v, want him named without a ping", resp.Content, resp.Mentions)
	}

	// Alice has 3 challenges waiting; 2 open ones make 5, and the sixth is refused.
	for range 2 {
		if _, err := c.Handle(ctx, challengeRequest(alice, nil)); err != nil {
			t.Fatal(err)
		}
	}
	_, err = c.Handle(ctx, challengeRequest(alice, nil))
	if want := "You already have 5 challenges waiting: cancel one or wait for an answer."; UserMessage(err) != want {
		t.Errorf("a sixth pending challenge: %q, want %q", UserMessage(err), want)
	}
}

func TestNotifyChallengePings(t *testing.T) {
	_, clk, gs, _ := testServices(t)
	d := &Deps{Games: gs, Now: clk.Now}
	n, c := NewNotify(d), NewChallenge(d)
	alice, bob := &discordgo.User{ID: "100", Username: "alice"}, &discordgo.User{ID: "200", Username: "bob"}
	ctx := context.Background()
	notify := func(opts ...*discordgo.ApplicationCommandInteractionDataOption) string {
		t.Helper()
		resp, err := n.Handle(ctx, &Request{Interaction: &discordgo.Interaction{ID: "n"}, User: bob, Name: "notify", Options: opts})
		if err != nil || !resp.Ephemeral {
			t.Fatalf("/notify: %+v, %v", resp, err)
		}
		return resp.Content
	}
	if got := notify(); !strings.Contains(got, "Mention you when someone challenges you: yes") {
		t.Errorf("/notify shows %q, want challenge pings on by default", got)
	}
	off := &discordgo.ApplicationCommandInteractionDataOption{Name: "ping_on_challenge", Type: discordgo.ApplicationCommandOptionBoolean, Value: false}
	if got := notify(off); !strings.Contains(got, "Saved.") || !strings.Contains(got, "Mention you when someone challenges you: no") {
		t.Errorf("/notify ping_on_challenge:false answered %q", got)
	}
	if p, err := gs.Settings().FreshPrefs(ctx, bob.ID); err != nil || p.PingOnChallenge || !p.PingOnTurn {
		t.Errorf("stored preferences %+v, %v: want challenge pings off and the rest as it was", p, err)
	}
	resp, err := c.Handle(ctx, challengeRequest(alice, bob))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Mentions) != 0 || !strings.Contains(resp.Content, "<@200>") {
		t.Errorf("a challenge to bob, who turned challenge pings off: %q mentioning %v", resp.Content, resp.Mentions)
	}
}

func TestSpanWords(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Minute: "minute", 10 * time.Minute: "10 minutes", time.Hour: "hour", 2 * time.Hour: "2 hours",
		90 * time.Minute: "90 minutes", 90 * time.Second: "90 seconds", 1500 * time.Millisecond: "1.5s",
	} {
		if got := spanWords(d); got != want {
			t.Errorf("spanWords(%v) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int]string{1: "once", 2: "twice", 3: "3 times"} {
		if got := howManyTimes(n); got != want {
			t.Errorf("howManyTimes(%d) = %q, want %q", n, got, want)
		}
	}
}
