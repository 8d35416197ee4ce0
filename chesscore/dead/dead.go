// Package dead decides whether a side can still checkmate by any series of legal moves:
// the FIDE dead position (5.2.2), and what a flag fall (6.9) and a resignation (5.1.2)
// ask of the opponent. It is one exact decision for all of them, built on the rules of
// package chesscore and given to a chesscore.Game as its chesscore.MateDecider
// (Decider); chesscore never imports it.
//
// # Method
//
// Decide answers for one colour c, in this order, stopping at the first answer:
//
//  1. The game is over: c has mated (yes), or c is mated or stalemated (no).
//  2. Material: c's material can never mate, whatever the opponent does (no); see
//     chesscore.CannotMateByMaterial.
//  3. The structure (structure.go), when some pawn is blocked by another: the pieces
//     that can never move again, the squares every other piece can ever reach and attack
//     around them, and whether c could ever attack the enemy king's square and close all
//     its flight squares there (no, with that proof).
//     Where every pawn is locked, the locked-structure proof next (locked.go,
//     LockedDead): the pawns and the pieces shut in behind them never move, and on no
//     square the king can reach can a mate be assembled from the squares the other
//     pieces reach (no, with that proof).
//  4. The search (search.go): a best-first search over the positions reachable from
//     here, with a memory of every position generated, pruning every position that steps
//     1, 2 and 3 settle. It finds a mate (yes, with the line) or sees every
//     reachable position (no). Around it, LongMate (longmate.go) walks the pieces to a
//     mating picture built from the squares they reach, the pawns standing still: before
//     the search with a tenth of the budget where every pawn is locked, after it with the
//     whole budget when it ran out (yes, with the line).
//
// Yes always comes with the line, replayable move by move to a mate by c. No always
// rests on a proof (steps 1, 2 and 3, or the search exhausted). The fifty- and
// seventy-five-move rules and repetitions are ignored, as 5.2.2 and 6.9 do.
//
// # Budget
//
// Every position the search generates counts as a node. With the budget spent, the
// answer is Unknown: nothing proven either way. DefaultMateNodes is the budget of
// CanCheckmate, IsDeadPosition and Decider. Every position of the real-game corpus
// (testdata/realgames.fen) and of the hard corpus (testdata/deadpositions.epd) is decided
// within it, for both colours: TestRealGamesDecided and TestDeadPositionCorpus keep it
// so, and BenchmarkCanCheckmate measures a decision.
//
// # Games
//
// Decider keeps the decision from move to move in the game's chesscore.MateKnowledge
// (game.go): No stays No, a line goes on when its first move is played, survives a move
// that can be taken back, or a tempo move in front of it; only what is lost is decided
// again (BenchmarkGameDeadCheck). The test after a move decides first for the side that
// has just moved: should the other side lose on time or resign, that is the question
// asked. Unknown never ends a game: the game goes on, and a flag fall or a resignation in
// such a position is scored as a loss, the result the Laws give whenever the opponent
// can mate.
package dead

import (
	"slices"
	"sync"

	cc "github.com/gambitchess/gambit/chesscore"
)

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
	ProofLocked                 // No: locked pawns confine every piece, and no mate fits the squares they reach (LockedDead)
)

var proofNames = [...]string{"none", "mate", "game over", "material", "structure", "search", "locked"}

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
	Verdict cc.Verdict
	Proof   Proof
	// Line, with Yes, is the helpmate: legal moves from the position (both sides'
	// moves, alternately) ending with c mating. It is empty when c has already mated.
	Line []cc.Move
	// Nodes is the number of positions the search generated.
	Nodes int
}

// DefaultMateNodes is the node budget of Decide, CanCheckmate, IsDeadPosition and of a
// Decider without a budget of its own: the number of positions the search may generate
// before the answer is Unknown.
const DefaultMateNodes = 500000

// Decide reports whether colour c can checkmate the opponent's king by some series of
// legal moves from p, the opponent co-operating (a helpmate), within DefaultMateNodes;
// see the package comment for the method. Yes comes with the line, No with its proof.
func Decide(p *cc.Position, c cc.Color) Decision { return DecideWithin(p, c, DefaultMateNodes) }

// DecideWithin is Decide with a node budget of its own (at least 1).
func DecideWithin(p *cc.Position, c cc.Color, nodes int) Decision {
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
func CanCheckmate(p *cc.Position, c cc.Color) cc.Verdict {
	return CanCheckmateWithin(p, c, DefaultMateNodes)
}

// CanCheckmateWithin is CanCheckmate with a node budget of its own (at least 1).
func CanCheckmateWithin(p *cc.Position, c cc.Color, nodes int) cc.Verdict {
	d := deciders.Get().(*decider)
	defer deciders.Put(d)
	d.reset(p)
	return d.decide(c, max(nodes, 1)).Verdict
}

// Helpmate is CanCheckmateWithin that also returns, with Yes, the witness: legal moves
// from p (both sides' moves, alternately) that end with c checkmating. It is empty when
// the position is already a mate by c.
func Helpmate(p *cc.Position, c cc.Color, nodes int) (cc.Verdict, []cc.Move) {
	d := DecideWithin(p, c, nodes)
	return d.Verdict, d.Line
}

// IsDeadPosition reports whether p is a dead position (FIDE 5.2.2): neither side can
// checkmate by any series of legal moves. It is true only when both colours are proven
// unable; a position it cannot settle within DefaultMateNodes counts as alive. It is the
// test a Game with a Decider runs after every move, made afresh.
func IsDeadPosition(p *cc.Position) bool {
	var k cc.MateKnowledge
	return Decider{}.Dead(&k, p)
}

// decider holds the working memory of one decision: the structure analysis (its verdict
// on the root computed at most once for each colour) and the best-first search.
type decider struct {
	root    cc.Position
	over    bool // the root has no legal move
	st      structure
	stState [2]uint8 // by colour: 0 not computed, 1 no proof, 2 proven unable to mate by the structure analysis, 3 by LockedDead
	search  mateSearch
}

var deciders = sync.Pool{New: func() any { return new(decider) }}

func (d *decider) reset(p *cc.Position) {
	d.root = *p
	d.over = !p.HasLegalMove()
	d.stState = [2]uint8{}
}

// static settles c by steps 1 and 2 (game over, material).
func (d *decider) static(c cc.Color) (Decision, bool) {
	p := &d.root
	if d.over {
		if p.InCheck() && p.Turn() != c {
			return Decision{Verdict: cc.Yes, Proof: ProofMate}, true // c has already mated
		}
		return Decision{Verdict: cc.No, Proof: ProofGameOver}, true
	}
	if cc.CannotMateByMaterial(p, c) {
		return Decision{Verdict: cc.No, Proof: ProofMaterial}, true
	}
	return Decision{}, false
}

// provenByStructure runs step 3 for c: the structure analysis, then, where every pawn is
// locked, the locked-structure proof (locked.go).
func (d *decider) provenByStructure(c cc.Color) bool {
	if d.stState[c] == 0 {
		d.stState[c] = 1
		var want [2]bool
		want[c] = true
		switch {
		case mayBeBlocked(&d.root) && d.st.proveNoMate(&d.root, want):
			d.stState[c] = 2
		case LockedDead(&d.root, c):
			d.stState[c] = 3
		}
	}
	return d.stState[c] >= 2
}

// structureProof is the proof provenByStructure found for c.
func (d *decider) structureProof(c cc.Color) Proof {
	if d.stState[c] == 3 {
		return ProofLocked
	}
	return ProofStructure
}

// lockedMateShare is the part of the budget LongMate gets before the search where every
// pawn is locked: its mating pictures settle such positions in a few thousand nodes where
// the search, lost in the pieces' wanderings, would spend the whole budget.
const lockedMateShare = 10

// decide runs the four steps for c.
func (d *decider) decide(c cc.Color, budget int) Decision {
	if dec, ok := d.static(c); ok {
		return dec
	}
	if d.provenByStructure(c) {
		return Decision{Verdict: cc.No, Proof: d.structureProof(c)}
	}
	if pawnsLocked(&d.root) {
		if line, ok := LongMate(&d.root, c, max(budget/lockedMateShare, 1)); ok {
			return Decision{Verdict: cc.Yes, Proof: ProofMate, Line: line}
		}
	}
	v := d.search.run(&d.root, c, budget, false)
	dec := Decision{Verdict: v, Nodes: d.search.nodes}
	switch v {
	case cc.Yes:
		dec.Proof, dec.Line = ProofMate, d.search.mate
	case cc.No:
		dec.Proof = ProofSearch
	case cc.Unknown:
		// The pawns standing still, a mate may be a long walk to a mating picture.
		if line, ok := LongMate(&d.root, c, budget); ok {
			dec.Verdict, dec.Proof, dec.Line = cc.Yes, ProofMate, line
		}
	}
	return dec
}

// blockedPawns returns the pawns with a pawn right in front of them: the only pawns the
// structure analysis may freeze.
func blockedPawns(p *cc.Position) cc.Bitboard {
	pawns := p.TypePieces(cc.Pawn)
	return pawns&p.ColorPieces(cc.White)&(pawns>>8) | pawns&p.ColorPieces(cc.Black)&(pawns<<8)
}

// mayBeBlocked reports whether some pawn is blocked: the structure analysis can prove
// nothing otherwise.
func mayBeBlocked(p *cc.Position) bool { return blockedPawns(p) != 0 }

// wallPawns is the number of blocked pawns from which the structure analysis runs at the
// nodes of the search (and first in the test after a move): fewer cannot
// wall a king off across the board. Soundness does not depend on it.
const wallPawns = 6

// mayBeWalled reports whether p has at least wallPawns blocked pawns.
func mayBeWalled(p *cc.Position) bool { return blockedPawns(p).Count() >= wallPawns }

// kingRegion returns the squares a king on sq reaches by steps through allowed squares
// (sq itself included).
func kingRegion(sq cc.Square, allowed cc.Bitboard) cc.Bitboard {
	region := sq.Bitboard()
	for {
		next := region | (cc.KingSpread(region) & allowed)
		if next == region {
			return region
		}
		region = next
	}
}
