// schedule.go: an event's planned start, its changes before the start (name, start
// time), the id of the server's scheduled event that announces it, and the end that
// announcement gives.

package tournaments

import (
	"context"
	"fmt"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// MaxLeadTime is how far ahead an event's start may be planned.
const MaxLeadTime = 365 * 24 * time.Hour

// checkStarts refuses a planned start in the past or more than MaxLeadTime ahead (zero
// is no planned start).
func checkStarts(starts, now time.Time) error {
	switch {
	case starts.IsZero():
		return nil
	case !starts.After(now):
		return fmt.Errorf("%w: the start time %s is not in the future", ErrBadRequest, starts.UTC().Format(time.RFC3339))
	case starts.Sub(now) > MaxLeadTime:
		return fmt.Errorf("%w: the start time is more than a year ahead", ErrBadRequest)
	}
	return nil
}

// EditRequest changes an event that has not started: its name, its planned start, or
// both.
type EditRequest struct {
	ID      uint64
	GuildID string
	// By is who asks; Manager that they may manage the server (else only the creator
	// may edit).
	By      string
	Manager bool
	// Name, if not "", is the new name (at most 80 characters).
	Name string
	// Starts, if not zero, is the new planned start (in the future, within
	// MaxLeadTime).
	Starts time.Time
}

// Edit changes an event's name or planned start before it starts. A request that changes
// nothing is refused, so the caller does not announce a change that was not made.
func (s *Service) Edit(ctx context.Context, r EditRequest) (*View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch {
	case r.Name == "" && r.Starts.IsZero():
		return nil, fmt.Errorf("%w: give a new name or a new start time", ErrBadRequest)
	case len([]rune(r.Name)) > 80:
		return nil, fmt.Errorf("%w: a name of at most 80 characters", ErrBadRequest)
	}
	if err := checkStarts(r.Starts, s.clock.Now()); err != nil {
		return nil, err
	}
	return s.update(ctx, r.ID, func(w storage.Tx, t *storage.Tournament, st *State) error {
		if err := checkGuild(t, r.GuildID); err != nil {
			return err
		}
		switch {
		case t.CreatedBy != r.By && !r.Manager:
			return ErrNotOrganizer
		case t.Status == storage.TournamentRunning:
			return ErrStarted
		case !t.Live():
			return ErrOver
		}
		if r.Name != "" {
			t.Name = r.Name
		}
		if !r.Starts.IsZero() {
			st.Starts = r.Starts
		}
		return nil
	})
}

// SetScheduledEvent records the id of the server's scheduled event that announces event
// id (made by the bot after Create or Edit), unless one is recorded already: it returns
// the id recorded, the earlier one when two requests made an event each at once (the
// caller then deletes its own).
func (s *Service) SetScheduledEvent(ctx context.Context, id uint64, eventID string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	v, err := s.update(ctx, id, func(w storage.Tx, t *storage.Tournament, st *State) error {
		if t.ScheduledEvent != "" {
			return errNothingChanged
		}
		t.ScheduledEvent = eventID
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("record the scheduled event of tournament %d: %w", id, err)
	}
	return v.ScheduledEvent, nil
}

// ForgetScheduledEvent clears the scheduled event of event id if it is eventID (one the
// server's admins deleted on Discord), so that the next change makes a new one.
func (s *Service) ForgetScheduledEvent(ctx context.Context, id uint64, eventID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := s.update(ctx, id, func(w storage.Tx, t *storage.Tournament, st *State) error {
		if t.ScheduledEvent != eventID || eventID == "" {
			return errNothingChanged
		}
		t.ScheduledEvent = ""
		return nil
	})
	if err != nil {
		return fmt.Errorf("forget the scheduled event of tournament %d: %w", id, err)
	}
	return nil
}

// Estimated lengths: a game at a time control lasts about both clocks' base times and
// 40 increments, and a round a game and a few minutes between rounds; a round robin is
// counted for 8 players, a knockout for 4 rounds of its match games.
const (
	movesPerGame       = 40
	betweenRounds      = 5 * time.Minute
	roundRobinRounds   = 7
	knockoutRounds     = 4
	minExpectedLength  = 30 * time.Minute
	maxExpectedLength  = 7 * 24 * time.Hour
	defaultGameLength  = 20 * time.Minute
	defaultMatchLength = 2
)

// ExpectedEnd is when the event is expected to end, for its announcement: an arena's
// start plus its duration; otherwise the start plus an estimate of its rounds at its time
// control (between 30 minutes and 7 days). Zero without a planned start.
func (v *View) ExpectedEnd() time.Time {
	st := v.State
	if st.Starts.IsZero() {
		return time.Time{}
	}
	set := st.Settings
	if set.Format == Arena {
		return st.Starts.Add(set.Duration)
	}
	game := defaultGameLength
	if tc, err := clock.Parse(set.Control); err == nil && len(tc.Periods) > 0 {
		p := tc.Periods[0]
		game = 2*(p.Base+movesPerGame*p.Increment) + betweenRounds
	}
	var rounds int
	switch set.Format {
	case Swiss:
		rounds = set.Rounds
	case RoundRobin:
		rounds = roundRobinRounds * max(set.Rounds, 1)
	default:
		rounds = knockoutRounds * max(set.MatchGames, defaultMatchLength)
	}
	return st.Starts.Add(min(max(time.Duration(max(rounds, 1))*game, minExpectedLength), maxExpectedLength))
}
