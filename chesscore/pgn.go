// pgn.go: Portable Game Notation: reading files of many games (tags, comments, NAGs,
// variations, %clk, results) with errors that point at a line and column, and writing
// games in the standard's export format.

package chesscore

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
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

// PGNReader reads the games of a PGN stream one by one.
type PGNReader struct {
	// SkipVariations drops variations instead of checking and keeping them; they are
	// still read, so a file with variations parses the same main line either way.
	SkipVariations bool

	lex     pgnLexer
	games   int
	inMoves bool // the game being read has reached its movetext
}

// NewPGNReader returns a reader of the PGN text in r.
func NewPGNReader(r io.Reader) *PGNReader {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\xef\xbb\xbf" {
		br.Discard(3) // a UTF-8 byte order mark, as some editors write
	}
	return &PGNReader{lex: pgnLexer{r: br, line: 1, col: 1}}
}

// ReadPGN reads every game of r. On an error it returns the games read before it.
func ReadPGN(r io.Reader) ([]*PGNGame, error) {
	pr := NewPGNReader(r)
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

// ParsePGN reads the single game in s (the first, if there are more).
func ParsePGN(s string) (*PGNGame, error) {
	g, err := NewPGNReader(strings.NewReader(s)).Read()
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
		switch strings.ToLower(v) {
		case "standard", "chess", "from position", "normal":
		default:
			return nil, r.errAt(tagPos["Variant"], "variant %q is not supported: only standard chess", v)
		}
	}
	pg.Game = NewGame(start)
	r.inMoves = true
	resTok, err := r.parseLine(pg, nil, start, 0)
	if err != nil {
		return nil, err
	}
	if err := r.settleOutcome(pg, resTok, tagPos); err != nil {
		return nil, err
	}
	for _, k := range [...]string{"Result", "Termination", "SetUp", "FEN"} {
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
			pg.Game.play(m, &ml)
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
// for unknown values), then TimeControl, Termination, SetUp and FEN (when the game did
// not start from the initial position), then the other tags by name; a blank line; the
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
	tag := func(name, value string) error {
		if !validTagName(name) {
			return fmt.Errorf("write pgn: tag name %q: want letters, digits and _", name)
		}
		if strings.ContainsAny(value, "\n\r") {
			return fmt.Errorf("write pgn: tag %s: the value has a line break", name)
		}
		value = strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), `"`, `\"`)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
		return nil
	}
	done := map[string]bool{"Result": true, "Termination": true, "SetUp": true, "FEN": true}
	for _, st := range sevenTags {
		v, ok := pg.Tags[st.name]
		if st.name == "Result" {
			v, ok = g.outcome.Result.String(), true
		}
		if !ok {
			v = st.unknown
		}
		if err := tag(st.name, v); err != nil {
			return err
		}
		done[st.name] = true
	}
	if v, ok := pg.Tags["TimeControl"]; ok {
		if err := tag("TimeControl", v); err != nil {
			return err
		}
		done["TimeControl"] = true
	}
	if g.outcome.Over() {
		if err := tag("Termination", g.outcome.Termination.String()); err != nil {
			return err
		}
	}
	if fen := g.start.FEN(); fen != StartFEN {
		if err := tag("SetUp", "1"); err != nil {
			return err
		}
		if err := tag("FEN", fen); err != nil {
			return err
		}
	}
	rest := make([]string, 0, len(pg.Tags))
	for k := range pg.Tags {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		if err := tag(k, pg.Tags[k]); err != nil {
			return err
		}
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

// tokKind is the kind of a PGN token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tLBracket
	tRBracket
	tLParen
	tRParen
	tPeriod
	tString
	tSymbol
	tNAG
	tComment
)

type token struct {
	kind      tokKind
	text      string
	line, col int
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tLBracket:
		return "["
	case tRBracket:
		return "]"
	case tLParen:
		return "("
	case tRParen:
		return ")"
	case tPeriod:
		return "."
	case tString:
		return "string " + strconv.Quote(t.text)
	case tNAG:
		return "$" + t.text
	case tComment:
		return "comment"
	}
	return strconv.Quote(t.text)
}

// lexError is a syntax error of the lexer at a line and column.
type lexError struct {
	line, col int
	msg       string
}

func (e *lexError) Error() string { return e.msg }

// pgnLexer splits PGN text into tokens, keeping track of lines and columns.
type pgnLexer struct {
	r         *bufio.Reader
	line, col int // of the next byte
	peeked    token
	hasPeeked bool
}

func (l *pgnLexer) peek() (token, error) {
	if l.hasPeeked {
		return l.peeked, nil
	}
	t, err := l.scan()
	if err != nil {
		return t, err
	}
	l.peeked, l.hasPeeked = t, true
	return t, nil
}

func (l *pgnLexer) next() (token, error) {
	t, err := l.peek()
	l.hasPeeked = false
	return t, err
}

func (l *pgnLexer) drop() { l.hasPeeked = false }

func (l *pgnLexer) readByte() (byte, error) {
	c, err := l.r.ReadByte()
	if err != nil {
		return 0, err
	}
	if c == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	return c, nil
}

func (l *pgnLexer) peekByte() (byte, bool) {
	b, err := l.r.Peek(1)
	if err != nil {
		return 0, false
	}
	return b[0], true
}

func isSymbolByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c >= 0x80 || strings.IndexByte("_+#=:-/!?", c) >= 0
}

func (l *pgnLexer) scan() (token, error) {
	for {
		line, col := l.line, l.col
		c, err := l.readByte()
		if err == io.EOF {
			return token{kind: tEOF, line: line, col: col}, nil
		}
		if err != nil {
			return token{}, err
		}
		t := token{line: line, col: col}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			continue
		case c == '%' && col == 1: // an escaped line
			if err := l.skipLine(); err != nil {
				return t, err
			}
			continue
		case c == '[':
			t.kind = tLBracket
		case c == ']':
			t.kind = tRBracket
		case c == '(':
			t.kind = tLParen
		case c == ')':
			t.kind = tRParen
		case c == '.':
			t.kind = tPeriod
		case c == '*':
			t.kind, t.text = tSymbol, "*"
		case c == '"':
			return l.scanString(t)
		case c == '{':
			return l.scanComment(t)
		case c == ';':
			var b strings.Builder
			for {
				c, ok := l.peekByte()
				if !ok || c == '\n' {
					break
				}
				l.readByte()
				if b.Len() < maxPGNText {
					b.WriteByte(c)
				}
			}
			t.kind, t.text = tComment, b.String()
		case c == '$':
			var b strings.Builder
			for {
				c, ok := l.peekByte()
				if !ok || !isDigit(c) || b.Len() > 3 {
					break
				}
				l.readByte()
				b.WriteByte(c)
			}
			if b.Len() == 0 {
				return t, &lexError{line, col, "$ must be followed by a number (a NAG, like $1)"}
			}
			t.kind, t.text = tNAG, b.String()
		case isSymbolByte(c):
			b := []byte{c}
			for {
				c, ok := l.peekByte()
				if !ok || !isSymbolByte(c) {
					break
				}
				l.readByte()
				if len(b) < 64 {
					b = append(b, c)
				}
			}
			t.kind, t.text = tSymbol, string(b)
		default:
			return t, &lexError{line, col, fmt.Sprintf("unexpected character %q", rune(c))}
		}
		return t, nil
	}
}

func (l *pgnLexer) skipLine() error {
	for {
		c, err := l.readByte()
		if err == io.EOF || c == '\n' {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (l *pgnLexer) scanString(t token) (token, error) {
	var b strings.Builder
	for {
		c, err := l.readByte()
		if err == io.EOF || c == '\n' {
			return t, &lexError{t.line, t.col, "unterminated string: want a closing \" on the same line"}
		}
		if err != nil {
			return t, err
		}
		switch c {
		case '"':
			t.kind, t.text = tString, b.String()
			return t, nil
		case '\\':
			line, col := l.line, l.col-1
			n, err := l.readByte()
			if err != nil || (n != '\\' && n != '"') {
				return t, &lexError{line, col, `in a string, \ must be followed by \ or "`}
			}
			c = n
		}
		if b.Len() >= maxPGNText {
			return t, &lexError{t.line, t.col, "string longer than 1 MiB"}
		}
		b.WriteByte(c)
	}
}

func (l *pgnLexer) scanComment(t token) (token, error) {
	var b strings.Builder
	for {
		c, err := l.readByte()
		if err == io.EOF {
			return t, &lexError{t.line, t.col, "unterminated comment: want }"}
		}
		if err != nil {
			return t, err
		}
		if c == '}' {
			t.kind, t.text = tComment, b.String()
			return t, nil
		}
		if b.Len() < maxPGNText {
			b.WriteByte(c)
		}
	}
}
