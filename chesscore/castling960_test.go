package chesscore

import (
	"errors"
	"strings"
	"testing"
)

// TestChess960Castling plays castlings of the Chess960 guideline: king and rook end on
// the squares of standard chess, wherever they start, and either may not move.
func TestChess960Castling(t *testing.T) {
	cases := []struct {
		name, fen, input, san, uci, after string
	}{
		{"king on b, rook next to it, queen side", "1k6/8/8/8/8/8/8/RK5R w KQ - 0 1", "O-O-O", "O-O-O", "b1a1",
			"1k6/8/8/8/8/8/8/2KR3R b - - 1 1"},
		{"king on g stays, rook from h", "6k1/8/8/8/8/8/8/R5KR w KQ - 0 1", "O-O", "O-O", "g1h1",
			"6k1/8/8/8/8/8/8/R4RK1 b - - 1 1"},
		{"rook on f stays, king from e", "4k3/8/8/8/8/8/8/R3KR2 w KQ - 0 1", "e1f1", "O-O", "e1f1",
			"4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"},
		{"king and rook swap, king side", "4k3/8/8/8/8/8/8/R4KR1 w KQ - 0 1", "O-O", "O-O", "f1g1",
			"4k3/8/8/8/8/8/8/R4RK1 b - - 1 1"},
		{"king on c stays, queen side", "2k5/8/8/8/8/8/8/1RK4R w KQ - 0 1", "c1b1", "O-O-O", "c1b1",
			"2k5/8/8/8/8/8/8/2KR3R b - - 1 1"},
		{"black, king on d, queen side", "r2k3r/8/8/8/8/8/8/3K4 b kq - 0 1", "O-O-O", "O-O-O+", "d8a8",
			"2kr3r/8/8/8/8/8/8/3K4 w - - 1 2"},
		{"king's destination, unambiguous", "1k6/8/8/8/8/8/8/RK5R w KQ - 0 1", "b1g1", "O-O", "b1h1",
			"1k6/8/8/8/8/8/8/R4RK1 b - - 1 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			if p.Variant() != Chess960 {
				t.Errorf("variant %s, want chess960", p.Variant())
			}
			m, err := p.ParseSAN(c.input)
			if err != nil {
				t.Fatalf("ParseSAN(%q): %v", c.input, err)
			}
			if m.Kind() != CastlingMove || p.SAN(m) != c.san || p.UCIMove(m) != c.uci {
				t.Errorf("%q read as %v (%s, UCI %s), want castling %s, UCI %s", c.input, m, p.SAN(m), p.UCIMove(m), c.san, c.uci)
			}
			if u, err := p.ParseUCI(c.uci); err != nil || u != m {
				t.Errorf("ParseUCI(%q) = %v, %v, want %v", c.uci, u, err, m)
			}
			if !p.IsLegal(m) {
				t.Errorf("IsLegal(%v) is false", m)
			}
			child := p.Play(m)
			if err := child.Verify(); err != nil {
				t.Error(err)
			}
			if got := child.FEN(); got != c.after {
				t.Errorf("after %s: %s, want %s", c.san, got, c.after)
			}
		})
	}
}

func TestChess960CastlingRefused(t *testing.T) {
	cases := []struct {
		name, fen, input string
		err              error
		want             string
	}{
		{"other rook in the way", "1k6/8/8/8/8/8/8/RKR5 w KQ - 0 1", "O-O-O", ErrIllegalMove, "c1 is not empty"},
		{"king's path attacked", "1k3r2/8/8/8/8/8/8/RK5R w KQ - 0 1", "O-O", ErrIllegalMove, "f1 is attacked"},
		{"rook's square left open to a rook behind it", "4k3/8/8/8/8/8/8/rR1K3R w KQ - 0 1", "O-O-O", ErrIllegalMove, "in check on c1"},
		{"king that stays loses its cover", "4k3/8/8/8/8/8/8/rRK4R w KQ - 0 1", "O-O-O", ErrIllegalMove, "in check on c1"},
		{"in check", "1k6/8/8/8/8/8/1r6/RK5R w KQ - 0 1", "O-O", ErrIllegalMove, "out of check"},
		{"king step or castling", "4k3/8/8/8/8/8/8/R4K1R w KQ - 0 1", "f1g1", ErrAmbiguousMove, "O-O or Kg1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			before := p
			m, err := p.ParseSAN(c.input)
			if !errors.Is(err, c.err) || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseSAN(%q) = %v, %v, want %v containing %q", c.input, m, err, c.err, c.want)
			}
			if p != before {
				t.Error("the position changed")
			}
		})
	}
	// The king's step and the castling both stay playable, each by its own notation.
	p, _ := ParseFEN("4k3/8/8/8/8/8/8/R4K1R w KQ - 0 1")
	if m, err := p.ParseSAN("Kg1"); err != nil || m.Kind() != NormalMove {
		t.Errorf("Kg1 = %v, %v, want the king's step", m, err)
	}
	if m, err := p.ParseSAN("O-O"); err != nil || m.Kind() != CastlingMove || p.UCIMove(m) != "f1h1" {
		t.Errorf("O-O = %v, %v, want castling f1h1", m, err)
	}
}

// TestChess960PGNRoundTrip writes a Chess960 game with both castlings and reads it back.
func TestChess960PGNRoundTrip(t *testing.T) {
	const fen = "1r1k2r1/pp1bpppp/2np1n2/q1p5/4P3/2NP1N2/PPPBBPPP/1R1K2R1 w KQkq - 4 8"
	start, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(start, nil)
	for _, s := range []string{"O-O", "O-O-O", "a3", "Kb8"} {
		if _, err := g.PlaySAN(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	text := NewPGNGame(g).String()
	for _, want := range []string{`[Variant "Chess960"]`, `[SetUp "1"]`, `[FEN "` + fen + `"]`, "8. O-O O-O-O 9. a3 Kb8"} {
		if !strings.Contains(text, want) {
			t.Errorf("PGN lacks %q:\n%s", want, text)
		}
	}
	back, err := ParsePGN(text, nil)
	if err != nil {
		t.Fatalf("ParsePGN: %v\n%s", err, text)
	}
	if bs := back.Game.Start(); bs.Variant() != Chess960 || strings.Join(back.Game.SAN(), " ") != strings.Join(g.SAN(), " ") {
		t.Errorf("read back %s %v, want chess960 %v", bs.Variant(), back.Game.SAN(), g.SAN())
	}
	if _, ok := back.Tags["Variant"]; ok {
		t.Error("Variant kept among the tags")
	}
	// The standard start in Chess960 still says so.
	std, _ := ParseFEN(StartFEN)
	if err := std.SetVariant(Chess960); err != nil {
		t.Fatal(err)
	}
	if text := NewPGNGame(NewGame(std, nil)).String(); !strings.Contains(text, `[Variant "Chess960"]`) || !strings.Contains(text, `[FEN "`+StartFEN+`"]`) {
		t.Errorf("position 518 in Chess960:\n%s", text)
	}
	if err := start.SetVariant(Standard); err == nil {
		t.Error("SetVariant(Standard) accepted Chess960 castling rights")
	}
}
