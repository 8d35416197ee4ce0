// deadposition_plan_minor_test.go: the minor-piece mate planner finds the helpmates of a
// lone bishop or knight against heavy pieces and pawns (and the pawn-run planner those
// of a lone pawn), every line they return replays to a mate, and their shortcuts (checks
// looked up, mates in one among the checks, the king's moves alone) agree with the move
// generator.

package chesscore

import (
	"slices"
	"testing"
)

// The planner itself answers these positions (the slowest of the real games for the
// search), with a line that replays to a mate.
func TestMinorPlannerFindsMates(t *testing.T) {
	testPlannerFindsMates(t, "minor-piece", (*decider).planMinor, []plannerCase{
		{"knight against rook, bishop and pawns", "3k4/7R/6n1/5B2/4P3/4K3/6P1/8 w - - 0 72", Black},
		{"knight against queen, rook, bishop and pawns", "1r4k1/p4pp1/4p2p/3pbq2/2p3K1/4p3/8/5N2 w - - 2 45", White},
		{"bishop against pawns", "8/8/4K3/4B2p/7P/1p6/k7/8 w - - 35 74", White},
		{"bishop against rook and pawns", "8/6b1/4R3/6P1/8/3k1K2/5P2/8 w - - 3 55", Black},
		{"bishop against rook and pawns, a pawn promoted to a knight", "8/6b1/4R3/8/6P1/8/5PK1/3k4 w - - 8 53", Black},
		{"bishop against rook and pawn, the rook given up", "8/2R3b1/8/8/3k4/5K2/5P2/8 w - - 2 60", Black},
		{"bishop against queen and pawns, the queen given up, a knight promoted to fill", "8/5PQ1/4k3/8/5K2/3b1P2/8/8 w - - 1 75", Black},
		{"bishop against queen and pawns, the bishop mates from the square its king guards", "8/6Q1/4kP2/1b6/5K2/5P2/8/8 w - - 3 74", Black},
		{"bishop against rook and pawns, the king in the corner", "8/6b1/8/8/R5P1/8/4kP2/6K1 w - - 2 50", Black},
		{"bishop against rook and pawn, the bishop off the corner", "8/3R2b1/8/8/2k5/5K2/5P2/8 w - - 0 59", Black},
		{"bishop against rook and pawns, a bishop promoted to fill", "8/6b1/8/8/2R3P1/3k4/5P2/6K1 w - - 0 49", Black},
		{"knight against queen, rook, bishop and pawns, the knight mates in the corner", "1r4k1/p4pp1/4p2p/3pb3/2p3K1/4p3/5q1N/8 w - - 0 44", White},
		{"bishop against pawns, a knight promoted to fill", "8/8/8/3K3p/7P/1pB5/8/1k6 w - - 5 59", White},
		{"bishop against pawns, the pawn guarding the stand pushed away", "8/8/8/1k2K2p/2p4P/1pB5/8/8 w - - 4 53", White},
		{"knight against rook, bishop and pawns, the rook given up", "3k4/7R/2n5/5B2/8/4P1P1/4K1P1/8 w - - 5 66", Black},
		// The bishop walks two moves to the mating square, off the line through the king
		// (without that the search took 211 to 6,708 nodes for each of these).
		{"bishop against queen and pawns, the bishop two moves from the mating square", "7Q/8/2b1kP2/8/5K2/5P2/8/8 w - - 1 73", Black},
		{"bishop against queen and pawns, a knight promoted to fill, the bishop two moves away", "8/5PQ1/4k3/8/4b3/4KP2/8/8 w - - 3 76", Black},
		{"bishop against pawns, the bishop two moves from the mating square", "8/8/2k2B2/7p/2p1K2P/1p6/8/8 w - - 0 51", White},
		{"two bishops against knight and pawns", "8/5k1P/2b2P2/8/5N2/4bPK1/8/8 w - - 0 71", Black},
		{"two bishops against queen and pawns", "7Q/5k2/2b2P2/8/5b2/5PK1/8/8 w - - 0 72", Black},
		{"two bishops against rook and pawns", "8/6P1/R7/2bb4/8/2k5/5PP1/6K1 w - - 1 45", Black},
		// The knight goes by its moves to a checking square (the table of knight moves
		// was all zeros before: the search took 3,133 and 51 nodes).
		{"knight and blocked pawn against pawns, the knight two moves from its check", "8/p1n5/P7/5k2/7K/5P2/8/8 w - - 4 45", Black},
		{"knight and pawn against pawns", "8/8/8/K1kn4/1p6/1P6/P7/8 w - - 1 64", Black},
	})
}

// The pawn-run planner answers these (a winner with only pawns), with a line that
// replays to a mate.
func TestRunPlannerFindsMates(t *testing.T) {
	testPlannerFindsMates(t, "pawn-run", (*decider).planRun, []plannerCase{
		{"a lone pawn runs: the queen given up, the pawn in front taken", "5Q2/8/8/8/3K3p/P6P/1P5k/8 w - - 1 60", Black},
		{"a lone pawn runs: the pawn in front taken", "8/8/5P2/7p/3K4/P5kP/1P6/8 w - - 4 58", Black},
	})
}

// The planner never answers where it does not fit: a winner with a rook or queen, or
// with no minor piece (with only pawns, against a lone king), or a loser with a lone king.
func TestMinorPlannerDeclines(t *testing.T) {
	testPlannerDeclines(t, "minor-piece", (*decider).planMinor, []declineCase{
		{"8/8/8/4k3/8/8/8/R3K3 w - - 0 1", White},
		{"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", White},
		{"8/8/8/3k4/8/8/8/B3K3 w - - 0 1", White},
		{"8/8/8/2k5/8/8/8/B2QK3 w - - 0 1", White},
	})
}

// Over the real games, every line the minor-piece planner (or, for a winner with only
// pawns, the pawn-run planner) returns replays to a mate, and they answer a good part
// of the positions they fit (a regression in their pictures shows here).
func TestMinorPlannerRealGames(t *testing.T) {
	positions := loadRealGames(t)
	step := 1
	if raceEnabled || testing.Short() {
		step = 3
	}
	var d decider
	fits, found := 0, 0
	for i := 0; i < len(positions); i += step {
		p := &positions[i]
		for c := White; c <= Black; c++ {
			d.reset(p)
			if _, settled := d.static(c); settled || !minorPlanFits(p, c) && !runPlanFits(p, c) {
				continue
			}
			fits++
			var dec Decision
			var ok bool
			if runPlanFits(p, c) {
				dec, ok = d.planRun(c)
			} else {
				dec, ok = d.planMinor(c)
			}
			if !ok {
				continue
			}
			found++
			checkDecision(t, p, c, dec)
		}
	}
	t.Logf("the minor-piece and pawn-run planners answered %d of %d positions they fit", found, fits)
	if fits == 0 || found*2 < fits {
		t.Errorf("the minor-piece and pawn-run planners answered %d of %d positions they fit, want at least half", found, fits)
	}
}

// minorPictures returns the position of fen and a minor-piece planner for w that has
// chosen its pictures there (at least one).
func minorPictures(t *testing.T, fen string, w Color) (Position, *minorPlanner) {
	t.Helper()
	p := sanFEN(t, fen)
	m := &minorPlanner{w: w, l: w ^ 1}
	if m.choosePictures(&p) == 0 {
		t.Fatal("no picture")
	}
	return p, m
}

// The best picture itself mates in these positions (a picture that fails costs the
// planner some 20 to 50 plies): l fills with a piece that leaves the stand and the
// mating square alone (here a bishop promoted on b1, where a knight would check the
// king on a3).
func TestMinorFirstPictureMates(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		w         Color
	}{
		{"a bishop promoted to fill, not a knight", "8/3K4/8/4B2p/7P/1p6/2k5/8 w - - 19 66", White},
		{"a bishop promoted to fill, not a knight, the king farther", "8/2K5/8/4B2p/7P/1p6/8/2k5 w - - 21 67", White},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, m := minorPictures(t, tc.fen, tc.w)
			m.pic = m.pics[0]
			if !m.play(&p) || !replaysToMate(&p, tc.w, m.line[:m.n]) {
				t.Fatalf("the first picture (king on %v, %v's on %v) does not mate", m.pic.target, tc.w, m.pic.stand)
			}
		})
	}
}

// A picture whose stand or target stands in the way of the pawn l is to promote to fill
// ranks below the others: the best picture for the bishop against rook and pawn here
// puts neither king on the f-file ahead of the pawn (the one that did, the white king on
// h8 and the black king on f7, failed after 18 plies: the pawn stopped on f6).
func TestMinorPicturesAvoidPawnWay(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		w         Color
		way       Bitboard // the squares the pawn to promote still passes
	}{
		{"bishop against rook and pawn", "8/3R2b1/8/8/2k5/5K2/5P2/8 w - - 0 59", Black, FileF &^ (Rank1 | Rank2)},
		{"bishop against rook and pawn, the rook on c7", "8/2R3b1/8/8/3k4/5K2/5P2/8 w - - 2 60", Black, FileF &^ (Rank1 | Rank2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, m := minorPictures(t, tc.fen, tc.w)
			if pic := m.pics[0]; tc.way.Has(pic.stand) || tc.way.Has(pic.target) {
				t.Errorf("the best picture (king on %v, %v's on %v) stands in the pawn's way", pic.target, tc.w, pic.stand)
			}
		})
	}
	for _, tc := range []struct {
		promo  Square
		pushes int
		sq     Square
		want   bool
	}{
		{F8, 6, F7, true}, {F8, 6, F8, true}, {F8, 6, F2, false}, {F8, 6, F3, true}, {F8, 1, F7, false},
		{F8, 6, G7, false}, {A1, 5, A1, true}, {A1, 5, A5, true}, {A1, 5, A6, false}, {A1, 1, A2, false},
	} {
		if got := minorAhead(tc.promo, tc.pushes, tc.sq); got != tc.want {
			t.Errorf("minorAhead(%v, %d, %v) = %v, want %v", tc.promo, tc.pushes, tc.sq, got, tc.want)
		}
	}
}

// A picture whose target l's king cannot reach (over the squares w does not attack) for
// more than minorCutTurns turns in a row gives up: here the best picture, l's king on
// h8, failed after 22 plies before (w's bishops and king kept it away).
func TestMinorCutOffGivesUp(t *testing.T) {
	p := sanFEN(t, "8/5k1P/2b2P2/8/5N2/4bPK1/8/8 w - - 0 71")
	var m minorPlanner
	m.w, m.l = Black, White
	if m.choosePictures(&p) == 0 {
		t.Fatal("no picture")
	}
	m.pic = m.pics[0]
	if m.play(&p) {
		t.Fatalf("the picture (king on %v) mates: pick a position where it does not", m.pic.target)
	}
	if limit := 2 * (minorCutTurns + 2); m.n > limit {
		t.Errorf("the picture (king on %v) gave up after %d plies, want at most %d", m.pic.target, m.n, limit)
	}
}

// minorKnightMoves holds, for every pair of squares, the fewest knight moves between them
// on an empty board, as a breadth-first walk over knightAttacks finds them.
func TestMinorKnightMoves(t *testing.T) {
	for from := range Square(64) {
		want := [64]int{}
		for i := range want {
			want[i] = -1
		}
		want[from] = 0
		frontier := []Square{from}
		for len(frontier) > 0 {
			var next []Square
			for _, sq := range frontier {
				for b := knightAttacks[sq]; b != 0; {
					to := b.PopFirst()
					if want[to] < 0 {
						want[to] = want[sq] + 1
						next = append(next, to)
					}
				}
			}
			frontier = next
		}
		for to := range Square(64) {
			if got := minorMoves(Knight, from, to); got != want[to] {
				t.Errorf("knight moves %v to %v: %d, want %d", from, to, got, want[to])
			}
			// minorKnightNearest over a few squares is the least of their moves.
			b := to.Bitboard() | Square((int(to)*37+11)&63).Bitboard() | Square((int(from)*13+5)&63).Bitboard()
			if got, want := minorKnightNearest(from, b), minorNearest(Knight, from, b); got != want {
				t.Errorf("minorKnightNearest(%v, %x) = %d, minorNearest %d", from, uint64(b), got, want)
			}
		}
	}
}

// The minor-piece planner's check lookup (minorChecks) answers as givesCheck does for
// every legal move of every real-game position and of hand positions with discovered
// checks, pins and promotions.
func TestMinorChecksMatchGivesCheck(t *testing.T) {
	positions := loadRealGames(t)
	for _, fen := range []string{
		"4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", // a knight off the rook's file: discovered
		"7k/8/8/8/4B3/2N5/8/K7 w - - 0 1",   // a bishop and a knight: direct checks only
		"k7/8/2N5/8/4B3/8/8/7K w - - 0 1",   // a knight between a bishop and the king
		"4k3/4P3/8/8/8/8/8/4K2R w K - 0 1",  // castling with check
		"8/1P5k/8/8/8/8/8/K7 w - - 0 1",     // promotions
		"8/8/8/k2pP2R/8/8/8/7K w - d6 0 1",  // en passant opening a rank
		"3k4/3r4/8/8/8/8/3B4/3K4 b - - 0 1", // black to move
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		positions = append(positions, p)
	}
	var ml MoveList
	moves := 0
	for i := range positions {
		p := &positions[i]
		var cs minorChecks
		cs.init(p)
		k := p.KingSquare(p.turn ^ 1)
		p.LegalMoves(&ml)
		for _, mv := range ml.Moves[:ml.N] {
			moves++
			if got, want := cs.gives(p, mv), p.givesCheck(mv, k); got != want {
				t.Errorf("%s: %v: minorChecks says check %v, givesCheck %v", p.FEN(), mv, got, want)
			}
		}
	}
	if moves == 0 {
		t.Fatal("no move tested")
	}
}

// minorMateIn1, which tries only the checking moves of knights, bishops and pawns, finds
// a mate exactly where mateIn1Move, which tries every legal move, does: over every
// real-game position and every position one move from it, and hand positions.
func TestMinorMateIn1MatchesMateIn1Move(t *testing.T) {
	positions := loadRealGames(t)
	for _, fen := range []string{
		"6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", // a knight mates: Nf7, smothered
		"kb6/8/1K6/8/8/8/8/5B2 w - - 0 1",   // a bishop mates: Bg2
		"kb6/8/KP6/8/8/8/8/8 w - - 0 1",     // a pawn mates: b7
		"7k/5K1p/8/5N2/8/8/8/8 w - - 0 1",   // a knight checks, no mate
		"8/8/8/8/8/1p6/kP6/2K5 w - - 0 1",   // no check at all
		"1k6/8/1K6/8/8/8/6P1/8 w - - 0 1",   // a pawn's double push
		"kb6/8/1K6/8/8/8/8/5B2 b - - 0 1",   // black to move
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		positions = append(positions, p)
	}
	var ml MoveList
	step := 1
	if raceEnabled || testing.Short() {
		step = 3
	}
	mates := 0
	check := func(p *Position) {
		_, want := mateIn1Move(p, p.turn)
		mv, got := minorMateIn1(p)
		if got != want {
			t.Errorf("%s: minorMateIn1 finds a mate %v, mateIn1Move %v", p.FEN(), got, want)
			return
		}
		if got {
			mates++
			if !replaysToMate(p, p.turn, []Move{mv}) {
				t.Errorf("%s: minorMateIn1's %v does not mate", p.FEN(), mv)
			}
		}
	}
	for i := 0; i < len(positions); i += step {
		p := &positions[i]
		if !p.HasLegalMove() {
			continue
		}
		check(p)
		p.LegalMoves(&ml)
		for _, mv := range ml.Moves[:ml.N] {
			if child := p.Play(mv); child.HasLegalMove() {
				check(&child)
			}
		}
	}
	if mates == 0 {
		t.Fatal("no mate found: the test proves nothing")
	}
}

// The pawn-run planner's kingMoves lists exactly the king's moves of LegalMoves, in its
// order, over every real-game position.
func TestRunKingMovesMatchLegalMoves(t *testing.T) {
	var r runPlanner
	var ml MoveList
	tested := 0
	for _, p := range loadRealGames(t) {
		p.LegalMoves(&ml)
		k := p.KingSquare(p.turn)
		var want []Move
		for _, m := range ml.Moves[:ml.N] {
			if m.From() == k {
				want = append(want, m)
			}
		}
		r.kingMoves(&p)
		var got []Move
		for _, m := range r.ml.Moves[:r.ml.N] {
			if m.From() == k {
				got = append(got, m)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: kingMoves %v, LegalMoves' king moves %v", p.FEN(), got, want)
		}
		tested += len(want)
	}
	if tested == 0 {
		t.Fatal("no king move tested")
	}
}
