// pgn.go: Portable Game Notation: the game record of a PGN file, its errors and the
// [%clk] commands; pgn_lex.go splits text into tokens, pgn_read.go reads games and
// pgn_write.go writes them.

package chesscore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// PGNGame is one game of a PGN file: its tags, the game itself, and what the movetext
// said about the moves.
type PGNGame struct {
	// Tags holds every tag pair except the ones the Game itself determines (Result,
	// Termination, SetUp and FEN) and the Seven Tag Roster's placeholders for unknown
	// values ("?", "????.??.??"), which mean the same as no tag.
	Tags map[string]string
	// Game is the main line, replayed: start position, moves and outcome.
	Game *Game
	// Comment is the commentary before the first move.
	Comment string
	// Moves annotates the main line: Moves[i] is Game's move i.
	Moves []PGNMove
}

// PGNMove is one move of a line with its annotations.
type PGNMove struct {
	Move Move
	SAN  string
	// NAGs are the Numeric Annotation Glyphs after the move ("!" is 1, "?" is 2, ...).
	NAGs []uint8
	// Comment is the commentary after the move, without the [%clk] command and with runs
	// of white space made single spaces.
	Comment string
	// Clock is the mover's remaining time from a [%clk h:mm:ss] comment, when HasClock.
	Clock    time.Duration
	HasClock bool
	// Variations are alternatives to this move, each played from the position before it.
	Variations []PGNVariation
}

// PGNVariation is an alternative line: a comment before its first move, and its moves.
type PGNVariation struct {
	Comment string
	Moves   []PGNMove
}

// NewPGNGame wraps a game for writing: its moves with their SAN, no tags, no comments.
// Set Tags, and Clock/HasClock on Moves, before writing if you know them.
func NewPGNGame(g *Game) *PGNGame {
	pg := &PGNGame{Tags: map[string]string{}, Game: g, Moves: make([]PGNMove, g.Ply())}
	for i := range pg.Moves {
		pg.Moves[i] = PGNMove{Move: g.moves[i], SAN: g.san[i]}
	}
	return pg
}

// PGNError is an error in a PGN file at a line and column (both from 1) of game number
// Game (from 1).
type PGNError struct {
	Game, Line, Column int
	Err                error
}

func (e *PGNError) Error() string {
	return fmt.Sprintf("pgn game %d, line %d, column %d: %v", e.Game, e.Line, e.Column, e.Err)
}

// Unwrap returns the underlying error (a *MoveError for a bad move).
func (e *PGNError) Unwrap() error { return e.Err }

// ErrPGN is wrapped by PGN syntax errors, for errors.Is.
var ErrPGN = errors.New("invalid PGN")

// Limits that keep a hostile file from taking unbounded memory.
const (
	maxPGNText  = 1 << 20 // longest comment or tag value, in bytes
	maxPGNDepth = 64      // deepest nesting of variations
)

// normalizeSpace makes every run of white space one space and trims the ends.
func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func joinComment(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// extractClock removes the first [%clk h:mm:ss(.fff)] command from a comment and returns
// the rest and the duration.
func extractClock(s string) (string, time.Duration, bool) {
	i := strings.Index(s, "[%clk")
	if i < 0 {
		return s, 0, false
	}
	j := strings.IndexByte(s[i:], ']')
	if j < 0 {
		return s, 0, false
	}
	d, ok := parseClock(strings.TrimSpace(s[i+len("[%clk") : i+j]))
	if !ok {
		return s, 0, false
	}
	return normalizeSpace(s[:i] + " " + s[i+j+1:]), d, true
}

// parseClock reads h:mm:ss with an optional fraction of a second (up to nanoseconds).
func parseClock(s string) (time.Duration, bool) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return 0, false
	}
	h, err1 := strconv.ParseUint(parts[0], 10, 32)
	m, err2 := strconv.ParseUint(parts[1], 10, 8)
	secs, frac, dot := strings.Cut(parts[2], ".")
	sec, err3 := strconv.ParseUint(secs, 10, 8)
	if err1 != nil || err2 != nil || err3 != nil || m > 59 || sec > 59 || len(parts[1]) != 2 || len(secs) != 2 || h > 1_000_000 {
		return 0, false
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second
	if dot {
		if len(frac) > 9 || !allDigits(frac) {
			return 0, false
		}
		ns, _ := strconv.ParseUint(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
		d += time.Duration(ns)
	}
	return d, true
}

// formatClock writes h:mm:ss, with the fraction of a second only when there is one.
func formatClock(d time.Duration) string {
	h := d / time.Hour
	m := (d % time.Hour) / time.Minute
	s := (d % time.Minute) / time.Second
	out := fmt.Sprintf("%d:%02d:%02d", h, m, s)
	if ns := d % time.Second; ns != 0 {
		out += strings.TrimRight(fmt.Sprintf(".%09d", ns), "0")
	}
	return out
}
