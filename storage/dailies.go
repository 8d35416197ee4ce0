// dailies.go: each guild's puzzle of the day: the day's record and its solvers.
//
// Dates are ISO days (YYYY-MM-DD) in the guild's time zone, so a guild's days sort in
// order.

package storage

import (
	"fmt"
	"time"
)

// DailyState is where a day's puzzle is in its life.
type DailyState string

// The daily states. A planned post is made (once) and becomes posted; a planned post
// that a later day replaced before it could be made is abandoned. A silent day is a
// guild's puzzle of the day without a post (no channel is set).
const (
	DailyPlanned   DailyState = "planned"
	DailyPosted    DailyState = "posted"
	DailySilent    DailyState = "silent"
	DailyAbandoned DailyState = "abandoned"
)

// Daily is a guild's puzzle of one day.
type Daily struct {
	GuildID string `json:"-"`
	// Date is the day in the guild's time zone, YYYY-MM-DD.
	Date     string     `json:"-"`
	PuzzleID string     `json:"puzzle"`
	State    DailyState `json:"state"`
	// ChannelID is where the post goes; MessageID the post once made.
	ChannelID string `json:"channel,omitempty"`
	MessageID string `json:"message,omitempty"`
	// Planned is when the day's puzzle was chosen; Posted when the post was made.
	Planned time.Time `json:"planned"`
	Posted  time.Time `json:"posted,omitzero"`
	// Prev is the date of the guild's puzzle of the day before this one ("" for the
	// first): its solution and solvers go with this day's post.
	Prev string `json:"prev,omitempty"`
	// Solvers are the members who solved the puzzle while it was the puzzle of the day.
	Solvers []DailySolver `json:"solvers,omitempty"`
}

// DailySolver is one member who solved a day's puzzle.
type DailySolver struct {
	UserID string    `json:"user"`
	Name   string    `json:"name,omitempty"`
	At     time.Time `json:"at"`
	// Clean is true when the member solved it at the first try without a hint.
	Clean bool `json:"clean,omitempty"`
}

// MaxDailySolvers bounds the solvers a day keeps by name (the rest are counted).
const MaxDailySolvers = 1000

// validDate reports whether s is a YYYY-MM-DD date.
func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == 10
}

// Validate checks the day's record before it is written.
func (d *Daily) Validate() error {
	if err := CheckGuild("daily puzzle", d.GuildID); err != nil {
		return err
	}
	if !validDate(d.Date) || (d.Prev != "" && !validDate(d.Prev)) {
		return fmt.Errorf("daily puzzle of guild %s: date %q (previous %q): want YYYY-MM-DD", d.GuildID, d.Date, d.Prev)
	}
	if !ValidPuzzleID(d.PuzzleID) {
		return fmt.Errorf("daily puzzle %s of guild %s: puzzle id %q", d.Date, d.GuildID, d.PuzzleID)
	}
	switch d.State {
	case DailyPlanned, DailyPosted, DailySilent, DailyAbandoned:
	default:
		return fmt.Errorf("daily puzzle %s of guild %s: state %q", d.Date, d.GuildID, d.State)
	}
	if len(d.Solvers) > MaxDailySolvers {
		return fmt.Errorf("daily puzzle %s of guild %s: %d solvers, at most %d", d.Date, d.GuildID, len(d.Solvers), MaxDailySolvers)
	}
	return nil
}
