package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/digest"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

func TestNotifyDigest(t *testing.T) {
	_, clk, gs, _ := testServices(t)
	n := NewNotify(&Deps{Games: gs, Now: clk.Now})
	bob := &discordgo.User{ID: "200", Username: "bob"}
	ctx := context.Background()
	notify := func(opts ...*discordgo.ApplicationCommandInteractionDataOption) (*Response, error) {
		return n.Handle(ctx, &Request{Interaction: &discordgo.Interaction{ID: "n"}, User: bob, Name: "notify", Options: opts})
	}
	on := &discordgo.ApplicationCommandInteractionDataOption{Name: "digest", Type: discordgo.ApplicationCommandOptionBoolean, Value: true}
	hour := func(v any) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: "digest_hour", Type: discordgo.ApplicationCommandOptionInteger, Value: v}
	}
	// Hostile hours: refused, nothing stored.
	for _, c := range []struct {
		v    any
		want string
	}{
		{float64(24), "digest_hour 24: give an hour from 0 to 23, in UTC."},
		{float64(-1), "digest_hour -1: give an hour from 0 to 23, in UTC."},
		{float64(1e12), "digest_hour 1000000000000: give an hour from 0 to 23, in UTC."},
		{7.5, ""},
		{"seven", ""},
	} {
		resp, err := notify(on, hour(c.v))
		if err == nil {
			t.Errorf("digest_hour %v: answered %q, want a refusal", c.v, resp.Content)
			continue
		}
		if c.want != "" && UserMessage(err) != c.want {
			t.Errorf("digest_hour %v: %q, want %q", c.v, UserMessage(err), c.want)
		}
	}
	if p, err := gs.Settings().FreshPrefs(ctx, bob.ID); err != nil || p.Digest || p.DigestHour != 0 {
		t.Fatalf("after the refusals the preferences are %+v, %v; want the digest off", p, err)
	}
	resp, err := notify(on, hour(float64(7)))
	if err != nil {
		t.Fatal(err)
	}
	next := time.Date(2026, 3, 2, 7, 0, 0, 0, time.UTC) // at 12:00: tomorrow's 07:00
	want := fmt.Sprintf("Daily digest by direct message of the games where it is your move: yes (at 07:00 UTC, <t:%d:t> your time; the next <t:%d:R>)", next.Unix(), next.Unix())
	if !resp.Ephemeral || !strings.Contains(resp.Content, "Saved.") || !strings.Contains(resp.Content, want) {
		t.Errorf("/notify digest:true digest_hour:7 answered %q, want %q", resp.Content, want)
	}
	if p, err := gs.Settings().FreshPrefs(ctx, bob.ID); err != nil || !p.Digest || p.DigestHour != 7 || !p.Reminders {
		t.Errorf("stored %+v, %v; want the digest at 7 and the rest as it was", p, err)
	}

	// Turned back on after a refusal: the answer says so, and the note is dropped.
	if _, err := gs.Settings().UpdatePrefs(ctx, bob.ID, func(p *storage.UserPrefs) bool {
		p.Digest, p.DigestRefused = false, true
		return true
	}); err != nil {
		t.Fatal(err)
	}
	resp, err = notify(on)
	if err != nil || !strings.Contains(resp.Content, "Your last digest was refused by Discord") {
		t.Errorf("turning the digest back on answered %+v, %v", resp, err)
	}
	if p, _ := gs.Settings().FreshPrefs(ctx, bob.ID); !p.Digest || p.DigestRefused {
		t.Errorf("stored %+v: want the digest on and no note pending", p)
	}
}

// A digest of many games fits in one message: the nearest deadlines, then a count.
func TestDigestDMFitsInOneMessage(t *testing.T) {
	_, clk, gs, _ := testServices(t)
	ctx := context.Background()
	var views []*games.Game
	for i := range digest.MaxGames {
		res, err := gs.StartGame(ctx, games.StartRequest{RequestID: fmt.Sprint("s", i), GuildID: "1", ChannelID: "2",
			White: storage.Player{ID: "100", Name: strings.Repeat("a", 32)}, Black: storage.Player{ID: fmt.Sprint(300 + i), Name: strings.Repeat("b", 32)},
			Control: fmt.Sprintf("%dd", i+1)})
		if err != nil {
			t.Fatal(err)
		}
		views = append(views, res.Game)
	}
	// Hostile server names: as long as Discord allows, in characters that count double,
	// with markdown that must not format.
	name := "**" + strings.Repeat("𝕮", 60)
	msg := DigestDM(&digest.Digest{UserID: "100", Day: "2026-03-01", Games: views, More: 5, Now: clk.Now()}, map[string]string{"1": name})
	if n := Length(msg.Content, UTF16); n > 2000 {
		t.Fatalf("the digest is %d characters long", n)
	}
	shown := strings.Count(msg.Content, "https://discord.com/channels/1/2")
	if shown == 0 || shown == len(views) {
		t.Fatalf("%d of %d games shown; want some, not all", shown, len(views))
	}
	if want := fmt.Sprintf("…and %d more", len(views)-shown+5); !strings.Contains(msg.Content, want) || !strings.Contains(msg.Content, "in 25 games") {
		t.Errorf("the digest does not say %q of 25 games:\n%s", want, msg.Content)
	}
	if !strings.Contains(msg.Content, fmt.Sprintf("**Game %d**", views[0].ID)) {
		t.Errorf("the first game (nearest deadline) is left out:\n%s", msg.Content)
	}
	if strings.Contains(msg.Content, "**𝕮") || !strings.Contains(msg.Content, `\*\*𝕮`) {
		t.Errorf("the server's name is not escaped:\n%s", msg.Content)
	}
	if len(msg.Mentions) != 0 {
		t.Errorf("the digest mentions %v", msg.Mentions)
	}
}
