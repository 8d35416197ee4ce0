// mate.go: what the rules know of whether a side can still checkmate (FIDE 5.2.2 dead
// position, 6.9 flag fall, 5.1.2 resignation): the verdict, the material rule, the
// knowledge a game keeps from move to move, and the interface through which a game asks
// the full decision (package chesscore/dead implements it; the rules never import it).

package chesscore

import "slices"

// Verdict is the answer to "can this colour still checkmate?".
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

// MaxKnownLine is the longest helpmate line (in plies) a Game carries from move to move
// and MateKnowledge hands out; a longer one is dropped and decided afresh when needed.
const MaxKnownLine = 96

// MateKnowledge is what is known of who can still mate in one position: the memory a
// Game keeps from move to move (filled by its MateDecider), and the form a game record
// keeps it in, so that a game rebuilt from its record needs no search at a flag fall or
// a resignation.
type MateKnowledge struct {
	// Ply is the number of moves of the game the knowledge is for: it applies only to
	// the position after exactly that many moves. A MateDecider ignores it.
	Ply int
	// Verdict is, for each colour, Yes, No, or Unknown (not decided).
	Verdict [2]Verdict
	// Line is, for each colour with Yes, its helpmate from the position: legal moves of
	// both sides ending with that colour mating (empty when it has mated already).
	Line [2][]Move
}

// Known reports whether k holds a verdict for either colour.
func (k MateKnowledge) Known() bool { return k.Verdict != [2]Verdict{} }

// MateDecider decides whether a colour can still checkmate by some series of legal
// moves, keeping what it finds in a MateKnowledge from move to move. A Game is given one
// when it is made and asks it after every move (Dead), at a flag fall and a resignation
// (CanMate). Package chesscore/dead implements the exact decision; MaterialRule is the
// material rule alone. An implementation replaces the lines of a MateKnowledge, never
// writes into them: a cloned game shares them.
type MateDecider interface {
	// Carry updates k, what is known of prev, to cur, the position after the legal move
	// m: what it cannot carry over it forgets (Unknown).
	Carry(k *MateKnowledge, prev, cur *Position, m Move)
	// Dead reports whether p is a dead position (neither colour can mate), using and
	// filling k. A position it cannot settle counts as alive.
	Dead(k *MateKnowledge, p *Position) bool
	// CanMate returns c's verdict in p, using and filling k. Yes must come with a line in
	// k that replays to a mate by c (ReplaysToMate).
	CanMate(k *MateKnowledge, p *Position, c Color) Verdict
}

// MaterialRule is the MateDecider of the material rule alone (CannotMateByMaterial) and
// the game's end on the board: it proves No only from material, and leaves everything
// else Unknown. A Game made without a decider uses it.
type MaterialRule struct{}

// Carry keeps the colours proven unable to mate (material never grows back without a
// pawn, and a colour with a pawn is never proven here) and forgets the rest.
func (MaterialRule) Carry(k *MateKnowledge, prev, cur *Position, m Move) {
	for c := range k.Verdict {
		if k.Verdict[c] != No {
			k.Verdict[c], k.Line[c] = Unknown, nil
		}
	}
}

// Dead reports whether neither colour can mate by material.
func (r MaterialRule) Dead(k *MateKnowledge, p *Position) bool {
	return r.CanMate(k, p, White) == No && r.CanMate(k, p, Black) == No
}

// CanMate returns Yes when c has mated, No when c is mated or stalemated or its material
// can never mate, and Unknown otherwise.
func (MaterialRule) CanMate(k *MateKnowledge, p *Position, c Color) Verdict {
	if k.Verdict[c&1] == Unknown {
		k.Verdict[c&1], k.Line[c&1] = settleByRules(p, c), nil
	}
	return k.Verdict[c&1]
}

// settleByRules is the verdict the board and the material alone give c in p: Yes when c
// has mated, No when the game is over otherwise or c's material can never mate, else
// Unknown.
func settleByRules(p *Position, c Color) Verdict {
	switch {
	case !p.HasLegalMove() && p.InCheck() && p.turn != c:
		return Yes
	case !p.HasLegalMove():
		return No
	case CannotMateByMaterial(p, c):
		return No
	}
	return Unknown
}

// Square colours.
const (
	darkSquares  Bitboard = 0xAA55AA55AA55AA55
	lightSquares          = ^darkSquares
)

// CannotMateByMaterial reports whether colour c's material can never checkmate, whatever
// the opponent does to help. The rules, each proven for every position with that material
// (and closed under further play, since no pawn can promote):
//
//   - a lone king gives no check;
//   - king and one knight against king and queens only: the knight's check leaves one of
//     the two squares beside the king towards the knight unguarded by the mating king,
//     and a queen there (or the king's escape there) always answers it;
//   - king and bishops all on one colour, with no pawns or knights on the board and every
//     bishop of either side on that colour: the two squares beside the mated king towards
//     the checking bishop are of the other colour, only the mating king can guard them,
//     and it cannot guard both; a rook or queen there interposes or captures.
func CannotMateByMaterial(p *Position, c Color) bool {
	us, them := p.byColor[c&1], p.byColor[(c^1)&1]
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

// ReplaysToMate reports whether the moves of line are legal one after the other from p
// and end with c mating.
func ReplaysToMate(p *Position, c Color, line []Move) bool {
	q := *p
	for _, m := range line {
		if !q.IsLegal(m) {
			return false
		}
		q.doMove(m)
	}
	return q.turn == c^1 && q.InCheck() && !q.HasLegalMove()
}

// MateKnowledge returns what the game knows of who can still mate in its current
// position (nothing for a game that is over). The lines are copies.
func (g *Game) MateKnowledge() MateKnowledge {
	k := MateKnowledge{Ply: len(g.moves)}
	if g.outcome.Over() {
		return k
	}
	for c := White; c <= Black; c++ {
		switch g.mates.Verdict[c] {
		case Yes:
			if len(g.mates.Line[c]) == 0 || len(g.mates.Line[c]) > MaxKnownLine {
				continue // too long to keep (or a mate on the board, which ends the game)
			}
			k.Verdict[c], k.Line[c] = Yes, slices.Clone(g.mates.Line[c])
		case No:
			k.Verdict[c] = No
		}
	}
	return k
}

// AddMateKnowledge takes what k knows about the current position, as kept by
// MateKnowledge after the same moves: nothing when k is for another ply or the game is
// over. A Yes is taken only with a line that replays, move by move, to a mate by its
// colour (else that colour stays undecided); a No is taken as it is, as the rest of the
// record the game was rebuilt from. It reports whether it took anything.
func (g *Game) AddMateKnowledge(k MateKnowledge) bool {
	if k.Ply != len(g.moves) || g.outcome.Over() || !k.Known() {
		return false
	}
	took := false
	for c := White; c <= Black; c++ {
		if g.mates.Verdict[c] != Unknown {
			continue
		}
		switch k.Verdict[c] {
		case Yes:
			if len(k.Line[c]) == 0 || len(k.Line[c]) > MaxKnownLine || !ReplaysToMate(&g.pos, c, k.Line[c]) {
				continue
			}
			g.mates.Verdict[c], g.mates.Line[c] = Yes, slices.Clone(k.Line[c])
		case No:
			g.mates.Verdict[c] = No
		default:
			continue
		}
		took = true
	}
	return took
}
