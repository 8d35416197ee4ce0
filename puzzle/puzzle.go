// Package puzzles holds Gambit's chess puzzles: the puzzle record, the streaming import and
// export of the lichess puzzle CSV layout, and the rules of solving one move at a time.
//
// # The lichess conventions
//
// In the lichess puzzle database (CC0) a row's FEN is the position before the opponent's
// move; the first move of Moves (UCI) is the opponent's, and the solver's moves then
// alternate with the opponent's replies. So the position shown to the solver is the FEN
// after the first move, and the solver plays Moves[1], Moves[3], ... Columns are found by
// header name, so extra or reordered columns are fine.
package puzzles

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
)

// Puzzle is one puzzle.
type Puzzle struct {
	ID         string   // lichess PuzzleId, or "g" + a generated id
	FEN        string   // the position before the opponent's first move
	Moves      []string // UCI: the opponent's move, then solver and opponent alternating
	Rating     int
	RD         int
	Popularity int
	Plays      int
	Themes     []string
	GameURL    string
	Openings   []string
	Source     string // "lichess", or "game:<guild>:<game id>" for one mined from a server's game
	// Description says where a mined puzzle comes from ("<@1> vs <@2>"); Played is when its
	// game ended. Neither is part of the CSV layout.
	Description string
	Played      time.Time
}

// ErrPuzzle is wrapped by every error about a puzzle's content.
var ErrPuzzle = errors.New("invalid puzzle")

// Line is a validated puzzle: the solver's position and the moves as chesscore values.
type Line struct {
	Start  chesscore.Position // before the opponent's first move
	Shown  chesscore.Position // what the solver sees: after the opponent's first move
	Moves  []chesscore.Move   // all moves, the opponent's first
	Solver chesscore.Color
}

// Validate replays the puzzle: the FEN must parse, there must be the opponent's move and at
// least one solver move, every move must be legal, and the line must end on a solver move.
func (p *Puzzle) Validate() (Line, error) {
	var l Line
	pos, err := chesscore.ParseFEN(p.FEN)
	if err != nil {
		return l, fmt.Errorf("%w %s: %v", ErrPuzzle, p.ID, err)
	}
	if len(p.Moves) < 2 {
		return l, fmt.Errorf("%w %s: %d moves, want the opponent's move and at least one solver move", ErrPuzzle, p.ID, len(p.Moves))
	}
	if len(p.Moves)%2 != 0 {
		return l, fmt.Errorf("%w %s: %d moves: the line must end on a solver move", ErrPuzzle, p.ID, len(p.Moves))
	}
	if p.Rating < 0 || p.Rating > 4000 {
		return l, fmt.Errorf("%w %s: rating %d out of range", ErrPuzzle, p.ID, p.Rating)
	}
	l.Start = pos
	for i, s := range p.Moves {
		m, err := pos.ParseUCI(s)
		if err != nil {
			return l, fmt.Errorf("%w %s: move %d %q: %v", ErrPuzzle, p.ID, i+1, s, err)
		}
		l.Moves = append(l.Moves, m)
		pos = pos.Play(m)
		if i == 0 {
			l.Shown, l.Solver = pos, pos.Turn()
		}
	}
	return l, nil
}

// HasTheme reports whether the puzzle carries the theme (case-insensitive).
func (p *Puzzle) HasTheme(theme string) bool {
	for _, t := range p.Themes {
		if strings.EqualFold(t, theme) {
			return true
		}
	}
	return false
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
