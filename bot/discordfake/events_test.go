package discordfake

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordnet"
)

// restOnly is a discordgo session on the fake that makes REST calls (no gateway).
func restOnly(t *testing.T, f *Fake) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + f.Token)
	if err != nil {
		t.Fatal(err)
	}
	if err := discordnet.Configure(s, f.RESTURL(), f.GatewayURL()); err != nil {
		t.Fatal(err)
	}
	return s
}

// restError returns the Discord error code and HTTP status of a failed call.
func restError(t *testing.T, err error) (status, code int) {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		t.Fatalf("want a REST error, got %v", err)
	}
	if re.Message == nil {
		return re.Response.StatusCode, -1
	}
	return re.Response.StatusCode, re.Message.Code
}

func TestScheduledEventLifecycle(t *testing.T) {
	f := New(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f.SetNow(func() time.Time { return now })
	s := restOnly(t, f)
	start, end := now.Add(time.Hour), now.Add(3*time.Hour)
	good := func() *discordgo.GuildScheduledEventParams {
		return &discordgo.GuildScheduledEventParams{Name: "Spring Swiss", Description: "5 rounds",
			ScheduledStartTime: &start, ScheduledEndTime: &end, PrivacyLevel: discordgo.GuildScheduledEventPrivacyLevelGuildOnly,
			EntityType:     discordgo.GuildScheduledEventEntityTypeExternal,
			EntityMetadata: &discordgo.GuildScheduledEventEntityMetadata{Location: "https://discord.com/channels/1/2"}}
	}
	past := now.Add(-time.Minute)
	before := start.Add(-time.Minute)
	for name, tc := range map[string]struct {
		edit  func(p *discordgo.GuildScheduledEventParams)
		field string
	}{
		"no name":       {func(p *discordgo.GuildScheduledEventParams) { p.Name = "" }, "name"},
		"long name":     {func(p *discordgo.GuildScheduledEventParams) { p.Name = strings.Repeat("n", 101) }, "name"},
		"no privacy":    {func(p *discordgo.GuildScheduledEventParams) { p.PrivacyLevel = 0 }, "privacy_level"},
		"public":        {func(p *discordgo.GuildScheduledEventParams) { p.PrivacyLevel = 1 }, "privacy_level"},
		"no start":      {func(p *discordgo.GuildScheduledEventParams) { p.ScheduledStartTime = nil }, "scheduled_start_time"},
		"past start":    {func(p *discordgo.GuildScheduledEventParams) { p.ScheduledStartTime = &past }, "scheduled_start_time"},
		"no end":        {func(p *discordgo.GuildScheduledEventParams) { p.ScheduledEndTime = nil }, "scheduled_end_time"},
		"end first":     {func(p *discordgo.GuildScheduledEventParams) { p.ScheduledEndTime = &before }, "scheduled_end_time"},
		"no location":   {func(p *discordgo.GuildScheduledEventParams) { p.EntityMetadata = nil }, "entity_metadata"},
		"long location": {func(p *discordgo.GuildScheduledEventParams) { p.EntityMetadata.Location = strings.Repeat("l", 101) }, "entity_metadata"},
		"a channel":     {func(p *discordgo.GuildScheduledEventParams) { p.ChannelID = f.ChannelID }, "channel_id"},
		"text channel": {func(p *discordgo.GuildScheduledEventParams) {
			p.EntityType = discordgo.GuildScheduledEventEntityTypeVoice
			p.ChannelID = f.ChannelID
		}, "channel_id"},
		"no entity type": {func(p *discordgo.GuildScheduledEventParams) { p.EntityType = 0 }, "entity_type"},
	} {
		p := good()
		tc.edit(p)
		_, err := s.GuildScheduledEventCreate(f.GuildID, p)
		if status, code := restError(t, err); status != http.StatusBadRequest || code != codeInvalidFormBody ||
			!strings.Contains(string(err.(*discordgo.RESTError).ResponseBody), `"`+tc.field) {
			t.Errorf("%s: %d %d %v", name, status, code, err)
		}
	}
	if n := len(f.ScheduledEvents(f.GuildID)); n != 0 {
		t.Fatalf("refused creations made %d events", n)
	}

	ev, err := s.GuildScheduledEventCreate(f.GuildID, good())
	if err != nil {
		t.Fatal(err)
	}
	if ev.ID == "" || ev.Status != discordgo.GuildScheduledEventStatusScheduled || ev.CreatorID != f.Bot.ID || ev.ChannelID != "" {
		t.Fatalf("created %+v", ev)
	}
	later := start.Add(time.Hour)
	laterEnd := end.Add(time.Hour)
	if ev, err = s.GuildScheduledEventEdit(f.GuildID, ev.ID, &discordgo.GuildScheduledEventParams{Name: "Spring Open",
		ScheduledStartTime: &later, ScheduledEndTime: &laterEnd}); err != nil || ev.Name != "Spring Open" || !ev.ScheduledStartTime.Equal(later) {
		t.Fatalf("edit: %+v, %v", ev, err)
	}
	status := func(st discordgo.GuildScheduledEventStatus) error {
		_, err := s.GuildScheduledEventEdit(f.GuildID, ev.ID, &discordgo.GuildScheduledEventParams{Status: st})
		return err
	}
	if err := status(discordgo.GuildScheduledEventStatusCompleted); err == nil {
		t.Error("SCHEDULED → COMPLETED accepted")
	}
	if err := status(discordgo.GuildScheduledEventStatusActive); err != nil {
		t.Fatalf("SCHEDULED → ACTIVE: %v", err)
	}
	if _, err := s.GuildScheduledEventEdit(f.GuildID, ev.ID, &discordgo.GuildScheduledEventParams{ScheduledStartTime: &laterEnd}); err == nil {
		t.Error("an active event's start moved")
	}
	if err := status(discordgo.GuildScheduledEventStatusCanceled); err == nil {
		t.Error("ACTIVE → CANCELED accepted")
	}
	if err := status(discordgo.GuildScheduledEventStatusCompleted); err != nil {
		t.Fatalf("ACTIVE → COMPLETED: %v", err)
	}
	if _, err := s.GuildScheduledEventEdit(f.GuildID, ev.ID, &discordgo.GuildScheduledEventParams{Name: "Again"}); err == nil {
		t.Error("a completed event changed")
	}
	evs := f.ScheduledEvents(f.GuildID)
	if len(evs) != 1 || evs[0].Status != discordgo.GuildScheduledEventStatusCompleted || evs[0].Name != "Spring Open" {
		t.Fatalf("events: %+v", evs)
	}
	if list, err := s.GuildScheduledEvents(f.GuildID, false); err != nil || len(list) != 0 {
		t.Errorf("list after the end: %v, %v", list, err)
	}

	// A scheduled event may be cancelled, then never changes; delete removes one.
	ev2, err := s.GuildScheduledEventCreate(f.GuildID, good())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GuildScheduledEventEdit(f.GuildID, ev2.ID, &discordgo.GuildScheduledEventParams{Status: discordgo.GuildScheduledEventStatusCanceled}); err != nil {
		t.Fatalf("SCHEDULED → CANCELED: %v", err)
	}
	if _, err := s.GuildScheduledEventEdit(f.GuildID, ev2.ID, &discordgo.GuildScheduledEventParams{Status: discordgo.GuildScheduledEventStatusActive}); err == nil {
		t.Error("CANCELED → ACTIVE accepted")
	}
	if err := s.GuildScheduledEventDelete(f.GuildID, ev2.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GuildScheduledEvent(f.GuildID, ev2.ID, false); err == nil {
		t.Error("a deleted event is still there")
	} else if st, code := restError(t, err); st != http.StatusNotFound || code != codeUnknownScheduledEvent {
		t.Errorf("deleted event: %d %d", st, code)
	}

	// Without Manage Events: 403 Missing Permissions, and nothing made.
	f.SetManageEvents(f.GuildID, false)
	_, err = s.GuildScheduledEventCreate(f.GuildID, good())
	if st, code := restError(t, err); st != http.StatusForbidden || code != codeMissingPermissions {
		t.Errorf("without Manage Events: %d %d", st, code)
	}
	if n := len(f.ScheduledEvents(f.GuildID)); n != 1 {
		t.Errorf("%d events after the refusal", n)
	}
	// A guild the bot is not in.
	if _, err := s.GuildScheduledEventCreate("12345", good()); err == nil {
		t.Error("an event made in a guild the bot is not in")
	}
}
