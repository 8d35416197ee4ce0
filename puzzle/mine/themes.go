// themes.go: tagging the themes of a mined line (mate, fork, pin, skewer, phase ...).

package mine

import (
	"fmt"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/puzzle"
)

// Themes tags what the generator can detect in a validated line.
func Themes(l puzzle.Line, mate bool) []string {
	var th []string
	steps := l.Steps()
	if mate {
		th = append(th, "mate", fmt.Sprintf("mateIn%d", steps))
		end := l.Start
		for _, m := range l.Moves {
			end = end.Play(m)
		}
		if backRankMate(&end) {
			th = append(th, "backRankMate")
		}
	}
	switch {
	case steps == 1:
		th = append(th, "oneMove")
	case steps == 2:
		th = append(th, "short")
	case steps == 3:
		th = append(th, "long")
	default:
		th = append(th, "veryLong")
	}
	pos := l.Start
	promo, under, fork, pin, skewer := false, false, false, false, false
	for i, m := range l.Moves {
		solverMove := i%2 == 1
		next := pos.Play(m)
		if solverMove {
			if p := m.Promotion(); p != cc.NoPieceType {
				promo = true
				under = under || p != cc.Queen
			}
			fork = fork || isFork(&next, m.To())
			pin = pin || makesPin(&next, m.To())
			skewer = skewer || isSkewer(&next, m.To())
		}
		pos = next
	}
	if promo {
		th = append(th, "promotion")
	}
	if under {
		th = append(th, "underPromotion")
	}
	if fork {
		th = append(th, "fork")
	}
	if pin {
		th = append(th, "pin")
	}
	if skewer {
		th = append(th, "skewer")
	}
	if !mate {
		th = append(th, "advantage")
	}
	th = append(th, phase(&l.Shown))
	return th
}

func phase(p *cc.Position) string {
	minorsMajors := 0
	for t := cc.Knight; t <= cc.Queen; t++ {
		minorsMajors += p.TypePieces(t).Count()
	}
	switch {
	case p.FullmoveNumber() <= 12 && minorsMajors >= 12:
		return "opening"
	case minorsMajors <= 6:
		return "endgame"
	}
	return "middlegame"
}

// attacks returns the squares the piece on sq attacks.
func attacks(p *cc.Position, sq cc.Square) cc.Bitboard {
	pc := p.PieceAt(sq)
	occ := p.Occupied()
	switch pc.Type() {
	case cc.Pawn:
		return cc.PawnAttacks(pc.Color(), sq)
	case cc.Knight:
		return cc.KnightAttacks(sq)
	case cc.Bishop:
		return cc.BishopAttacks(sq, occ)
	case cc.Rook:
		return cc.RookAttacks(sq, occ)
	case cc.Queen:
		return cc.QueenAttacks(sq, occ)
	case cc.King:
		return cc.KingAttacks(sq)
	}
	return 0
}

// isFork: the piece that just moved to sq attacks two or more enemy pieces each of which is
// the king or worth more than the attacker.
func isFork(p *cc.Position, sq cc.Square) bool {
	pc := p.PieceAt(sq)
	if pc.Type() == cc.King {
		return false
	}
	n := 0
	for b := attacks(p, sq) & p.ColorPieces(pc.Color().Other()); b != 0; {
		t := p.PieceAt(b.PopFirst()).Type()
		if t == cc.King || pieceValue[t] > pieceValue[pc.Type()] {
			n++
		}
	}
	return n >= 2
}

// makesPin: the slider that just moved to sq pins an enemy piece to its king.
func makesPin(p *cc.Position, sq cc.Square) bool {
	pc := p.PieceAt(sq)
	them := pc.Color().Other()
	ksq := p.KingSquare(them)
	line := cc.Line(sq, ksq)
	if line == 0 || !slides(pc.Type(), sq, ksq) {
		return false
	}
	between := cc.Between(sq, ksq) & p.Occupied()
	return between.Count() == 1 && between&p.ColorPieces(them) != 0
}

// isSkewer: the slider on sq attacks the enemy king or queen with a lesser enemy piece
// behind it on the same line.
func isSkewer(p *cc.Position, sq cc.Square) bool {
	pc := p.PieceAt(sq)
	them := pc.Color().Other()
	for b := attacks(p, sq) & (p.Pieces(them, cc.King) | p.Pieces(them, cc.Queen)); b != 0; {
		front := b.PopFirst()
		if !slides(pc.Type(), sq, front) {
			continue
		}
		behindRay := cc.Line(sq, front) &^ cc.Between(sq, front)
		occ := p.Occupied() &^ front.Bitboard()
		var reach cc.Bitboard
		switch pc.Type() {
		case cc.Bishop:
			reach = cc.BishopAttacks(sq, occ)
		case cc.Rook:
			reach = cc.RookAttacks(sq, occ)
		default:
			reach = cc.QueenAttacks(sq, occ)
		}
		for x := reach & behindRay & p.ColorPieces(them) &^ front.Bitboard(); x != 0; {
			s := x.PopFirst()
			if cc.Between(sq, s)&front.Bitboard() != 0 && p.PieceAt(s).Type() != cc.Pawn {
				return true
			}
		}
	}
	return false
}

// slides reports whether a piece of type t moves along the line from a to b.
func slides(t cc.PieceType, a, b cc.Square) bool {
	diag := a.File() != b.File() && a.Rank() != b.Rank()
	switch t {
	case cc.Bishop:
		return diag
	case cc.Rook:
		return !diag
	case cc.Queen:
		return true
	}
	return false
}

// backRankMate: the mated king stands on its first rank and the checker is a rook or queen
// on that rank.
func backRankMate(p *cc.Position) bool {
	c := p.Turn()
	ksq := p.KingSquare(c)
	home := 0
	if c == cc.Black {
		home = 7
	}
	if ksq.Rank() != home {
		return false
	}
	for b := p.Checkers(); b != 0; {
		s := b.PopFirst()
		t := p.PieceAt(s).Type()
		if (t == cc.Rook || t == cc.Queen) && s.Rank() == home {
			return true
		}
	}
	return false
}
