package engine

import (
	"strings"
	"testing"
	"unicode"

	cc "github.com/gambitchess/gambit/chesscore"
)

// TestMateDistanceThroughTT plays mating games with one engine for both sides, its
// transposition table warm from move to move, so many mate scores come out of the table,
// stored at other plies. A mate distance wrongly carried across plies would announce
// mates that are not there or are longer than announced; so every announcement of mate
// in n must be kept: the game ends in checkmate within n moves, and no later
// announcement promises a longer mate than what is left of an earlier one.
func TestMateDistanceThroughTT(t *testing.T) {
	cases := []struct {
		name, fen string
		depth     int
	}{
		{"queen", "8/8/8/3k4/8/8/8/4KQ2 w - - 0 1", 12},
		{"two rooks", "8/8/3k4/8/8/8/R7/1R4K1 w - - 0 1", 12},
		{"rook", "8/8/8/8/8/2k5/8/1R2K3 w - - 0 1", 14},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			warm := New(Options{HashMB: 8})
			g := cc.NewGame(mustFEN(t, c.fen), nil)
			deadline := -1 // the ply by which the announced mate must be on the board
			for !g.Over() && g.Ply() < 80 {
				res, err := warm.SearchGame(g, Limits{Depth: c.depth})
				if err != nil {
					t.Fatal(err)
				}
				if g.Turn() == cc.White && res.Score.IsMate() {
					n := res.Score.MateIn()
					if n <= 0 {
						t.Fatalf("ply %d: the stronger side announces %s", g.Ply(), res.Score.UCI())
					}
					by := g.Ply() + 2*n - 1
					if deadline >= 0 && by > deadline {
						t.Fatalf("ply %d: mate in %d announced, later than the mate promised by ply %d", g.Ply(), n, deadline)
					}
					deadline = by
				}
				if g.Turn() == cc.Black && res.Score.IsMate() && res.Score.MateIn() >= 0 {
					t.Fatalf("ply %d: the lone king announces %s", g.Ply(), res.Score.UCI())
				}
				if err := g.Play(res.Move); err != nil {
					t.Fatal(err)
				}
			}
			if deadline < 0 || g.Outcome().Termination != cc.Checkmate || g.Ply() > deadline {
				t.Errorf("game ended %v after %d plies; mate was promised by ply %d", g.Outcome(), g.Ply(), deadline)
			}
		})
	}
}

// TestQuiescenceInCheck: the quiescence search of a side in check searches evasions, not
// captures only, and never stands pat: mated is mated, a quiet king step out of check is
// found, and a check that wins material by force is seen through the evasions.
func TestQuiescenceInCheck(t *testing.T) {
	cases := []struct {
		name, fen string
		check     func(Score) bool
		want      string
	}{
		// Back-rank mate on the board: no evasion.
		{"mated", "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", func(s Score) bool { return s == matedIn(0) }, "mated at once"},
		// The only evasion is the quiet Kh7; after it Black is a rook up.
		{"quiet escape", "3R2k1/5pp1/8/8/8/1r6/r4PPP/6K1 b - - 0 1", func(s Score) bool { return s > 300 && !s.IsMate() }, "a rook up, no mate"},
		// In check from a knight that also forks king and queen: the king must move, and
		// stand pat (a queen up) would be wrong.
		{"fork", "4k3/2N5/q7/8/8/8/7K/8 b - - 0 1", func(s Score) bool { return s < 600 }, "the queen lost, not a queen up"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := New(Options{HashMB: 1})
			pos := mustFEN(t, c.fen)
			if !pos.InCheck() {
				t.Fatalf("%s: not in check", c.fen)
			}
			s := &e.s
			s.lim = Limits{}
			s.stopped, s.nodes = false, 0
			s.stack[0].pos = pos
			if got := s.qsearch(0, -Infinity, Infinity); !c.check(got) {
				t.Errorf("qsearch %s, want %s", got.UCI(), c.want)
			}
		})
	}
}

// TestSearchFindsPerpetual: White is a queen and a rook down but Qf6+ Kg8 Qg5+ Kh8 checks
// forever. Only repetition detection inside the search (no game history is given) sees
// that the checks draw; without it the line looks as lost as the rest.
func TestSearchFindsPerpetual(t *testing.T) {
	pos := mustFEN(t, "q4r1k/4Qp1p/8/8/8/7K/1r4P1/8 w - - 0 1")
	for _, depth := range []int{6, 10} {
		res, err := New(Options{HashMB: 4}).Search(pos, nil, Limits{Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		if res.Move.UCI() != "e7f6" || res.Score != 0 {
			t.Errorf("depth %d: %s with score %s, want e7f6 drawing by perpetual check (pv %v)", depth, res.Move, res.Score.UCI(), res.PV)
		}
	}
	// The defender, a queen and a rook up, does not walk into it twice: after Qf6+ it has
	// only Kg8, and from there the search still sees the draw.
	after := pos.Play(mustMove(t, pos, "e7f6"))
	res, _ := New(Options{HashMB: 4}).Search(after, []uint64{pos.Hash()}, Limits{Depth: 8})
	if res.Score != 0 {
		t.Errorf("after Qf6+: score %s, want the draw", res.Score.UCI())
	}
}

func mustMove(t *testing.T, pos cc.Position, uci string) cc.Move {
	t.Helper()
	m, err := pos.ParseUCI(uci)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// mirrorFEN swaps the colours of a position: the board turned upside down, pieces'
// colours and the side to move swapped, castling rights and en passant mirrored.
func mirrorFEN(t *testing.T, fen string) string {
	t.Helper()
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case unicode.IsUpper(r):
				return unicode.ToLower(r)
			case unicode.IsLower(r):
				return unicode.ToUpper(r)
			}
			return r
		}, s)
	}
	side := map[string]string{"w": "b", "b": "w"}[f[1]]
	castle := "-"
	if f[2] != "-" {
		c := swap(f[2])
		castle = ""
		for _, r := range "KQkq" {
			if strings.ContainsRune(c, r) {
				castle += string(r)
			}
		}
	}
	ep := f[3]
	if ep != "-" {
		ep = ep[:1] + map[byte]string{'3': "6", '6': "3"}[ep[1]]
	}
	return strings.Join([]string{swap(strings.Join(ranks, "/")), side, castle, ep, f[4], f[5]}, " ")
}

// TestEvaluationColourSymmetry: the evaluation is from the side to move's view, so a
// position and its colour mirror (the same position with the colours swapped) get the
// same score. An asymmetric table or a sign slip for one colour shows up here.
func TestEvaluationColourSymmetry(t *testing.T) {
	fens := append([]string{
		"r1bqk2r/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R w KQkq - 0 7",
		"8/5pk1/6p1/3P4/2p5/2K5/5PPP/8 b - - 0 40",
		"r4rk1/1bq1bppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 13",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	}, benchFENs...)
	for _, fen := range fens {
		pos := mustFEN(t, fen)
		mfen := mirrorFEN(t, fen)
		mir := mustFEN(t, mfen)
		if a, b := evaluate(&pos), evaluate(&mir); a != b {
			t.Errorf("%s: %d, its mirror %s: %d", fen, a, mfen, b)
		}
	}
}
