package notation

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gambitchess/gambit/chesscore"
)

// FuzzParse reads any text in any language in a few positions: it never panics nor
// changes the position, a move read is legal (and its alternative, when ambiguous, is
// another legal move), a refusal is an explained *MoveError, and in English the reading
// is exactly chesscore's. The seed corpus is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	fens := []string{chesscore.StartFEN, kingRook, pawnBishop, promotion, twoKnights, blackCastle}
	for i, s := range []string{"Sf3", "Re2", "Кре2", "e8=D", "Bc4", "Şe2", "♘f3", "е4", "Кbхd2", "e8(Ф)", "0-0-0", "1... Kd8"} {
		f.Add(uint8(i), uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, which, lang uint8, s string) {
		p := position(t, fens[int(which)%len(fens)])
		l := Languages[int(lang)%len(Languages)]
		before := p.FEN()
		r, err := Parse(p, s, l)
		if p.FEN() != before {
			t.Fatalf("Parse(%q) changed the position", s)
		}
		if l == English && !strings.ContainsAny(s, "♔♕♖♗♘♙♚♛♜♝♞♟") && ascii(s) {
			m, serr := p.ParseSAN(s)
			if m != r.Move || (serr == nil) != (err == nil) || r.Ambiguous() {
				t.Fatalf("English Parse(%q) = %v, %v; chesscore reads %v, %v", s, r.Move, err, m, serr)
			}
		}
		if err != nil {
			var me *chesscore.MoveError
			if !errors.As(err, &me) || me.Reason == "" || me.Input != s {
				t.Fatalf("Parse(%q): error %v is not an explained *MoveError of the input", s, err)
			}
			if utf8.ValidString(s) && !utf8.ValidString(me.Reason) {
				t.Fatalf("Parse(%q): reason is not UTF-8", s)
			}
			return
		}
		if !p.IsLegal(r.Move) {
			t.Fatalf("Parse(%q) = %v, not legal", s, r.Move)
		}
		if r.Ambiguous() && (!p.IsLegal(r.Alt) || r.Alt == r.Move) {
			t.Fatalf("Parse(%q): alternative %v of %v", s, r.Alt, r.Move)
		}
	})
}
