package chesscore

import "testing"

func TestPlayNull(t *testing.T) {
	cases := []struct {
		fen, want string
	}{
		{StartFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1"},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3"},
		{"4k3/8/8/8/8/8/8/4K3 b - - 7 40", "4k3/8/8/8/8/8/8/4K3 w - - 8 41"},
	}
	for _, c := range cases {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		before := p
		n := p.PlayNull()
		if p != before {
			t.Errorf("%s: PlayNull changed the receiver", c.fen)
		}
		if err := n.Verify(); err != nil {
			t.Errorf("%s: after the null move: %v", c.fen, err)
		}
		if got := n.FEN(); got != c.want {
			t.Errorf("%s: null move gives %s, want %s", c.fen, got, c.want)
		}
		back := n.PlayNull()
		if back.Hash() != p.Hash() && p.EnPassant() == NoSquare {
			t.Errorf("%s: two null moves change the hash", c.fen)
		}
	}
}
