package serve

// The story of a tournament announced as a server's scheduled event: made when the
// tournament is created with a planned start (once, whatever the duplicates of the
// interaction), changed with /tournament edit, under way at the start, completed with
// the final standings; cancelled with the tournament; and a server that withholds
// Manage Events still gets its tournament, the organiser told once; an event the
// admins deleted is made again at the next change.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/storage"
)

func TestStoryTournamentScheduledEvent(t *testing.T) {
	tw := newTourWorld(t, 2)
	tw.f.SetNow(tw.clock.Now) // Discord's "in the future" is the bot's clock's
	events := func() []*discordgo.GuildScheduledEvent { return tw.f.ScheduledEvents(tw.f.GuildID) }
	eventIs := func(what string, want discordgo.GuildScheduledEventStatus) *discordgo.GuildScheduledEvent {
		t.Helper()
		var ev *discordgo.GuildScheduledEvent
		tw.waitFor(what, func() bool {
			evs := events()
			if len(evs) == 0 {
				return false
			}
			ev = evs[0]
			return ev.Status == want
		})
		return ev
	}

	// Created with a start two hours ahead: an EXTERNAL event in the channel.
	res := tw.send(admin(subCommand("create", discordfake.StringOpt("format", "roundrobin"), discordfake.StringOpt("time", "3+2"),
		discordfake.StringOpt("name", "Winter Round Robin"), discordfake.StringOpt("starts", "in 2h"))))
	d := tw.final(res)
	start := epoch.Add(2 * time.Hour)
	if !strings.Contains(d.Content, fmt.Sprintf("<t:%d:F>", start.Unix())) || !strings.Contains(d.Content, "in the server's events") {
		t.Fatalf("create answered %q", d.Content)
	}
	ev := eventIs("the scheduled event", discordgo.GuildScheduledEventStatusScheduled)
	if ev.Name != "Winter Round Robin" || !ev.ScheduledStartTime.Equal(start) || ev.ScheduledEndTime == nil ||
		!ev.ScheduledEndTime.After(start) || ev.EntityType != discordgo.GuildScheduledEventEntityTypeExternal ||
		!strings.HasSuffix(ev.EntityMetadata.Location, "/"+tw.f.GuildID+"/"+tw.f.ChannelID) ||
		!strings.Contains(ev.Description, "/tournament join tournament:1") {
		t.Fatalf("event %+v", ev)
	}
	if v := tw.view(1); v.ScheduledEvent != ev.ID {
		t.Fatalf("the tournament records event %q, want %q", v.ScheduledEvent, ev.ID)
	}
	// The same interaction again makes no second event.
	if _, err := tw.f.Dispatch("INTERACTION_CREATE", tw.f.GuildID, res.Payload); err != nil {
		t.Fatal(err)
	}
	tw.f.WaitFor(func() bool { return false }, 300*time.Millisecond)
	if n := len(events()); n != 1 {
		t.Fatalf("%d events after a duplicate create", n)
	}

	// Renamed and moved: the event follows. A start in the past changes nothing.
	if d := tw.ask(subCommand("edit", discordfake.StringOpt("name", "Bob's Cup")).From(tw.players[1])); !d.Ephemeral() ||
		!strings.Contains(d.Content, "creator") {
		t.Errorf("an edit by another player answered %q", d.Content)
	}
	if d := tw.ask(admin(subCommand("edit", discordfake.StringOpt("starts", "2026-03-01 11:00")))); !d.Ephemeral() ||
		!strings.Contains(d.Content, "not in the future") {
		t.Errorf("an edit into the past answered %q", d.Content)
	}
	moved := time.Date(2026, 3, 1, 18, 30, 0, 0, time.UTC)
	d = tw.ask(admin(subCommand("edit", discordfake.StringOpt("name", "Winter Open"), discordfake.StringOpt("starts", "2026-03-01 18:30"))))
	if d.Ephemeral() || !strings.Contains(d.Content, "Winter Open") {
		t.Fatalf("edit answered %q", d.Content)
	}
	if ev = events()[0]; ev.Name != "Winter Open" || !ev.ScheduledStartTime.Equal(moved) || !ev.ScheduledEndTime.After(moved) {
		t.Fatalf("edited event %+v", ev)
	}

	// The server's admins delete the event in Discord: the next edit makes a new one.
	if !tw.f.DeleteScheduledEvent(tw.f.GuildID, ev.ID) {
		t.Fatal("no event to delete")
	}
	d = tw.ask(admin(subCommand("edit", discordfake.StringOpt("name", "Winter Open II"))))
	evs := events()
	if !strings.Contains(d.Content, "in the server's events") || len(evs) != 1 || evs[0].ID == ev.ID ||
		evs[0].Name != "Winter Open II" || !evs[0].ScheduledStartTime.Equal(moved) || tw.view(1).ScheduledEvent != evs[0].ID {
		t.Fatalf("edit after the deletion answered %q; events %+v", d.Content, evs)
	}

	// Started: under way; finished: completed.
	for _, u := range tw.players {
		if d := tw.ask(subCommand("join").From(u)); d.Ephemeral() {
			t.Fatalf("join answered %q", d.Content)
		}
	}
	if d := tw.ask(admin(subCommand("start"))); !strings.Contains(d.Content, "has started") {
		t.Fatalf("start answered %q", d.Content)
	}
	eventIs("the event under way", discordgo.GuildScheduledEventStatusActive)
	for _, g := range tw.live(1, 1) {
		tw.play(g, "1-0")
	}
	tw.finalPost(t, 1, 1)
	eventIs("the event completed", discordgo.GuildScheduledEventStatusCompleted)

	// A second tournament, called off: its event is cancelled.
	d = tw.ask(admin(subCommand("create", discordfake.StringOpt("format", "swiss"), discordfake.IntOpt("rounds", 1),
		discordfake.StringOpt("starts", "in 1d"))))
	if !strings.Contains(d.Content, "in the server's events") {
		t.Fatalf("second create answered %q", d.Content)
	}
	if d := tw.ask(admin(subCommand("cancel"))); !strings.Contains(d.Content, "called off") {
		t.Fatalf("cancel answered %q", d.Content)
	}
	if evs := events(); len(evs) != 2 || evs[1].Status != discordgo.GuildScheduledEventStatusCanceled || evs[1].ID != tw.view(2).ScheduledEvent {
		t.Fatalf("after the cancel: %+v", evs)
	}

	// No start, no event. Without Manage Events: the tournament all the same, the
	// organiser told in the answer, nothing recorded.
	d = tw.ask(admin(subCommand("create", discordfake.StringOpt("format", "swiss"), discordfake.IntOpt("rounds", 1))))
	if strings.Contains(d.Content, "events") || len(events()) != 2 {
		t.Fatalf("a tournament without a start: %q, %d events", d.Content, len(events()))
	}
	tw.f.SetManageEvents(tw.f.GuildID, false)
	d = tw.ask(admin(subCommand("create", discordfake.StringOpt("format", "swiss"), discordfake.IntOpt("rounds", 1),
		discordfake.StringOpt("starts", "in 3h"))))
	if !strings.Contains(d.Content, "tournament 4") || !strings.Contains(d.Content, "Manage Events") || strings.Contains(d.Content, "in the server's events") {
		t.Fatalf("create without Manage Events answered %q", d.Content)
	}
	if v := tw.view(4); v.ScheduledEvent != "" || v.Status != storage.TournamentOpen {
		t.Errorf("tournament 4: event %q, status %s", v.ScheduledEvent, v.Status)
	}
	if n := len(events()); n != 2 {
		t.Errorf("%d events without the permission", n)
	}
	// Granted later, an edit makes the event.
	tw.f.SetManageEvents(tw.f.GuildID, true)
	if d := tw.ask(admin(subCommand("edit", discordfake.IntOpt("tournament", 4), discordfake.StringOpt("name", "Late Swiss")))); !strings.Contains(d.Content, "in the server's events") {
		t.Fatalf("edit after the grant answered %q", d.Content)
	}
	if evs := events(); len(evs) != 3 || evs[2].Name != "Late Swiss" || evs[2].ID != tw.view(4).ScheduledEvent {
		t.Errorf("after the grant: %+v", evs)
	}
}
