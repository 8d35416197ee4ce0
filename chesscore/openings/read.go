// read.go: the reader of the opening data's tab-separated lines (eco, name, pgn).

package openings

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	cc "github.com/gambitchess/gambit/chesscore"
)

// Entry is one line of the data: an opening's code and name and the moves that reach
// its position from the start position.
type Entry struct {
	Opening
	// Moves are the moves from the start position, in the order played.
	Moves []cc.Move
	// End is the position after the moves.
	End cc.Position
}

// header is the first line every data file starts with.
const header = "eco\tname\tpgn"

// maxLineBytes bounds a line of the data (the longest line of the set is about 200
// bytes).
const maxLineBytes = 4096

// Read parses one data file: the header line, then one "eco<TAB>name<TAB>pgn" line per
// named position, where eco is a letter A to E and two digits, name is not empty and
// pgn is movetext from the start position (move numbers, SAN moves; no comments, no
// result). The first error names the line and stops the reading.
func Read(r io.Reader) ([]Entry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 512), maxLineBytes)
	var out []Entry
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if line == 1 {
			if text != header {
				return nil, fmt.Errorf("line 1: header %q, want %q", text, header)
			}
			continue
		}
		e, err := parseEntry(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("empty data: want the header %q", header)
	}
	return out, nil
}

// parseEntry parses one data line.
func parseEntry(text string) (Entry, error) {
	fields := strings.Split(text, "\t")
	if len(fields) != 3 {
		return Entry{}, fmt.Errorf("%d tab-separated fields, want 3 (eco, name, pgn)", len(fields))
	}
	eco, name, pgn := fields[0], strings.TrimSpace(fields[1]), fields[2]
	if !validECO(eco) {
		return Entry{}, fmt.Errorf("ECO code %q: want a letter A to E and two digits", eco)
	}
	if name == "" {
		return Entry{}, fmt.Errorf("%s: empty name", eco)
	}
	e := Entry{Opening: Opening{ECO: eco, Name: name}, End: cc.StartPosition()}
	for _, tok := range strings.Fields(pgn) {
		if isMoveNumber(tok) {
			continue
		}
		m, err := e.End.ParseSAN(tok)
		if err != nil {
			return Entry{}, fmt.Errorf("%s %s: move %d %q: %w", eco, name, len(e.Moves)+1, tok, err)
		}
		e.Moves = append(e.Moves, m)
		e.End = e.End.Play(m)
	}
	if len(e.Moves) == 0 {
		return Entry{}, fmt.Errorf("%s %s: no moves", eco, name)
	}
	return e, nil
}

// validECO reports whether s is an ECO code: A00 to E99.
func validECO(s string) bool {
	return len(s) == 3 && s[0] >= 'A' && s[0] <= 'E' && isDigit(s[1]) && isDigit(s[2])
}

// isMoveNumber reports whether tok is a move number such as "12." or "12...".
func isMoveNumber(tok string) bool {
	digits := strings.TrimRight(tok, ".")
	if digits == tok || digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if !isDigit(digits[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
