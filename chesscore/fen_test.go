package chesscore

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFENErrors(t *testing.T) {
	cases := []struct {
		name, fen, want string
	}{
		{"empty", "", "0 fields"},
		{"five fields", "8/8/8/8/8/8/8/8 w - - 0", "5 fields"},
		{"seven ranks", "8/8/8/8/8/8/8 w - - 0 1", "7 ranks"},
		{"bad letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", `bad piece letter "X"`},
		{"short rank", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7"},
		{"long rank", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7"},
		{"nine empty", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "empty-square count"},
		{"no white king", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "white has 0 kings"},
		{"two black kings", "rnbqkbnr/pppppppp/8/8/8/4k3/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "black has 2 kings"},
		{"pawn on last rank", "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "pawn on h8"},
		{"pawn on first rank", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn on a1"},
		{"nine pawns", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "9 pawns"},
		{"kings touch", "8/8/8/8/8/8/3k4/4K3 w - - 0 1", "next to each other"},
		{"bad side", "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"},
		{"castle without rook", "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "no white rook on rank 1 right of the king on e1"},
		{"castle without queen-side rook", "4k3/8/8/8/8/8/8/4K2R w Q - 0 1", "no white rook on rank 1 left of the king on e1"},
		{"castle king off its rank", "4k3/8/8/8/8/8/4K3/R6R w Q - 0 1", "white king is not on rank 1"},
		{"castle bad letter", "r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", `bad letter "X"`},
		{"castle file without rook", "r3k2r/8/8/8/8/8/8/R3K2R w G - 0 1", `"G" but no white rook on g1`},
		{"castle black file without rook", "r3k2r/8/8/8/8/8/8/R3K2R w b - 0 1", `"b" but no black rook on b8`},
		{"castle repeated", "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "repeats the white king side"},
		{"castle repeated as a file", "r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", "repeats the white king side"},
		{"castle two rooks one side", "4k3/8/8/8/8/8/8/1R2K1RR w GH - 0 1", "repeats the white king side"},
		{"castle field too long", "r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "too long"},
		{"ep not a square", "4k3/8/8/8/8/8/8/4K3 w - z9 0 1", "not a square"},
		{"ep wrong rank", "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1", "rank 3"},
		{"ep no pawn", "4k3/8/8/8/8/8/8/4K3 b - e3 0 1", "no white pawn on e4"},
		{"ep origin occupied", "4k3/8/8/8/4Pp2/8/4N3/4K3 b - e3 0 1", "must be empty"},
		{"side not to move in check", "4k3/8/8/8/8/8/8/4K2r b - - 0 1", "white is in check but it is black's move"},
		{"triple check", "4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1", "3 pieces"},
		{"bad halfmove", "4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock"},
		{"negative halfmove", "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock"},
		{"zero fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFEN(c.fen)
			if err == nil {
				t.Fatalf("ParseFEN(%q) succeeded, want error containing %q", c.fen, c.want)
			}
			if !errors.Is(err, ErrFEN) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseFEN(%q) = %v, want ErrFEN containing %q", c.fen, err, c.want)
			}
		})
	}
}

func TestParseFENAccepts(t *testing.T) {
	cases := []struct {
		name, fen, wantFEN string
	}{
		{"start", StartFEN, StartFEN},
		{"four fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", StartFEN},
		{"ep kept when capturable", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
			"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"},
		{"ep dropped when no pawn can take", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"ep dropped when the capture is pinned horizontally", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
			"8/8/8/K2pP2r/8/8/8/7k w - - 0 1"},
		{"ep kept as the evasion of check", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"},
		{"double check", "4k3/8/8/8/1b6/8/8/r3K3 w - - 0 1", "4k3/8/8/8/1b6/8/8/r3K3 w - - 0 1"},
		// Castling fields: Shredder-FEN and X-FEN read, X-FEN written (a letter only for a
		// rook that is not the outermost on its side of the king).
		{"shredder standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", StartFEN},
		{"shredder 960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
			"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"},
		{"x-fen inner rook", "4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1", "4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1"},
		{"x-fen outer rook", "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1", "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1"},
		{"x-fen black inner rook", "rr2k2r/8/8/8/8/8/8/4K3 w kb - 0 1", "rr2k2r/8/8/8/8/8/8/4K3 w kb - 0 1"},
		{"king on b with rook on a", "1r4kr/8/8/8/8/8/8/RK5R w KQk - 0 1", "1r4kr/8/8/8/8/8/8/RK5R w KQk - 0 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatalf("ParseFEN(%q): %v", c.fen, err)
			}
			if got := p.FEN(); got != c.wantFEN {
				t.Errorf("FEN() = %q, want %q", got, c.wantFEN)
			}
			if err := p.Verify(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestHashMatchesFreshParse plays random-ish games and checks that the incremental hash of
// every position equals the hash of the same position parsed afresh from its FEN.
func TestHashMatchesFreshParse(t *testing.T) {
	p := StartPosition()
	seed := uint64(1)
	for ply := 0; ply < 3000; ply++ {
		var ml MoveList
		p.LegalMoves(&ml)
		if ml.N == 0 || p.HalfmoveClock() > 100 {
			p = StartPosition()
			continue
		}
		seed = seed*6364136223846793005 + 1442695040888963407
		p = p.Play(ml.Moves[int(seed>>33)%ml.N])
		q, err := ParseFEN(p.FEN())
		if err != nil {
			t.Fatalf("ParseFEN(%q): %v", p.FEN(), err)
		}
		if q.Hash() != p.Hash() || q != p {
			t.Fatalf("%s: incremental position differs from parsed one", p.FEN())
		}
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
		"4k3/8/8/8/8/8/8/4K2r b - - 0 1",
		"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"8/8/8/8/8/8/8/8 w - - 0 1",
		"",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"4k3/8/8/8/8/8/8/1R2K1RR w GB - 0 1",
		"rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
		"4k3/8/8/8/8/8/8/R3K2R w Hq - 0 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			if !errors.Is(err, ErrFEN) {
				t.Fatalf("error does not wrap ErrFEN: %v", err)
			}
			return
		}
		if err := p.Verify(); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		out := p.FEN()
		q, err := ParseFEN(out)
		if err != nil {
			t.Fatalf("round trip: ParseFEN(%q) of FEN() of %q: %v", out, s, err)
		}
		if q != p || q.FEN() != out {
			t.Fatalf("round trip changed the position: %q -> %q -> %q", s, out, q.FEN())
		}
		var ml MoveList
		p.LegalMoves(&ml)
		if ml.N != p.CountLegalMoves() {
			t.Fatalf("%q: LegalMoves %d, CountLegalMoves %d", s, ml.N, p.CountLegalMoves())
		}
		for _, m := range ml.Slice() {
			c := p.Play(m)
			if err := c.Verify(); err != nil {
				t.Fatalf("%q after %s: %v", s, m, err)
			}
			if c.attacked(c.KingSquare(p.turn), c.turn, c.byType[0]) {
				t.Fatalf("%q: %s leaves the king in check", s, m)
			}
		}
	})
}
