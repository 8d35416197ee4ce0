// calendar.go: the servers' scheduled events (commands.Calendar) over REST: EXTERNAL
// events, open to the server's members, that announce tournaments.

package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
)

// codeMissingPermissions is Discord's JSON error code for a request the bot's
// permissions do not allow (here: Manage Events).
const codeMissingPermissions = 50013

// eventParams is the create or edit body of e: the fields it sets (an edit of the status
// alone sends the status alone).
func eventParams(e commands.CalendarEvent) *discordgo.GuildScheduledEventParams {
	p := &discordgo.GuildScheduledEventParams{Name: e.Name, Description: e.Description, Status: e.Status}
	if e.Location != "" {
		p.EntityType = discordgo.GuildScheduledEventEntityTypeExternal
		p.PrivacyLevel = discordgo.GuildScheduledEventPrivacyLevelGuildOnly
		p.EntityMetadata = &discordgo.GuildScheduledEventEntityMetadata{Location: e.Location}
	}
	if !e.Start.IsZero() {
		start := e.Start.UTC()
		p.ScheduledStartTime = &start
	}
	if !e.End.IsZero() {
		end := e.End.UTC()
		p.ScheduledEndTime = &end
	}
	return p
}

// codeUnknownScheduledEvent is Discord's JSON error code for an event that is no more.
const codeUnknownScheduledEvent = 10070

// eventRefused wraps commands.ErrNoEventPermission around Discord's 403 Missing
// Permissions, and commands.ErrUnknownEvent around its 404 Unknown Guild Scheduled
// Event.
func eventRefused(err error) error {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil || re.Message == nil {
		return err
	}
	switch {
	case re.Response.StatusCode == http.StatusForbidden && re.Message.Code == codeMissingPermissions:
		return fmt.Errorf("%w: %w", commands.ErrNoEventPermission, err)
	case re.Response.StatusCode == http.StatusNotFound && re.Message.Code == codeUnknownScheduledEvent:
		return fmt.Errorf("%w: %w", commands.ErrUnknownEvent, err)
	}
	return err
}

// CreateEvent makes a scheduled event in a guild and returns its id.
func (c *REST) CreateEvent(ctx context.Context, guildID string, e commands.CalendarEvent) (string, error) {
	var id string
	err := c.call(ctx, "create scheduled event", "create scheduled event in guild "+guildID, func(opts ...discordgo.RequestOption) error {
		ev, err := c.s.GuildScheduledEventCreate(guildID, eventParams(e), opts...)
		if err == nil {
			id = ev.ID
		}
		return err
	})
	return id, eventRefused(err)
}

// EditEvent changes a scheduled event of a guild.
func (c *REST) EditEvent(ctx context.Context, guildID, eventID string, e commands.CalendarEvent) error {
	err := c.call(ctx, "edit scheduled event", "edit scheduled event "+eventID, func(opts ...discordgo.RequestOption) error {
		_, err := c.s.GuildScheduledEventEdit(guildID, eventID, eventParams(e), opts...)
		return err
	})
	return eventRefused(err)
}

// DeleteEvent deletes a scheduled event of a guild.
func (c *REST) DeleteEvent(ctx context.Context, guildID, eventID string) error {
	err := c.call(ctx, "delete scheduled event", "delete scheduled event "+eventID, func(opts ...discordgo.RequestOption) error {
		return c.s.GuildScheduledEventDelete(guildID, eventID, opts...)
	})
	return eventRefused(err)
}

// DeleteEvent deletes a scheduled event (poster: the notifier's transport).
func (p *poster) DeleteEvent(ctx context.Context, guildID, eventID string) error {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	return p.rest.DeleteEvent(ctx, guildID, eventID)
}

// CreateEvent makes a scheduled event (poster: the notifier's transport).
func (p *poster) CreateEvent(ctx context.Context, guildID string, e commands.CalendarEvent) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	return p.rest.CreateEvent(ctx, guildID, e)
}

// EditEvent changes a scheduled event (poster: the notifier's transport).
func (p *poster) EditEvent(ctx context.Context, guildID, eventID string, e commands.CalendarEvent) error {
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	return p.rest.EditEvent(ctx, guildID, eventID, e)
}

var _ commands.Calendar = (*Notifier)(nil)

// errNoCalendar is the error of a transport that keeps no scheduled events.
var errNoCalendar = errors.New("the notifier's transport keeps no scheduled events")

func (n *Notifier) calendar() (commands.Calendar, error) {
	t, err := n.transport()
	if err != nil {
		return nil, err
	}
	c, ok := t.(commands.Calendar)
	if !ok {
		return nil, errNoCalendar
	}
	return c, nil
}

// CreateEvent implements commands.Calendar.
func (n *Notifier) CreateEvent(ctx context.Context, guildID string, e commands.CalendarEvent) (string, error) {
	c, err := n.calendar()
	if err != nil {
		return "", err
	}
	return c.CreateEvent(ctx, guildID, e)
}

// DeleteEvent implements commands.Calendar.
func (n *Notifier) DeleteEvent(ctx context.Context, guildID, eventID string) error {
	c, err := n.calendar()
	if err != nil {
		return err
	}
	return c.DeleteEvent(ctx, guildID, eventID)
}

// EditEvent implements commands.Calendar.
func (n *Notifier) EditEvent(ctx context.Context, guildID, eventID string, e commands.CalendarEvent) error {
	c, err := n.calendar()
	if err != nil {
		return err
	}
	return c.EditEvent(ctx, guildID, eventID, e)
}
