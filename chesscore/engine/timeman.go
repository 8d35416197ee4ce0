// timeman.go: time management: how much of the clock to spend on one move, for every
// kind of control the bot offers (increments, delays, periods with a move count,
// correspondence).

package engine

import (
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
)

// TimeLeft is the side to move's clock as the time manager sees it.
type TimeLeft struct {
	// Remaining is the main time left.
	Remaining time.Duration
	// Increment is added after the move.
	Increment time.Duration
	// Delay is a per-move delay; DelayMode says which kind (simple or Bronstein).
	Delay     time.Duration
	DelayMode clock.DelayMode
	// MovesToGo is the number of moves to make before more time is added (0: the rest of
	// the game, sudden death).
	MovesToGo int
	// Correspondence marks a per-move allowance (Remaining is then the allowance left).
	Correspondence bool
	// MaxThink caps the time for one move (0: no cap on a live clock,
	// DefaultCorrespondenceThink in correspondence: nobody wants the bot to think for
	// three days).
	MaxThink time.Duration
	// Overhead is kept in reserve for each move's communication (0: a default of 30 ms).
	Overhead time.Duration
}

// ClockTimeLeft describes color's clock c at now for the time manager.
func ClockTimeLeft(c *clock.Clock, color cc.Color, now time.Time) TimeLeft {
	tl := TimeLeft{
		Remaining: c.Remaining(color, now),
		Delay:     c.Control.Delay,
		DelayMode: c.Control.DelayMode,
	}
	switch c.Control.Kind() {
	case clock.KindCorrespondence:
		tl.Correspondence = true
	case clock.KindLive:
		tl.MovesToGo = c.MovesToControl(color)
		if ps := c.Control.Periods; len(ps) > 0 {
			// The increment of the period the move belongs to.
			done := c.Moves[color]
			for _, p := range ps {
				tl.Increment = p.Increment
				if p.Moves == 0 || done < p.Moves {
					break
				}
				done -= p.Moves
			}
		}
	}
	return tl
}

// DefaultCorrespondenceThink is the thinking time per correspondence move when
// TimeLeft.MaxThink is not set.
const DefaultCorrespondenceThink = 30 * time.Second

// reserveMoves is the reserve of a live clock, in move overheads: the part of the clock
// the time manager leaves for stalls.
const reserveMoves = 10

// minThink is the least time a move is given, so the search completes depth one.
const minThink = 2 * time.Millisecond

// Budget returns the time to aim for (soft: no new iteration starts after it) and the
// time never to exceed (hard) for a move at game ply ply (0 for White's first move).
func (tl TimeLeft) Budget(ply int) (soft, hard time.Duration) {
	overhead := tl.Overhead
	if overhead == 0 {
		overhead = 30 * time.Millisecond
	}
	left := tl.Remaining - overhead
	// Time the next move gets back whatever happens: an increment, or a delay (a simple
	// delay is never charged; a Bronstein delay refunds up to itself).
	bonus := tl.Increment
	if tl.DelayMode != clock.NoDelay {
		bonus += tl.Delay
	}
	if tl.Correspondence {
		// Think a small part of the allowance: a move takes minutes, not days.
		soft = left / 40
		hard = left / 10
	} else {
		mtg := tl.MovesToGo
		if mtg <= 0 || mtg > 40 {
			// Sudden death: expect the game to need this many more moves.
			mtg = max(32-ply/5, 16)
			if tl.MovesToGo > 0 {
				mtg = min(mtg, tl.MovesToGo)
			}
		}
		// Keep a reserve the planned moves never touch, so that a stall of the machine
		// (a busy host, a slow pipe) costs reserve rather than the game: with a small
		// increment the clock would otherwise settle a few moves' thinking above zero.
		// Inside the reserve only half the increment is spent, which rebuilds it.
		plan := left - reserveMoves*overhead
		spend := bonus * 3 / 4
		if plan <= 0 {
			plan, spend = 0, bonus/2
		}
		soft = plan/time.Duration(mtg) + spend
		// Never spend more than a share of the clock that leaves time for the moves to come.
		share := plan/3 + spend
		switch {
		case mtg == 1:
			share = left * 9 / 10
		case mtg <= 3:
			share = left * 7 / 10
		case mtg < 8:
			share = left / 2
		}
		hard = min(soft*4, share)
	}
	hard = min(hard, left)
	if tl.DelayMode == clock.Simple {
		// A simple delay is free time on top of the main time.
		hard += tl.Delay * 9 / 10
	}
	maxThink := tl.MaxThink
	if maxThink <= 0 && tl.Correspondence {
		maxThink = DefaultCorrespondenceThink
	}
	if maxThink > 0 {
		soft, hard = min(soft, maxThink), min(hard, maxThink)
	}
	soft = min(soft, hard)
	soft, hard = max(soft, minThink), max(hard, minThink)
	return soft, hard
}
