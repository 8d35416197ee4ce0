// plan_mid_test.go: the middlegame mate planner on hand positions and on the
// real-game corpus, its allocations and its speed.

package dead

import (
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
)

// planMid runs the planner alone for a mate by c from p and returns its line, or false.
func planMid(p *cc.Position, c cc.Color) ([]cc.Move, bool) {
	var m midPlanner
	n := m.plan(p, c)
	if n <= 0 {
		return nil, false
	}
	return append([]cc.Move(nil), m.line[:n]...), true
}

func TestMidPlannerFindsMates(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		c    cc.Color
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", cc.White},
		{"back rank, the loser waits", "6k1/1p3ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", cc.White},
		{"fool's mate", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", cc.Black},
		{"scholar's mate", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", cc.White},
		{"smothered", "6rk/6pp/8/6N1/8/8/6PP/6K1 w - - 0 1", cc.White},
		{"a defender moves away", "6k1/5ppp/1n6/8/8/8/5PPP/R5K1 w - - 0 1", cc.White},
		{"a flight square filled", "r6k/6pp/8/6N1/8/8/6PP/6K1 b - - 0 1", cc.White},
		{"the queen on the pawn shield, supported", "r4rk1/ppp2ppp/8/8/8/3B4/PPP2PPP/3Q1RK1 w - - 0 1", cc.White},
		{"a promotion mates at once, foreseen by no plan", "k7/2P5/1K6/8/8/8/8/8 w - - 0 1", cc.White},
		{"the king walks two steps", "8/8/3p1kpp/3b4/4r3/8/2K5/5q2 w - - 0 62", cc.Black},
		{"the king steps into the net", "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 6 6", cc.Black},
		{"the loser needs a move that leaves it as much to do (real game)", "r2q1rk1/1bpp1ppp/p7/1p5n/2P1P1n1/1B4B1/PPQ2PPP/RN2K2R w KQ - 1 11", cc.White},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := sanFEN(t, tc.fen)
			line, ok := planMid(&p, tc.c)
			if !ok {
				t.Fatalf("%s: the planner found no mate by %s", tc.fen, tc.c)
			}
			checkDecision(t, &p, tc.c, Decision{Verdict: cc.Yes, Proof: ProofMate, Line: line})
		})
	}
}

// Where the planner answers, Decide answers with its line.
func TestDecideUsesMidPlanner(t *testing.T) {
	p := sanFEN(t, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
	line, ok := planMid(&p, cc.White)
	if !ok {
		t.Fatal("the planner found no mate")
	}
	d := Decide(&p, cc.White)
	checkDecision(t, &p, cc.White, d)
	if len(d.Line) != len(line) || d.Line[0] != line[0] {
		t.Errorf("Decide's line %v, the planner's %v", d.Line, line)
	}
}

// Every line the planner returns over the real-game corpus (every position, whatever its
// material) replays to a mate, and it answers for most positions with 20 pieces or more.
func TestMidPlannerRealGames(t *testing.T) {
	positions := loadRealGames(t)
	var m midPlanner
	asked, answered := 0, 0
	for i := range positions {
		p := &positions[i]
		if !p.HasLegalMove() {
			continue
		}
		for c := cc.White; c <= cc.Black; c++ {
			if cc.CannotMateByMaterial(p, c) {
				continue
			}
			n := m.plan(p, c)
			if p.Occupied().Count() >= 20 {
				asked++
				if n > 0 {
					answered++
				}
			}
			if n > 0 && !cc.ReplaysToMate(p, c, m.line[:n]) {
				t.Fatalf("%s: the planner's line %v does not mate for %s", p.FEN(), m.line[:n], c)
			}
		}
	}
	if asked < 1000 || 2*answered < asked {
		t.Errorf("the planner answered %d of %d positions with 20 pieces or more, want half at least", answered, asked)
	}
}

// The planner's two mate-in-one tests: mateIn1, which tries only the moves that may
// check, finds a mate exactly where one exists; quickMate (only the checks that also cover
// the king's free squares, and discovered checks) finds the mates marked quick, and every
// move it returns mates. On hand positions (discovered checks, promotions, castling, en
// passant, a smothered mate) and on every real-game position, for the side to move.
func TestMidPlannerMates(t *testing.T) {
	tests := []struct {
		name        string
		fen         string
		mate, quick bool
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", true, true},
		{"discovered by a knight", "6bk/7p/8/8/3N4/8/8/B5K1 w - - 0 1", true, true},
		{"smothered", "6rk/6pp/7N/8/8/8/6PP/6K1 w - - 0 1", true, true},
		{"promotion", "k7/2P5/1K6/8/8/8/8/8 w - - 0 1", true, false},
		{"castling", "8/8/8/8/4ppp1/4pkp1/8/2N1K2R w K - 0 1", true, false},
		{"en passant", "8/8/8/2k5/1pP5/1K6/8/8 b - c3 0 1", false, false},
		{"no check mates", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false},
	}
	var m midPlanner
	var ml cc.MoveList
	check := func(t *testing.T, p *cc.Position) (mate, quick bool) {
		t.Helper()
		m.w, m.l = p.Turn(), p.Turn()^1
		p.LegalMoves(&ml)
		got, ok := m.mateIn1(p, &ml)
		if _, full := mateIn1Move(p, p.Turn()); ok != full {
			t.Fatalf("%s: the planner's mate in one %v (%v), the full test %v", p.FEN(), got, ok, full)
		}
		if ok && !cc.ReplaysToMate(p, p.Turn(), []cc.Move{got}) {
			t.Fatalf("%s: mateIn1's %v does not mate", p.FEN(), got)
		}
		mv := m.quickMate(p)
		if mv != cc.NullMove && !cc.ReplaysToMate(p, p.Turn(), []cc.Move{mv}) {
			t.Fatalf("%s: quickMate's %v does not mate", p.FEN(), mv)
		}
		return ok, mv != cc.NullMove
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := sanFEN(t, tc.fen)
			mate, quick := check(t, &p)
			if mate != tc.mate || tc.quick && !quick {
				t.Fatalf("%s: mateIn1 found a mate %v (want %v), quickMate %v (must find one: %v)", tc.fen, mate, tc.mate, quick, tc.quick)
			}
		})
	}
	found := 0
	for _, p := range loadRealGames(t) {
		if _, quick := check(t, &p); quick {
			found++
		}
	}
	if found == 0 {
		t.Error("quickMate found no mate in the real games")
	}
}

func TestMidPlannerAllocations(t *testing.T) {
	p := sanFEN(t, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
	q := sanFEN(t, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	var m midPlanner
	if a := testing.AllocsPerRun(50, func() { m.plan(&p, cc.White); m.plan(&q, cc.Black) }); a != 0 {
		t.Errorf("%v allocations a run, want 0", a)
	}
}

// BenchmarkMidPlanner times the planner alone over the real-game positions with at least
// midMinPieces pieces (both colours): the mean, median, 99th percentile and maximum of
// one call, the mean when it answers and when it fails, in microseconds, and the share
// answered.
func BenchmarkMidPlanner(b *testing.B) {
	var positions []cc.Position
	for _, p := range loadRealGames(b) {
		if p.Occupied().Count() >= midMinPieces && p.HasLegalMove() {
			positions = append(positions, p)
		}
	}
	var m midPlanner
	var okTime, failTime time.Duration
	ok := 0
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &positions[(i/2)%len(positions)]
		start := time.Now()
		n := m.plan(p, cc.Color(i&1))
		el := time.Since(start)
		times = append(times, el)
		if n > 0 {
			ok++
			okTime += el
		} else {
			failTime += el
		}
	}
	b.StopTimer()
	reportTimes(b, times)
	us := float64(time.Microsecond)
	b.ReportMetric(float64(okTime)/float64(max(ok, 1))/us, "answer-µs")
	b.ReportMetric(float64(failTime)/float64(max(b.N-ok, 1))/us, "fail-µs")
	b.ReportMetric(float64(ok)/float64(b.N), "answered/op")
}

// The counts add makes for each plan on the position as it stands (holes, blockers,
// uncovered squares) are exactly those of needs, and the route of stage 0 a candidate gets
// (setRoute0) is that of setRoute, over every plan of every level of the real games; the
// counts evaluate keeps for play's first ply are those of needs with the supporter unmoved,
// the blockers off the paths among them (carried to l's first move) too.
func TestMidPlanCounts(t *testing.T) {
	var m midPlanner
	checked, evaluated := 0, 0
	eachMidPlan(loadRealGames(t), &m, nil, func(p *cc.Position, c cc.Color, pl *midPlan) {
		holes, blockers, uncovered, ok := m.needs(p, pl, 0, cc.NoSquare)
		if !ok || holes != pl.holes || blockers != pl.blockers || uncovered != pl.uncovered {
			t.Fatalf("%s, %s mates on %v from %v: add counts %x %x %x, needs %x %x %x (%v)", p.FEN(), c, pl.king, pl.to,
				uint64(pl.holes), uint64(pl.blockers), uint64(pl.uncovered), uint64(holes), uint64(blockers), uint64(uncovered), ok)
		}
		r0, s0 := pl.routes[0], pl.stopsAt[0]
		if pl.setRoute0(); pl.routes[0] != r0 || pl.stopsAt[0] != s0 {
			t.Fatalf("%s, %s mates on %v from %v via %v: setRoute0 %x %x, setRoute %x %x", p.FEN(), c, pl.king, pl.to,
				pl.vias[:pl.nv], uint64(pl.routes[0]), uint64(pl.stopsAt[0]), uint64(r0), uint64(s0))
		}
		checked++
		// What evaluate keeps for play's first ply is needs with the supporter on sfrom.
		if !m.evaluate(p, pl) {
			return
		}
		m.king, m.kmid = pl.king, pl.kmid
		holes, blockers, uncovered, ok = m.needs(p, pl, 0, pl.sfrom)
		if !ok || holes != pl.startHoles || blockers != pl.startBlockers || uncovered != pl.startUncovered || m.rest != pl.startRest {
			t.Fatalf("%s, %s mates on %v from %v: evaluate keeps %x %x %x (off the paths %x), needs %x %x %x (%x, %v)", p.FEN(), c, pl.king, pl.to,
				uint64(pl.startHoles), uint64(pl.startBlockers), uint64(pl.startUncovered), uint64(pl.startRest),
				uint64(holes), uint64(blockers), uint64(uncovered), uint64(m.rest), ok)
		}
		evaluated++
	})
	if checked < 10000 || evaluated < 5000 {
		t.Errorf("only %d plans checked, %d evaluated", checked, evaluated)
	}
}

// eachMidPlan calls onPlan with every plan of every level m collects (none played), for
// each colour not barred by its material, in each of positions with midMinPieces pieces
// or more and a move to make; onSetup, unless nil, first for each position and colour,
// after m.setup. m.king and m.kmid are the plan's.
func eachMidPlan(positions []cc.Position, m *midPlanner, onSetup func(p *cc.Position, c cc.Color), onPlan func(p *cc.Position, c cc.Color, pl *midPlan)) {
	for i := range positions {
		p := &positions[i]
		if !p.HasLegalMove() || p.Occupied().Count() < midMinPieces {
			continue
		}
		for c := cc.White; c <= cc.Black; c++ {
			if cc.CannotMateByMaterial(p, c) {
				continue
			}
			m.setup(p, c)
			if onSetup != nil {
				onSetup(p, c)
			}
			for level := 0; level <= midMaxLevel; level++ {
				m.collectLevel(p, level, false)
				for j := range m.plans[:m.n] {
					pl := &m.plans[j]
					m.king, m.kmid = pl.king, pl.kmid
					onPlan(p, c, pl)
				}
			}
		}
	}
}

// coverable says no only for squares no mover covers after any of its moves, whichever
// piece of w that may check has left its square, over every square of every real game
// position (both colours): what add relies on to drop a plan before support.
func TestMidCoverable(t *testing.T) {
	var m midPlanner
	refused := 0
	for _, p := range loadRealGames(t) {
		if !p.HasLegalMove() || p.Occupied().Count() < midMinPieces {
			continue
		}
		for c := cc.White; c <= cc.Black; c++ {
			m.setup(&p, c)
			for u := cc.Square(0); u < 64; u++ {
				if m.coverable(&p, u) {
					continue
				}
				refused++
				for i := 0; i < m.nmov; i++ {
					mv := &m.movers[i]
					for steps := mv.steps; steps != 0; {
						sto := steps.PopFirst()
						for j := 0; j < m.np; j++ {
							from := m.pieces[j].sq
							occ := p.Occupied()&^from.Bitboard()&^mv.sq.Bitboard() | sto.Bitboard()
							if cc.PieceAttacks(mv.pt, c, sto, occ).Has(u) {
								t.Fatalf("%s, %s: coverable says no for %v, but %v from %v to %v covers it once %v has left",
									p.FEN(), c, u, mv.pt, mv.sq, sto, from)
							}
						}
					}
				}
			}
		}
	}
	if refused == 0 {
		t.Error("coverable refused no square of the real games")
	}
}

// A count with a limit (tasksOn, as task and waitL ask it) is exact up to the limit and
// above it otherwise, over every plan of every level of the real games, every limit a
// plan may meet.
func TestMidTasksOnLimit(t *testing.T) {
	var m midPlanner
	var b midBoard
	checked, cut := 0, 0
	eachMidPlan(loadRealGames(t)[:1500], &m, func(p *cc.Position, _ cc.Color) { b.set(p) }, func(p *cc.Position, c cc.Color, pl *midPlan) {
		n, ok := m.tasksOn(&b, pl, 0, cc.NoSquare, -1)
		for limit := 0; limit <= midMaxTasks; limit++ {
			ln, lok := m.tasksOn(&b, pl, 0, cc.NoSquare, limit)
			switch {
			case ok && n <= limit && (ln != n || !lok):
				t.Fatalf("%s, %s mates on %v from %v: limit %d counts %d %v, want %d", p.FEN(), c, pl.king, pl.to, limit, ln, lok, n)
			case (!ok || n > limit) && lok && ln <= limit:
				t.Fatalf("%s, %s mates on %v from %v: limit %d counts %d, want more or none (%d %v)", p.FEN(), c, pl.king, pl.to, limit, ln, n, ok)
			case ln != n || lok != ok:
				cut++
			}
			checked++
		}
	})
	if checked < 10000 || cut == 0 {
		t.Errorf("only %d counts checked, %d stopped early", checked, cut)
	}
}

// The queens' plans are collected first, then the rooks', bishops', knights' and the
// pawns': setup lists the pieces that may check in that order. Each pawn of l a plan must
// move away adds midPawnPenalty to the plies it is ranked by.
func TestMidPlanOrder(t *testing.T) {
	var m midPlanner
	penalised := 0
	eachMidPlan(loadRealGames(t)[:1500], &m, func(p *cc.Position, c cc.Color) {
		for i := 1; i < m.np; i++ {
			prev, pt := m.pieces[i-1].pt, m.pieces[i].pt
			if pt != cc.Pawn && (prev == cc.Pawn || prev < pt) {
				t.Fatalf("%s, %s: pieces listed %v then %v", p.FEN(), c, prev, pt)
			}
		}
	}, func(p *cc.Position, c cc.Color, pl *midPlan) {
		pawns := int32((pl.blockers & p.TypePieces(cc.Pawn)).Count())
		if !m.evaluate(p, pl) {
			return
		}
		moves := int32(1 + pl.nv)
		if pl.sfrom != cc.NoSquare {
			moves++
		}
		m.king, m.kmid = pl.king, pl.kmid
		holes, blockers, _, _ := m.needs(p, pl, 0, pl.sfrom)
		if want := m.plies(p, moves, int32(holes.Count()+blockers.Count())) + midPawnPenalty*pawns; pl.plies != want {
			t.Fatalf("%s, %s mates on %v from %v: plies %d, want %d", p.FEN(), c, pl.king, pl.to, pl.plies, want)
		}
		if pawns > 0 {
			penalised++
		}
	})
	if penalised == 0 {
		t.Error("no plan asked a pawn of the loser to move away")
	}
}

// waitW, which looks at each piece's targets farthest from the king first, picks the move
// the plain look at every target in the legal move list's order picks (the first of the
// farthest), over the real games, both colours, a zone and a mating square of each kind.
func TestMidWaitWFarthest(t *testing.T) {
	var m midPlanner
	checked, found := 0, 0
	for _, p := range loadRealGames(t) {
		if !p.HasLegalMove() || p.Occupied().Count() < midMinPieces {
			continue
		}
		c := p.Turn()
		m.setup(&p, c)
		for ki := 0; ki < m.nk; ki++ {
			mk := &m.kings[ki]
			m.king, m.kmid = mk.sq, mk.mid
			cur := (p.ColorPieces(c) &^ p.TypePieces(cc.King)).First()
			zone := cc.KingAttacks(m.king) | cc.KingAttacks(m.kfrom) | m.kfrom.Bitboard()
			got, want := m.waitW(&p, cur, cc.NoSquare, zone), midWaitWPlain(&m, &p, cur, cc.NoSquare, zone)
			if got != want {
				t.Fatalf("%s, %s, king to %v: waitW %v, want %v", p.FEN(), c, m.king, got, want)
			}
			checked++
			if got != cc.NullMove {
				found++
			}
		}
	}
	if checked < 10000 || found < checked/2 {
		t.Errorf("only %d waiting moves checked, %d found", checked, found)
	}
}

// With no supporter (scur NoSquare, whose bitboard is a1's), a piece of w on a1 still
// waits: once waitW took NoSquare's bitboard off w's pieces and kept that piece still.
func TestMidWaitWNoSupporter(t *testing.T) {
	tests := []struct {
		fen        string
		cur        cc.Square   // the checker, which does not wait
		zone       cc.Bitboard // the squares waiting moves keep away from
		wantFrom   cc.Square   // the square of the only piece that may wait
		wantWaited bool
	}{
		// The rook on a1 is the only piece of w off the zone (the king is on it).
		{"7k/8/8/8/8/3Q4/8/R6K w - - 0 1", cc.D3, cc.H1.Bitboard(), cc.A1, true},
		// The same with the rook on b1: it waited before too.
		{"7k/8/8/8/8/3Q4/8/1R5K w - - 0 1", cc.D3, cc.H1.Bitboard(), cc.B1, true},
		// Only the king, on the zone, and the checker: no waiting move.
		{"7k/8/8/8/8/3Q4/8/7K w - - 0 1", cc.D3, cc.H1.Bitboard(), cc.NoSquare, false},
	}
	for _, tc := range tests {
		p := sanFEN(t, tc.fen)
		var m midPlanner
		m.setup(&p, cc.White)
		m.king, m.kmid = m.kfrom, cc.NoSquare
		zone := tc.zone | cc.KingAttacks(m.king) | m.king.Bitboard()
		got := m.waitW(&p, tc.cur, cc.NoSquare, zone)
		if want := midWaitWPlain(&m, &p, tc.cur, cc.NoSquare, zone); got != want {
			t.Errorf("%s: waitW %v, the plain scan %v", tc.fen, got, want)
		}
		if waited := got != cc.NullMove; waited != tc.wantWaited || waited && got.From() != tc.wantFrom {
			t.Errorf("%s: waitW %v, want a move from %v (%v)", tc.fen, got, tc.wantFrom, tc.wantWaited)
		}
		if got != cc.NullMove && !p.IsLegal(got) {
			t.Errorf("%s: waitW %v is illegal", tc.fen, got)
		}
	}
}

// midWaitWPlain is waitW looking at every target of every piece in the legal move list's
// order, keeping the first move of the greatest distance.
func midWaitWPlain(m *midPlanner, q *cc.Position, cur, scur cc.Square, zone cc.Bitboard) cc.Move {
	w := m.w
	k := q.KingSquare(m.l)
	occ := q.Occupied()
	guard := m.waitGuard(k)
	best, bestD := cc.NullMove, -1
	pieces := q.ColorPieces(w) &^ zone &^ cur.Bitboard()
	if scur != cc.NoSquare {
		pieces &^= scur.Bitboard()
	}
	for g := 0; g < midGroups; g++ {
		for b := midGroup(q, g, pieces); b != 0; {
			from := b.PopFirst()
			pt := q.PieceAt(from).Type()
			if cc.PieceAttacks(pt, w, from, occ)&guard != 0 {
				continue
			}
			for tg := groupSteps(q, w, g, from) &^ occ &^ zone; tg != 0; {
				to := tg.PopFirst()
				d := distance(from, k) + distance(to, k)
				if d <= bestD || cc.PieceAttacks(pt, w, to, occ&^from.Bitboard()|to.Bitboard())&guard != 0 {
					continue
				}
				if mv := cc.NewMove(from, to); !givesCheck(q, mv, k) && q.IsLegal(mv) {
					best, bestD = mv, d
				}
			}
		}
	}
	return best
}

// reach, made by fills from every stop at once, holds the squares each piece of w reaches
// in one, two and three moves as the attacks of each stop in turn give them, over the real
// game positions, both colours.
func TestMidReach(t *testing.T) {
	var m midPlanner
	checked := 0
	for _, p := range loadRealGames(t)[:2000] {
		if p.Occupied().Count() < midMinPieces {
			continue
		}
		for c := cc.White; c <= cc.Black; c++ {
			m.setup(&p, c)
			m.reach(&p, 3)
			for i := 0; i < m.np; i++ {
				pc := &m.pieces[i]
				if pc.pt == cc.Pawn {
					continue
				}
				occ1 := p.Occupied() &^ pc.sq.Bitboard()
				seen := pc.reach[0] | p.ColorPieces(c) | pc.sq.Bitboard()
				stop := pc.reach[0]
				for h := 1; h < 3; h++ {
					var want cc.Bitboard
					for v := stop; v != 0; {
						want |= cc.PieceAttacks(pc.pt, c, v.PopFirst(), occ1)
					}
					want &^= seen
					if pc.reach[h] != want {
						t.Fatalf("%s, %s: %v on %v reaches %x in %d moves, want %x", p.FEN(), c, pc.pt, pc.sq, uint64(pc.reach[h]), h+1, uint64(want))
					}
					seen |= want
					stop = want
					checked++
				}
			}
		}
	}
	if checked < 10000 {
		t.Errorf("only %d reaches checked", checked)
	}
}

// The counts carried over a move of a plan's piece along its path (play's carry): once
// the checker has made its first step, or the supporter its move, taking nothing, needs
// finds the same holes and uncovered squares and the same blockers off the paths, and the
// blockers on the paths are pathBlockers', over every plan of every level of the real
// games.
func TestMidCarry(t *testing.T) {
	var m midPlanner
	checked := 0
	eachMidPlan(loadRealGames(t)[:3000], &m, nil, func(p *cc.Position, c cc.Color, pl *midPlan) {
		holes, _, uncovered, ok := m.needs(p, pl, 0, pl.sfrom)
		if !ok {
			return
		}
		rest := m.rest
		for _, step := range []struct {
			mv       cc.Move
			st       int
			scur     cc.Square
			possible bool
		}{
			{cc.NewMove(pl.from, pl.at(1)), 1, pl.sfrom, pl.nv > 0},
			{cc.NewMove(pl.sfrom, pl.sto), 0, pl.sto, pl.sfrom != cc.NoSquare},
		} {
			if !step.possible || p.Occupied().Has(step.mv.To()) {
				continue
			}
			q := *p
			q = q.Play(step.mv)
			h, b, u, ok := m.needs(&q, pl, step.st, step.scur)
			onPath, pok := m.pathBlockers(&q, pl, step.st, step.scur)
			if ok != pok || ok && (h != holes || u != uncovered || b != onPath|rest) {
				t.Fatalf("%s, %s mates on %v from %v, after %v: needs %x %x %x (%v), carried %x %x %x (%v)", p.FEN(), c, pl.king, pl.to, step.mv,
					uint64(h), uint64(b), uint64(u), ok, uint64(holes), uint64(onPath|rest), uint64(uncovered), pok)
			}
			checked++
		}
	})
	if checked < 5000 {
		t.Errorf("only %d moves checked", checked)
	}
}

// checkerTaken says yes only where the check does not mate, on hand positions and on
// every single check by a moved piece in the real games.
func TestMidCheckerTaken(t *testing.T) {
	for _, tc := range []struct {
		name, fen, from, to string
		want                bool
	}{
		{"king takes the unguarded queen", "6k1/8/8/8/8/2Q5/8/4K3 w - - 0 1", "c3", "g7", true},
		{"the queen guarded through its square, no other taker", "6k1/8/8/8/8/2Q5/8/B3K3 w - - 0 1", "c3", "g7", false},
		{"a rook takes the guarded queen", "6k1/r7/8/8/8/2Q5/8/B3K3 w - - 0 1", "c3", "g7", true},
		{"the knight that could take is pinned", "R3n1k1/8/8/8/8/2Q5/8/B3K3 w - - 0 1", "c3", "g7", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sanFEN(t, tc.fen)
			from, _ := cc.ParseSquare(tc.from)
			to, _ := cc.ParseSquare(tc.to)
			m := midPlanner{w: p.Turn(), l: p.Turn() ^ 1}
			if got := m.checkerTaken(&p, from, to, p.KingSquare(m.l)); got != tc.want {
				t.Errorf("checkerTaken = %v, want %v", got, tc.want)
			}
		})
	}
	taken := 0
	for _, p := range loadRealGames(t) {
		var ml cc.MoveList
		p.LegalMoves(&ml)
		m := midPlanner{w: p.Turn(), l: p.Turn() ^ 1}
		k := p.KingSquare(m.l)
		for _, mv := range ml.Moves[:ml.N] {
			if mv.Kind() != cc.NormalMove {
				continue
			}
			child := p.Play(mv)
			if !child.InCheck() || child.AttackersTo(k, m.w, child.Occupied()) != mv.To().Bitboard() {
				continue // no check, or not by the moved piece alone
			}
			if m.checkerTaken(&p, mv.From(), mv.To(), k) {
				taken++
				if checkmated(&child) {
					t.Fatalf("%s: checkerTaken says %v can be taken, but it mates", p.FEN(), mv)
				}
			}
		}
	}
	if taken < 1000 {
		t.Errorf("only %d checks taken", taken)
	}
}

// A waiting move of w as waitW makes them (no capture, off the plan's zone, by a piece that
// covers none of the king's squares before or after it) that waitSeen does not see leaves
// needs' holes, uncovered squares and blockers off the paths as they were (play carries
// them over it), over every such move for every plan of every level of the real games.
func TestMidWaitSeen(t *testing.T) {
	var m midPlanner
	checked, seen := 0, 0
	eachMidPlan(loadRealGames(t)[:1500], &m, nil, func(p *cc.Position, c cc.Color, pl *midPlan) {
		holes, _, uncovered, ok := m.needs(p, pl, 0, pl.sfrom)
		if !ok {
			return
		}
		rest := m.rest
		zone := m.playZone(pl)
		guard := m.waitGuard(m.kfrom)
		occ := p.Occupied()
		for b := p.ColorPieces(c) &^ zone; b != 0; {
			from := b.PopFirst()
			pt := p.PieceAt(from).Type()
			if cc.PieceAttacks(pt, c, from, occ)&guard != 0 {
				continue
			}
			for to := pieceSteps(p, c, from) &^ occ &^ zone; to != 0; {
				mv := cc.NewMove(from, to.PopFirst())
				if cc.PieceAttacks(pt, c, mv.To(), occ&^from.Bitboard()|mv.To().Bitboard())&guard != 0 {
					continue
				}
				if m.waitSeen(p, pl, 0, pl.sfrom, mv) {
					seen++
					continue
				}
				q := *p
				q = q.Play(mv)
				h, b, u, ok := m.needs(&q, pl, 0, pl.sfrom)
				onPath, pok := m.pathBlockers(&q, pl, 0, pl.sfrom)
				if ok != pok || ok && (h != holes || u != uncovered || b != onPath|rest) {
					t.Fatalf("%s, %s mates on %v from %v, after %v: needs %x %x %x (%v), carried %x %x %x (%v)", p.FEN(), c, pl.king, pl.to, mv,
						uint64(h), uint64(b), uint64(u), ok, uint64(holes), uint64(onPath|rest), uint64(uncovered), pok)
				}
				checked++
			}
		}
	})
	if checked < 5000 || seen < 5000 {
		t.Errorf("only %d waiting moves checked, %d seen", checked, seen)
	}
}
