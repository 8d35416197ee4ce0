// line.go: a validated puzzle line and the rules of solving it one move at a time.

package puzzle

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
)

// Line is a validated puzzle: the solver's position and the moves as chesscore values.
type Line struct {
	Start  chesscore.Position // before the opponent's first move
	Shown  chesscore.Position // what the solver sees: after the opponent's first move
	Moves  []chesscore.Move   // all moves, the opponent's first
	Solver chesscore.Color
}

// Verdict is the answer to one solver move.
type Verdict int

// The verdicts of a solver move.
const (
	Wrong   Verdict = iota // not the solution: the attempt fails
	Correct                // right, and the line goes on (the opponent's reply follows)
	Solved                 // right, and the line is complete
)

// Check judges the solver's move at solver step k (0 for the first solver move) of a
// validated line. The move must equal the solution's, except that a move giving checkmate
// is always right (so in a mate-in-one any mating move solves it, and a solver who finds a
// different mate at the end of a longer line is not punished for it).
func Check(l Line, k int, played chesscore.Move) (Verdict, error) {
	idx := 1 + 2*k
	if k < 0 || idx >= len(l.Moves) {
		return Wrong, fmt.Errorf("puzzle step %d: the line has %d solver moves", k+1, len(l.Moves)/2)
	}
	pos := l.Start
	for _, m := range l.Moves[:idx] {
		pos = pos.Play(m)
	}
	if !pos.IsLegal(played) {
		return Wrong, fmt.Errorf("illegal move %s", played.UCI())
	}
	after := pos.Play(played)
	mate := after.InCheck() && !after.HasLegalMove()
	switch {
	case mate:
		return Solved, nil
	case played != l.Moves[idx]:
		return Wrong, nil
	case idx == len(l.Moves)-1:
		return Solved, nil
	}
	return Correct, nil
}

// PositionAt returns the position the solver faces at step k and the opponent move that led
// to it.
func (l Line) PositionAt(k int) (chesscore.Position, chesscore.Move) {
	pos := l.Start
	idx := 1 + 2*k
	if idx > len(l.Moves) {
		idx = len(l.Moves)
	}
	for _, m := range l.Moves[:idx] {
		pos = pos.Play(m)
	}
	return pos, l.Moves[idx-1]
}

// Steps returns the number of solver moves.
func (l Line) Steps() int { return len(l.Moves) / 2 }

// SolutionSAN writes the solver's line in SAN with move numbers, the opponent's replies
// included: "24. Qxf7+ Kxf7 25. Ng5+" or "24... Qxf7#".
func (l Line) SolutionSAN() string {
	var b strings.Builder
	pos := l.Shown
	for i, m := range l.Moves[1:] {
		num := strconv.Itoa(pos.FullmoveNumber())
		switch {
		case pos.Turn() == chesscore.White:
			b.WriteString(num + ". ")
		case i == 0:
			b.WriteString(num + "... ")
		}
		b.WriteString(pos.SAN(m))
		b.WriteByte(' ')
		pos = pos.Play(m)
	}
	return strings.TrimSpace(b.String())
}
