package chesscore

import "testing"

func TestQuickPerft(t *testing.T) {
	p := StartPosition()
	for d, want := range []uint64{1, 20, 400, 8902, 197281} {
		if got := Perft(&p, d); got != want {
			t.Errorf("d%d got %d want %d", d, got, want)
		}
		if got := PerftNoBulk(&p, d); got != want {
			t.Errorf("nobulk d%d got %d want %d", d, got, want)
		}
	}
	k, _ := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for d, want := range []uint64{1, 48, 2039, 97862, 4085603} {
		if got := Perft(&k, d); got != want {
			t.Errorf("kiwi d%d got %d want %d", d, got, want)
		}
	}
}
