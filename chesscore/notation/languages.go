// languages.go: the piece letters of each shipped language, as its chess literature
// writes them (FIDE Laws, Appendix C.3, lets each player use the letters of their own
// language).

package notation

import (
	"strings"
	"unicode/utf8"

	"github.com/gambitchess/gambit/chesscore"
)

// Language is the notation of one language: the letters that name its pieces.
type Language struct {
	// Code is the language's code as Discord's locales begin ("de", "pt", "uk").
	Code string
	// Name is the language's English name, for logs and documentation.
	Name string
	// Letters holds, per chesscore.PieceType, the letter (or letters: Russian Кр) that
	// names the piece; "" for none. Only German names its pawns (B, Bauer), and only as
	// an optional prefix; SAN never writes a pawn's letter.
	Letters [7]string

	tokens []token // the letters as read: every case accepted, longest first
}

// token is one spelling of a piece letter.
type token struct {
	text string
	pt   chesscore.PieceType
}

// The shipped languages. The letters are the ones the chess books and score sheets of
// each language use (general knowledge of their chess literature).
var (
	// English: King, Queen, Rook, Bishop, kNight. The PGN standard's letters.
	English = newLanguage("en", "English", "K", "Q", "R", "B", "N", "")
	// German: König, Dame, Turm, Läufer, Springer; Bauer for a pawn.
	German = newLanguage("de", "German", "K", "D", "T", "L", "S", "B")
	// Spanish: rey, dama, torre, alfil, caballo.
	Spanish = newLanguage("es", "Spanish", "R", "D", "T", "A", "C", "")
	// French: roi, dame, tour, fou, cavalier.
	French = newLanguage("fr", "French", "R", "D", "T", "F", "C", "")
	// Portuguese: rei, dama, torre, bispo, cavalo.
	Portuguese = newLanguage("pt", "Portuguese", "R", "D", "T", "B", "C", "")
	// Italian: re, donna, torre, alfiere, cavallo.
	Italian = newLanguage("it", "Italian", "R", "D", "T", "A", "C", "")
	// Russian: король, ферзь, ладья, слон, конь.
	Russian = newLanguage("ru", "Russian", "Кр", "Ф", "Л", "С", "К", "")
	// Ukrainian: король, ферзь, тура, слон, кінь.
	Ukrainian = newLanguage("uk", "Ukrainian", "Кр", "Ф", "Т", "С", "К", "")
	// Polish: król, hetman, wieża, goniec, skoczek.
	Polish = newLanguage("pl", "Polish", "K", "H", "W", "G", "S", "")
	// Turkish: şah, vezir, kale, fil, at.
	Turkish = newLanguage("tr", "Turkish", "Ş", "V", "K", "F", "A", "")
)

// Languages lists the shipped languages, English first.
var Languages = []*Language{English, German, Spanish, French, Portuguese, Italian, Russian, Ukrainian, Polish, Turkish}

// figurines are the chess symbols of Unicode (white and black), read in every language.
var figurines = []token{
	{"♔", chesscore.King}, {"♕", chesscore.Queen}, {"♖", chesscore.Rook}, {"♗", chesscore.Bishop}, {"♘", chesscore.Knight}, {"♙", chesscore.Pawn},
	{"♚", chesscore.King}, {"♛", chesscore.Queen}, {"♜", chesscore.Rook}, {"♝", chesscore.Bishop}, {"♞", chesscore.Knight}, {"♟", chesscore.Pawn},
}

// newLanguage builds a language from its letters for king, queen, rook, bishop, knight
// and (optionally) pawn.
func newLanguage(code, name, king, queen, rook, bishop, knight, pawn string) *Language {
	l := &Language{Code: code, Name: name}
	l.Letters[chesscore.King], l.Letters[chesscore.Queen], l.Letters[chesscore.Rook] = king, queen, rook
	l.Letters[chesscore.Bishop], l.Letters[chesscore.Knight], l.Letters[chesscore.Pawn] = bishop, knight, pawn
	for pt := chesscore.Pawn; pt <= chesscore.King; pt++ {
		letter := l.Letters[pt]
		if letter == "" {
			continue
		}
		l.tokens = append(l.tokens, token{letter, pt})
		if lower := strings.ToLower(letter); lower != letter && !fileLetter(lower) {
			l.tokens = append(l.tokens, token{lower, pt})
		}
	}
	l.tokens = append(l.tokens, figurines...)
	// Longest first, so that Russian "Кр" (king) wins over "К" (knight).
	for i := 1; i < len(l.tokens); i++ {
		for j := i; j > 0 && utf8.RuneCountInString(l.tokens[j].text) > utf8.RuneCountInString(l.tokens[j-1].text); j-- {
			l.tokens[j], l.tokens[j-1] = l.tokens[j-1], l.tokens[j]
		}
	}
	return l
}

// fileLetter reports whether s is a lower-case file letter or the capture mark, which a
// lower-case piece letter must not shadow (Spanish "a" is the a-file, never an alfil).
func fileLetter(s string) bool {
	return len(s) == 1 && (s[0] >= 'a' && s[0] <= 'h' || s[0] == 'x' || s[0] == 'o')
}

// ForLocale returns the language of a Discord locale ("de", "es-ES", "pt-BR", "uk"),
// English for every locale without a shipped notation.
func ForLocale(locale string) *Language {
	code := locale
	if i := strings.IndexAny(code, "-_"); i >= 0 {
		code = code[:i]
	}
	for _, l := range Languages {
		if strings.EqualFold(l.Code, code) {
			return l
		}
	}
	return English
}

// tokenAt returns the piece named at the start of s and the length of its letter in
// bytes, or NoPieceType and 0.
func (l *Language) tokenAt(s string) (chesscore.PieceType, int) {
	for _, t := range l.tokens {
		if strings.HasPrefix(s, t.text) {
			return t.pt, len(t.text)
		}
	}
	return chesscore.NoPieceType, 0
}

// tokenIs returns the piece s names entirely, or NoPieceType.
func (l *Language) tokenIs(s string) chesscore.PieceType {
	if pt, n := l.tokenAt(s); n == len(s) {
		return pt
	}
	return chesscore.NoPieceType
}

// english returns what the text of a token means in English SAN as chesscore reads it
// (upper-case letters, lower-case n, r, q and k), or NoPieceType.
func english(s string) chesscore.PieceType {
	if len(s) != 1 {
		return chesscore.NoPieceType
	}
	switch s[0] {
	case 'K', 'k':
		return chesscore.King
	case 'Q', 'q':
		return chesscore.Queen
	case 'R', 'r':
		return chesscore.Rook
	case 'B':
		return chesscore.Bishop
	case 'N', 'n':
		return chesscore.Knight
	}
	return chesscore.NoPieceType
}
