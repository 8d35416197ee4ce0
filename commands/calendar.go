// calendar.go: the server's scheduled events (Discord's Events tab) that announce the
// tournaments with a planned start: made when such a tournament is created, changed with
// /tournament edit, set under way when it starts, completed when it ends and cancelled
// when it is called off (Discord lets a scheduled event go SCHEDULED → ACTIVE →
// COMPLETED, or SCHEDULED → CANCELED; a cancelled event stays in the server's list
// marked cancelled, rather than vanishing as a deleted one would). The event never
// holds the tournament up: a failure is logged, and a refusal for want of the Manage
// Events permission is told to the organiser in the answer that made the event.

package commands

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/tournaments"
)

// Calendar keeps a server's scheduled events; package bot's Notifier implements it.
type Calendar interface {
	// CreateEvent makes an EXTERNAL scheduled event and returns its id.
	CreateEvent(ctx context.Context, guildID string, e CalendarEvent) (string, error)
	// EditEvent changes one: its name, description, location and times, and its status
	// when e.Status is not 0.
	EditEvent(ctx context.Context, guildID, eventID string, e CalendarEvent) error
	// DeleteEvent deletes one (a duplicate made by a request that lost a race).
	DeleteEvent(ctx context.Context, guildID, eventID string) error
}

// CalendarEvent is what a scheduled event says of a tournament.
type CalendarEvent struct {
	Name, Description, Location string
	Start, End                  time.Time
	// Status is the status to set (0: unchanged).
	Status discordgo.GuildScheduledEventStatus
}

// ErrNoEventPermission is wrapped by a Calendar's errors when Discord refuses the bot
// for want of the Manage Events permission (403, code 50013).
var ErrNoEventPermission = errors.New("the bot lacks the Manage Events permission")

// inEventsNote tells the organiser the server's event is made or updated.
const inEventsNote = " It is in the server's events."

// ErrUnknownEvent is wrapped by a Calendar's errors when the event is no more (the
// server's admins deleted it: 404, code 10070).
var ErrUnknownEvent = errors.New("the server's event is no more")

// calendarTimeout bounds one call to the calendar.
const calendarTimeout = 10 * time.Second

// noEventPermissionNote is told to the organiser, once, in the answer of the command
// that tried to make the event.
const noEventPermissionNote = "\n-# The server's event could not be made: Gambit needs the **Manage Events** permission."

// calendarEvent describes tournament v as its scheduled event.
func calendarEvent(v *tournaments.View) CalendarEvent {
	desc := fmt.Sprintf("%s: %s. Tournament %d; join with /tournament join tournament:%d.",
		v.Format().Title(), describeEvent(v.State.Settings), v.ID, v.ID)
	return CalendarEvent{
		Name: v.Name, Description: truncateRunes(desc, 1000),
		Location: fmt.Sprintf("https://discord.com/channels/%s/%s", v.GuildID, v.ChannelID),
		Start:    v.State.Starts, End: v.ExpectedEnd(),
	}
}

// truncateRunes cuts s to at most n characters.
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// scheduleEvent makes (or, when it has one, updates) the scheduled event of v, which
// has a planned start, and records a new event's id. It returns what to tell the
// organiser: that the event is in the server's events, or that Discord refused for
// want of Manage Events ("" for no calendar, no planned start, or another failure,
// which is logged).
func (d *Deps) scheduleEvent(ctx context.Context, v *tournaments.View) string {
	if d.Calendar == nil || v.State.Starts.IsZero() {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, calendarTimeout)
	defer cancel()
	e := calendarEvent(v)
	if v.ScheduledEvent != "" {
		err := d.Calendar.EditEvent(ctx, v.GuildID, v.ScheduledEvent, e)
		if err == nil {
			return inEventsNote
		}
		if !errors.Is(err, ErrUnknownEvent) || !d.forgetEvent(ctx, v) {
			return d.calendarFailed(v, "update", err)
		}
		// The admins deleted it: the tournament gets a new one.
	}
	id, err := d.Calendar.CreateEvent(ctx, v.GuildID, e)
	if err != nil {
		return d.calendarFailed(v, "create", err)
	}
	recorded, err := d.Tournaments.SetScheduledEvent(ctx, v.ID, id)
	if err != nil {
		slog.Error("tournament: record the scheduled event", "tournament", v.ID, "event", id, "err", err)
	} else if recorded != id { // another request made the tournament's event first
		if err := d.Calendar.DeleteEvent(ctx, v.GuildID, id); err != nil {
			slog.Error("tournament: delete a duplicate scheduled event", "tournament", v.ID, "event", id, "err", err)
		}
	}
	return inEventsNote
}

// setEventStatus moves v's scheduled event, if it has one, to status.
func (d *Deps) setEventStatus(ctx context.Context, v *tournaments.View, status discordgo.GuildScheduledEventStatus) {
	if d.Calendar == nil || v.ScheduledEvent == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, calendarTimeout)
	defer cancel()
	err := d.Calendar.EditEvent(ctx, v.GuildID, v.ScheduledEvent, CalendarEvent{Status: status})
	switch {
	case errors.Is(err, ErrUnknownEvent):
		d.forgetEvent(ctx, v)
	case err != nil:
		d.calendarFailed(v, fmt.Sprintf("set status %d of", status), err)
	}
}

// forgetEvent clears v's scheduled event, which Discord no longer has; it reports
// whether it did.
func (d *Deps) forgetEvent(ctx context.Context, v *tournaments.View) bool {
	if err := d.Tournaments.ForgetScheduledEvent(ctx, v.ID, v.ScheduledEvent); err != nil {
		slog.Error("tournament: forget a deleted scheduled event", "tournament", v.ID, "event", v.ScheduledEvent, "err", err)
		return false
	}
	slog.Info("tournament: the server's event was deleted on Discord", "guild", v.GuildID, "tournament", v.ID, "event", v.ScheduledEvent)
	v.ScheduledEvent = ""
	return true
}

// calendarFailed logs a failed call and returns the organiser's note for a refusal
// for want of Manage Events.
func (d *Deps) calendarFailed(v *tournaments.View, what string, err error) string {
	if errors.Is(err, ErrNoEventPermission) {
		slog.Warn("tournament: no Manage Events permission for the server's event", "guild", v.GuildID, "tournament", v.ID, "err", err)
		return noEventPermissionNote
	}
	slog.Error("tournament: "+what+" the server's scheduled event", "guild", v.GuildID, "tournament", v.ID, "event", v.ScheduledEvent, "err", err)
	return ""
}
