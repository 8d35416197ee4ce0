// locked_test.go: LockedDead and LongMate against their corpus (testdata/locked.epd), an
// exhaustive enumeration of the reachable positions, brute force on random locked
// positions, and the reasons the locked-board proof refuses a position.

package dead

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/internal/fixture"
)

// lockedEntry is one position of testdata/locked.epd: for each colour whether it can
// mate and, when it can, a mating line in UCI.
type lockedEntry struct {
	fen   string
	mates [2]bool
	line  [2][]string
	note  string
}

// loadLockedCorpus reads testdata/locked.epd (format in its header).
func loadLockedCorpus(t testing.TB) []lockedEntry {
	t.Helper()
	var out []lockedEntry
	for _, l := range fixture.Lines(t, os.DirFS("testdata"), "locked.epd") {
		fields := strings.Split(l.Text, ";")
		if len(fields) != 4 {
			t.Fatalf("locked.epd:%d: %d fields, want 4", l.N, len(fields))
		}
		e := lockedEntry{fen: strings.TrimSpace(fields[0]), note: strings.TrimSpace(fields[3])}
		for c := range 2 {
			words := strings.Fields(fields[1+c])
			switch {
			case len(words) == 1 && words[0] == "no":
			case len(words) > 1 && words[0] == "yes":
				e.mates[c], e.line[c] = true, words[1:]
			default:
				t.Fatalf("locked.epd:%d: answer %q, want no or yes with a line", l.N, fields[1+c])
			}
		}
		out = append(out, e)
	}
	return out
}

// replayMate plays line from p by the rules and reports why it is not a mate by c, or "".
func replayMate(p *cc.Position, c cc.Color, line []cc.Move) string {
	q := *p
	for i, m := range line {
		if !q.IsLegal(m) {
			return fmt.Sprintf("move %s (ply %d) is illegal in %s", m.UCI(), i+1, q.FEN())
		}
		q = q.Play(m)
	}
	if q.Turn() == c || !q.InCheck() || q.HasLegalMove() {
		return "the line does not end with a mate by " + c.String() + ": " + q.FEN()
	}
	return ""
}

// parseLine reads a line of UCI moves from p.
func parseLine(t *testing.T, p *cc.Position, uci []string) []cc.Move {
	t.Helper()
	q := *p
	moves := make([]cc.Move, 0, len(uci))
	for _, u := range uci {
		m, err := q.ParseUCI(u)
		if err != nil {
			t.Fatalf("%s: move %s: %v", p.FEN(), u, err)
		}
		moves = append(moves, m)
		q = q.Play(m)
	}
	return moves
}

// The corpus's own evidence: every "yes" line replays to a mate by that colour, and the
// corpus holds the kinds of positions it is for.
func TestLockedCorpusLinesReplay(t *testing.T) {
	entries := loadLockedCorpus(t)
	if len(entries) < 40 {
		t.Fatalf("only %d positions in the locked corpus", len(entries))
	}
	var yes, no int
	for _, e := range entries {
		p := sanFEN(t, e.fen)
		for c := cc.White; c <= cc.Black; c++ {
			if !e.mates[c] {
				no++
				continue
			}
			yes++
			if why := replayMate(&p, c, parseLine(t, &p, e.line[c])); why != "" {
				t.Errorf("%s (%s): %s", e.fen, e.note, why)
			}
		}
	}
	if yes < 10 || no < 30 {
		t.Errorf("the corpus has %d mating and %d dead verdicts, want at least 10 and 30", yes, no)
	}
}

// LockedDead proves every "no" the corpus says it proves and never claims a "yes";
// LongMate finds a line that replays wherever the corpus says its line came from
// LongMate, and none where the colour cannot mate.
func TestLockedCorpusDecided(t *testing.T) {
	for _, e := range loadLockedCorpus(t) {
		p := sanFEN(t, e.fen)
		for c := cc.White; c <= cc.Black; c++ {
			dead := LockedDead(&p, c)
			switch {
			case dead && e.mates[c]:
				t.Errorf("%s (%s): LockedDead(%s) proves a mating colour unable", e.fen, e.note, c)
			case !dead && strings.Contains(e.note, c.String()+" locked"):
				t.Errorf("%s (%s): LockedDead(%s) proves nothing", e.fen, e.note, c)
			}
			byLongMate := strings.Contains(e.note, c.String()+" longmate")
			if e.mates[c] && !byLongMate {
				continue // mated by a line LongMate is not made for (a pawn moves)
			}
			line, ok := LongMate(&p, c, 50000)
			if ok {
				if why := replayMate(&p, c, line); why != "" {
					t.Errorf("%s: LongMate(%s): %s", e.fen, c, why)
				}
			}
			switch {
			case ok && !e.mates[c]:
				t.Errorf("%s (%s): LongMate found a mate for %s, listed as unable", e.fen, e.note, c)
			case !ok && e.mates[c]:
				t.Errorf("%s (%s): LongMate found no mate for %s", e.fen, e.note, c)
			}
		}
	}
}

// exhaustMates visits every position reachable from p (all legal moves of both sides) and
// reports whether one is a mate by c; complete is false when more than limit positions
// exist, and then only those seen were looked at.
func exhaustMates(p *cc.Position, c cc.Color, limit int) (mate, complete bool) {
	seen := map[uint64]struct{}{p.Hash(): {}}
	queue := []cc.Position{*p}
	var ml cc.MoveList
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if q.Turn() != c && q.InCheck() && !q.HasLegalMove() {
			return true, true
		}
		q.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			child := q.Play(m)
			if _, ok := seen[child.Hash()]; ok {
				continue
			}
			if len(seen) >= limit {
				return false, false
			}
			seen[child.Hash()] = struct{}{}
			queue = append(queue, child)
		}
	}
	return false, true
}

// shortHelpmate reports whether c mates from p within plies half-moves, by brute force.
func shortHelpmate(p *cc.Position, c cc.Color, plies int) bool {
	if p.Turn() != c && p.InCheck() && !p.HasLegalMove() {
		return true
	}
	if plies == 0 {
		return false
	}
	var ml cc.MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Moves[:ml.N] {
		child := p.Play(m)
		if shortHelpmate(&child, c, plies-1) {
			return true
		}
	}
	return false
}

// Every "no" of the corpus is checked against the positions really reachable: all of
// them where there are few enough to visit, else brute force to a few plies and
// chesscore.Decide's own search (a separate method) within a small budget.
func TestLockedCorpusDeadByExhaustion(t *testing.T) {
	limit, plies := 15000, 3
	if testing.Short() || lockedRace {
		limit, plies = 3000, 2
	}
	exhausted, dead := 0, 0
	for _, e := range loadLockedCorpus(t) {
		p := sanFEN(t, e.fen)
		for c := cc.White; c <= cc.Black; c++ {
			if e.mates[c] {
				continue
			}
			dead++
			mate, complete := exhaustMates(&p, c, limit)
			if complete {
				exhausted++
			} else {
				mate = shortHelpmate(&p, c, plies) || DecideWithin(&p, c, limit).Verdict == cc.Yes
			}
			if mate {
				t.Errorf("%s (%s): listed as dead for %s, but a mate is reachable", e.fen, e.note, c)
			}
		}
	}
	t.Logf("%d of %d dead verdicts checked on every reachable position (at most %d), the others to %d plies", exhausted, dead, limit, plies)
	if exhausted == 0 {
		t.Errorf("no dead verdict was small enough to check exhaustively")
	}
}

// lockedChainFEN builds a random locked position: a pawn chain across the board (each
// file a white pawn right below a black one, neighbouring files one rank apart, so that
// no pawn attacks another), the kings and the pieces of pieces placed at random.
func lockedChainFEN(r *rand.Rand, pieces string) string {
	var board [64]cc.Piece
	rank := 1 + r.IntN(5)
	for file := range 8 {
		if file > 0 {
			step := 2*r.IntN(2) - 1
			if rank+step < 1 || rank+step > 5 {
				step = -step
			}
			rank += step
		}
		board[cc.MakeSquare(file, rank)] = cc.WhitePawn
		board[cc.MakeSquare(file, rank+1)] = cc.BlackPawn
	}
	for _, letter := range "Kk" + pieces {
		pc := map[rune]cc.Piece{'K': cc.WhiteKing, 'k': cc.BlackKing, 'B': cc.WhiteBishop, 'b': cc.BlackBishop,
			'N': cc.WhiteKnight, 'n': cc.BlackKnight, 'R': cc.WhiteRook, 'r': cc.BlackRook}[letter]
		for {
			sq := cc.Square(r.IntN(64))
			if board[sq] == cc.NoPiece {
				board[sq] = pc
				break
			}
		}
	}
	return lockedPlacementFEN(&board) + [2]string{" w - - 0 1", " b - - 0 1"}[r.IntN(2)]
}

// On random locked positions, a "dead" of LockedDead is never contradicted by a mate that
// exhaustion or brute force finds, and every line of LongMate replays to a mate.
func TestLockedDeadSoundOnRandomPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	materials := []string{"", "B", "b", "Bb", "BB", "bb", "BBb", "Bbb", "N", "n", "R"}
	per, limit, plies, nodes := 30, 30000, 3, 20000
	if testing.Short() || lockedRace {
		limit, plies, nodes = 5000, 2, 5000
	}
	proven, exhausted, mates := 0, 0, 0
	for _, mat := range materials {
		for range per {
			p, err := cc.ParseFEN(lockedChainFEN(r, mat))
			if err != nil {
				continue // a king placed in check
			}
			for c := cc.White; c <= cc.Black; c++ {
				if line, ok := LongMate(&p, c, nodes); ok {
					mates++
					if why := replayMate(&p, c, line); why != "" {
						t.Errorf("%s: LongMate(%s): %s", p.FEN(), c, why)
					}
					if LockedDead(&p, c) {
						t.Errorf("%s: LockedDead(%s) and LongMate's mate", p.FEN(), c)
					}
				}
				if !LockedDead(&p, c) {
					continue
				}
				proven++
				mate, complete := exhaustMates(&p, c, limit)
				if complete {
					exhausted++
				} else {
					mate = shortHelpmate(&p, c, plies)
				}
				if mate {
					t.Errorf("%s: LockedDead(%s), but %s mates", p.FEN(), c, c)
				}
			}
		}
	}
	t.Logf("%d dead verdicts checked (%d on every reachable position), %d LongMate lines replayed", proven, exhausted, mates)
	if proven < 20 || exhausted < 10 || mates < 5 {
		t.Errorf("only %d dead verdicts (%d exhausted) and %d mating lines: the positions test too little", proven, exhausted, mates)
	}
}

// The locked-board proof refuses every position where some pawn could ever move or be
// taken, and LockedDead then proves nothing.
func TestLockBoardRefuses(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		ok   bool
	}{
		{"a full chain, kings behind it", "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1", true},
		{"no pawns at all", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false},
		{"a pawn free to advance", "4k3/8/8/1p1p1p1p/pPpPpPp1/P1P1P1P1/8/4K3 w - - 0 1", false},
		{"a pawn attacks an enemy pawn", "4k3/8/8/8/3p4/2PP4/8/4K3 w - - 0 1", false},
		{"a king can take an unprotected pawn", "4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1", false},
		{"a king next to a protected pawn only", "8/8/1k6/p1p5/P1P5/1K6/8/8 w - - 0 1", false},
		{"a bishop can be taken by a pawn", "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3BK3 w - - 0 1", false},
		{"a bishop of the other colour never meets a pawn", "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1", true},
		{"a knight can reach a pawn's capture square", "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/1N2K3 w - - 0 1", false},
		{"en passant right", "4k3/8/8/p1p1p1pP/P1P1P1P1/8/8/4K3 w - g6 0 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := sanFEN(t, tt.fen)
			if _, ok := lockBoard(&p); ok != tt.ok {
				t.Errorf("lockBoard(%s) = %v, want %v", tt.fen, ok, tt.ok)
			}
			if !tt.ok && (LockedDead(&p, cc.White) || LockedDead(&p, cc.Black)) {
				t.Errorf("LockedDead proves %s without a locked board", tt.fen)
			}
		})
	}
}

// Small positions, each with the reason for its verdict.
func TestLockedDeadVerdicts(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		winner cc.Color
		dead   bool
	}{
		{"kings only behind a full chain", "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1", cc.White, true},
		{"a dark bishop that never crosses its own chain", "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1", cc.White, true},
		{"the same for Black", "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 b - - 0 1", cc.Black, true},
		{"the king in check by a pawn leaves its square for ever", "5k2/1B6/1p6/pPp1p2B/P1PpPp1p/3PKPpP/1b4P1/b2B4 w - - 0 1", cc.Black, true},
		{"a knight shut in on a1 by its own pawns", "7k/8/8/4p1p1/1p1pP1P1/1PpP4/2P5/N6K w - - 0 1", cc.White, true},
		{"the same for Black", "7k/8/8/4p1p1/1p1pP1P1/1PpP4/2P5/N6K w - - 0 1", cc.Black, true},
		{"a rook shut in by a pawn and a bishop shut in itself", "7k/8/8/4p1p1/1p1pP1P1/pPpP4/P1P5/RB5K w - - 0 1", cc.White, true},
		{"a bishop stuck on b1 keeps its own king from a1", "3k1b1b/3B4/8/8/1pBp1p1p/pPpPpPpP/P1P1P1PK/1B4b1 w - - 0 1", cc.Black, true},
		{"the loser's own bishops fill the dark flight squares", "3k1b1b/3B4/8/8/1pBp1p1p/pPpPpPpP/P1P1P1PK/1B4b1 w - - 0 1", cc.White, false},
		{"white's own bishops fill a2 and b1: Black mates on a1", "3b4/p3p2k/Pp1pPp1p/1PpP1PpP/2P3P1/b7/4B3/6KB b - - 0 1", cc.Black, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := sanFEN(t, tt.fen)
			if got := LockedDead(&p, tt.winner); got != tt.dead {
				t.Errorf("LockedDead(%s, %s) = %v, want %v", tt.fen, tt.winner, got, tt.dead)
			}
			if !tt.dead {
				line, ok := LongMate(&p, tt.winner, 200000)
				if !ok {
					t.Fatalf("LongMate(%s, %s) found no mate", tt.fen, tt.winner)
				}
				if why := replayMate(&p, tt.winner, line); why != "" {
					t.Errorf("LongMate(%s, %s): %s", tt.fen, tt.winner, why)
				}
			}
		})
	}
}

// The decision settles every verdict of the corpus: Decide answers each colour as the
// corpus does, with its evidence (a line that replays, a proof), and IsDeadPosition
// agrees; nothing is left unknown.
func TestLockedCorpusDecisionSettles(t *testing.T) {
	for _, e := range loadLockedCorpus(t) {
		p := sanFEN(t, e.fen)
		for c := cc.White; c <= cc.Black; c++ {
			d := Decide(&p, c)
			want := cc.No
			if e.mates[c] {
				want = cc.Yes
			}
			if d.Verdict != want {
				t.Errorf("%s (%s): Decide(%s) = %s (%s, %d nodes), want %s", e.fen, e.note, c, d.Verdict, d.Proof, d.Nodes, want)
				continue
			}
			switch d.Verdict {
			case cc.Yes:
				if why := replayMate(&p, c, d.Line); d.Proof != ProofMate || why != "" {
					t.Errorf("%s: Decide(%s): yes with proof %s: %s", e.fen, c, d.Proof, why)
				}
			case cc.No:
				if d.Proof == ProofNone || d.Proof == ProofMate {
					t.Errorf("%s: Decide(%s): no with proof %s", e.fen, c, d.Proof)
				}
			}
		}
		if dead := IsDeadPosition(&p); dead != (!e.mates[cc.White] && !e.mates[cc.Black]) {
			t.Errorf("%s (%s): IsDeadPosition = %v", e.fen, e.note, dead)
		}
	}
}

// BenchmarkLockedDead times LockedDead on the corpus's dead verdicts.
func BenchmarkLockedDead(b *testing.B) {
	var ps []cc.Position
	var cs []cc.Color
	for _, e := range loadLockedCorpus(b) {
		p := sanFEN(b, e.fen)
		for c := cc.White; c <= cc.Black; c++ {
			if !e.mates[c] {
				ps, cs = append(ps, p), append(cs, c)
			}
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		LockedDead(&ps[i%len(ps)], cs[i%len(cs)])
	}
}

// BenchmarkLongMate times LongMate on the corpus's mating verdicts whose line came from
// it.
func BenchmarkLongMate(b *testing.B) {
	var ps []cc.Position
	var cs []cc.Color
	for _, e := range loadLockedCorpus(b) {
		p := sanFEN(b, e.fen)
		for c := cc.White; c <= cc.Black; c++ {
			if e.mates[c] && strings.Contains(e.note, c.String()+" longmate") {
				ps, cs = append(ps, p), append(cs, c)
			}
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		LongMate(&ps[i%len(ps)], cs[i%len(cs)], 300000)
	}
}

// BenchmarkLockedCorpusDecide decides every verdict of the corpus (each position, both
// colours) and reports how many Decide leaves unknown: run it with -benchtime=1x.
func BenchmarkLockedCorpusDecide(b *testing.B) {
	entries := loadLockedCorpus(b)
	for b.Loop() {
		unknown := 0
		for _, e := range entries {
			p := sanFEN(b, e.fen)
			for c := cc.White; c <= cc.Black; c++ {
				if Decide(&p, c).Verdict == cc.Unknown {
					unknown++
				}
			}
		}
		b.ReportMetric(float64(unknown), "unknown")
		b.ReportMetric(float64(2*len(entries)), "verdicts")
	}
}
