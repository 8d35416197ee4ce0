// planline.go: reading a line of conditional moves as a player types it ("e5 Nf3 Nc6
// Bb5", "1...e5 2.Nf3 Nc6"): the moves, without move numbers, in order.

package games

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gambitchess/gambit/storage"
)

// MaxPlanLineLen bounds the text of one line of conditional moves, in bytes.
const MaxPlanLineLen = 400

// drawWords are what a player might type to offer or claim a draw (or end the game)
// inside a line: a plan never does that, since a claim needs the player present.
var drawWords = map[string]bool{
	"draw": true, "=": true, "(=)": true, "1/2": true, "½": true, "1/2-1/2": true, "½-½": true,
	"claim": true, "offer": true, "resign": true, "1-0": true, "0-1": true, "*": true,
}

// ParsePlanLine reads a line of conditional moves: moves in SAN or UCI separated by
// spaces or commas, move numbers ("1.", "2...", "12.e4") allowed and dropped, and
// annotation marks (!, ?) ignored. It refuses an empty line, one too long, a draw
// offer or claim, a result, and a token that cannot be a move; legality is checked
// against the game by the caller.
func ParsePlanLine(text string) ([]string, error) {
	if len(text) > MaxPlanLineLen {
		return nil, fmt.Errorf("%w: a line is at most %d characters", ErrBadRequest, MaxPlanLineLen)
	}
	if !utf8.ValidString(text) {
		return nil, fmt.Errorf("%w: the line is not readable text", ErrBadRequest)
	}
	var moves []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' }) {
		if drawWords[strings.ToLower(tok)] {
			return nil, fmt.Errorf("%w: a plan cannot offer or claim a draw, or end the game (%q): claims and offers need you present", ErrBadRequest, tok)
		}
		tok = stripMoveNumber(tok)
		tok = strings.TrimRight(tok, "!?")
		if tok == "" {
			continue // a move number alone ("1.", "2...")
		}
		if drawWords[strings.ToLower(tok)] {
			return nil, fmt.Errorf("%w: a plan cannot offer or claim a draw, or end the game (%q): claims and offers need you present", ErrBadRequest, tok)
		}
		if len(tok) > 10 || !moveChars(tok) {
			return nil, fmt.Errorf("%w: %q is not a move (write moves like e5, Nf3, O-O, exd5, e8=Q)", ErrBadRequest, truncate(tok, 20))
		}
		moves = append(moves, tok)
		if len(moves) > storage.MaxPlanDepth {
			return nil, fmt.Errorf("%w: a line has at most %d moves", ErrBadRequest, storage.MaxPlanDepth)
		}
	}
	if len(moves) == 0 {
		return nil, fmt.Errorf("%w: the line has no moves: give the opponent's move, then your reply, e.g. \"e5 Nf3\"", ErrBadRequest)
	}
	return moves, nil
}

// stripMoveNumber drops a leading move number: digits followed by dots or an
// ellipsis ("12.", "3...", "3…"). Digits without a dot are left (they are not a
// move number).
func stripMoveNumber(tok string) string {
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	if i == 0 || i == len(tok) {
		return tok
	}
	rest := tok[i:]
	trimmed := strings.TrimLeft(rest, ".…")
	if len(trimmed) == len(rest) {
		return tok
	}
	return trimmed
}

// moveChars reports whether s has only characters of SAN or UCI moves.
func moveChars(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'h', r >= '1' && r <= '8':
		case strings.ContainsRune("KQRBNOoqrbnx+#=-0", r):
		default:
			return false
		}
	}
	return true
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
