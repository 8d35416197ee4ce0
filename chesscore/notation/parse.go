// parse.go: reading a move typed with the piece letters of the player's language, with
// English letters, with figurines or in UCI; when a letter names different pieces in the
// two languages and both readings are legal moves, both are returned for the player to
// choose.

package notation

import (
	"errors"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
)

// Reading is what a move text names in a position.
type Reading struct {
	// Move is the move read: in the player's language when the text reads as a legal
	// move in it, else in English.
	Move chesscore.Move
	// Alt is chesscore.NullMove, or, when the text names one legal move read in the
	// player's language and another read in English (Spanish "Re2": the king, or in
	// English the rook), the English one; the player must then choose.
	Alt chesscore.Move
}

// Ambiguous reports whether the text read as two different legal moves.
func (r Reading) Ambiguous() bool { return r.Alt != chesscore.NullMove }

// Parse reads the move a player whose language is lang typed in pos. It accepts what
// chesscore.Position.ParseSAN accepts (SAN with English letters, UCI, long algebraic,
// castling), the same forms with the letters of lang ("Sf3", "Кре2", "e8=D") and with
// figurines ("♘f3", "e8=♕"). A letter of lang that English reads as another piece is
// read both ways: a move legal in only one reading is that move; if both are legal
// and differ, the Reading is ambiguous. lang nil means English.
//
// A legal move is read without allocating. The error is a *chesscore.MoveError saying
// what is wrong, in the player's reading of the text.
func Parse(pos *chesscore.Position, input string, lang *Language) (Reading, error) {
	if lang == nil {
		lang = English
	}
	s := clean(input)
	lead, leadLen := lang.tokenAt(s)
	body, promo, promoText, ok := cutPromotion(s[leadLen:], lang)
	leadText := s[:leadLen]
	differs := leadLen > 0 && english(leadText) != lead || promoText != "" && englishPromotion(promoText) != promo || !ascii(body)
	if !differs {
		// The text means in lang what it means in English: chesscore reads it.
		m, err := pos.ParseSAN(input)
		if err != nil && lang != English && errors.Is(err, chesscore.ErrMoveSyntax) {
			err = explain(pos, input, lang, text{}, false, nil)
		}
		return Reading{Move: m}, err
	}
	var ml chesscore.MoveList
	pos.LegalMoves(&ml)
	var local chesscore.Move
	var t text
	if ok {
		t, ok = parseBody(body)
		t.piece, t.promo, t.promoGiven = lead, promo, promoText != ""
		if ok {
			local = t.resolve(pos, &ml)
		}
	}
	// The English reading exists when every letter of the text is an English one.
	englishReads := (leadLen == 0 || english(leadText) != chesscore.NoPieceType) &&
		(promoText == "" || englishPromotion(promoText) != chesscore.NoPieceType) && ascii(body)
	var eng chesscore.Move
	var engErr error
	if englishReads {
		eng, engErr = pos.ParseSAN(input)
	}
	switch {
	case local != chesscore.NullMove && eng != chesscore.NullMove && local != eng:
		return Reading{Move: local, Alt: eng}, nil
	case local != chesscore.NullMove:
		return Reading{Move: local}, nil
	case eng != chesscore.NullMove:
		return Reading{Move: eng}, nil
	}
	return Reading{}, explain(pos, input, lang, t, ok, engErr)
}

// explain says why no reading of input is a legal move: chesscore's explanation of the
// reading in the player's language, spelt in English letters; or, when the text is no
// move in that language, the English reading's error.
func explain(pos *chesscore.Position, input string, lang *Language, t text, ok bool, engErr error) error {
	if !ok {
		if engErr != nil && !errors.Is(engErr, chesscore.ErrMoveSyntax) {
			return engErr
		}
		if strings.TrimSpace(input) == "" {
			return &chesscore.MoveError{Input: input, Reason: "no move given", Err: chesscore.ErrMoveSyntax}
		}
		reason := `"` + strings.TrimSpace(input) + `" is not a move: write it like e4, ` + example(lang) + ", O-O, e8=Q or e2e4"
		if lang != English {
			reason += " (" + lang.Name + " letters: " + lang.letterList() + ")"
		}
		return &chesscore.MoveError{Input: input, Reason: reason, Err: chesscore.ErrMoveSyntax}
	}
	m, err := pos.ParseSAN(t.english())
	if err == nil {
		// chesscore reads the English spelling as a move where this reading found
		// none: both read the same text, so this cannot differ; its answer stands.
		return &chesscore.MoveError{Input: input, Reason: "read as " + pos.SAN(m) + ": play it as " + pos.SAN(m), Err: chesscore.ErrAmbiguousMove}
	}
	var me *chesscore.MoveError
	if errors.As(err, &me) {
		return &chesscore.MoveError{Input: input, Reason: me.Reason, Err: me.Err}
	}
	return err
}

// example is a knight's move in lang ("Sf3"), and in English when lang's differs.
func example(lang *Language) string {
	if lang == English || lang.Letters[chesscore.Knight] == "N" {
		return "Nf3"
	}
	return lang.Letters[chesscore.Knight] + "f3 (Nf3)"
}

// letterList is lang's letters for king, queen, rook, bishop and knight.
func (l *Language) letterList() string {
	return l.Letters[chesscore.King] + " " + l.Letters[chesscore.Queen] + " " + l.Letters[chesscore.Rook] + " " +
		l.Letters[chesscore.Bishop] + " " + l.Letters[chesscore.Knight]
}

// clean drops what does not name the move: spaces, a leading move number ("12.",
// "12..."), trailing check marks and annotation glyphs ("+", "#", "!?"), and "e.p.".
func clean(s string) string {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && s[i] == '.' {
		for i < len(s) && s[i] == '.' {
			i++
		}
		s = strings.TrimSpace(s[i:])
	}
	for len(s) > 0 && strings.IndexByte("+#!?", s[len(s)-1]) >= 0 {
		s = s[:len(s)-1]
	}
	s = strings.TrimSuffix(strings.TrimSuffix(s, "e.p."), "ep")
	return strings.TrimSpace(s)
}

// englishPromotion is the piece an English promotion letter names, in either case.
func englishPromotion(s string) chesscore.PieceType {
	if len(s) == 1 && s[0] == 'b' {
		return chesscore.Bishop
	}
	if len(s) == 1 && (s[0] == 'P' || s[0] == 'p') {
		return chesscore.Pawn
	}
	return english(strings.ToUpper(s))
}

// cutPromotion removes a promotion written with one of lang's letters or a figurine
// ("=D", "D", "(D)", "/D" after the square) and returns the rest, the piece and its
// letter ("" when none). ok is false when the text cannot be a move in lang.
func cutPromotion(s string, lang *Language) (rest string, promo chesscore.PieceType, letter string, ok bool) {
	if strings.HasSuffix(s, ")") {
		i := strings.LastIndexByte(s, '(')
		if i < 0 {
			return s, chesscore.NoPieceType, "", false
		}
		inner := s[i+1 : len(s)-1]
		if pt := lang.tokenIs(inner); pt != chesscore.NoPieceType && digitBefore(s[:i]) {
			return s[:i], pt, inner, true
		}
		return s, chesscore.NoPieceType, "", false
	}
	for _, t := range lang.tokens {
		if !strings.HasSuffix(s, t.text) {
			continue
		}
		before := s[:len(s)-len(t.text)]
		switch {
		case strings.HasSuffix(before, "=") || strings.HasSuffix(before, "/"):
			before = before[:len(before)-1]
		case !digitBefore(before):
			continue
		}
		if !digitBefore(before) {
			return s, chesscore.NoPieceType, "", false
		}
		return before, t.pt, t.text, true
	}
	return s, chesscore.NoPieceType, "", true
}

// digitBefore reports whether s ends with a rank digit.
func digitBefore(s string) bool { return len(s) > 0 && s[len(s)-1] >= '1' && s[len(s)-1] <= '8' }

// text is a move read in one language.
type text struct {
	piece              chesscore.PieceType // NoPieceType: a pawn, or with both squares whatever stands there
	fromFile, fromRank int                 // -1 when not given
	to                 chesscore.Square
	promo              chesscore.PieceType
	promoGiven         bool
}

// parseBody reads the part of a move between its piece letter and its promotion:
// [file][rank][x:-]square. The Cyrillic letters that look like files and the capture
// mark (а, с, е, х), which a player on a Cyrillic keyboard types for a, c, e and x, are
// read as those.
func parseBody(s string) (text, bool) {
	t := text{fromFile: -1, fromRank: -1}
	var buf [16]byte
	n := 0
	for _, r := range s {
		if n == len(buf) {
			return t, false
		}
		switch r {
		case 'а':
			r = 'a'
		case 'с':
			r = 'c'
		case 'е':
			r = 'e'
		case 'х':
			r = 'x'
		}
		if r >= 0x80 {
			return t, false
		}
		buf[n] = byte(r)
		n++
	}
	b := buf[:n]
	if len(b) < 2 || !isFile(b[len(b)-2]) || !isRank(b[len(b)-1]) {
		return t, false
	}
	t.to = chesscore.MakeSquare(int(b[len(b)-2]-'a'), int(b[len(b)-1]-'1'))
	b = b[:len(b)-2]
	if n := len(b); n > 0 && (b[n-1] == 'x' || b[n-1] == ':' || b[n-1] == '-') {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '-' { // "x-"
		b = b[:n-1]
	}
	if len(b) > 0 && isFile(b[0]) {
		t.fromFile = int(b[0] - 'a')
		b = b[1:]
	}
	if len(b) > 0 && isRank(b[0]) {
		t.fromRank = int(b[0] - '1')
		b = b[1:]
	}
	return t, len(b) == 0
}

func isFile(c byte) bool { return c >= 'a' && c <= 'h' }
func isRank(c byte) bool { return c >= '1' && c <= '8' }

// ascii reports whether s is all ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// resolve returns the one legal move of ml that t names, or NullMove when none or
// several do (chesscore then says why, from the English spelling).
func (t *text) resolve(pos *chesscore.Position, ml *chesscore.MoveList) chesscore.Move {
	pt := t.piece
	if pt == chesscore.NoPieceType && !(t.fromFile >= 0 && t.fromRank >= 0) {
		pt = chesscore.Pawn
	}
	if pt == chesscore.NoPieceType && t.fromRank >= 0 && t.fromFile < 0 {
		return chesscore.NullMove
	}
	found, n := chesscore.NullMove, 0
	for _, m := range ml.Moves[:ml.N] {
		from := m.From()
		if m.Kind() == chesscore.CastlingMove || m.To() != t.to {
			continue
		}
		if got := pos.PieceAt(from).Type(); pt != chesscore.NoPieceType && got != pt {
			continue
		}
		if t.fromFile >= 0 && from.File() != t.fromFile || t.fromRank >= 0 && from.Rank() != t.fromRank {
			continue
		}
		if pt == chesscore.Pawn && t.fromFile < 0 && from.File() != t.to.File() {
			continue // "e4" is a push: a capture names its file
		}
		if m.Kind() == chesscore.PromotionMove {
			if !t.promoGiven || m.Promotion() != t.promo {
				continue
			}
		} else if t.promoGiven {
			continue
		}
		found = m
		n++
	}
	if n != 1 {
		return chesscore.NullMove
	}
	return found
}

// english spells t with English letters, for chesscore's explanations.
func (t *text) english() string {
	var b strings.Builder
	if t.piece != chesscore.NoPieceType && t.piece != chesscore.Pawn {
		b.WriteByte(t.piece.Letter())
	}
	if t.fromFile >= 0 {
		b.WriteByte(byte('a' + t.fromFile))
	}
	if t.fromRank >= 0 {
		b.WriteByte(byte('1' + t.fromRank))
	}
	b.WriteString(t.to.String())
	if t.promoGiven {
		b.WriteByte('=')
		b.WriteByte(t.promo.Letter())
	}
	return b.String()
}
