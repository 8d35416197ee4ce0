// puzzle.go: the puzzle record, its validation and its tags.

package puzzle

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
)

// Puzzle is one puzzle: its line, its Glicko-2 rating, its tags, and where it comes
// from. The store keeps puzzles in this form (storage.Puzzle is this type).
type Puzzle struct {
	ID    string   // lichess PuzzleId, or a generated id
	FEN   string   // the position before the opponent's first move
	Moves []string // UCI: the opponent's move, then solver and opponent alternating
	// Rating, RD and Volatility are the puzzle's Glicko-2 rating (RD 0: an estimate not
	// yet rated; Volatility 0: not known yet).
	Rating     int
	RD         int
	Volatility float64
	Popularity int
	Plays      int
	Themes     []string
	GameURL    string
	Openings   []string
	// Source is "lichess", "starter", "pgn:<white> vs <black>" for one mined from a PGN
	// file, or "game:<guild>:<game id>" for one mined from a server's finished game (such
	// a puzzle is only shown in that server: SourceGuild).
	Source string
	// White and Black are the user ids of the players of the game a puzzle was mined
	// from ("" when unknown); Played is when that game ended; Added is when the puzzle
	// was stored. None of them is part of the CSV layout.
	White, Black  string
	Played, Added time.Time
}

// SourceGuild returns the guild whose game a puzzle was mined from ("" for one from
// elsewhere).
func (p *Puzzle) SourceGuild() string {
	rest, ok := strings.CutPrefix(p.Source, "game:")
	if !ok {
		return ""
	}
	guild, _, _ := strings.Cut(rest, ":")
	return guild
}

// ErrPuzzle is wrapped by every error about a puzzle's content.
var ErrPuzzle = errors.New("invalid puzzle")

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
