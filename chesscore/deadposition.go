// deadposition.go: can a side still checkmate by any series of legal moves (FIDE 5.2.2
// dead position, 6.9 flag fall, resignation)? One exact decision for all of them.
//
// # Method
//
// Decide answers for one colour c, in this order, stopping at the first answer:
//
//  1. The game is over: c has mated (yes), or c is mated or stalemated (no).
//  2. Material: c's material can never mate, whatever the opponent does (no); see
//     cannotMateByMaterial.
//  3. The planners, which play straight to a mate instead of searching: the endgame
//     planner (deadposition_plan_end.go, up to endMaxPieces pieces: the kings walk to a
//     mating picture on the edge, where a rook or queen, a pawn promoted first, mates)
//     and the middlegame planner (deadposition_plan_mid.go, from midMinPieces pieces: a
//     mating configuration at the opponent's king, a piece on a checking square, the
//     flight squares covered or filled by the opponent's own pieces, the defenders moved
//     away). Yes with the line replayed to mate, or nothing, in some microseconds.
//     The promotion planner (deadposition_plan_promote.go: a pawn of c runs to a queen
//     along its cheapest route, the opponent stepping aside or offering what blocks it,
//     and the middlegame or endgame planner mates with the new queen), for a winner with
//     only pawns the pawn-run planner after it (deadposition_plan_minor_run.go: the
//     loser's pieces and the pawns in one pawn's way taken, then the endgame planner),
//     and, for a winner with only bishops, knights and pawns, the minor-piece planner
//     (deadposition_plan_minor.go: the loser's king on the edge, walled in by its own
//     pieces, a pawn underpromoted to fill, its rooks and queens given up). Which runs
//     first depends on the pieces (planOrder: the middlegame planner for a winner with a
//     queen from 12 pieces, else the promotion planner from 14; the endgame planner
//     below).
//  4. The structure (deadposition_structure.go), when some pawn is blocked by another:
//     the pieces that can never move again, the squares every other piece can ever reach
//     and attack around them, and whether c could ever attack the enemy king's square
//     and close all its flight squares there (no, with that proof).
//  5. The search (deadposition_search.go): a best-first search over the positions
//     reachable from here, with a memory of every position generated, pruning every
//     position that steps 1, 2 and 4 settle (after a capture or a pawn move: other moves
//     cannot change what they prove). It finds a mate (yes, the line shortened) or sees
//     every reachable position (no).
//
// Yes always comes with the line, replayable move by move to a mate by c. No always
// rests on a proof (steps 1, 2 and 4, or 5 exhausted). The fifty- and seventy-five-move
// rules and repetitions are ignored, as 5.2.2 and 6.9 do.
//
// # Budget
//
// Every position the search of step 5 generates counts as a node. With the
// budget spent, the answer is Unknown: nothing proven either way. DefaultMateNodes
// (500,000 nodes, about a third of a second at most) is the budget of CanCheckmate,
// IsDeadPosition and of the test a Game runs after every move. Every position of the
// real-game corpus (testdata/realgames.fen, over 6,000 positions) and of the hard corpus
// (testdata/deadpositions.epd) is decided within it: steps 1 to 4 settle all but 6 of
// the 12,708 real decisions (each position, both colours), and the hardest of those 6
// (a middlegame position, mated in 27 plies) takes the search 815 nodes;
// TestRealGamesDecided and TestDeadPositionCorpus keep every decision within the budget.
//
// # Games
//
// A Game keeps the decision from move to move (deadposition_game.go): No stays No, a
// line goes on when its first move is played, survives a move that can be taken back, or
// a tempo move in front of it. Only what is lost is decided again: along the real games
// about 70% of the moves keep an answer this way, in a couple of microseconds, and the
// rest are decided afresh (BenchmarkGameDeadCheck). The test after a move decides first
// for the side that has just moved: should the other side lose on time or resign, that
// is the question asked; when the other side's line already shows the position alive,
// the planners (no search) still run for the side that moved. What a game knows is
// handed out with MateKnowledge, for its record, and taken back by the game rebuilt from
// the record (ReplayGame, AddMateKnowledge): the flag fall then needs no search. A game
// rebuilt from a record or read from PGN is not tested move by move: its final position
// is decided by the first question asked of it (a dead position stays dead). Unknown never ends a game: the game
// goes on, and a flag fall or a resignation in such a position is scored as a loss, the
// result the Laws give whenever the opponent can mate.

package chesscore

import (
	"slices"
	"sync"
)

// Verdict is the answer of CanCheckmate.
type Verdict uint8

// The three verdicts. Unknown is the zero value: nothing proven either way.
const (
	Unknown Verdict = iota
	Yes
	No
)

// String returns "unknown", "yes" or "no".
func (v Verdict) String() string {
	switch v {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return "unknown"
}

// MarshalText implements encoding.TextMarshaler.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Proof is what a Decision rests on.
type Proof uint8

// The proofs. ProofNone goes with Unknown, ProofMate with Yes, the others with No.
const (
	ProofNone      Proof = iota // nothing: the budget ran out
	ProofMate                   // Yes: Decision.Line ends with c mating
	ProofGameOver               // No: the game is over, c mated or stalemated
	ProofMaterial               // No: c's material can never mate
	ProofStructure              // No: frozen pawns keep c from ever closing a mating net
	ProofSearch                 // No: no position reachable from here is a mate by c
)

var proofNames = [...]string{"none", "mate", "game over", "material", "structure", "search"}

// String names the proof.
func (p Proof) String() string {
	if int(p) < len(proofNames) {
		return proofNames[p]
	}
	return "none"
}

// MarshalText implements encoding.TextMarshaler.
func (p Proof) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// Decision is the answer to "can c still checkmate?" with its evidence.
type Decision struct {
	Verdict Verdict
	Proof   Proof
	// Line, with Yes, is the helpmate: legal moves from the position (both sides'
	// moves, alternately) ending with c mating. It is empty when c has already mated.
	Line []Move
	// Nodes is the number of positions the searches generated.
	Nodes int
}

// DefaultMateNodes is the node budget of CanCheckmate, IsDeadPosition and the test Game
// runs after every move: the number of positions the searches may generate before the
// answer is Unknown.
const DefaultMateNodes = 500000

// Decide reports whether colour c can checkmate the opponent's king by some series of
// legal moves from p, the opponent co-operating (a helpmate), within DefaultMateNodes;
// see the file comment for the method. Yes comes with the line, No with its proof.
func Decide(p *Position, c Color) Decision { return DecideWithin(p, c, DefaultMateNodes) }

// DecideWithin is Decide with a node budget of its own (at least 1).
func DecideWithin(p *Position, c Color, nodes int) Decision {
	d := deciders.Get().(*decider)
	defer deciders.Put(d)
	d.reset(p)
	dec := d.decide(c, max(nodes, 1))
	dec.Line = slices.Clone(dec.Line)
	return dec
}

// CanCheckmate reports whether colour c can checkmate the opponent's king by some series
// of legal moves from p, the opponent co-operating (a helpmate), within DefaultMateNodes.
// It is Decide without the evidence: Yes means a mating line was found, No is proven,
// Unknown means the budget ran out first. The verdict never says No where a mate exists.
func CanCheckmate(p *Position, c Color) Verdict {
	return CanCheckmateWithin(p, c, DefaultMateNodes)
}

// CanCheckmateWithin is CanCheckmate with a node budget of its own (at least 1).
func CanCheckmateWithin(p *Position, c Color, nodes int) Verdict {
	d := deciders.Get().(*decider)
	defer deciders.Put(d)
	d.reset(p)
	return d.decide(c, max(nodes, 1)).Verdict
}

// Helpmate is CanCheckmateWithin that also returns, with Yes, the witness: legal moves
// from p (both sides' moves, alternately) that end with c checkmating. It is empty when
// the position is already a mate by c.
func Helpmate(p *Position, c Color, nodes int) (Verdict, []Move) {
	d := DecideWithin(p, c, nodes)
	return d.Verdict, d.Line
}

// IsDeadPosition reports whether p is a dead position (FIDE 5.2.2): neither side can
// checkmate by any series of legal moves. It is true only when both colours are proven
// unable; a position it cannot settle within DefaultMateNodes counts as alive. It is the
// test Game runs after every move, made afresh.
func IsDeadPosition(p *Position) bool {
	var mm mateMemory
	return mm.dead(p)
}

// decider holds the working memory of one decision: the planners, the structure analysis
// (its verdict on the root computed at most once for each colour) and the best-first
// search.
type decider struct {
	root    Position
	over    bool // the root has no legal move
	st      structure
	stState [2]uint8 // by colour: 0 not computed, 1 no proof, 2 proven unable to mate
	search  mateSearch
	end     *endPlanner // made on first use: most decisions never need it
	mid     midPlanner
	minor   *minorPlanner   // made on first use, as end
	promote *promotePlanner // made on first use, as end
}

var deciders = sync.Pool{New: func() any { return new(decider) }}

func (d *decider) reset(p *Position) {
	d.root = *p
	d.over = !p.HasLegalMove()
	d.stState = [2]uint8{}
}

// static settles c by steps 1 and 2 (game over, material).
func (d *decider) static(c Color) (Decision, bool) {
	p := &d.root
	if d.over {
		if p.InCheck() && p.turn != c {
			return Decision{Verdict: Yes, Proof: ProofMate}, true // c has already mated
		}
		return Decision{Verdict: No, Proof: ProofGameOver}, true
	}
	if cannotMateByMaterial(p, c) {
		return Decision{Verdict: No, Proof: ProofMaterial}, true
	}
	return Decision{}, false
}

// plan runs step 3 for c, the planners, in the order planOrder gives: Yes with a
// verified line, or nothing.
func (d *decider) plan(c Color) (Decision, bool) {
	pieces := d.root.byType[0].Count()
	for _, st := range planOrder(&d.root, c, pieces) {
		if dec, ok := d.planStep(st, c, pieces); ok {
			return dec, true
		}
	}
	return Decision{}, false
}

// planStep is one planner of step 3.
type planStep uint8

const (
	stepMid     planStep = iota // the middlegame planner
	stepEnd                     // the endgame planner
	stepPromote                 // the promotion planner, then the pawn-run planner where it fits (a winner with only pawns)
	stepMinor                   // the minor-piece planner, where the pawn-run planner does not fit
)

// The orders of the planners that planOrder chooses from.
var (
	planMidFirst     = [...]planStep{stepMid, stepPromote, stepEnd, stepMinor}
	planPromoteFirst = [...]planStep{stepPromote, stepMid, stepEnd, stepMinor}
	planPromoteEnd   = [...]planStep{stepPromote, stepEnd, stepMid, stepMinor}
	planEndFirst     = [...]planStep{stepEnd, stepPromote, stepMid, stepMinor}
)

// planOrder returns the order in which the planners run for c in p (pieces: the number
// of pieces, kings and pawns included). Each planner runs first where, on the real games,
// it leaves the fewest instructions a decision (cachegrind, BenchmarkCanCheckmate/real):
// from midMinPieces pieces with a queen of c, the middlegame planner (it mates where the
// king stands); without one, from 14 pieces the promotion planner (a pawn queened, then
// the middlegame or endgame planner mates where the king stands: shorter than the
// endgame planner's walk to the edge), the middlegame planner next from 16 pieces, the
// endgame planner next from 14 to 15; with fewer pieces the endgame planner (the
// middlegame planner never runs below midMinPieces). When this order was chosen it took
// 65,500 instructions a decision where the order before it (the middlegame planner first
// from 16 pieces, else the endgame planner; the promotion and minor-piece planners last)
// took 73,300, with the same planners; the whole decision is now 52,300 (80,800 before
// the new order and two rounds of work in the planners). Re-checked after the last
// round: the promotion planner first from 12 pieces saves 150 instructions a decision
// for 5 more mispredicted branches, no gain.
func planOrder(p *Position, c Color, pieces int) []planStep {
	switch {
	case pieces >= midMinPieces && p.byColor[c]&p.byType[Queen] != 0:
		return planMidFirst[:]
	case pieces >= 16:
		return planPromoteFirst[:]
	case pieces >= 14:
		return planPromoteEnd[:]
	}
	return planEndFirst[:]
}

// planStep runs one planner for c.
func (d *decider) planStep(st planStep, c Color, pieces int) (Decision, bool) {
	switch st {
	case stepMid:
		if pieces < midMinPieces {
			return Decision{}, false
		}
		if n := d.mid.plan(&d.root, c); n > 0 {
			return Decision{Verdict: Yes, Proof: ProofMate, Line: d.mid.line[:n], Nodes: d.mid.nodes}, true
		}
	case stepEnd:
		return d.planEnd(c)
	case stepPromote:
		if dec, ok := d.planPromote(c); ok || !runPlanFits(&d.root, c) {
			return dec, ok
		}
		return d.planRun(c)
	case stepMinor:
		if !runPlanFits(&d.root, c) {
			return d.planMinor(c)
		}
	}
	return Decision{}, false
}

// provenByStructure runs step 4 for c.
func (d *decider) provenByStructure(c Color) bool {
	if d.stState[c] == 0 {
		d.stState[c] = 1
		var want [2]bool
		want[c] = true
		if mayBeBlocked(&d.root) && d.st.proveNoMate(&d.root, want) {
			d.stState[c] = 2
		}
	}
	return d.stState[c] == 2
}

// decide runs the six steps for c.
func (d *decider) decide(c Color, budget int) Decision {
	if dec, ok := d.static(c); ok {
		return dec
	}
	if dec, ok := d.plan(c); ok {
		return dec
	}
	if d.provenByStructure(c) {
		return Decision{Verdict: No, Proof: ProofStructure}
	}
	v := d.search.run(&d.root, c, budget, false)
	dec := Decision{Verdict: v, Nodes: d.search.nodes}
	switch v {
	case Yes:
		dec.Proof, dec.Line = ProofMate, shortenLine(&d.root, c, d.search.mate)
	case No:
		dec.Proof = ProofSearch
	}
	return dec
}

// blockedPawns returns the pawns with a pawn right in front of them: the only pawns the
// structure analysis may freeze.
func blockedPawns(p *Position) Bitboard {
	pawns := p.byType[Pawn]
	return pawns&p.byColor[White]&(pawns>>8) | pawns&p.byColor[Black]&(pawns<<8)
}

// mayBeBlocked reports whether some pawn is blocked: the structure analysis can prove
// nothing otherwise.
func mayBeBlocked(p *Position) bool { return blockedPawns(p) != 0 }

// wallPawns is the number of blocked pawns from which the structure analysis runs at the
// nodes of the search (and before the planners in the test after a move): fewer cannot
// wall a king off across the board. Soundness does not depend on it.
const wallPawns = 6

// mayBeWalled reports whether p has at least wallPawns blocked pawns.
func mayBeWalled(p *Position) bool { return blockedPawns(p).Count() >= wallPawns }

// Square colours.
const (
	darkSquares  Bitboard = 0xAA55AA55AA55AA55
	lightSquares          = ^darkSquares
)

// cannotMateByMaterial reports whether colour c's material can never checkmate, whatever
// the opponent does to help. The rules, each proven for every position with that material
// (and closed under further play, since no pawn can promote):
//
//   - a lone king gives no check;
//   - king and one knight against king and queens only: the knight's check leaves one of
//     the two squares beside the king towards the knight unguarded by the white king, and
//     a queen there (or the king's escape there) always answers it;
//   - king and bishops all on one colour, with no pawns or knights on the board and every
//     bishop of either side on that colour: the two squares beside the mated king towards
//     the checking bishop are of the other colour, only the mating king can guard them,
//     and it cannot guard both; a rook or queen there interposes or captures.
func cannotMateByMaterial(p *Position, c Color) bool {
	us, them := p.byColor[c], p.byColor[c^1]
	if us&(p.byType[Pawn]|p.byType[Rook]|p.byType[Queen]) != 0 {
		return false
	}
	if us&p.byType[Knight] != 0 {
		return (us&^p.byType[King]).Count() == 1 && them&^p.byType[King]&^p.byType[Queen] == 0
	}
	if us&p.byType[Bishop] != 0 {
		b := p.byType[Bishop]
		return (b&darkSquares == 0 || b&lightSquares == 0) && p.byType[Pawn]|p.byType[Knight] == 0
	}
	return true
}

// pawnAttacksOf returns every square the pawns b of colour c attack.
func pawnAttacksOf(b Bitboard, c Color) Bitboard {
	if c == White {
		return b.north().east() | b.north().west()
	}
	return b.south().east() | b.south().west()
}

// kingRegion returns the squares a king on sq reaches by steps through allowed squares
// (sq itself included).
func kingRegion(sq Square, allowed Bitboard) Bitboard {
	region := sq.Bitboard()
	for {
		next := region | (kingSpread(region) & allowed)
		if next == region {
			return region
		}
		region = next
	}
}

// kingSpread returns the squares one king step from any square of b.
func kingSpread(b Bitboard) Bitboard {
	row := b | b.east() | b.west()
	return row | row.north() | row.south()
}
