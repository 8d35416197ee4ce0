// vacations.go: the players' vacations, per server and player (schema version 11,
// bucket and table vacations).
//
// A vacation record holds what a player has used of their yearly vacation days in a
// server, the vacation they are on (if any) and whether a correspondence flag that
// would fall starts one for them (auto vacation). The days are not counted by a ticker
// but from instants: a vacation that ends at t has used the days it was begun (a day
// started counts once), so a restart or a takeover between two processes neither loses
// nor adds a day. The record is written only from its stored version (Version, else
// ErrConflict): of two processes ending one vacation (the owner's timer and a takeover,
// or /vacation end), exactly one counts its days.

package storage

import (
	"fmt"
	"time"
)

// Limits of a vacation record.
const (
	// MaxVacationDays bounds a server's yearly allowance and one vacation.
	MaxVacationDays = 366
	// VacationDay is the unit vacations are counted in.
	VacationDay = 24 * time.Hour
)

// Vacation is a player's vacation record in a server.
type Vacation struct {
	// GuildID and UserID are the record's key.
	GuildID string `json:"-"`
	UserID  string `json:"-"`
	// Version counts the record's writes: a write must carry the stored version.
	Version uint64 `json:"version"`
	// Year is the calendar year (UTC) Used counts in; a vacation begun in another year
	// starts the count again.
	Year int `json:"year,omitempty"`
	// Used is the days the vacations ended in Year used.
	Used int `json:"used,omitempty"`
	// Start and Until bound the vacation the player is on (both zero when none):
	// Until is Start plus the days taken, when it ends by itself.
	Start time.Time `json:"start,omitzero"`
	Until time.Time `json:"until,omitzero"`
	// Automatic is set when the open vacation was started by a flag (auto vacation).
	Automatic bool `json:"automatic,omitempty"`
	// AutoOptIn is the player's choice: a correspondence flag that would fall while
	// they have days left starts a vacation instead.
	AutoOptIn bool `json:"auto,omitempty"`
	// Taken counts the vacations the player has begun (all years), for the record.
	Taken int `json:"taken,omitempty"`
}

// On reports whether the player is on vacation at now.
func (v *Vacation) On(now time.Time) bool {
	return v != nil && !v.Start.IsZero() && now.Before(v.Until)
}

// Open reports whether the record holds a vacation not yet closed (it may be past its
// end, waiting for its owner to close it).
func (v *Vacation) Open() bool { return v != nil && !v.Start.IsZero() }

// DaysUsed returns the days a vacation from start, ending at end, uses: every day it
// was begun, at least one.
func DaysUsed(start, end time.Time) int {
	d := end.Sub(start)
	if d <= 0 {
		return 1
	}
	return int((d + VacationDay - 1) / VacationDay)
}

// UsedIn returns the days the record has used in year, not counting the open vacation.
func (v *Vacation) UsedIn(year int) int {
	if v == nil || v.Year != year {
		return 0
	}
	return v.Used
}

// Close ends the open vacation at end (at Until at the latest) and counts its days; it
// returns them. A record with no open vacation is left as it is (0).
func (v *Vacation) Close(end time.Time) int {
	if !v.Open() {
		return 0
	}
	if end.After(v.Until) {
		end = v.Until
	}
	days := min(DaysUsed(v.Start, end), DaysUsed(v.Start, v.Until))
	if y := v.Start.UTC().Year(); v.Year != y {
		v.Year, v.Used = y, 0
	}
	v.Used += days
	v.Start, v.Until, v.Automatic = time.Time{}, time.Time{}, false
	return days
}

// Validate checks what a store may keep.
func (v *Vacation) Validate() error {
	if err := CheckMember("vacation", v.GuildID, v.UserID); err != nil {
		return err
	}
	switch {
	case v.Used < 0 || v.Used > MaxVacationDays:
		return fmt.Errorf("vacation of %s in guild %s: %d days used (0 to %d)", v.UserID, v.GuildID, v.Used, MaxVacationDays)
	case v.Year < 0 || v.Year > 9999:
		return fmt.Errorf("vacation of %s in guild %s: year %d", v.UserID, v.GuildID, v.Year)
	case v.Start.IsZero() != v.Until.IsZero():
		return fmt.Errorf("vacation of %s in guild %s: a start without an end, or an end without a start", v.UserID, v.GuildID)
	case !v.Start.IsZero() && !v.Until.After(v.Start):
		return fmt.Errorf("vacation of %s in guild %s: ends at %v, not after its start %v", v.UserID, v.GuildID, v.Until, v.Start)
	case !v.Start.IsZero() && v.Until.Sub(v.Start) > MaxVacationDays*VacationDay:
		return fmt.Errorf("vacation of %s in guild %s: longer than %d days", v.UserID, v.GuildID, MaxVacationDays)
	case v.Automatic && v.Start.IsZero():
		return fmt.Errorf("vacation of %s in guild %s: automatic without a vacation", v.UserID, v.GuildID)
	case v.Taken < 0:
		return fmt.Errorf("vacation of %s in guild %s: %d vacations taken", v.UserID, v.GuildID, v.Taken)
	}
	return nil
}

// Clone returns a copy: the services change copies, never what they read.
func (v *Vacation) Clone() *Vacation {
	c := *v
	return &c
}

// NextVacationVersion is the rule of PutVacation over the stored record (nil when there
// is none), as NextVoteVersion is for vote games: the record to write, a copy of v at
// the version it is stored at, or ErrConflict when v was not read at the stored version.
func NextVacationVersion(stored, v *Vacation) (*Vacation, error) {
	w := v.Clone()
	switch {
	case stored == nil && w.Version == 0:
		w.Version = 1
	case stored == nil:
	case stored.Version != v.Version:
		return nil, fmt.Errorf("vacation of %s in guild %s: version %d, stored %d: %w", v.UserID, v.GuildID, v.Version, stored.Version, ErrConflict)
	default:
		w.Version++
	}
	return w, nil
}
