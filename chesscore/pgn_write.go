// pgn_write.go: the PGN writer: the export format, wrapped under 80 columns.

package chesscore

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The Seven Tag Roster, in its export order, and the placeholder of each unknown value.
var sevenTags = [...]struct{ name, unknown string }{
	{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
	{"White", "?"}, {"Black", "?"}, {"Result", ""},
}

// pgnLineWidth is the longest line the writer makes (under 80 columns).
const pgnLineWidth = 79

// String returns the game in PGN, or an error message in a comment if it cannot be
// written.
func (pg *PGNGame) String() string {
	var b strings.Builder
	if err := WritePGN(&b, pg); err != nil {
		return "{" + strings.ReplaceAll(err.Error(), "}", ")") + "}"
	}
	return b.String()
}

// WritePGN writes the game in the PGN export format: the Seven Tag Roster first (with "?"
// for unknown values), then TimeControl, Termination, Variant (for Chess960), SetUp and
// FEN (when the game did not start from the initial position, and for Chess960), then the other tags by name; a blank line; the
// movetext wrapped under 80 columns, with NAGs, comments, [%clk] commands and variations;
// the result; a blank line. Reading the output back gives the same game.
func WritePGN(w io.Writer, pg *PGNGame) error {
	g := pg.Game
	if g == nil {
		return errors.New("write pgn: no game")
	}
	if pg.Moves != nil && len(pg.Moves) != g.Ply() {
		return fmt.Errorf("write pgn: %d annotated moves for a game of %d", len(pg.Moves), g.Ply())
	}
	var b strings.Builder
	var tagErr error // the first bad tag; the tags after it are not written
	tag := func(name, value string) {
		switch {
		case tagErr != nil:
		case !validTagName(name):
			tagErr = fmt.Errorf("write pgn: tag name %q: want letters, digits and _", name)
		case strings.ContainsAny(value, "\n\r"):
			tagErr = fmt.Errorf("write pgn: tag %s: the value has a line break", name)
		default:
			value = strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), `"`, `\"`)
			fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
		}
	}
	done := map[string]bool{"Result": true, "Termination": true, "Variant": true, "SetUp": true, "FEN": true}
	for _, st := range sevenTags {
		v, ok := pg.Tags[st.name]
		if st.name == "Result" {
			v, ok = g.outcome.Result.String(), true
		}
		if !ok {
			v = st.unknown
		}
		tag(st.name, v)
		done[st.name] = true
	}
	if v, ok := pg.Tags["TimeControl"]; ok {
		tag("TimeControl", v)
		done["TimeControl"] = true
	}
	if g.outcome.Over() {
		tag("Termination", g.outcome.Termination.String())
	}
	if g.start.variant == Chess960 {
		tag("Variant", "Chess960")
	}
	if fen := g.start.FEN(); fen != StartFEN || g.start.variant == Chess960 {
		tag("SetUp", "1")
		tag("FEN", fen)
	}
	rest := make([]string, 0, len(pg.Tags))
	for k := range pg.Tags {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		tag(k, pg.Tags[k])
	}
	if tagErr != nil {
		return tagErr
	}
	b.WriteByte('\n')

	moves := pg.Moves
	if moves == nil {
		moves = NewPGNGame(g).Moves
	}
	var mw movetextWriter
	if err := mw.comment(pg.Comment, false, 0); err != nil {
		return err
	}
	if err := mw.writeLine(moves, g.start.turn, int(g.start.fullmove)); err != nil {
		return err
	}
	mw.word(g.outcome.Result.String())
	b.WriteString(mw.finish())
	b.WriteString("\n\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// movetextWriter lays out movetext words in lines of at most pgnLineWidth characters.
type movetextWriter struct {
	out    strings.Builder
	col    int    // length of the current line
	prefix string // opening parentheses waiting for the next word
}

// openParen makes the next word start with "(".
func (mw *movetextWriter) openParen() { mw.prefix += "(" }

func (mw *movetextWriter) word(s string) {
	s, mw.prefix = mw.prefix+s, ""
	switch {
	case mw.col == 0:
	case mw.col+1+len(s) > pgnLineWidth:
		mw.out.WriteByte('\n')
		mw.col = 0
	default:
		mw.out.WriteByte(' ')
		mw.col++
	}
	mw.out.WriteString(s)
	mw.col += len(s)
}

// closeParen appends ")" to the last word (or starts a line with it, if the line is full).
func (mw *movetextWriter) closeParen() {
	if mw.col+1 > pgnLineWidth {
		mw.out.WriteByte('\n')
		mw.col = 0
	}
	mw.out.WriteByte(')')
	mw.col++
}

func (mw *movetextWriter) finish() string { return mw.out.String() }

// comment writes {text}, after a [%clk] command when withClock.
func (mw *movetextWriter) comment(text string, withClock bool, clock time.Duration) error {
	if strings.ContainsRune(text, '}') {
		return fmt.Errorf("write pgn: comment %q contains }, which PGN comments cannot hold", text)
	}
	var words []string
	if withClock {
		// The clock goes first: a reader takes the first [%clk] of a comment.
		if clock < 0 {
			return fmt.Errorf("write pgn: negative clock %v", clock)
		}
		words = append(words, "[%clk", formatClock(clock)+"]")
	}
	words = append(words, strings.Fields(text)...)
	if len(words) == 0 {
		return nil
	}
	words[0] = "{" + words[0]
	words[len(words)-1] += "}"
	for _, w := range words {
		mw.word(w)
	}
	return nil
}

// writeLine writes moves starting with side turn at move number num. Black's move carries its
// number ("12...") when it opens the line or follows a comment or a variation.
func (mw *movetextWriter) writeLine(moves []PGNMove, turn Color, num int) error {
	needNumber := true
	for i := range moves {
		mv := &moves[i]
		if mv.SAN == "" {
			return fmt.Errorf("write pgn: move %d has no SAN", i+1)
		}
		switch {
		case turn == White:
			mw.word(strconv.Itoa(num) + ".")
		case needNumber:
			mw.word(strconv.Itoa(num) + "...")
		}
		mw.word(mv.SAN)
		needNumber = false
		for _, n := range mv.NAGs {
			mw.word("$" + strconv.Itoa(int(n)))
		}
		if mv.Comment != "" || mv.HasClock {
			if err := mw.comment(mv.Comment, mv.HasClock, mv.Clock); err != nil {
				return err
			}
			needNumber = true
		}
		for _, v := range mv.Variations {
			mw.openParen()
			if err := mw.comment(v.Comment, false, 0); err != nil {
				return err
			}
			if err := mw.writeLine(v.Moves, turn, num); err != nil {
				return err
			}
			mw.closeParen()
			needNumber = true
		}
		if turn == Black {
			num++
		}
		turn ^= 1
	}
	return nil
}
