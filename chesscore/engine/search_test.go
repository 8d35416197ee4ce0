package engine

import (
	"sync/atomic"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
)

func mustFEN(t testing.TB, fen string) cc.Position {
	t.Helper()
	p, err := cc.ParseFEN(fen)
	if err != nil {
		t.Fatalf("parse %q: %v", fen, err)
	}
	return p
}

func TestSearchFindsMates(t *testing.T) {
	cases := []struct {
		name, fen string
		depth     int
		want      string // the mating move
		mateIn    int
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4, "d1d8", 1},
		{"smothered", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", 4, "g5f7", 1},
		{"scholar", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 4, "h5f7", 1},
		{"queen and king", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", 5, "f1f8", 1},
		{"two rooks", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", 5, "", 2},
		{"mated side", "1r6/8/8/8/8/8/P4k2/7K w - - 0 1", 4, "", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := New(Options{HashMB: 4})
			pos := mustFEN(t, c.fen)
			res, err := e.Search(pos, nil, Limits{Depth: c.depth})
			if err != nil {
				t.Fatal(err)
			}
			if c.want != "" && res.Move.UCI() != c.want {
				t.Errorf("best move %s, want %s (score %s, pv %v)", res.Move, c.want, res.Score, res.PV)
			}
			if c.mateIn != 0 && res.Score.MateIn() != c.mateIn {
				t.Errorf("score %s (mate in %d), want mate in %d", res.Score.UCI(), res.Score.MateIn(), c.mateIn)
			}
		})
	}
}

func TestSearchWinsMaterial(t *testing.T) {
	cases := []struct {
		name, fen, want string
	}{
		{"hanging queen", "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 0 3", "c1g5"},
		{"knight fork", "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "b5c7"},
		{"attack the pinned piece", "4k3/8/3p4/4n3/8/8/5P2/4R1K1 w - - 0 1", "f2f4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := New(Options{HashMB: 4})
			res, err := e.Search(mustFEN(t, c.fen), nil, Limits{Depth: 6})
			if err != nil {
				t.Fatal(err)
			}
			if res.Move.UCI() != c.want {
				t.Errorf("best move %s, want %s (score %s, pv %v)", res.Move, c.want, res.Score, res.PV)
			}
		})
	}
}

func TestSearchDeterministicByNodes(t *testing.T) {
	fen := "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
	var first Result
	for i := 0; i < 3; i++ {
		e := New(Options{HashMB: 8})
		res, err := e.Search(mustFEN(t, fen), nil, Limits{Nodes: 20000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Nodes != 20000 {
			t.Errorf("run %d searched %d nodes, want exactly 20000", i, res.Nodes)
		}
		if i == 0 {
			first = res
			continue
		}
		if res.Move != first.Move || res.Score != first.Score || res.Depth != first.Depth {
			t.Errorf("run %d: %s %s depth %d; first run %s %s depth %d", i, res.Move, res.Score, res.Depth,
				first.Move, first.Score, first.Depth)
		}
	}
}

func TestSearchStops(t *testing.T) {
	pos := cc.StartPosition()
	e := New(Options{HashMB: 4})
	var stop atomic.Bool
	stop.Store(true)
	res, err := e.Search(pos, nil, Limits{Stop: &stop})
	if err != nil {
		t.Fatal(err)
	}
	if !pos.IsLegal(res.Move) {
		t.Errorf("stopped search returned %s, not a legal move", res.Move)
	}
	if res.Nodes > 2048 {
		t.Errorf("stopped search ran %d nodes", res.Nodes)
	}

	done := make(chan struct{})
	close(done)
	res, err = e.Search(pos, nil, Limits{Done: done, Depth: 30})
	if err != nil {
		t.Fatal(err)
	}
	if !pos.IsLegal(res.Move) || res.Nodes > 2048 {
		t.Errorf("search with a closed Done returned %s after %d nodes", res.Move, res.Nodes)
	}
}

// fakeClock advances by step each time it is read.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (f *fakeClock) now() time.Time {
	f.t = f.t.Add(f.step)
	return f.t
}

func TestSearchRespectsMoveTime(t *testing.T) {
	fc := &fakeClock{t: time.Unix(1e9, 0), step: time.Millisecond}
	e := New(Options{HashMB: 4})
	res, err := e.Search(cc.StartPosition(), nil, Limits{MoveTime: 50 * time.Millisecond, Now: fc.now})
	if err != nil {
		t.Fatal(err)
	}
	// Every 1024 nodes the search reads the fake clock once, so 50 ms is about 50 reads.
	if res.Nodes > 60*1024 {
		t.Errorf("searched %d nodes: the 50 ms limit did not stop it", res.Nodes)
	}
	if _, err := e.Search(cc.StartPosition(), nil, Limits{MoveTime: time.Second}); err != ErrNoClock {
		t.Errorf("MoveTime without Now: error %v, want ErrNoClock", err)
	}
}

func TestSearchNoLegalMoves(t *testing.T) {
	e := New(Options{})
	res, _ := e.Search(mustFEN(t, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), nil, Limits{Depth: 3})
	if res.Move != cc.NullMove || res.Score != 0 {
		t.Errorf("stalemate: %s %s, want no move and 0", res.Move, res.Score)
	}
	res, _ = e.Search(mustFEN(t, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), nil, Limits{Depth: 3})
	if res.Move != cc.NullMove || res.Score != matedIn(0) {
		t.Errorf("checkmate: %s %s, want no move and mated", res.Move, res.Score.UCI())
	}
}

func TestSearchSeesRepetition(t *testing.T) {
	// White is a queen up; Qf7 would be the natural way on, but the game has already seen
	// the position after it, so it would be a repetition (a draw): another move must win.
	fen := "7k/8/6K1/8/8/8/8/5Q2 w - - 10 40"
	pos := mustFEN(t, fen)
	e := New(Options{HashMB: 4})
	plain, _ := e.Search(pos, nil, Limits{Depth: 6})
	after := pos.Play(plain.Move)
	prior := []uint64{1, after.Hash(), 2, 3}
	e.NewGame()
	res, _ := e.Search(pos, prior, Limits{Depth: 6})
	if res.Move == plain.Move {
		t.Errorf("played %s again although the position after it has been seen", res.Move)
	}
	if res.Score <= 0 {
		t.Errorf("score %s: a winning side should not take the draw", res.Score)
	}

	// With the same history the losing side is glad to repeat: the score of the line
	// into the repeated position is a draw.
	res, _ = e.Search(pos, prior, Limits{Depth: 4, SearchMoves: []cc.Move{plain.Move}})
	if res.Score != 0 {
		t.Errorf("only %s allowed, into a repetition: score %s, want 0", plain.Move, res.Score)
	}
}

func TestSearchFiftyMoves(t *testing.T) {
	// Mate in one on the hundredth half-move still wins (a checkmate ends the game).
	e := New(Options{HashMB: 4})
	res, _ := e.Search(mustFEN(t, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80"), nil, Limits{Depth: 4})
	if res.Score.MateIn() != 1 {
		t.Errorf("mate in one at half-move 99: score %s", res.Score.UCI())
	}
	// A rook up but the fifty moves run out next move: the search knows it is a draw.
	res, _ = e.Search(mustFEN(t, "8/8/8/4k3/8/8/8/R3K3 w - - 99 80"), nil, Limits{Depth: 6})
	if res.Score != 0 {
		t.Errorf("fifty moves about to end: score %s, want 0", res.Score)
	}
}

func TestSearchMultiPV(t *testing.T) {
	e := New(Options{HashMB: 4})
	res, err := e.Search(cc.StartPosition(), nil, Limits{Depth: 5, MultiPV: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lines) != 4 {
		t.Fatalf("%d lines, want 4", len(res.Lines))
	}
	seen := map[cc.Move]bool{}
	for i, l := range res.Lines {
		if seen[l.Move] {
			t.Errorf("line %d repeats %s", i+1, l.Move)
		}
		seen[l.Move] = true
		if i > 0 && l.Score > res.Lines[i-1].Score {
			t.Errorf("line %d (%s) scores above line %d (%s)", i+1, l.Score, i, res.Lines[i-1].Score)
		}
		if len(l.PV) == 0 || l.PV[0] != l.Move {
			t.Errorf("line %d: pv %v does not start with %s", i+1, l.PV, l.Move)
		}
	}
}

func TestSearchPVIsLegal(t *testing.T) {
	e := New(Options{HashMB: 4})
	for _, fen := range []string{cc.StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"} {
		pos := mustFEN(t, fen)
		res, _ := e.Search(pos, nil, Limits{Depth: 8})
		p := pos
		for i, m := range res.PV {
			if !p.IsLegal(m) {
				t.Fatalf("%s: pv move %d %s is illegal in %s", fen, i, m, p.FEN())
			}
			p = p.Play(m)
		}
	}
}
