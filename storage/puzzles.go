// puzzles.go: puzzles: the stored puzzle, what makes one storable, and how a puzzle is
// picked.
//
// Imports go through Tx.AddPuzzles in a Store.Bulk transaction per batch; everything a
// member's answer changes (the attempt, the player's rating and streak, the puzzle's
// rating, the day's solvers) goes through one Store.Update, so it commits at once.

package storage

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gambitchess/gambit/puzzle"
)

// MaxPuzzleIDLen bounds a puzzle id in bytes.
const MaxPuzzleIDLen = 64

// Puzzle is a stored puzzle: the puzzle model of package puzzle, in the lichess
// conventions (the first move is the opponent's).
type Puzzle = puzzle.Puzzle

// ValidPuzzleID reports whether id can be a puzzle key.
func ValidPuzzleID(id string) bool {
	if id == "" || len(id) > MaxPuzzleIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] > '~' {
			return false
		}
	}
	return true
}

// ValidatePuzzle checks a puzzle fits its record (it does not replay it: package puzzle
// does).
func ValidatePuzzle(p *Puzzle) error {
	if !ValidPuzzleID(p.ID) {
		return fmt.Errorf("puzzle id %q: want 1 to %d printable characters without spaces", p.ID, MaxPuzzleIDLen)
	}
	if p.FEN == "" || len(p.FEN) > 120 {
		return fmt.Errorf("puzzle %s: FEN of %d bytes", p.ID, len(p.FEN))
	}
	if len(p.Moves) < 2 || len(p.Moves) > 64 {
		return fmt.Errorf("puzzle %s: %d moves, want 2 to 64", p.ID, len(p.Moves))
	}
	for _, m := range p.Moves {
		if len(m) < 4 || len(m) > 5 || strings.ContainsAny(m, " \t") {
			return fmt.Errorf("puzzle %s: move %q is not UCI", p.ID, m)
		}
	}
	if p.Rating < 0 || p.Rating > 4000 || p.RD < 0 || p.RD > 5000 {
		return fmt.Errorf("puzzle %s: rating %d (RD %d) out of range", p.ID, p.Rating, p.RD)
	}
	if math.IsNaN(p.Volatility) || p.Volatility < 0 || p.Volatility > 10 {
		return fmt.Errorf("puzzle %s: volatility %v out of range", p.ID, p.Volatility)
	}
	if p.Plays < 0 {
		return fmt.Errorf("puzzle %s: %d plays", p.ID, p.Plays)
	}
	n := len(p.GameURL) + len(p.Source) + len(p.White) + len(p.Black)
	for _, l := range [][]string{p.Themes, p.Openings} {
		for _, s := range l {
			n += len(s) + 1
			if strings.ContainsAny(s, " \t") {
				return fmt.Errorf("puzzle %s: tag %q has a space", p.ID, s)
			}
		}
	}
	if n > 4096 {
		return fmt.Errorf("puzzle %s: %d bytes of tags, URL, source and players (at most 4096)", p.ID, n)
	}
	return nil
}

// PuzzlePick says which puzzle PickPuzzle may choose.
type PuzzlePick struct {
	// GuildID is the guild the puzzle is for: puzzles mined from other guilds' games
	// are never picked.
	GuildID string
	// MinRating and MaxRating bound the puzzle's rating (0: no bound).
	MinRating, MaxRating int
	// Seed chooses where the search starts (a random number: the choice is uniform
	// enough over ratings and ids).
	Seed uint64
	// PreferOwn picks an eligible puzzle mined from the guild's own games first.
	PreferOwn bool
	// NotDailyIn skips the puzzles that were a daily puzzle of this guild.
	NotDailyIn string
	// NotTriedBy skips the puzzles this member of GuildID has attempted.
	NotTriedBy string
	// MaxScan bounds the index entries looked at (default 5000).
	MaxScan int
}

// Bounds returns the rating range a pick looks in (MinRating, at least 0, to MaxRating,
// 4000 when unset or above) and the index entries it may look at (MaxScan, 5000 when
// unset). An empty range is an error wrapping ErrNoPuzzle.
func (q PuzzlePick) Bounds() (lo, hi, budget int, err error) {
	lo, hi = max(q.MinRating, 0), q.MaxRating
	if hi <= 0 || hi > 4000 {
		hi = 4000
	}
	if lo > hi {
		return 0, 0, 0, fmt.Errorf("pick a puzzle: rating range %d-%d is empty: %w", lo, hi, ErrNoPuzzle)
	}
	budget = q.MaxScan
	if budget <= 0 {
		budget = 5000
	}
	return lo, hi, budget, nil
}

// ErrNoPuzzle: no stored puzzle fits a PuzzlePick.
var ErrNoPuzzle = errors.New("no puzzle fits")

// CheckGuild checks the guild part of a puzzle record's key.
func CheckGuild(what, guildID string) error {
	if guildID == "" || len(guildID) > MaxIDLen {
		return fmt.Errorf("%s: guild id %q: want 1 to %d bytes", what, guildID, MaxIDLen)
	}
	return nil
}

// CheckMember checks the guild and user parts of a puzzle record's key.
func CheckMember(what, guildID, userID string) error {
	if err := CheckGuild(what, guildID); err != nil {
		return err
	}
	if userID == "" || len(userID) > MaxIDLen {
		return fmt.Errorf("%s in guild %s: user id %q: want 1 to %d bytes", what, guildID, userID, MaxIDLen)
	}
	return nil
}
