// puzzleplayers.go: each member's puzzle record in a guild: rating, counts and daily
// streak.

package storage

import (
	"fmt"
	"math"
	"time"
)

// PuzzlePlayer is a member's puzzle record in a guild: a Glicko-2 rating (each first
// attempt of a puzzle is a game against the puzzle), counts, and the daily streak.
type PuzzlePlayer struct {
	GuildID string `json:"-"`
	UserID  string `json:"-"`
	// Name is the display name last seen.
	Name       string  `json:"name,omitempty"`
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
	// Rated counts the rated attempts (first attempts), Solved those solved.
	Rated  int `json:"rated"`
	Solved int `json:"solved"`
	// Streak is the number of consecutive daily puzzles solved, the last on StreakDay;
	// Best is the longest streak.
	Streak    int    `json:"streak"`
	Best      int    `json:"best"`
	StreakDay string `json:"streak_day,omitempty"`
	// Current is the puzzle the member is solving.
	Current string    `json:"current,omitempty"`
	Updated time.Time `json:"updated,omitzero"`
}

// Validate checks the record before it is written.
func (p *PuzzlePlayer) Validate() error {
	if err := CheckMember("puzzle player", p.GuildID, p.UserID); err != nil {
		return err
	}
	for _, f := range []float64{p.Rating, p.RD, p.Volatility} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fmt.Errorf("puzzle player %s in guild %s: rating fields must be finite and not negative", p.UserID, p.GuildID)
		}
	}
	if p.Rated < 0 || p.Solved < 0 || p.Solved > p.Rated || p.Streak < 0 || p.Best < p.Streak {
		return fmt.Errorf("puzzle player %s in guild %s: counts %d solved of %d, streak %d best %d do not add up",
			p.UserID, p.GuildID, p.Solved, p.Rated, p.Streak, p.Best)
	}
	if len(p.Name) > MaxNameLen {
		return fmt.Errorf("puzzle player %s in guild %s: name longer than %d bytes", p.UserID, p.GuildID, MaxNameLen)
	}
	return nil
}
