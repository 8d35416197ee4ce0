// limits.go: what bounds a search (depth, nodes, time, a stop signal) and the progress
// reports it makes.

package engine

import (
	"errors"
	"sync/atomic"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
)

// Limits bounds one search. The zero value searches to MaxDepth with no other bound,
// which only Stop or Done can end.
//
// The engine never reads the clock itself: time limits need Now, the caller's clock
// (time.Now in production, a fake in tests). Without time limits a search with a fixed
// Nodes or Depth bound is deterministic.
type Limits struct {
	// Depth is the deepest iteration to search, in plies (0: no limit).
	Depth int
	// Nodes stops the search after this many nodes (0: no limit). The count is exact, so a
	// node-limited search gives the same move every time.
	Nodes uint64
	// MoveTime is a fixed time for the move (0: none).
	MoveTime time.Duration
	// Clock, when not nil, is the side to move's clock: the time manager spends part of it.
	Clock *TimeLeft
	// Infinite searches until Stop or Done, whatever the other limits say (UCI "go
	// infinite"). Depth still caps the iterations.
	Infinite bool
	// Now reads the caller's clock. It is required with MoveTime or Clock.
	Now func() time.Time
	// Stop, when not nil, ends the search as soon as it is set (from any goroutine).
	Stop *atomic.Bool
	// Done, when not nil, ends the search once it is closed (a context's Done channel).
	Done <-chan struct{}
	// MultiPV is the number of best lines to find (0 or 1: one).
	MultiPV int
	// SearchMoves restricts the root to these moves (empty: every legal move).
	SearchMoves []cc.Move
	// Info, when not nil, receives a report after each iteration of each line.
	Info func(Info)
}

// ErrNoClock is returned for time limits without a Now function.
var ErrNoClock = errors.New("time limit without a clock: set Limits.Now")

// Info is a progress report: the state of one line after an iteration.
type Info struct {
	Depth    int           // iteration depth in plies
	SelDepth int           // deepest ply reached
	MultiPV  int           // line number, from 1
	Score    Score         // score of the line for the side to move
	Bound    Bound         // whether Score is exact or a bound (an aspiration failure)
	Nodes    uint64        // nodes searched so far
	Time     time.Duration // time since the search began (0 without a clock)
	NPS      uint64        // nodes per second (0 without a clock)
	Hashfull int           // transposition table use in permille
	PV       []cc.Move     // the principal variation, first move first
}

// Bound tells an exact score from a bound.
type Bound uint8

// The kinds of score a report carries.
const (
	Exact      Bound = iota // the score is exact
	LowerBound              // the true score is at least Score (the line failed high)
	UpperBound              // the true score is at most Score (the line failed low)
)
