package chesscore

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// sanFEN parses a FEN or stops the test.
func sanFEN(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// uciMove finds the legal move with the given UCI text or stops the test.
func uciMove(t testing.TB, p *Position, uci string) Move {
	t.Helper()
	var ml MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if m.UCI() == uci {
			return m
		}
	}
	t.Fatalf("%s: %s is not legal", p.FEN(), uci)
	return NullMove
}

// Cases from the PGN standard (8.2.3) and python-chess's board tests (facts: position,
// move, expected SAN).
func TestSANWriting(t *testing.T) {
	tests := []struct {
		fen, uci, san string
	}{
		{StartFEN, "e2e4", "e4"},
		{StartFEN, "g1f3", "Nf3"},
		// Castling with check.
		{"rnbk1b1r/ppp2pp1/5n1p/4p1B1/2P5/2N5/PP2PPPP/R3KBNR w KQ - 0 7", "e1c1", "O-O-O+"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "e1g1", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 1 1", "e8c8", "O-O-O"},
		// En passant mate.
		{"6bk/7b/8/3pP3/8/8/8/Q3K3 w - d6 0 2", "e5d6", "exd6#"},
		// Disambiguation: file, then rank, then both.
		{"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "e1f1", "Kf1"},
		{"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "c3c2", "Rcc2"},
		{"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "b2c2", "Rbc2"},
		{"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "a4b6", "N4b6"},
		{"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "h8g6", "N8g6"},
		{"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "h4g6", "Nh4g6"},
		{"8/2KN1p2/5p2/3N1B1k/5PNp/7P/7P/8 w - - 0 1", "d5f6", "N5xf6#"},
		// A pinned knight that cannot move does not count.
		{"8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1", "f5e3", "Ne3+"},
		// Promotions.
		{"7k/1p2Npbp/8/2P5/1P1r4/3b2QP/3q1pPK/2RB4 b - - 1 29", "f2f1q", "f1=Q"},
		{"7k/1p2Npbp/8/2P5/1P1r4/3b2QP/3q1pPK/2RB4 b - - 1 29", "f2f1n", "f1=N+"},
		{"3k4/6P1/7P/8/K7/8/8/4R3 w - - 0 1", "g7g8r", "g8=R+"},
		{"3k4/6P1/7P/8/K7/8/8/4R3 w - - 0 1", "g7g8q", "g8=Q+"},
		{"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", "axb8=Q+"},
		// Scholar's mate.
		{"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "f3f7", "Qxf7#"},
		// Queens needing both file and rank.
		{"7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3", "Qa4b3"},
	}
	for _, tc := range tests {
		p := sanFEN(t, tc.fen)
		m := uciMove(t, &p, tc.uci)
		if got := p.SAN(m); got != tc.san {
			t.Errorf("%s: SAN(%s) = %q, want %q", tc.fen, tc.uci, got, tc.san)
		}
		if orig := sanFEN(t, tc.fen); p.FEN() != orig.FEN() {
			t.Errorf("%s: SAN changed the position", tc.fen)
		}
		back, err := p.ParseSAN(tc.san)
		if err != nil || back != m {
			t.Errorf("%s: ParseSAN(%q) = %v, %v; want %s", tc.fen, tc.san, back, err, tc.uci)
		}
	}
}

func TestParseSANForgiving(t *testing.T) {
	tests := []struct {
		fen, in, uci string
	}{
		{StartFEN, "e4", "e2e4"},
		{StartFEN, "e2e4", "e2e4"},
		{StartFEN, "e2-e4", "e2e4"},
		{StartFEN, "Nf3", "g1f3"},
		{StartFEN, "Ng1f3", "g1f3"},
		{StartFEN, "Ng1-f3", "g1f3"},
		{StartFEN, "g1f3", "g1f3"},
		{StartFEN, "Nf3!?", "g1f3"},
		{StartFEN, "Nf3?!", "g1f3"},
		{StartFEN, "e4!!", "e2e4"},
		{StartFEN, " 1. e4 ", "e2e4"},
		{StartFEN, "1.e4", "e2e4"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "1...e5", "e7e5"},
		{"rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2", "dxe5", "d4e5"},
		{"rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2", "de5", "d4e5"},
		{"rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2", "d4xe5", "d4e5"},
		{"rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2", "d4e5", "d4e5"},
		{"rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2", "dxe5+", "d4e5"},
		// Castling in its spellings, and as UCI.
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "O-O", "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "0-0", "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "o-o", "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "O-O+", "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "e1g1", "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "e1h1", "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "O-O-O", "e1c1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "0-0-0", "e1c1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "o-o-o", "e1c1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1", "e1c1", "e1c1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 1 1", "O-O", "e8g8"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 1 1", "e8c8", "e8c8"},
		// Promotions in every spelling.
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=Q", "b7b8q"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8Q", "b7b8q"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8q", "b7b8q"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=N", "b7b8n"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8(N)", "b7b8n"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8/R", "b7b8r"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8b", "b7b8b"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b7b8q"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8=B", "b7b8b"},
		{"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8=Q+", "a7b8q"},
		{"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "ab8n", "a7b8n"},
		// En passant, written plainly or with e.p.
		{"6bk/7b/8/3pP3/8/8/8/Q3K3 w - d6 0 2", "exd6", "e5d6"},
		{"6bk/7b/8/3pP3/8/8/8/Q3K3 w - d6 0 2", "exd6 e.p.", "e5d6"},
		{"6bk/7b/8/3pP3/8/8/8/Q3K3 w - d6 0 2", "e5d6", "e5d6"},
		{"8/8/8/2k5/2pP4/8/4K3/8 b - d3 0 1", "cxd3", "c4d3"},
		// Lower-case b: a pawn where a pawn move reads the same, else a bishop.
		{"4k3/8/8/8/8/2p5/1P6/4K3 w - - 0 1", "bxc3", "b2c3"},
		{"4k3/8/8/8/8/2p5/1P6/4K3 w - - 0 1", "bc3", "b2c3"},
		{"4k3/8/8/8/8/2p5/1P6/4K3 w - - 0 1", "Bxc3", ""}, // no bishop: an error
		{"4k3/8/8/8/8/2p5/8/1B2K3 w - - 0 1", "bxc2", "b1c2"},
		{"4k3/8/8/8/8/2p5/8/1B2K3 w - - 0 1", "bc2", "b1c2"},
		{"4k3/8/8/8/8/8/8/1B2K3 w - - 0 1", "bd3", "b1d3"},
		// Lower-case letters of other pieces cannot be misread.
		{StartFEN, "nf3", "g1f3"},
		// Disambiguated input where none is needed.
		{StartFEN, "Ngf3", "g1f3"},
		{StartFEN, "N1f3", "g1f3"},
	}
	for _, tc := range tests {
		p := sanFEN(t, tc.fen)
		m, err := p.ParseSAN(tc.in)
		if tc.uci == "" {
			if err == nil {
				t.Errorf("%s: ParseSAN(%q) = %s, want an error", tc.fen, tc.in, m)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: ParseSAN(%q): %v", tc.fen, tc.in, err)
			continue
		}
		if m.UCI() != tc.uci {
			t.Errorf("%s: ParseSAN(%q) = %s, want %s", tc.fen, tc.in, m.UCI(), tc.uci)
		}
	}
}

func TestParseSANErrors(t *testing.T) {
	tests := []struct {
		fen, in string
		kind    error
		reason  string // the error text must contain this
	}{
		{StartFEN, "", ErrMoveSyntax, "no move given"},
		{StartFEN, "hello", ErrMoveSyntax, "is not a move"},
		{StartFEN, "e9", ErrMoveSyntax, "is not a move"},
		{StartFEN, "Xe4", ErrMoveSyntax, "is not a move"},
		{StartFEN, "e4=X", ErrMoveSyntax, "is not a move"},
		{"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e5", ErrIllegalMove, "no piece can move to e5"},
		{StartFEN, "Ne5", ErrIllegalMove, "no piece can move to e5"},
		{StartFEN, "Qh5", ErrIllegalMove, "no piece can move to h5"},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rb8", ErrIllegalMove, "no piece can move to b8"},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Re2", ErrIllegalMove, "no rook can move to e2 (legal here: Ke2)"},
		{"4k3/8/8/8/8/5N2/8/RN2K2R w - - 0 1", "Ncd2", ErrIllegalMove, "no knight on the c-file can move to d2 (legal here: Kd2, Nbd2 or Nfd2)"},
		{"4k3/8/8/8/8/5N2/8/RN2K2R w - - 0 1", "N2d2", ErrIllegalMove, "no knight on rank 2 can move to d2"},
		// Ambiguity, with the choices spelled out.
		{"4k3/8/8/8/8/5N2/8/RN2K2R w - - 0 1", "Nd2", ErrAmbiguousMove, "ambiguous: Nbd2 or Nfd2"},
		{"r3k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1", ErrAmbiguousMove, "ambiguous: Rad1 or Rhd1"},
		{"8/8/1n6/3R1P2/1n6/2k2K2/3p4/r6r b - - 0 82", "Rf1", ErrAmbiguousMove, "ambiguous: Raf1 or Rhf1"},
		{"8/8/1n6/3R1P2/1n6/2k2K2/3p4/r6r b - - 0 82", "Nd5", ErrAmbiguousMove, "ambiguous: N4xd5 or N6xd5"},
		// Promotion is compulsory.
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8", ErrIllegalMove, "the pawn must promote: b8=Q, b8=R, b8=B or b8=N"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8", ErrIllegalMove, "the pawn must promote: b8=Q, b8=R, b8=B or b8=N"},
		{"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8", ErrIllegalMove, "the pawn must promote: axb8=Q, axb8=R, axb8=B or axb8=N"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=K", ErrIllegalMove, "promotes to a queen, rook, bishop or knight"},
		{StartFEN, "e4=Q", ErrIllegalMove, "only a pawn reaching the last rank promotes"},
		// The king would be in check.
		{"4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nf4", ErrIllegalMove, "illegal: your king would be in check"},
		{"4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "e2f4", ErrIllegalMove, "illegal: your king would be in check"},
		{"4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", "Kf1", ErrIllegalMove, "illegal: your king would be in check"},
		{"4k3/8/8/8/8/3q4/8/4K3 w - - 0 1", "Kf1", ErrIllegalMove, "illegal: your king would be in check"},
		{"4k3/4q3/8/8/8/8/P7/4K3 w - - 0 1", "a3", ErrIllegalMove, "illegal: your king would be in check"},
		// The other side's move.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "Nf3", ErrIllegalMove, "it is Black's move"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "d4", ErrIllegalMove, "it is Black's move"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "d2d4", ErrIllegalMove, "it is Black's move"},
		{StartFEN, "e7e5", ErrIllegalMove, "it is White's move"},
		// Castling explained.
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", "O-O", ErrIllegalMove, "can no longer castle king side"},
		{"4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1", "O-O-O", ErrIllegalMove, "b1 is not empty"},
		{"4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", "O-O", ErrIllegalMove, "cannot castle out of check"},
		{"4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "O-O", ErrIllegalMove, "cannot castle through check: f1 is attacked"},
		{"4k3/8/8/8/8/8/6r1/4K2R w K - 0 1", "O-O", ErrIllegalMove, "your king would be in check on g1"},
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "Kg1", ErrIllegalMove, "to castle, write O-O"},
		// En passant too late.
		{"4k3/8/8/3pP3/8/8/8/4K3 w - - 0 5", "exd6", ErrIllegalMove, "en passant onto d6 is not possible now"},
		// UCI text about squares.
		{StartFEN, "e3e4", ErrIllegalMove, "there is no piece on e3"},
		{StartFEN, "e2e5", ErrIllegalMove, "the pawn on e2 cannot move to e5"},
		{StartFEN, "d1d2", ErrIllegalMove, "your own pawn stands on d2"},
		{StartFEN, "Nb1d2", ErrIllegalMove, "your own pawn stands on d2"},
		{StartFEN, "Bg1f3", ErrIllegalMove, "is a knight, not a bishop"},
	}
	for _, tc := range tests {
		p := sanFEN(t, tc.fen)
		m, err := p.ParseSAN(tc.in)
		if err == nil {
			t.Errorf("%s: ParseSAN(%q) = %s, want an error", tc.fen, tc.in, m)
			continue
		}
		var me *MoveError
		if !errors.As(err, &me) || me.Input != tc.in {
			t.Errorf("%s: ParseSAN(%q): error %T %v, want a *MoveError with the input", tc.fen, tc.in, err, err)
		}
		if !errors.Is(err, tc.kind) {
			t.Errorf("%s: ParseSAN(%q): %v is not %v", tc.fen, tc.in, err, tc.kind)
		}
		if !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: ParseSAN(%q): %q does not say %q", tc.fen, tc.in, err, tc.reason)
		}
	}
}

func TestParseUCIStrict(t *testing.T) {
	p := StartPosition()
	if m, err := p.ParseUCI("g1f3"); err != nil || m.UCI() != "g1f3" {
		t.Errorf("ParseUCI(g1f3) = %v, %v", m, err)
	}
	for _, in := range []string{"Nf3", "g1-f3", "e4", "0000", "e2e4x", "e2e4q"} {
		if m, err := p.ParseUCI(in); err == nil {
			t.Errorf("ParseUCI(%q) = %s, want an error", in, m)
		}
	}
	q := sanFEN(t, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	if m, err := q.ParseUCI("b7b8n"); err != nil || m != NewPromotion(B7, B8, Knight) {
		t.Errorf("ParseUCI(b7b8n) = %v, %v", m, err)
	}
	r := sanFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1")
	if m, err := r.ParseUCI("e1g1"); err != nil || m.Kind() != CastlingMove {
		t.Errorf("ParseUCI(e1g1) = %v, %v, want castling", m, err)
	}
}

// Every legal move's SAN reads back as that move, and is unique, in a set of busy
// positions (the perft suite's favourites).
func TestSANRoundTripAllMoves(t *testing.T) {
	fens := []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1",
		"3Q4/8/Q3Q3/8/Q3Q3/8/7k/K7 w - - 0 1",
	}
	for _, fen := range fens {
		p := sanFEN(t, fen)
		var ml MoveList
		p.LegalMoves(&ml)
		seen := map[string]bool{}
		for _, m := range ml.Slice() {
			s := p.SAN(m)
			if seen[s] {
				t.Errorf("%s: two moves write %q", fen, s)
			}
			seen[s] = true
			back, err := p.ParseSAN(s)
			if err != nil || back != m {
				t.Errorf("%s: ParseSAN(SAN(%s) = %q) = %v, %v", fen, m, s, back, err)
			}
			if back, err := p.ParseSAN(m.UCI()); err != nil || back != m {
				t.Errorf("%s: ParseSAN(%s) = %v, %v", fen, m, back, err)
			}
		}
	}
}

func FuzzParseSAN(f *testing.F) {
	fens := []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
		"6bk/7b/8/3pP3/8/8/8/Q3K3 w - d6 0 2",
		"8/8/1n6/3R1P2/1n6/2k2K2/3p4/r6r b - - 0 82",
	}
	for i, s := range []string{"e4", "Nf3", "O-O", "0-0-0", "exd6 e.p.", "axb8=Q+", "b8(N)", "e7e8q", "Ng1-f3", "bxc3", "1...e5", "Qa4b3!?", "Rf1", "e8=K", "x", "=", "-", ""} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		p := sanFEN(t, fens[int(which)%len(fens)])
		before := p.FEN()
		m, err := p.ParseSAN(s)
		if p.FEN() != before {
			t.Fatalf("ParseSAN(%q) changed the position", s)
		}
		if err != nil {
			var me *MoveError
			if !errors.As(err, &me) || me.Reason == "" {
				t.Fatalf("ParseSAN(%q): error %v is not an explained *MoveError", s, err)
			}
			if !utf8.ValidString(err.Error()) && utf8.ValidString(s) {
				t.Fatalf("ParseSAN(%q): error text is not UTF-8", s)
			}
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("ParseSAN(%q) = %s, which is not legal", s, m)
		}
		san := p.SAN(m)
		if back, err := p.ParseSAN(san); err != nil || back != m {
			t.Fatalf("ParseSAN(%q) = %s; its SAN %q reads back as %v, %v", s, m, san, back, err)
		}
	})
}

func BenchmarkParseSAN(b *testing.B) {
	p := sanFEN(b, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
	inputs := []string{"Nd5", "Bxf6", "Rab1", "h3", "Qe3", "Nh4", "a4", "Bxf7+"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.ParseSAN(inputs[i%len(inputs)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSAN(b *testing.B) {
	p := sanFEN(b, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")
	var ml MoveList
	p.LegalMoves(&ml)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.SAN(ml.Moves[i%ml.N])
	}
}
