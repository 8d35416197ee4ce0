// judgement.go: how good a move was: the loss in expected points against the best
// move, the move's class and its accuracy, and a side's accuracy over a game
// (docs/review.md writes the formulas down).

package engine

import (
	"math"

	cc "github.com/gambitchess/gambit/chesscore"
)

// WinProbability maps a score for the side to move to its expected points between 0
// and 1, with the Elo curve: 1/(1+10^(-cp/400)). A mate for the side to move is 1, a
// mate against it 0.
func WinProbability(s Score) float64 {
	switch {
	case s >= mateBound:
		return 1
	case s <= -mateBound:
		return 0
	}
	return 1 / (1 + math.Pow(10, -float64(s)/400))
}

// Judgement classifies a move by how many expected points it lost.
type Judgement uint8

// The judgements, from the best move to the worst. By the drop in the mover's expected
// points (WinProbability) from the best move to the move played:
//
//	Best        the engine's move, or under BestDrop (0.005) lost
//	Excellent   under ExcellentDrop (0.02)
//	Good        under InaccuracyDrop (0.05)
//	Inaccuracy  at least InaccuracyDrop (0.05): about half a pawn from an equal position
//	Mistake     at least MistakeDrop (0.10): about a pawn
//	Blunder     at least BlunderDrop (0.20): two pawns or more
//
// and MissedWin, a move that lets a win go: the best move kept the mover winning (at
// least WinningPoints, 0.85: about three pawns) and the move played left them no longer
// winning (under HeldPoints, 0.65) but not lost (at least 1-HeldPoints). A win turned into
// a loss stays a blunder.
//
// The same centipawn loss weighs less when the game is already decided: from +5 a pawn
// more or less changes the expected points by under 0.05, so it is no mistake.
const (
	Best Judgement = iota
	Excellent
	Good
	Inaccuracy
	Mistake
	MissedWin
	Blunder
)

// Judgements lists every judgement, best first.
var Judgements = [...]Judgement{Best, Excellent, Good, Inaccuracy, Mistake, MissedWin, Blunder}

// Thresholds of the judgements on the drop in expected points, and the bounds of a
// missed win.
const (
	BestDrop       = 0.005
	ExcellentDrop  = 0.02
	InaccuracyDrop = 0.05
	MistakeDrop    = 0.10
	BlunderDrop    = 0.20
	WinningPoints  = 0.85
	HeldPoints     = 0.65
)

// String returns the judgement's name: "best", "excellent", "good", "inaccuracy",
// "mistake", "missed win" or "blunder".
func (j Judgement) String() string {
	switch j {
	case Best:
		return "best"
	case Excellent:
		return "excellent"
	case Inaccuracy:
		return "inaccuracy"
	case Mistake:
		return "mistake"
	case MissedWin:
		return "missed win"
	case Blunder:
		return "blunder"
	}
	return "good"
}

// Flawed reports whether the judgement is an inaccuracy or worse.
func (j Judgement) Flawed() bool { return j >= Inaccuracy }

// Symbol returns the PGN annotation symbol: "?!" for an inaccuracy, "?" for a mistake
// or a missed win, "??" for a blunder, "" for the rest.
func (j Judgement) Symbol() string {
	switch j {
	case Inaccuracy:
		return "?!"
	case Mistake, MissedWin:
		return "?"
	case Blunder:
		return "??"
	}
	return ""
}

// NAG returns the judgement's Numeric Annotation Glyph, 0 for none: 6 (?!), 2 (?), 4 (??).
func (j Judgement) NAG() uint8 {
	switch j {
	case Inaccuracy:
		return 6
	case Mistake, MissedWin:
		return 2
	case Blunder:
		return 4
	}
	return 0
}

// Judge classifies the move of side c from a position worth before (with the best
// move) to one worth after, both from White's point of view; engineMove says the move
// played is the engine's choice, which loses nothing by definition. It returns the drop
// in the mover's expected points (never negative) and the judgement.
func Judge(c cc.Color, before, after Score, engineMove bool) (drop float64, j Judgement) {
	if engineMove {
		return 0, Best
	}
	if c == cc.Black {
		before, after = -before, -after
	}
	was, now := WinProbability(before), WinProbability(after)
	drop = max(0, was-now)
	switch {
	case drop < BestDrop:
		return drop, Best
	case drop < ExcellentDrop:
		return drop, Excellent
	case drop < InaccuracyDrop:
		return drop, Good
	case was >= WinningPoints && now < HeldPoints && now >= 1-HeldPoints:
		return drop, MissedWin
	case drop < MistakeDrop:
		return drop, Inaccuracy
	case drop < BlunderDrop:
		return drop, Mistake
	}
	return drop, Blunder
}

// AccuracyHalfLoss is the loss in expected points that halves a move's accuracy.
const AccuracyHalfLoss = 0.12

// MoveAccuracy is the accuracy, in percent, of a move that lost drop expected points:
// 100·2^(−drop/AccuracyHalfLoss). A move losing nothing is 100; every 0.12 points lost
// halves it (an inaccuracy at 0.05 is 75, a mistake at 0.10 is 56, a blunder at 0.20 is
// 31, a win thrown into a loss is under 1).
func MoveAccuracy(drop float64) float64 {
	return 100 * math.Exp2(-max(0, drop)/AccuracyHalfLoss)
}

// Accuracy is side c's accuracy over the notes, in percent: the geometric mean of its
// moves' accuracies, which is MoveAccuracy of its mean drop. ok is false when c made
// no move.
func Accuracy(notes []PlyNote, c cc.Color) (acc float64, ok bool) {
	sum, n := 0.0, 0
	for _, note := range notes {
		if note.Color == c {
			sum += note.Drop
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return MoveAccuracy(sum / float64(n)), true
}
