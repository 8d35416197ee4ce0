// deadposition_plan_promote_test.go: the promotion planner runs a pawn of the winner to a
// queen and mates with it where the other planners fail, and every line it returns
// replays to a mate.

package chesscore

import (
	"testing"
	"time"
)

// Real-game positions the other planners leave to the search: the promotion planner
// answers them, with a line that replays to a mate.
func TestPromotePlannerFindsMates(t *testing.T) {
	testPlannerFindsMates(t, "promotion", (*decider).planPromote, []plannerCase{
		{"the start position: the c-pawn takes its way to a8", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", White},
		{"black promotes on a1 after taking twice", "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4", Black},
		{"a pawn takes onto a free file", "2k1r3/1pp1bNp1/p3pn1p/n2rp3/P7/2P2PNP/1P1PK1P1/R1B2R2 w - - 2 24", White},
		{"the loser offers a bishop on the pawn's diagonal", "2q1r1k1/2bp1pp1/2b2n1p/2p1p3/1pP1P3/1P1P1NPP/1B1N1P2/3Q1RK1 w - - 2 17", Black},
		{"the loser offers a bishop, its knight waits", "4r3/3b1p2/2pB1kpp/p3p3/P1B1P3/2P2P1P/3P2P1/4bN1K w - - 4 38", Black},
		{"the winner's bishop steps off the pawn's file", "r3kr2/8/4P3/2bR4/pB3p2/P4n1p/1P2bp1K/5R2 w q - 4 35", White},
		{"queens on the board, a pawn takes towards the king", "8/4Qppk/3pb2p/2p1p2P/2P1P1P1/5P2/1p2q2K/8 w - - 1 43", White},
		{"a pawn takes three times on its way to d1", "3r1rk1/1p3ppp/2pqb3/p1b1p3/P3P3/2NB1PnP/1PPP2P1/R1BQ1R1K w - - 6 15", Black},
		{"the winner in check takes the checker first", "rnb1kb1r/ppp2ppp/8/4p3/5P2/8/PPP1q1PP/R1B1KBNR w KQkq - 0 5", White},
		{"the loser starts in check and gets out of it", "rnb1kb1r/ppp2ppp/8/4p3/5P2/8/PPP1q1PP/R1B1KBNR w KQkq - 0 5", Black},
		{"the loser's rook comes in two moves to be taken", "8/8/r7/1p3p1p/5P1P/6k1/8/6BK w - - 0 67", White},
		{"the loser's bishop comes in two moves to be taken, few pieces", "8/8/3p1k1p/3P2pP/2b5/5K1B/1r6/6r1 w - - 0 76", White},
		{"the winner gives its knight to the pawn in its way", "8/p7/P7/1n4k1/8/5PK1/8/8 w - - 0 43", Black},
		{"a centre pawn runs past the loser's rooks", "r2r4/5p1p/p4pk1/2bp1R2/n1n5/6KN/P1P5/4R3 w - - 8 46", Black},
		{"the queen is made off the king's lines (promoteCheckCost)", "r2qkb1r/1b1nppp1/2p2n1p/1p6/p2PPB2/PQN2N1P/4BPP1/R3K2R w KQkq - 0 8", White},
		{"a pawn of the loser queens off the king's lines", "r1b1k2r/3n1p1p/2p1p2B/p2n4/3Pp3/P1p3PP/2P1NP2/1R2KB1R w Kkq - 0 12", Black},
	})
}

// The planner never answers where it does not fit: a winner without a pawn, or whose
// pawns have no way to the last rank.
func TestPromotePlannerDeclines(t *testing.T) {
	testPlannerDeclines(t, "promotion", (*decider).planPromote, []declineCase{
		{"rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR w KQkq - 0 1", White},
		{"4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", White},
	})
}

// Over the real games, the planner answers most of the positions with 12 pieces or more
// that the other planners and the structure leave to the search (a regression in its routes or waits
// shows here), and every line it returns replays to a mate.
func TestPromotePlannerRealGames(t *testing.T) {
	positions := loadRealGames(t)
	step := 1
	if raceEnabled || testing.Short() {
		step = 3
	}
	var d decider
	left, found := 0, 0
	for i := 0; i < len(positions); i += step {
		p := &positions[i]
		for c := White; c <= Black; c++ {
			d.reset(p)
			if _, settled := d.static(c); settled || p.byType[0].Count() < 12 || !promotePlanFits(p, c) || plannedWithoutPromotion(&d, c) || d.provenByStructure(c) {
				continue
			}
			left++
			dec, ok := d.planPromote(c)
			if !ok {
				continue
			}
			found++
			checkDecision(t, p, c, dec)
		}
	}
	t.Logf("the promotion planner answered %d of %d positions left to the search", found, left)
	if left == 0 || found*20 < left*19 {
		t.Errorf("the promotion planner answered %d of %d positions left to the search, want at least 95%%", found, left)
	}
}

// plannedWithoutPromotion reports whether the middlegame, endgame, pawn-run or
// minor-piece planner answers for c on d's root.
func plannedWithoutPromotion(d *decider, c Color) bool {
	if d.root.byType[0].Count() >= midMinPieces && d.mid.plan(&d.root, c) > 0 {
		return true
	}
	if _, ok := d.planEnd(c); ok {
		return true
	}
	if runPlanFits(&d.root, c) {
		_, ok := d.planRun(c)
		return ok
	}
	_, ok := d.planMinor(c)
	return ok
}

// BenchmarkPromotePlanner times the planner alone on the real-game decisions (both
// colours) that the other planners and the structure leave to the search: the mean,
// median, 99th percentile and maximum of one call in microseconds, and the share
// answered. BenchmarkMateSearch times what the search spent on them before.
func BenchmarkPromotePlanner(b *testing.B) {
	type job struct {
		p Position
		c Color
	}
	var jobs []job
	var d decider
	for _, p := range loadRealGames(b) {
		for c := White; c <= Black; c++ {
			d.reset(&p)
			if _, settled := d.static(c); settled || plannedWithoutPromotion(&d, c) || d.provenByStructure(c) {
				continue
			}
			jobs = append(jobs, job{p, c})
		}
	}
	if len(jobs) == 0 {
		b.Fatal("no real decision is left to the search")
	}
	ok := 0
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := &jobs[i%len(jobs)]
		start := time.Now()
		d.reset(&j.p)
		if _, found := d.planPromote(j.c); found {
			ok++
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	reportTimes(b, times)
	b.ReportMetric(float64(ok)/float64(b.N), "answered/op")
}

// waitAway, which tries the moves of the pieces away from their king one by one, returns
// the first such quiet move off the path that the move list holds (the move wait's scan
// of the whole list would prefer), over every real-game position with the path and the
// units to keep taken from the squares in front of the side's pawns.
func TestPromoteWaitAwayMatchesMoveList(t *testing.T) {
	var pp promotePlanner
	var ml MoveList
	found := 0
	for _, p := range loadRealGames(t) {
		if !p.HasLegalMove() {
			continue
		}
		us := p.turn
		enemyKing := p.KingSquare(us ^ 1)
		near := kingAttacks[p.KingSquare(us)]
		path := pushUp(p.Pieces(us, Pawn), us)
		keep := p.byColor[us] & p.byType[Knight] & darkSquares
		want := NullMove
		p.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			pt := p.board[m.From()].Type()
			if pt == King || pt == Pawn || near.Has(m.From()) || keep.Has(m.From()) ||
				m.Kind() != NormalMove || p.board[m.To()] != NoPiece || path.Has(m.To()) ||
				p.givesCheck(m, enemyKing) {
				continue
			}
			want = m
			break
		}
		if got := pp.waitAway(&p, path, keep, near, enemyKing); got != want {
			t.Errorf("%s: waitAway %v, the move list's first %v", p.FEN(), got, want)
		}
		if want != NullMove {
			found++
		}
	}
	if found == 0 {
		t.Fatal("no wait found: the test proves nothing")
	}
}

// reachesIn2, which asks of one square what offerIn2 computes for every square, agrees
// with it on every empty square of every real-game position, for both colours.
func TestPromoteReachesIn2MatchesOfferIn2(t *testing.T) {
	reached := 0
	for _, p := range loadRealGames(t) {
		for l := White; l <= Black; l++ {
			want := offerIn2(&p, l)
			for b := ^p.byType[0]; b != 0; {
				d := b.PopFirst()
				got := reachesIn2(&p, l, d)
				if got != want.Has(d) {
					t.Fatalf("%s: %v to reach %v in two moves: reachesIn2 %v, offerIn2 %v", p.FEN(), l, d, got, want.Has(d))
				}
				if got {
					reached++
				}
			}
		}
	}
	if reached == 0 {
		t.Fatal("no square reached: the test proves nothing")
	}
}

// offerIn2 returns, for reachesIn2's test, the empty squares of p that a piece of l (not its king) reaches in
// two moves through empty squares, or a pawn of l in two pushes.
func offerIn2(p *Position, l Color) Bitboard {
	occ := p.byType[0]
	pawns := p.Pieces(l, Pawn)
	reach := pushUp(pushUp(pawns, l)&^occ, l)
	for b := p.byColor[l] &^ p.byType[King] &^ pawns; b != 0; {
		sq := b.PopFirst()
		pt := p.board[sq].Type()
		occ1 := occ &^ sq.Bitboard()
		for first := pieceAttacks(pt, l, sq, occ) &^ occ; first != 0; {
			reach |= pieceAttacks(pt, l, first.PopFirst(), occ1)
		}
	}
	return reach &^ occ
}

// giftSquares returns, for giftOn's test, the squares on which w has, or can put in one or two moves, a
// unit (not its king) for a pawn of l to take.
func giftSquares(p *Position, w Color) Bitboard {
	occ := p.byType[0]
	ours := p.byColor[w] &^ p.byType[King]
	gift := ours | pushUp(ours&p.byType[Pawn], w)&^occ | offerIn2(p, w)
	for b := ours &^ p.byType[Pawn]; b != 0; {
		sq := b.PopFirst()
		gift |= pieceAttacks(p.board[sq].Type(), w, sq, occ) &^ occ
	}
	return gift
}

// giftOn, which asks of a pawn's two targets what giftSquares computes for every square,
// agrees with it for every pawn of l in every real-game position, for both colours.
func TestPromoteGiftOnMatchesGiftSquares(t *testing.T) {
	given := 0
	for _, p := range loadRealGames(t) {
		for w := White; w <= Black; w++ {
			want := giftSquares(&p, w)
			for b := p.Pieces(w^1, Pawn); b != 0; {
				targets := pawnAttacks[w^1][b.PopFirst()]
				got := giftOn(&p, w, targets)
				if got != (targets&want != 0) {
					t.Fatalf("%s: %v to give a unit on %v: giftOn %v, giftSquares %v", p.FEN(), w, targets, got, targets&want != 0)
				}
				if got {
					given++
				}
			}
		}
	}
	if given == 0 {
		t.Fatal("no unit given: the test proves nothing")
	}
}

// A route whose play falls into the two sides' shuffles (the same state four plies
// later) is given up there, not played on to promoteMaxPlies.
func TestPromotePlayStopsAtALoop(t *testing.T) {
	for _, tc := range []struct {
		fen string
		w   Color
	}{
		{"5r2/R1pk1pp1/7p/Q3b3/1PB1P3/2P4P/4nPP1/7K w - - 12 36", Black},
		{"r2r4/5pkp/p4p2/2bp4/n1n5/6KN/P1P5/4RR2 w - - 6 45", Black},
	} {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.fen, err)
		}
		var pp promotePlanner
		pp.w, pp.l = tc.w, tc.w^1
		pp.chooseRoutes(&p)
		loops := 0
		for i := range pp.nr {
			if pp.play(&p, &pp.routes[i]) || pp.handed >= 0 {
				continue
			}
			if pp.n >= promoteMaxPlies {
				t.Errorf("%s: route %d played to %d plies", tc.fen, i, pp.n)
			} else if pp.n >= 4 && pp.seen[pp.n-4] == pp.seen[pp.n] {
				loops++
			}
		}
		if loops == 0 {
			t.Errorf("%s: no route given up at a repeated state", tc.fen)
		}
	}
}

// routesByRanks is chooseRoutes's reference for its test: the cheapest routes of w's
// pawns, cheapest first, by a dynamic programme over the cone's squares, rank by rank
// backwards from the last rank (the method chooseRoutes replaced).
func routesByRanks(p *Position, w Color) (routes [promoteRoutes]promoteRoute, nr int) {
	l := w ^ 1
	var costs [64]int8
	var nexts [64]Square
	up := pawnUp[w]
	occ := p.byType[0]
	ours, theirs := p.byColor[w], p.byColor[l]
	pawns := p.byType[Pawn]
	kings := p.byType[King]
	closed := ours | kings // the squares no capture goes to
	offer := promoteOffers(p, l)
	mine := p.Pieces(w, Pawn)
	cone := pawnCone(mine, w)
	lastRank := pawnLastRank[w]
	for b := cone & lastRank; b != 0; {
		sq := b.PopFirst()
		costs[sq], nexts[sq] = 0, NoSquare
	}
	// Rank by rank backwards from the last rank.
	for rank := lastRank; ; {
		if rank = pushUp(rank, l); rank == 0 {
			break
		}
		for b := cone & rank; b != 0; {
			sq := b.PopFirst()
			best, next := promoteFar, NoSquare
			t := Square(int(sq) + up)
			gift := false // l's pawn on t, to step aside by taking a unit w gives it
			switch {
			case !occ.Has(t):
				best, next = 1+int(costs[t]), t
			case theirs.Has(t) && pawns.Has(t):
				gift = true
			case pawns.Has(t) || kings.Has(t):
			default:
				best, next = 2+int(costs[t]), t
			}
			// The captures, each tested only where it could be cheaper than the best so far
			// (reachesIn2 is asked only then); the push wins ties.
			for diag := pawnAttacks[w][sq] &^ closed; diag != 0; {
				d := diag.PopFirst()
				c := promoteFar
				switch {
				case theirs.Has(d):
					c = 1 + int(costs[d])
				case offer.Has(d):
					c = promoteOfferCost + int(costs[d])
				case promoteOfferCost+1+int(costs[d]) >= best:
				default:
					if reachesIn2(p, l, d) {
						c = promoteOfferCost + 1 + int(costs[d])
					}
				}
				if c < best {
					best, next = c, d
				}
			}
			// The push past l's pawn, after the captures (giftOn is asked only where it
			// could be the cheapest).
			if c := 2 + promoteOfferCost + int(costs[t]); gift && c <= best {
				if giftOn(p, w, pawnAttacks[l][t]) {
					best, next = c, t
				}
			}
			costs[sq], nexts[sq] = int8(min(best, promoteFar)), next
		}
	}
	nr = 0
	lk := p.KingSquare(l)
	kingLines := RookAttacks(lk, occ) | BishopAttacks(lk, occ) // a queen there checks
	for b := mine; b != 0; {
		sq := b.PopFirst()
		c := int(costs[sq])
		if c >= promoteFar {
			continue
		}
		rt := promoteRoute{pawn: sq}
		for s := nexts[sq]; s != NoSquare && rt.n < len(rt.steps); s = nexts[s] {
			rt.steps[rt.n] = s
			rt.n++
		}
		c = promoteRouteCost(c, rt.steps[rt.n-1], kingLines)
		rt.cost = c
		i := nr
		if i < len(routes) {
			nr++
		} else if c >= routes[i-1].cost {
			continue
		} else {
			i--
		}
		for ; i > 0 && routes[i-1].cost > c; i-- {
			routes[i] = routes[i-1]
		}
		routes[i] = rt
	}
	return routes, nr
}

// chooseRoutes, level by level on bitboards, chooses the same routes, in the same order
// and at the same costs, as the rank-by-rank programme, for both colours in every
// real-game position.
func TestPromoteRoutesMatchRankByRank(t *testing.T) {
	var pp promotePlanner
	routes := 0
	for _, p := range loadRealGames(t) {
		for w := White; w <= Black; w++ {
			want, nr := routesByRanks(&p, w)
			pp.w, pp.l = w, w^1
			pp.chooseRoutes(&p)
			if pp.nr != nr {
				t.Fatalf("%s, %v: %d routes, want %d", p.FEN(), w, pp.nr, nr)
			}
			for i := range nr {
				if pp.routes[i] != want[i] {
					t.Fatalf("%s, %v: route %d %+v, want %+v", p.FEN(), w, i, pp.routes[i], want[i])
				}
			}
			routes += nr
		}
	}
	if routes == 0 {
		t.Fatal("no route: the test proves nothing")
	}
}

// After the promotion, l (to move, not in check) waits and the other planner is handed
// the position with w to move: its quick mate in one and its plans then start from w's
// move. The line replays through the wait to the position handed over.
func TestPromoteWaitsBeforeHandOver(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		w    Color
	}{
		{"the start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", White},
		{"black promotes on a1 after taking twice", "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4", Black},
		{"a pawn takes onto a free file", "2k1r3/1pp1bNp1/p3pn1p/n2rp3/P7/2P2PNP/1P1PK1P1/R1B2R2 w - - 2 24", White},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := sanFEN(t, tc.fen)
			var d decider
			d.reset(&p)
			if _, ok := d.planPromote(tc.w); !ok {
				t.Fatal("no line")
			}
			pp := d.promote
			if pp.handed < 2 || pp.handPos.turn != tc.w {
				t.Fatalf("handed over after %d plies with %v to move, want after l's wait with %v to move", pp.handed, pp.handPos.turn, tc.w)
			}
			promo, wait := pp.line[pp.handed-2], pp.line[pp.handed-1]
			if promo.Kind() != PromotionMove {
				t.Errorf("ply %d is %v, want the promotion", pp.handed-2, promo)
			}
			if !replaysToPosition(&p, pp.line[:pp.handed], &pp.handPos) {
				t.Errorf("line %v does not replay through the wait %v to the position handed over", pp.line[:pp.handed], wait)
			}
		})
	}
}
