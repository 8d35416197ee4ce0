// plan_end_test.go: the endgame mate planner finds the classic helpmates, and
// every line it returns replays to a mate.

package dead

import (
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// The planner itself answers these endgames, with a line that replays to a mate.
func TestEndPlannerFindsMates(t *testing.T) {
	testPlannerFindsMates(t, "endgame", (*decider).planEnd, []plannerCase{
		{"rook against the lone king", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", cc.White},
		{"queen against the lone king, loser to move", "8/5q1K/8/8/6k1/8/8/8 w - - 14 99", cc.Black},
		{"queen against the lone king, the king must not stalemate", "8/8/8/3k4/8/8/1Q6/6K1 b - - 0 1", cc.White},
		{"pawn promotes first", "8/8/8/4k3/8/3K4/4P3/8 b - - 4 42", cc.White},
		{"rook against rook", "8/R4K2/2k5/8/8/8/8/4r3 w - - 80 112", cc.White},
		{"queen against rook", "2K1q3/8/1R6/5k2/8/8/8/8 w - - 24 102", cc.Black},
		{"rook and pawns against pawns", "8/5ppk/2R5/8/1P5p/8/5PPP/6K1 w - - 0 36", cc.White},
		{"black rook, white to move", "8/8/8/8/2k5/8/3K4/r7 w - - 0 50", cc.Black},
	})
}

// The planner never answers where it does not fit: many pieces, or only minor pieces
// for the winner.
func TestEndPlannerDeclines(t *testing.T) {
	testPlannerDeclines(t, "endgame", (*decider).planEnd, []declineCase{
		{cc.StartFEN, cc.White},
		{"8/8/8/3k4/8/8/8/B3K3 w - - 0 1", cc.White},
		{"8/8/8/4k3/8/8/8/R3K3 w - - 0 1", cc.Black},
	})
}

// Over the real games, every line the planner returns replays to a mate, and it answers
// most of the endgames it fits (a regression in its plans shows here).
func TestEndPlannerRealGames(t *testing.T) {
	positions := loadRealGames(t)
	step := 1
	if raceEnabled || testing.Short() {
		step = 5
	}
	var d decider
	var e endPlanner
	fits, found := 0, 0
	for i := 0; i < len(positions); i += step {
		p := &positions[i]
		for c := cc.White; c <= cc.Black; c++ {
			d.reset(p)
			if _, settled := d.static(c); settled || !endPlanFits(p, c) {
				continue
			}
			fits++
			n, ok := e.find(p, c)
			if !ok {
				continue
			}
			found++
			if !cc.ReplaysToMate(p, c, e.line[:n]) {
				t.Fatalf("%s: the planner's line for %s %v does not replay to a mate", p.FEN(), c, e.line[:n])
			}
		}
	}
	if fits == 0 || 10*found < 8*fits {
		t.Fatalf("the planner answered %d of %d real endgames it fits, want at least 80%%", found, fits)
	}
	t.Logf("the planner answered %d of %d real endgames it fits", found, fits)
}

// The planner allocates nothing: its state lives in the pooled decider.
func TestEndPlannerAllocationFree(t *testing.T) {
	p := sanFEN(t, "8/R4K2/2k5/8/8/8/8/4r3 w - - 80 112")
	var e endPlanner
	if _, ok := e.find(&p, cc.White); !ok {
		t.Fatalf("no mate found")
	}
	if n := testing.AllocsPerRun(20, func() { e.find(&p, cc.White) }); n != 0 {
		t.Errorf("find allocates %.1f times a run", n)
	}
}

// BenchmarkEndPlanner times the planner alone over the real-game endgames it fits (both
// colours): the share it answers, the plies it plays, and its mean time in microseconds.
func BenchmarkEndPlanner(b *testing.B) {
	real := loadRealGames(b)
	type job struct {
		p cc.Position
		c cc.Color
	}
	var jobs []job
	var d decider
	for i := range real {
		for c := cc.White; c <= cc.Black; c++ {
			d.reset(&real[i])
			if _, settled := d.static(c); !settled && endPlanFits(&real[i], c) {
				jobs = append(jobs, job{real[i], c})
			}
		}
	}
	var e endPlanner
	found, plies := 0, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := &jobs[i%len(jobs)]
		if _, ok := e.find(&j.p, j.c); ok {
			found++
		}
		plies += e.plies
	}
	b.ReportMetric(float64(found)/float64(b.N), "found/op")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/op")
}

// declineCase is a position where a planner must not answer for c.
type declineCase struct {
	fen string
	c   cc.Color
}

// testPlannerDeclines checks that plan (one planner, named for the messages) answers
// none of the cases.
func testPlannerDeclines(t *testing.T, planner string, plan func(*decider, cc.Color) (Decision, bool), cases []declineCase) {
	t.Helper()
	for _, tc := range cases {
		p := sanFEN(t, tc.fen)
		var d decider
		d.reset(&p)
		if _, ok := plan(&d, tc.c); ok {
			t.Errorf("%s: the %s planner answered for %s", tc.fen, planner, tc.c)
		}
	}
}

// plannerCase is a position where a planner must find a mate by c.
type plannerCase struct {
	name, fen string
	c         cc.Color
}

// testPlannerFindsMates checks that plan (one planner, named for the messages) answers
// each case itself with a line that replays to mate, and that Decide answers Yes there.
func testPlannerFindsMates(t *testing.T, planner string, plan func(*decider, cc.Color) (Decision, bool), cases []plannerCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := sanFEN(t, tc.fen)
			var d decider
			d.reset(&p)
			dec, ok := plan(&d, tc.c)
			if !ok {
				t.Fatalf("%s: the %s planner found no mate for %s", tc.fen, planner, tc.c)
			}
			checkDecision(t, &p, tc.c, dec)
			dec = Decide(&p, tc.c)
			if dec.Verdict != cc.Yes {
				t.Fatalf("%s: Decide for %s = %s", tc.fen, tc.c, dec.Verdict)
			}
			checkDecision(t, &p, tc.c, dec)
		})
	}
}

// The loser's king, waiting at its target while w's king still has steps to make, steps
// along the edge beside the target rather than move a piece (and a waiting move of a
// piece once w's king is close, or has no way).
func TestEndPlannerLoserShuffles(t *testing.T) {
	tests := []struct {
		name  string
		togo  int32 // w's king steps to the stand, as winnerMove left them
		wantK bool  // a king step of the loser along the edge
	}{
		{"w's king far", endShuffle + 1, true},
		{"w's king endShuffle steps away", endShuffle, true},
		{"w's king one step fewer", endShuffle - 1, false},
		{"w's king one step away", 1, false},
		{"w's king with no way", endFar, false},
	}
	p := sanFEN(t, "4k3/8/8/8/8/4K3/8/R6n b - - 0 1")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := endPlanner{w: cc.White, l: cc.Black, pawn: cc.NoSquare}
			e.pic = endPicture{target: cc.E8, stand: cc.E6, edge: cc.Rank8}
			e.togo = [2]int32{tc.togo, endFar}
			e.attW = attacksBy(&p, cc.White, p.Occupied()&^p.KingSquare(cc.Black).Bitboard())
			m, ok := e.loserMove(&p)
			if !ok {
				t.Fatal("no move")
			}
			king := m.From() == cc.E8 && cc.Rank8.Has(m.To())
			if king != tc.wantK {
				t.Errorf("loserMove = %v, want a king step along the edge: %v", m, tc.wantK)
			}
		})
	}
}

// The pictures are ranked by the longer walk first: with the loser's king already on h2,
// the picture there needs four steps of w's king (9 plies), the one on e1 three steps of
// each king (7 plies, though more steps in all): e1 comes first.
func TestEndPlannerPicturesLongerWalkFirst(t *testing.T) {
	p := sanFEN(t, "8/8/8/8/8/8/7k/RK6 w - - 0 1")
	e := endPlanner{w: cc.White, l: cc.Black, pawn0: cc.NoSquare}
	n := e.choosePictures(&p, 0)
	if n < 2 {
		t.Fatalf("choosePictures kept %d pictures, want at least 2", n)
	}
	if got := e.pics[0]; got.target != cc.E1 || got.stand != cc.E3 {
		t.Errorf("first picture: target %v, stand %v; want e1, e3", got.target, got.stand)
	}
	for _, pic := range e.pics[1:n] {
		if pic.target == cc.H2 && pic.stand == cc.F2 {
			return
		}
	}
	t.Errorf("the picture h2, f2 is not among %v", e.pics[:n])
}

// The flood's rings answer the ring of the square given as until (at) and of the squares
// next to it (step) as dist does, with walls of every shape.
func TestEndRingsStepAsDist(t *testing.T) {
	walls := []struct {
		name    string
		allowed cc.Bitboard
	}{
		{"open board", ^cc.Bitboard(0)},
		{"a wall on the d-file with a gap", ^(cc.FileD &^ cc.Rank5)},
		{"a maze", ^(cc.FileB&^cc.Rank8 | cc.FileD&^cc.Rank1 | cc.FileF&^cc.Rank8 | cc.Rank4&(cc.FileG|cc.FileH))},
		{"every other square", cc.Bitboard(0x55aa55aa55aa55aa)},
	}
	var r endRings
	for _, w := range walls {
		for goal := range cc.Square(64) {
			for until := range cc.Square(64) {
				r.fill(goal, w.allowed, until)
				if got, want := r.at, r.dist(until); got != want {
					t.Fatalf("%s, goal %v, until %v: at = %d, dist = %d", w.name, goal, until, got, want)
				}
				if r.at == endFar {
					continue
				}
				for b := cc.KingAttacks(until); b != 0; {
					sq := b.PopFirst()
					if got, want := r.step(sq), r.dist(sq); got != want {
						t.Fatalf("%s, goal %v, until %v: step(%v) = %d, dist = %d", w.name, goal, until, sq, got, want)
					}
				}
			}
		}
	}
}

// The pictures are kept in the order of their keys (cost, then steps) and, when those
// tie, by target, a corner's rank picture before its file picture: with the kings on a1
// and c3, b1 (stand b3) and a2 (c2) cost the least, then a1 with stands a3 and c1.
func TestEndPlannerPicturesTieOrder(t *testing.T) {
	p := sanFEN(t, "7R/8/8/8/8/2K5/8/k7 w - - 0 1")
	e := endPlanner{w: cc.White, l: cc.Black, pawn0: cc.NoSquare}
	n := e.choosePictures(&p, 0)
	want := []struct{ target, stand cc.Square }{{cc.B1, cc.B3}, {cc.A2, cc.C2}, {cc.A1, cc.A3}, {cc.A1, cc.C1}}
	if n < len(want) {
		t.Fatalf("choosePictures kept %d pictures, want at least %d", n, len(want))
	}
	for i, w := range want {
		if got := e.pics[i]; got.target != w.target || got.stand != w.stand {
			t.Errorf("picture %d: target %v, stand %v; want %v, %v", i, got.target, got.stand, w.target, w.stand)
		}
	}
	for i := 1; i < n; i++ {
		if e.pics[i].cost < e.pics[i-1].cost {
			t.Errorf("picture %d costs %d, less than the one before it (%d)", i, e.pics[i].cost, e.pics[i-1].cost)
		}
	}
}

// endClampFar clamps to 0..8 as max(0, min(d, 8)) does.
func TestEndClampFar(t *testing.T) {
	for d := int32(-200); d <= 200; d++ {
		if got, want := endClampFar(d), max(0, min(d, 8)); got != want {
			t.Errorf("endClampFar(%d) = %d, want %d", d, got, want)
		}
	}
}

// endMates answers as the move generator does (a check, and no legal move after it), over
// every legal move of the real games' positions and a few mates and escapes.
func TestEndMatesAsLegalMoves(t *testing.T) {
	positions := loadRealGames(t)
	for _, fen := range []string{
		"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",  // Ra8 mates on the back rank
		"r5k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", // Rxa8 mates
		"6k1/4nppp/8/8/8/8/8/R5K1 w - - 0 1", // Ra8 is met by ...Nc8
		"8/8/8/3k4/1p6/8/2P5/2K5 w - - 0 1",  // c4 checks, ...bxc3 en passant answers it
		"k7/8/1K6/8/8/8/7Q/8 w - - 0 1",      // Qh8 mates
	} {
		positions = append(positions, sanFEN(t, fen))
	}
	step := 1
	if raceEnabled || testing.Short() {
		step = 7
	}
	checks, mates := 0, 0
	for i := 0; i < len(positions); i += step {
		p := &positions[i]
		var ml cc.MoveList
		p.LegalMoves(&ml)
		k := p.KingSquare(p.Turn() ^ 1)
		for _, m := range ml.Moves[:ml.N] {
			child := p.Play(m)
			want := child.InCheck() && !child.HasLegalMove()
			if child.InCheck() {
				checks++
			}
			if want {
				mates++
			}
			if got := endMates(p, m, k); got != want {
				t.Fatalf("%s: endMates(%v) = %v, want %v", p.FEN(), m, got, want)
			}
		}
	}
	if mates == 0 || checks == 0 {
		t.Fatalf("%d checks and %d mates looked at, want some of each", checks, mates)
	}
}

// A plan gives up as soon as the loser takes w's last rook, queen or pawn: nothing is left
// to mate with (before, every picture and its chains played on, 211 plies here).
func TestEndPlannerGivesUpUnarmed(t *testing.T) {
	tests := []struct {
		name, fen string
		w         cc.Color
	}{
		{"the king takes the new queen, a bishop left", "8/4k3/2R1P3/8/4P3/b5P1/5PK1/7q w - - 0 45", cc.Black},
		{"the king takes the new queen, another bishop left", "8/2b1k3/4P3/2R1P3/8/6P1/5PK1/7q w - - 0 47", cc.Black},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := sanFEN(t, tc.fen)
			var e endPlanner
			if _, ok := e.find(&p, tc.w); ok {
				t.Fatalf("found a mate with a bishop alone")
			}
			if e.plies > 2*endEndPlans {
				t.Errorf("played %d plies, want at most %d (one capture a picture)", e.plies, 2*endEndPlans)
			}
		})
	}
}

// narrow never drops a target that try would keep as the new best, for either side's
// scanner, in the states the planner's last scans left over the real endgames: the
// narrowing after a kept move changes no move chosen.
func TestEndScannersNarrowKeepsBetterMoves(t *testing.T) {
	positions := loadRealGames(t)
	step := 7
	if raceEnabled || testing.Short() {
		step = 41
	}
	var d decider
	var e endPlanner
	checked := 0
	for i := 0; i < len(positions); i += step {
		p := &positions[i]
		for c := cc.White; c <= cc.Black; c++ {
			d.reset(p)
			if _, settled := d.static(c); settled || !endPlanFits(p, c) {
				continue
			}
			e.wscan, e.lscan = endWinScan{}, endLoseScan{}
			e.find(p, c)
			if e.wscan.e != nil {
				ws := e.wscan
				own := ws.occ &^ ws.theirs
				froms := own
				if ws.pawn != cc.NoSquare {
					froms &^= ws.pawn.Bitboard() // its moves are scored apart, never narrowed
				}
				tryCopy := func(m cc.Move, pt cc.PieceType, from, to cc.Square) bool {
					c := ws
					return c.try(m, pt, from, to, true)
				}
				checked += checkNarrow(t, p.FEN(), ws.narrow, tryCopy, froms, own, ws.lk.Bitboard(), ws.pawnPath|pawnLastRank[ws.w])
			}
			if e.lscan.best != cc.NullMove {
				ls := e.lscan
				tryCopy := func(m cc.Move, pt cc.PieceType, from, to cc.Square) bool {
					c := ls
					return c.try(m, pt, from, to, true)
				}
				checked += checkNarrow(t, p.FEN(), ls.narrow, tryCopy, ls.occ&^ls.theirs, ls.occ&^ls.theirs, ls.wk.Bitboard(), pawnLastRank[ls.l])
			}
		}
	}
	if checked == 0 {
		t.Fatalf("no scanner state checked")
	}
}

// checkNarrow checks, for every piece kind on every square of froms (the side's pieces
// scanned) and every target off own and the other side's king (a pawn's off noPawn),
// that a move try (on a copy of the scanner) keeps is one narrow keeps; it returns the
// moves tried.
func checkNarrow(t *testing.T, fen string, narrow func(cc.PieceType, cc.Square, cc.Bitboard) cc.Bitboard,
	tryCopy func(cc.Move, cc.PieceType, cc.Square, cc.Square) bool, froms, own, king, noPawn cc.Bitboard) int {
	t.Helper()
	n := 0
	for pt := cc.Pawn; pt <= cc.Queen; pt++ {
		for from := range cc.Square(64) {
			if !froms.Has(from) || pt == cc.Pawn && noPawn.Has(from) {
				continue
			}
			nfrom := from
			if pt == cc.Pawn {
				nfrom = cc.NoSquare
			}
			kept := narrow(pt, nfrom, ^cc.Bitboard(0))
			for to := range cc.Square(64) {
				if (own | king).Has(to) || pt == cc.Pawn && noPawn.Has(to) {
					continue
				}
				if tryCopy(cc.NewMove(from, to), pt, from, to) && !kept.Has(to) {
					t.Fatalf("%s: narrow drops %v%v (%v), which try keeps", fen, from, to, pt)
				}
				n++
			}
		}
	}
	return n
}

// endSide.legal (with its shortcut for a side neither in check nor with an enemy slider
// on a line through its king) decides every move endTargets gives as endLegal does.
func TestEndSideLegalAgreesWithEndLegal(t *testing.T) {
	safe := 0
	for _, q := range endTestPositions(t) {
		us := q.Turn()
		x := endSideOf(&q)
		if x.safe {
			safe++
		}
		for b := q.ColorPieces(us); b != 0; {
			from := b.PopFirst()
			for tg := endTargets(&q, q.PieceAt(from).Type(), us, from, q.Occupied()); tg != 0; {
				to := tg.PopFirst()
				if got, want := x.legal(from, to), endLegal(&q, from, to); got != want {
					t.Fatalf("%s: endSide.legal(%v%v) = %v, endLegal says %v", q.FEN(), from, to, got, want)
				}
			}
		}
	}
	if safe == 0 {
		t.Fatalf("no position took the shortcut")
	}
}
