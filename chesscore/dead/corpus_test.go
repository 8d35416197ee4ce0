// corpus_test.go: the dead-position decision against its corpora: the hard
// positions of testdata/deadpositions.epd, the real-game positions of
// testdata/realgames.fen, brute force on random positions; and its benchmarks.

package dead

import (
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/internal/fixture"
)

// corpusEntry is one position of testdata/deadpositions.epd with its expected verdicts.
type corpusEntry struct {
	fen  string
	want [2]cc.Verdict // by colour
	note string
}

// loadDeadCorpus reads testdata/deadpositions.epd (format in its header).
func loadDeadCorpus(t testing.TB) []corpusEntry {
	t.Helper()
	var out []corpusEntry
	for _, l := range fixture.Lines(t, os.DirFS("testdata"), "deadpositions.epd") {
		epd, err := cc.ParseEPD(l.Text)
		if err != nil {
			t.Fatalf("deadpositions.epd:%d: %v", l.N, err)
		}
		if len(epd.Ops) != 3 {
			t.Fatalf("deadpositions.epd:%d: %d fields, want 4", l.N, 1+len(epd.Ops))
		}
		note := epd.Ops[2]
		e := corpusEntry{fen: epd.FEN, note: strings.TrimSpace(note.Code + " " + note.Operand())}
		for i := range 2 {
			switch op := epd.Ops[i]; {
			case op.Code == "yes" && len(op.Operands) == 0:
				e.want[i] = cc.Yes
			case op.Code == "no" && len(op.Operands) == 0:
				e.want[i] = cc.No
			default:
				t.Fatalf("deadpositions.epd:%d: answer %q, want yes or no", l.N, op.String())
			}
		}
		out = append(out, e)
	}
	return out
}

// loadRealGames reads the positions of chesscore's testdata/realgames.fen.
func loadRealGames(t testing.TB) []cc.Position {
	t.Helper()
	var out []cc.Position
	for _, l := range fixture.Lines(t, os.DirFS("../testdata"), "realgames.fen") {
		p, err := cc.ParseFEN(l.Text)
		if err != nil {
			t.Fatalf("realgames.fen:%d: %v", l.N, err)
		}
		out = append(out, p)
	}
	return out
}

// checkDecision checks a decision's evidence: a Yes line replays to a mate by c, a No has
// a proof, an Unknown has none.
func checkDecision(t *testing.T, p *cc.Position, c cc.Color, d Decision) {
	t.Helper()
	switch d.Verdict {
	case cc.Yes:
		if d.Proof != ProofMate {
			t.Errorf("%s: yes for %s with proof %s", p.FEN(), c, d.Proof)
		}
		checkHelpmate(t, p, c, d.Line)
	case cc.No:
		if d.Proof == ProofNone || d.Proof == ProofMate || len(d.Line) != 0 {
			t.Errorf("%s: no for %s with proof %s and line %v", p.FEN(), c, d.Proof, d.Line)
		}
	default:
		if d.Proof != ProofNone {
			t.Errorf("%s: unknown for %s with proof %s", p.FEN(), c, d.Proof)
		}
	}
}

func TestDeadPositionCorpus(t *testing.T) {
	entries := loadDeadCorpus(t)
	if len(entries) < 60 {
		t.Fatalf("only %d positions in the corpus", len(entries))
	}
	for _, e := range entries {
		p := sanFEN(t, e.fen)
		for c := cc.White; c <= cc.Black; c++ {
			d := Decide(&p, c)
			if d.Verdict != e.want[c] {
				t.Errorf("%s (%s): %s can mate = %s (%s, %d nodes), want %s", e.fen, e.note, c, d.Verdict, d.Proof, d.Nodes, e.want[c])
				continue
			}
			checkDecision(t, &p, c, d)
		}
		if dead := IsDeadPosition(&p); dead != (e.want[cc.White] == cc.No && e.want[cc.Black] == cc.No) {
			t.Errorf("%s (%s): IsDeadPosition = %v", e.fen, e.note, dead)
		}
	}
}

// A "no" of the corpus is never contradicted by a short mate that brute force finds.
func TestDeadPositionCorpusNoShortMate(t *testing.T) {
	depth := 4
	if raceEnabled || testing.Short() {
		depth = 3
	}
	for _, e := range loadDeadCorpus(t) {
		p := sanFEN(t, e.fen)
		for c := cc.White; c <= cc.Black; c++ {
			if e.want[c] == cc.No && bruteHelpmate(&p, c, depth) {
				t.Errorf("%s (%s): %s is listed as unable to mate, but brute force mates within %d plies", e.fen, e.note, c, depth)
			}
		}
	}
}

// Every position of the real games is decided within the default budget: Unknown never
// comes up in real play. A Yes line always replays to a mate.
func TestRealGamesDecided(t *testing.T) {
	positions := loadRealGames(t)
	if len(positions) < 4000 {
		t.Fatalf("only %d real-game positions", len(positions))
	}
	step := 1
	if raceEnabled || testing.Short() {
		step = 10
	}
	for i := 0; i < len(positions); i += step {
		p := &positions[i]
		for c := cc.White; c <= cc.Black; c++ {
			d := Decide(p, c)
			if d.Verdict == cc.Unknown {
				t.Errorf("%s: unknown for %s after %d nodes", p.FEN(), c, d.Nodes)
				continue
			}
			checkDecision(t, p, c, d)
		}
	}
}

// lockedRandomPosition builds a random position around blocked pawn pairs: a few pawns of
// each side, each blocked by an enemy pawn, kings and the pieces, placed at random.
func lockedRandomPosition(r *testRNG, pieces string, turn cc.Color) (cc.Position, bool) {
	var board [64]byte
	pairs := 2 + int(r.Next()%5)
	for i := 0; i < pairs; i++ {
		file := int(r.Next() % 8)
		rank := 1 + int(r.Next()%5) // the white pawn on ranks 2 to 6, the black one above it
		w, b := rank*8+file, (rank+1)*8+file
		if board[w] != 0 || board[b] != 0 {
			continue
		}
		board[w], board[b] = 'P', 'p'
	}
	return placeRandomly(r, &board, pieces, turn)
}

// Differential test on blocked structures, where the structure analysis does its work: a
// "no" is never contradicted by brute force, a "yes" always replays.
func TestCanCheckmateSoundOnLockedPositions(t *testing.T) {
	rng := testRNG(0xC0FFEE)
	materials := []string{"", "B", "b", "N", "n", "Bb", "BB", "bb", "Nb", "R", "q", "BN"}
	depth, per := 3, 25
	if raceEnabled || testing.Short() {
		depth, per = 2, 15
	}
	n, no := 0, 0
	for _, mat := range materials {
		for i := 0; i < per; i++ {
			p, ok := lockedRandomPosition(&rng, mat, cc.Color(i&1))
			if !ok {
				continue
			}
			n++
			for c := cc.White; c <= cc.Black; c++ {
				d := DecideWithin(&p, c, 20000)
				checkDecision(t, &p, c, d)
				if d.Verdict == cc.No {
					no++
					if bruteHelpmate(&p, c, depth) {
						t.Errorf("%s: no for %s (%s), but brute force mates within %d plies", p.FEN(), c, d.Proof, depth)
					}
				}
			}
		}
	}
	if n < len(materials)*per/2 || no == 0 {
		t.Fatalf("%d legal positions, %d verdicts no: the generator is broken", n, no)
	}
}

// BenchmarkCanCheckmate times one decision (CanCheckmate for one colour) over corpora:
// real, every position of the real games (both colours); hard, the hard corpus (both
// colours); full, positions with (nearly) full material, the flag fall of a middlegame.
// Each reports the mean, the median, the 99th percentile and the maximum of one decision
// in microseconds of wall time, the mean and 99th percentile of its processor time
// (cpu-mean-µs, cpu-p99-µs: see opTimes), and the share of Unknown answers. The bars
// (issue), judged on the processor time: real p99 at most 1 ms, hard p99 at most 100 ms,
// no Unknown. The decisions are taken in
// a fixed order that strides through the whole corpus (decisionStride), so that any
// -benchtime samples every part of it; with b.N a multiple of the decisions (12,708 for
// real: 6,354 positions, two colours) each is timed equally often.
func BenchmarkCanCheckmate(b *testing.B) {
	real := loadRealGames(b)
	var hard []cc.Position
	for _, e := range loadDeadCorpus(b) {
		hard = append(hard, sanFEN(b, e.fen))
	}
	var full []cc.Position
	for _, fen := range []string{
		cc.StartFEN,
		"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		"rnbqkb1r/pp3ppp/3p1n2/2pP4/8/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 6",
		"r2q1rk1/pp1bbppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 4 9",
	} {
		full = append(full, sanFEN(b, fen))
	}
	for _, bc := range []struct {
		name string
		pos  []cc.Position
	}{{"real", real}, {"hard", hard}, {"full", full}} {
		b.Run(bc.name, func(b *testing.B) {
			times := lockThread(b, b.N)
			unknown := 0
			b.ResetTimer()
			n := 2 * len(bc.pos)
			if n%decisionStride == 0 {
				b.Fatalf("%d decisions: the stride %d does not visit them all", n, decisionStride)
			}
			for i := 0; i < b.N; i++ {
				k := i * decisionStride % n
				p := &bc.pos[k/2]
				times.start()
				if CanCheckmate(p, cc.Color(k&1)) == cc.Unknown {
					unknown++
				}
				times.stop()
			}
			times.report(b)
			b.ReportMetric(float64(unknown)/float64(b.N), "unknown/op")
		})
	}
}

// decisionStride orders BenchmarkCanCheckmate's decisions: decision i is number
// i*decisionStride modulo their count, a permutation since the stride (a prime) divides
// none of the counts.
const decisionStride = 7919

// opTimes collects the wall-clock time and the thread's processor time of each operation
// a benchmark times. The benchmark's goroutine is locked to its thread while it times
// (lockThread), so that the thread's processor time is the operation's own: on a loaded
// machine the wall time also counts the waits for a core, and the percentiles of the
// processor time are what the operation costs.
type opTimes struct {
	wall, cpu []time.Duration
	cpuOK     bool
	wall0     time.Time
	cpu0      time.Duration
}

// lockThread locks the calling goroutine to its thread until the benchmark ends and
// returns an opTimes ready for n operations.
func lockThread(b *testing.B, n int) *opTimes {
	runtime.LockOSThread()
	b.Cleanup(runtime.UnlockOSThread)
	_, ok := threadCPUTime()
	return &opTimes{wall: make([]time.Duration, 0, n), cpu: make([]time.Duration, 0, n), cpuOK: ok}
}

func (t *opTimes) start() {
	if t.cpuOK {
		t.cpu0, _ = threadCPUTime()
	}
	t.wall0 = time.Now()
}

func (t *opTimes) stop() {
	t.wall = append(t.wall, time.Since(t.wall0))
	if t.cpuOK {
		c, _ := threadCPUTime()
		t.cpu = append(t.cpu, c-t.cpu0)
	}
}

// report reports the mean, median, 99th percentile and maximum of the wall times in
// microseconds, and the mean and 99th percentile of the processor times (cpu-mean-µs,
// cpu-p99-µs) where they are at hand.
func (t *opTimes) report(b *testing.B) {
	b.StopTimer()
	mean, p50, p99, maxT := summarize(t.wall)
	b.ReportMetric(mean, "mean-µs")
	b.ReportMetric(p50, "p50-µs")
	b.ReportMetric(p99, "p99-µs")
	b.ReportMetric(maxT, "max-µs")
	if t.cpuOK && len(t.cpu) > 0 {
		mean, _, p99, _ := summarize(t.cpu)
		b.ReportMetric(mean, "cpu-mean-µs")
		b.ReportMetric(p99, "cpu-p99-µs")
	}
}

// summarize sorts times and returns their mean, median, 99th percentile and maximum in
// microseconds.
func summarize(times []time.Duration) (mean, p50, p99, maxT float64) {
	if len(times) == 0 {
		return 0, 0, 0, 0
	}
	var sum time.Duration
	for _, d := range times {
		sum += d
	}
	slices.Sort(times)
	us := float64(time.Microsecond)
	mean = float64(sum) / float64(len(times)) / us
	p50 = float64(times[len(times)/2]) / us
	p99 = float64(times[int(math.Ceil(0.99*float64(len(times))))-1]) / us
	maxT = float64(times[len(times)-1]) / us
	return mean, p50, p99, maxT
}

// BenchmarkDeadAfterMove times the test Game runs after every move (both colours, the
// one decision) over the real-game positions, each decided cold: nothing carried over
// from the move before.
func BenchmarkDeadAfterMove(b *testing.B) {
	real := loadRealGames(b)
	times := lockThread(b, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &real[i%len(real)]
		times.start()
		var k cc.MateKnowledge
		Decider{}.Dead(&k, p)
		times.stop()
	}
	times.report(b)
}

// realGame is a game of testdata/realgames.uci: its start and its moves.
type realGame struct {
	start cc.Position
	moves []cc.Move
}

// loadRealGameMoves reads chesscore's testdata/realgames.uci (format in its header).
func loadRealGameMoves(t testing.TB) []realGame {
	t.Helper()
	var out []realGame
	for _, fg := range fixture.RealGames(t, os.DirFS("../testdata"), "realgames.uci") {
		g := realGame{start: sanFEN(t, fg.FEN)}
		p := g.start
		for _, s := range fg.Moves {
			m, err := p.ParseUCI(s)
			if err != nil {
				t.Fatalf("realgames.uci:%d: %s: %v", fg.N, s, err)
			}
			g.moves = append(g.moves, m)
			p = p.Play(m)
		}
		out = append(out, g)
	}
	return out
}

// Along real games, the decision carried from move to move (what Game does) keeps only
// lines that replay to a mate, agrees with a fresh decision wherever both are known, and
// never leaves a position undecided.
func TestCarriedDecisionAlongRealGames(t *testing.T) {
	games := loadRealGameMoves(t)
	if len(games) < 50 {
		t.Fatalf("only %d games", len(games))
	}
	step := 1
	if raceEnabled || testing.Short() {
		step = 8
	}
	for gi := 0; gi < len(games); gi += step {
		g := games[gi]
		var k cc.MateKnowledge
		p := g.start
		Decider{}.Dead(&k, &p)
		for i, m := range g.moves {
			next := p.Play(m)
			Decider{}.Carry(&k, &p, &next, m)
			p = next
			dead := Decider{}.Dead(&k, &p)
			for c := cc.White; c <= cc.Black; c++ {
				if k.Verdict[c] == cc.Yes {
					if !cc.ReplaysToMate(&p, c, k.Line[c]) {
						t.Fatalf("game %d, move %d (%s): the carried line %v for %s does not mate", gi+1, i+1, p.FEN(), k.Line[c], c)
					}
				}
			}
			if i%7 == 0 && !dead {
				if IsDeadPosition(&p) {
					t.Errorf("game %d, move %d (%s): carried says alive, fresh says dead", gi+1, i+1, p.FEN())
				}
			}
			if dead != (k.Verdict[cc.White] == cc.No && k.Verdict[cc.Black] == cc.No) {
				t.Fatalf("game %d, move %d: dead = %v with verdicts %v", gi+1, i+1, dead, k.Verdict)
			}
		}
	}
}

// BenchmarkGameDeadCheck times the test Game runs after every move along the real games,
// the decision carried from move to move as Game carries it: mean, 99th percentile and
// maximum per move in microseconds, of wall and of processor time (opTimes). The bar
// (issue), judged on the processor time: a mean of at most 50 µs.
func BenchmarkGameDeadCheck(b *testing.B) {
	games := loadRealGameMoves(b)
	type step struct {
		prev, cur cc.Position
		m         cc.Move
		first     bool
	}
	var steps []step
	for _, g := range games {
		p := g.start
		for i, m := range g.moves {
			next := p.Play(m)
			steps = append(steps, step{p, next, m, i == 0})
			p = next
		}
	}
	times := lockThread(b, b.N)
	var k cc.MateKnowledge
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := &steps[i%len(steps)]
		times.start()
		if s.first || i%len(steps) == 0 {
			k = cc.MateKnowledge{}
		}
		Decider{}.Carry(&k, &s.prev, &s.cur, s.m)
		Decider{}.Dead(&k, &s.cur)
		times.stop()
	}
	times.report(b)
}
