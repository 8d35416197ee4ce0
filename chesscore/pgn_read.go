// pgn_read.go: the PGN reader: many games from one stream, tags, comments, NAGs,
// variations, %clk, results, with errors that point at a line and column.

package chesscore

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// PGNReader reads the games of a PGN stream one by one.
type PGNReader struct {
	// SkipVariations drops variations instead of checking and keeping them; they are
	// still read, so a file with variations parses the same main line either way.
	SkipVariations bool

	decider MateDecider // given to every game read
	lex     pgnLexer
	games   int
	inMoves bool // the game being read has reached its movetext
}

// NewPGNReader returns a reader of the PGN text in r. Each game read is given d, which
// settles its final position (a game that went on past a dead position ends there) and
// decides its dead positions, flag falls and resignations afterwards; nil is
// MaterialRule, as for NewGame.
func NewPGNReader(r io.Reader, d MateDecider) *PGNReader {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\xef\xbb\xbf" {
		br.Discard(3) // a UTF-8 byte order mark, as some editors write
	}
	return &PGNReader{decider: d, lex: pgnLexer{r: br, line: 1, col: 1}}
}

// ReadPGN reads every game of r, giving each d as NewPGNReader does. On an error it
// returns the games read before it.
func ReadPGN(r io.Reader, d MateDecider) ([]*PGNGame, error) {
	pr := NewPGNReader(r, d)
	var out []*PGNGame
	for {
		g, err := pr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, g)
	}
}

// ParsePGN reads the single game in s (the first, if there are more), giving it d as
// NewPGNReader does.
func ParsePGN(s string, d MateDecider) (*PGNGame, error) {
	g, err := NewPGNReader(strings.NewReader(s), d).Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%w: no game in the text", ErrPGN)
	}
	return g, err
}

// Read returns the next game, or io.EOF when there are no more. After an error in a game
// (a *PGNError) the reader skips to the end of that game, so Read may be called again for
// the next one.
func (r *PGNReader) Read() (*PGNGame, error) {
	g, err := r.read()
	if err != nil && err != io.EOF {
		r.resync()
	}
	return g, err
}

func (r *PGNReader) errAt(t token, format string, args ...any) error {
	return &PGNError{Game: r.games, Line: t.line, Column: t.col, Err: fmt.Errorf("%w: %s", ErrPGN, fmt.Sprintf(format, args...))}
}

func (r *PGNReader) wrapAt(t token, err error) error {
	return &PGNError{Game: r.games, Line: t.line, Column: t.col, Err: err}
}

// resync skips the rest of a broken game: up to a result outside any variation, or to a
// tag at the start of a line once the moves have begun (the next game's tags).
func (r *PGNReader) resync() {
	depth := 0
	inMoves := r.inMoves
	prev := tEOF
	for {
		t, err := r.lex.peek()
		if err != nil {
			var le *lexError
			if errors.As(err, &le) {
				continue // the lexer has moved past the bad text
			}
			return
		}
		switch t.kind {
		case tEOF:
			return
		case tLBracket:
			if t.col == 1 && inMoves {
				return
			}
		case tRBracket, tString, tComment:
		case tLParen:
			depth++
			inMoves = true
		case tRParen:
			depth--
			inMoves = true
		case tSymbol:
			if prev == tLBracket {
				break // a tag name
			}
			if isResultText(t.text) && depth <= 0 {
				r.lex.drop()
				return
			}
			inMoves = true
		default:
			inMoves = true
		}
		prev = t.kind
		r.lex.drop()
	}
}

func (r *PGNReader) read() (*PGNGame, error) {
	r.inMoves = false
	first, err := r.lex.peek()
	if err != nil {
		r.games++
		return nil, r.lexErr(err)
	}
	for first.kind == tComment { // commentary before the tags belongs to nothing
		r.lex.drop()
		if first, err = r.lex.peek(); err != nil {
			r.games++
			return nil, r.lexErr(err)
		}
	}
	if first.kind == tEOF {
		return nil, io.EOF
	}
	r.games++
	tags := map[string]string{}
	tagPos := map[string]token{}
	for {
		t, err := r.lex.peek()
		if err != nil {
			return nil, r.lexErr(err)
		}
		if t.kind != tLBracket {
			break
		}
		r.lex.drop()
		name, err := r.lex.next()
		if err != nil {
			return nil, r.lexErr(err)
		}
		if name.kind != tSymbol || !validTagName(name.text) {
			return nil, r.errAt(name, "a tag pair is [Name \"value\"]: want a tag name after [")
		}
		val, err := r.lex.next()
		if err != nil {
			return nil, r.lexErr(err)
		}
		if val.kind != tString {
			return nil, r.errAt(val, "tag %s: want a quoted value", name.text)
		}
		end, err := r.lex.next()
		if err != nil {
			return nil, r.lexErr(err)
		}
		if end.kind != tRBracket {
			return nil, r.errAt(end, "tag %s: want ] after the value", name.text)
		}
		tags[name.text] = val.text
		tagPos[name.text] = name
	}
	pg := &PGNGame{Tags: tags}
	start := StartPosition()
	if fen, ok := tags["FEN"]; ok {
		if tags["SetUp"] == "0" {
			return nil, r.errAt(tagPos["SetUp"], "SetUp \"0\" contradicts the FEN tag")
		}
		p, err := ParseFEN(fen)
		if err != nil {
			return nil, r.wrapAt(tagPos["FEN"], err)
		}
		start = p
	} else if tags["SetUp"] == "1" {
		return nil, r.errAt(tagPos["SetUp"], "SetUp \"1\" without a FEN tag")
	}
	if v, ok := tags["Variant"]; ok {
		want := Standard
		switch strings.ToLower(v) {
		case "standard", "chess", "from position", "normal":
		case "chess960", "chess 960", "fischerandom", "fischer random", "freestyle":
			want = Chess960
		default:
			return nil, r.errAt(tagPos["Variant"], "variant %q is not supported: only standard chess and Chess960", v)
		}
		if err := start.SetVariant(want); err != nil {
			return nil, r.errAt(tagPos["Variant"], "variant %q: %v", v, err)
		}
	}
	pg.Game = NewGame(start, r.decider)
	r.inMoves = true
	resTok, err := r.parseLine(pg, nil, start, 0)
	if err != nil {
		return nil, err
	}
	if err := r.settleOutcome(pg, resTok, tagPos); err != nil {
		return nil, err
	}
	for _, k := range [...]string{"Result", "Termination", "Variant", "SetUp", "FEN"} {
		delete(pg.Tags, k)
	}
	for _, st := range sevenTags {
		if v, ok := pg.Tags[st.name]; ok && v == st.unknown {
			delete(pg.Tags, st.name) // "?" means unknown, as no tag does
		}
	}
	return pg, nil
}

func validTagName(s string) bool {
	if s == "" || !isLetter(s[0]) && !isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

func (r *PGNReader) lexErr(err error) error {
	var le *lexError
	if errors.As(err, &le) {
		return &PGNError{Game: r.games, Line: le.line, Column: le.col, Err: fmt.Errorf("%w: %s", ErrPGN, le.msg)}
	}
	return fmt.Errorf("read pgn game %d: %w", r.games, err)
}

// parseLine reads the moves of a line starting from pos: the main line (vr == nil, moves
// go into pg.Game) or a variation (vr != nil). It returns the token that ended the line:
// the result (or EOF, or the next game's tag) for the main line, ")" for a variation.
func (r *PGNReader) parseLine(pg *PGNGame, vr *PGNVariation, pos Position, depth int) (token, error) {
	main := vr == nil
	var moves *[]PGNMove
	var lineComment *string
	if main {
		moves, lineComment = &pg.Moves, &pg.Comment
	} else {
		moves, lineComment = &vr.Moves, &vr.Comment
	}
	var before Position // the position before the last move of this line
	var ml MoveList
	for {
		t, err := r.lex.peek()
		if err != nil {
			return t, r.lexErr(err)
		}
		switch t.kind {
		case tEOF:
			if !main {
				return t, r.errAt(t, "the file ends inside a variation: want )")
			}
			return t, nil
		case tLBracket:
			if !main {
				return t, r.errAt(t, "a tag inside a variation: want ) first")
			}
			return t, nil // the next game begins; this one had no result
		case tRBracket, tString:
			return t, r.errAt(t, "unexpected %s in the moves", t.describe())
		case tPeriod:
			r.lex.drop()
			continue
		case tComment:
			r.lex.drop()
			text := normalizeSpace(t.text)
			if len(*moves) == 0 {
				*lineComment = joinComment(*lineComment, text)
			} else {
				mv := &(*moves)[len(*moves)-1]
				text, clk, ok := extractClock(text)
				if ok {
					mv.Clock, mv.HasClock = clk, true
				}
				mv.Comment = joinComment(mv.Comment, text)
			}
			continue
		case tNAG:
			r.lex.drop()
			n, err := strconv.ParseUint(t.text, 10, 8)
			if err != nil {
				return t, r.errAt(t, "NAG $%s: want a number from 0 to 255", t.text)
			}
			if len(*moves) == 0 {
				return t, r.errAt(t, "NAG $%s before any move", t.text)
			}
			mv := &(*moves)[len(*moves)-1]
			mv.NAGs = append(mv.NAGs, uint8(n))
			continue
		case tLParen:
			r.lex.drop()
			if len(*moves) == 0 {
				return t, r.errAt(t, "a variation must follow the move it replaces")
			}
			if depth+1 > maxPGNDepth {
				return t, r.errAt(t, "variations nested deeper than %d", maxPGNDepth)
			}
			var v PGNVariation
			if _, err := r.parseLine(pg, &v, before, depth+1); err != nil {
				return t, err
			}
			r.lex.drop() // the ")"
			// An empty "()" says nothing and is dropped.
			if !r.SkipVariations && (len(v.Moves) > 0 || v.Comment != "") {
				mv := &(*moves)[len(*moves)-1]
				mv.Variations = append(mv.Variations, v)
			}
			continue
		case tRParen:
			if main {
				return t, r.errAt(t, "unmatched )")
			}
			return t, nil
		}
		// A symbol: a result, a move number, a glyph or a move.
		text := t.text
		if isResultText(text) {
			if !main {
				return t, r.errAt(t, "result %s inside a variation: want ) first", text)
			}
			r.lex.drop()
			return t, nil
		}
		r.lex.drop()
		if allDigits(text) {
			continue // a move number; its periods follow as their own tokens
		}
		if nag, ok := glyphNAGs[text]; ok {
			if len(*moves) == 0 {
				return t, r.errAt(t, "annotation %s before any move", text)
			}
			mv := &(*moves)[len(*moves)-1]
			mv.NAGs = append(mv.NAGs, nag)
			continue
		}
		if text == "--" || text == "Z0" || text == "0000" {
			return t, r.errAt(t, "null move %s: not a legal move, and not supported", text)
		}
		bare, nag := splitAnnotation(text)
		if main {
			pos = pg.Game.pos
			if pg.Game.Over() {
				return t, r.errAt(t, "move %s after the game ended (%s)", text, pg.Game.Outcome())
			}
		}
		pos.LegalMoves(&ml)
		m, err := pos.parseMove(bare, &ml)
		if err != nil {
			return t, r.wrapAt(t, fmt.Errorf("move %s: %w", text, err))
		}
		mv := PGNMove{Move: m}
		if nag != 0 {
			mv.NAGs = append(mv.NAGs, nag)
		}
		before = pos
		if main {
			pg.Game.play(m, &ml, nil, false) // the dead-position test runs once, at the end (settleOutcome)
			mv.SAN = pg.Game.san[len(pg.Game.san)-1]
		} else {
			var buf [8]byte
			mv.SAN = string(pos.appendSAN(buf[:0], m, &ml))
			pos = pos.Play(m)
		}
		*moves = append(*moves, mv)
	}
}

// isResultText reports a game termination marker.
func isResultText(s string) bool {
	switch s {
	case "*", "1-0", "0-1", "1/2-1/2", "½-½":
		return true
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// settleOutcome reconciles the result at the end of the moves, the Result and Termination
// tags and the final position.
func (r *PGNReader) settleOutcome(pg *PGNGame, end token, tagPos map[string]token) error {
	g := pg.Game
	// The moves were read without the dead-position test (as ReplayGame does): a record
	// may go on past a position found dead today, and a dead position stays dead, so the
	// final position settles it.
	g.SettleDeadPosition()
	res := NoResult
	where := end
	moveResult := false
	if end.kind == tSymbol {
		res, _ = ParseResult(end.text)
		moveResult = true
	}
	if tv, ok := pg.Tags["Result"]; ok {
		tr, err := ParseResult(tv)
		if err != nil {
			return r.wrapAt(tagPos["Result"], err)
		}
		if moveResult && tr != res {
			return r.errAt(end, "the Result tag says %s but the moves end with %s", tr, res)
		}
		if !moveResult {
			res, where = tr, tagPos["Result"]
		}
	}
	if g.Over() {
		if res != NoResult && res != g.outcome.Result {
			return r.errAt(where, "the moves end in %s, so the result is %s, not %s", g.outcome.Termination, g.outcome.Result, res)
		}
		return nil
	}
	// "normal", a free-text reason or no tag at all: the reason is inferred below.
	term, known := ParseTermination(pg.Tags["Termination"])
	if res == NoResult {
		if known && term == Aborted {
			return r.endGame(g, Outcome{NoResult, Aborted}, where)
		}
		return nil
	}
	if known && term == TimeForfeit && res == Draw {
		term = DrawOnTime
	}
	if known && term == DrawOnTime && res != Draw {
		term = TimeForfeit
	}
	if !known || term == NoTermination {
		switch {
		case res != Draw:
			term = Resignation
		case g.Repetitions() >= 3:
			term = ThreefoldRepetition
		case g.pos.halfmove >= 100:
			term = FiftyMoves
		default:
			term = Agreement
		}
	}
	if term == Agreement && g.Ply() < 2 && res == Draw {
		term = Adjudication // a draw "agreed" before both moved is not an agreement under the Laws
	}
	return r.endGame(g, Outcome{res, term}, where)
}

func (r *PGNReader) endGame(g *Game, o Outcome, where token) error {
	if o.Termination == ThreefoldRepetition && g.Repetitions() < 3 {
		return r.errAt(where, "a threefold repetition draw, but the final position has appeared %s", times(g.Repetitions()))
	}
	if o.Termination == FiftyMoves && g.pos.halfmove < 100 {
		return r.errAt(where, "a fifty-move draw, but the last capture or pawn move was %s ago", plural(int(g.pos.halfmove), "half-move"))
	}
	if err := g.End(o); err != nil {
		return r.wrapAt(where, err)
	}
	return nil
}
