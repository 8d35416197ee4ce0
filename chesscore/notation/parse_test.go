package notation

import (
	"errors"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
)

// Positions of the table.
const (
	// White: king e1, rook h2. Spanish/French "Re2" is the king or, in English, the rook.
	kingRook = "k7/8/8/8/8/8/7R/4K3 w - - 0 1"
	// White has pawns on c3 and e3, so the f1 bishop reaches c4 and the c-pawn too:
	// German "Bc4" is the pawn (Bauer) or, in English, the bishop.
	pawnBishop = "rnbqkbnr/pppppppp/8/8/8/2P1P3/PP1P1PPP/RNBQKBNR w KQkq - 0 1"
	// A white pawn on e7 promotes.
	promotion = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
	// Knights on b1 and f3 both reach d2.
	twoKnights = "rnbqkbnr/ppp1pppp/8/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 2"
	// Black to move, king e8 and rook a8 that may castle, a Russian score sheet's case.
	blackCastle = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1"
)

func position(t testing.TB, fen string) *chesscore.Position {
	t.Helper()
	p, err := chesscore.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return &p
}

func uci(t testing.TB, p *chesscore.Position, s string) chesscore.Move {
	t.Helper()
	if s == "" {
		return chesscore.NullMove
	}
	m, err := p.ParseUCI(s)
	if err != nil {
		t.Fatalf("ParseUCI(%q): %v", s, err)
	}
	return m
}

func TestParse(t *testing.T) {
	start := chesscore.StartFEN
	cases := []struct {
		lang      *Language
		fen, text string
		move, alt string // UCI; alt only when ambiguous
	}{
		// The knight in every language, and English everywhere.
		{English, start, "Nf3", "g1f3", ""},
		{German, start, "Sf3", "g1f3", ""},
		{German, start, "sf3", "g1f3", ""},
		{German, start, "Nf3", "g1f3", ""},
		{Spanish, start, "Cf3", "g1f3", ""},
		{French, start, "Cc3", "b1c3", ""},
		{Portuguese, start, "Cf3", "g1f3", ""},
		{Italian, start, "Cf3", "g1f3", ""},
		{Russian, start, "Кf3", "g1f3", ""},
		{Russian, start, "кf3", "g1f3", ""},
		{Ukrainian, start, "Кc3", "b1c3", ""},
		{Polish, start, "Sf3", "g1f3", ""},
		{Turkish, start, "Af3", "g1f3", ""},
		{Turkish, start, "Nf3", "g1f3", ""},
		{English, start, "♘f3", "g1f3", ""},
		{German, start, "♞c3", "b1c3", ""},
		{English, start, "e4", "e2e4", ""},
		{Russian, start, "e2e4", "e2e4", ""},
		{German, start, "1. Sf3!?", "g1f3", ""},
		{nil, start, "Nc3", "b1c3", ""},
		// R is the king in Spanish, French, Italian and Portuguese, the rook in English.
		{Spanish, kingRook, "Re2", "e1e2", "h2e2"},
		{French, kingRook, "Re2+", "e1e2", "h2e2"},
		{Italian, kingRook, "Re2", "e1e2", "h2e2"},
		{Portuguese, kingRook, "Rxe2", "e1e2", "h2e2"},
		{Spanish, kingRook, "Rd1", "e1d1", ""},  // only the king reaches d1
		{Spanish, kingRook, "Rh4", "h2h4", ""},  // only the rook reaches h4
		{Spanish, kingRook, "Te2", "h2e2", ""},  // torre
		{Spanish, kingRook, "rd1", "e1d1", ""},  // lower case, read both ways too
		{English, kingRook, "Re2", "h2e2", ""},  // an English player means the rook
		{Italian, kingRook, "Rhe2", "h2e2", ""}, // the king stands on no h-file square
		// K is the rook (kale) in Turkish, the king in English; Ş is the king (şah).
		{Turkish, kingRook, "Ke2", "h2e2", "e1e2"},
		{Turkish, kingRook, "Kg2", "h2g2", ""},
		{Turkish, kingRook, "Kf1", "e1f1", ""},
		{Turkish, kingRook, "Şe2", "e1e2", ""},
		{Turkish, kingRook, "şd2", "e1d2", ""},
		// K is the king in German and Polish, as in English.
		{German, kingRook, "Ke2", "e1e2", ""},
		{Polish, kingRook, "Ke2", "e1e2", ""},
		{German, kingRook, "Te2", "h2e2", ""},
		{Polish, kingRook, "We2", "h2e2", ""},
		// Russian and Ukrainian: Кр is the king, К the knight; Л and Т the rook.
		{Russian, kingRook, "Кре2", "e1e2", ""},
		{Russian, kingRook, "Крe2", "e1e2", ""},
		{Russian, start, "е4", "e2e4", ""},    // Cyrillic е, typed on a Cyrillic keyboard
		{Ukrainian, start, "Кс3", "b1c3", ""}, // Cyrillic с as the c-file
		{Russian, twoKnights, "Кbхd2", "b1d2", ""},
		{Russian, kingRook, "крd1", "e1d1", ""},
		{Russian, kingRook, "Лe2", "h2e2", ""},
		{Ukrainian, kingRook, "Тe2", "h2e2", ""},
		{Ukrainian, kingRook, "Крf1", "e1f1", ""},
		// German B: a pawn (Bauer) or, in English, a bishop.
		{German, pawnBishop, "Bc4", "c3c4", "f1c4"},
		{German, pawnBishop, "Lc4", "f1c4", ""},
		{German, pawnBishop, "Bb4", "b2b4", ""}, // no bishop reaches b4
		{German, pawnBishop, "Bd3", "d2d3", "f1d3"},
		{Portuguese, pawnBishop, "Bc4", "f1c4", ""},
		{Spanish, pawnBishop, "Ac4", "f1c4", ""},
		{French, pawnBishop, "Fc4", "f1c4", ""},
		{Polish, pawnBishop, "Gc4", "f1c4", ""},
		{Russian, pawnBishop, "Сc4", "f1c4", ""},
		{Turkish, pawnBishop, "Fc4", "f1c4", ""},
		{Turkish, pawnBishop, "Ve2", "d1e2", ""},
		{Polish, pawnBishop, "He2", "d1e2", ""},
		{Russian, pawnBishop, "Фe2", "d1e2", ""},
		{German, pawnBishop, "De2", "d1e2", ""},
		// Promotions with the player's letters.
		{German, promotion, "e8D", "e7e8q", ""},
		{German, promotion, "e8=D+", "e7e8q", ""},
		{German, promotion, "e8(S)", "e7e8n", ""},
		{German, promotion, "e7e8T", "e7e8r", ""},
		{German, promotion, "e8=Q", "e7e8q", ""},
		{Russian, promotion, "e8Ф", "e7e8q", ""},
		{Russian, promotion, "e8=Л", "e7e8r", ""},
		{Ukrainian, promotion, "e8=Т", "e7e8r", ""},
		{Spanish, promotion, "e8=C", "e7e8n", ""},
		{Spanish, promotion, "e8=R", "e7e8r", ""}, // a king cannot be promoted to: the English rook
		{French, promotion, "e8=F", "e7e8b", ""},
		{Polish, promotion, "e8=H", "e7e8q", ""},
		{Polish, promotion, "e8=G", "e7e8b", ""},
		{Turkish, promotion, "e8=V", "e7e8q", ""},
		{Turkish, promotion, "e8=K", "e7e8r", ""}, // kale; the English king cannot be promoted to
		{Turkish, promotion, "e8/A", "e7e8n", ""},
		{Portuguese, promotion, "e8=B", "e7e8b", ""},
		{English, promotion, "e8=♕", "e7e8q", ""},
		{Italian, promotion, "e8=♘", "e7e8n", ""},
		// Disambiguation.
		{German, twoKnights, "Sbd2", "b1d2", ""},
		{German, twoKnights, "Sfd2", "f3d2", ""},
		{Russian, twoKnights, "Кbd2", "b1d2", ""},
		{French, twoKnights, "Cf3-d2", "f3d2", ""},
		{German, twoKnights, "Sb1d2", "b1d2", ""},
		// Castling reads the same everywhere.
		{Russian, blackCastle, "0-0-0", "e8c8", ""},
		{Spanish, blackCastle, "O-O-O", "e8c8", ""},
		{Spanish, blackCastle, "Rd8", "e8d8", "a8d8"},
		{Spanish, blackCastle, "Rf8", "e8f8", ""},
	}
	for _, c := range cases {
		name := "English"
		if c.lang != nil {
			name = c.lang.Name
		}
		t.Run(name+"/"+c.text, func(t *testing.T) {
			p := position(t, c.fen)
			before := p.FEN()
			r, err := Parse(p, c.text, c.lang)
			if p.FEN() != before {
				t.Fatalf("Parse changed the position")
			}
			if err != nil {
				t.Fatalf("Parse(%q) in %s: %v", c.text, c.fen, err)
			}
			want := Reading{Move: uci(t, p, c.move), Alt: uci(t, p, c.alt)}
			if r != want {
				t.Fatalf("Parse(%q) = %v/%v, want %v/%v", c.text, r.Move, r.Alt, want.Move, want.Alt)
			}
			if r.Ambiguous() != (c.alt != "") {
				t.Fatalf("Ambiguous() = %v", r.Ambiguous())
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		lang      *Language
		fen, text string
		kind      error
		reason    string // a part of the reason
	}{
		{German, chesscore.StartFEN, "Sf5", chesscore.ErrIllegalMove, "no piece can move to f5"},
		{Russian, chesscore.StartFEN, "Кf6", chesscore.ErrIllegalMove, "it is White's move"},
		{German, twoKnights, "Sd2", chesscore.ErrAmbiguousMove, "Nbd2 or Nfd2"},
		{German, promotion, "e8", chesscore.ErrIllegalMove, "must promote"},
		{German, promotion, "e8=K", chesscore.ErrIllegalMove, "promotes to a queen"},
		{German, chesscore.StartFEN, "Xf3", chesscore.ErrMoveSyntax, "German letters: K D T L S"},
		{German, chesscore.StartFEN, "Sf9", chesscore.ErrMoveSyntax, "Sf3 (Nf3)"},
		{Spanish, chesscore.StartFEN, "Re2", chesscore.ErrIllegalMove, "your own pawn stands on e2"},
		{English, chesscore.StartFEN, "", chesscore.ErrMoveSyntax, "no move given"},
		{English, chesscore.StartFEN, "Nd4", chesscore.ErrIllegalMove, "no knight can move to d4 (legal here: d4)"},
		{Polish, chesscore.StartFEN, "Hd3", chesscore.ErrIllegalMove, "no queen can move to d3 (legal here: d3)"},
		{Russian, chesscore.StartFEN, "Кр(", chesscore.ErrMoveSyntax, "Russian letters: Кр Ф Л С К"},
	}
	for _, c := range cases {
		t.Run(c.lang.Name+"/"+c.text, func(t *testing.T) {
			p := position(t, c.fen)
			r, err := Parse(p, c.text, c.lang)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want an error", c.text, r.Move)
			}
			var me *chesscore.MoveError
			if !errors.As(err, &me) || !errors.Is(err, c.kind) {
				t.Fatalf("Parse(%q): %v (%T), want a *MoveError of %v", c.text, err, err, c.kind)
			}
			if me.Input != c.text {
				t.Errorf("Input = %q, want %q", me.Input, c.text)
			}
			if !strings.Contains(me.Reason, c.reason) {
				t.Errorf("Reason = %q, want it to contain %q", me.Reason, c.reason)
			}
		})
	}
}

func TestForLocale(t *testing.T) {
	for locale, want := range map[string]*Language{
		"en-US": English, "en-GB": English, "de": German, "es-ES": Spanish, "es-419": Spanish,
		"fr": French, "pt-BR": Portuguese, "it": Italian, "ru": Russian, "uk": Ukrainian,
		"pl": Polish, "tr": Turkish, "ja": English, "": English, "zh-CN": English, "DE": German,
	} {
		if got := ForLocale(locale); got != want {
			t.Errorf("ForLocale(%q) = %s, want %s", locale, got.Name, want.Name)
		}
	}
}

// TestEveryLanguageReadsItsOwnSAN spells every legal move of real positions with each
// language's letters and reads it back: it is that move, or an ambiguity that holds it.
func TestEveryLanguageReadsItsOwnSAN(t *testing.T) {
	fens := []string{chesscore.StartFEN, kingRook, pawnBishop, promotion, twoKnights, blackCastle,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/8/1n6/3R1P2/1n6/2k2K2/3p4/r6r b - - 0 82"}
	for _, lang := range Languages {
		for _, fen := range fens {
			p := position(t, fen)
			var ml chesscore.MoveList
			p.LegalMoves(&ml)
			for _, m := range ml.Moves[:ml.N] {
				text := spell(p.SAN(m), lang)
				r, err := Parse(p, text, lang)
				if err != nil {
					t.Errorf("%s, %s: Parse(%q): %v", lang.Name, fen, text, err)
					continue
				}
				if r.Move != m {
					t.Errorf("%s, %s: Parse(%q) = %v (alt %v), want %v", lang.Name, fen, text, r.Move, r.Alt, m)
				}
			}
		}
	}
}

// spell writes an English SAN with lang's letters.
func spell(san string, lang *Language) string {
	var b strings.Builder
	for i := 0; i < len(san); i++ {
		c := san[i]
		if pt := english(string(c)); pt != chesscore.NoPieceType && c >= 'A' && c <= 'Z' && (i == 0 || san[i-1] == '=') {
			b.WriteString(lang.Letters[pt])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func TestStyleSAN(t *testing.T) {
	for _, c := range []struct {
		style   Style
		in, out string
	}{
		{Letters, "Nxf3+", "Nxf3+"},
		{Figurines, "Nxf3+", "♘xf3+"},
		{Figurines, "Qh5#", "♕h5#"},
		{Figurines, "Kd2", "♔d2"},
		{Figurines, "Rae1", "♖ae1"},
		{Figurines, "Bb5", "♗b5"},
		{Figurines, "bxc8=Q+", "bxc8=♕+"},
		{Figurines, "e8=N", "e8=♘"},
		{Figurines, "O-O-O", "O-O-O"},
		{Figurines, "exd6", "exd6"},
		{Figurines, "", ""},
	} {
		if got := c.style.SAN(c.in); got != c.out {
			t.Errorf("%v.SAN(%q) = %q, want %q", c.style, c.in, got, c.out)
		}
	}
	for _, s := range Styles {
		back, err := ParseStyle(s.String())
		if err != nil || back != s {
			t.Errorf("ParseStyle(%q) = %v, %v", s.String(), back, err)
		}
	}
	if _, err := ParseStyle("pictures"); err == nil {
		t.Error("ParseStyle(pictures) succeeded")
	}
}
