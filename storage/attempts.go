// attempts.go: each member's attempts at the puzzles: the rated first try and the try
// in progress.

package storage

import (
	"fmt"
	"time"
)

// AttemptResult is the outcome of the rated (first) try of a puzzle.
type AttemptResult string

// The attempt results: none yet, solved, failed (a wrong move or a hint first).
const (
	AttemptOpen   AttemptResult = ""
	AttemptSolved AttemptResult = "solved"
	AttemptFailed AttemptResult = "failed"
)

// PuzzleAttempt is a member's work on one puzzle: the rated first try and the
// position of the try in progress (later tries are practice).
type PuzzleAttempt struct {
	GuildID  string `json:"-"`
	UserID   string `json:"-"`
	PuzzleID string `json:"-"`
	// Step is the number of solver moves found in the try in progress (the line's
	// length once it is complete).
	Step int `json:"step"`
	// Tries counts the tries begun (1 for the first).
	Tries int `json:"tries"`
	// Result is that of the first try; RatingBefore and RatingAfter the member's rating
	// around it.
	Result       AttemptResult `json:"result,omitempty"`
	RatingBefore float64       `json:"rating_before,omitempty"`
	RatingAfter  float64       `json:"rating_after,omitempty"`
	// Misses counts wrong moves, Hints the hints asked for.
	Misses int `json:"misses,omitempty"`
	Hints  int `json:"hints,omitempty"`
	// Daily is the date of the guild's day this puzzle was the puzzle of, when the member
	// began while it was.
	Daily string `json:"daily,omitempty"`
	// LastRequest and LastAnswer are the last request that changed the attempt and what
	// it was answered, so a repeated request is answered again without acting.
	LastRequest string    `json:"last_request,omitempty"`
	LastAnswer  string    `json:"last_answer,omitempty"`
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished,omitzero"`
}

// Validate checks the attempt before it is written.
func (a *PuzzleAttempt) Validate() error {
	if err := CheckMember("puzzle attempt", a.GuildID, a.UserID); err != nil {
		return err
	}
	if !ValidPuzzleID(a.PuzzleID) {
		return fmt.Errorf("puzzle attempt: puzzle id %q", a.PuzzleID)
	}
	if a.Step < 0 || a.Tries < 0 || a.Misses < 0 || a.Hints < 0 || (a.Daily != "" && !validDate(a.Daily)) || len(a.LastAnswer) > 4000 {
		return fmt.Errorf("attempt of %s at puzzle %s in guild %s: bad fields", a.UserID, a.PuzzleID, a.GuildID)
	}
	switch a.Result {
	case AttemptOpen, AttemptSolved, AttemptFailed:
	default:
		return fmt.Errorf("attempt of %s at puzzle %s: result %q", a.UserID, a.PuzzleID, a.Result)
	}
	return nil
}
