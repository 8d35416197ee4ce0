// generate.go: mining puzzles from played games with the engine.

package puzzles

import (
	"fmt"
	"hash/fnv"
	"strings"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
)

// GenOptions tune the generator. The zero value gets the defaults of DefaultGenOptions.
type GenOptions struct {
	// ScanNodes is the node budget of the quick look at every position of a game.
	ScanNodes uint64
	// VerifyNodes is the node budget for each solver move of a candidate line.
	VerifyNodes uint64
	// MaxSolverMoves bounds a line's length.
	MaxSolverMoves int
	// Win is the advantage (centipawns, for the solver) that counts as clearly winning.
	Win engine.Score
	// Margin is how much better the solution must be than every alternative.
	Margin engine.Score
	// Swing is how much the opponent's move must have worsened their position: a puzzle
	// starts from a mistake.
	Swing engine.Score
}

// DefaultGenOptions are the generator's defaults.
func DefaultGenOptions() GenOptions {
	return GenOptions{ScanNodes: 20_000, VerifyNodes: 150_000, MaxSolverMoves: 5, Win: 300, Margin: 250, Swing: 200}
}

// Generator finds puzzles in games: positions where the side to move has a single clearly
// winning line, a forced mate or a decisive gain of material that the engine confirms with
// a clear margin over every alternative, right after the opponent's mistake.
type Generator struct {
	e   *engine.Engine
	opt GenOptions
}

// NewGenerator returns a generator using the engine e (not shared with other goroutines).
func NewGenerator(e *engine.Engine, opt GenOptions) *Generator {
	d := DefaultGenOptions()
	if opt.ScanNodes == 0 {
		opt.ScanNodes = d.ScanNodes
	}
	if opt.VerifyNodes == 0 {
		opt.VerifyNodes = d.VerifyNodes
	}
	if opt.MaxSolverMoves == 0 {
		opt.MaxSolverMoves = d.MaxSolverMoves
	}
	if opt.Win == 0 {
		opt.Win = d.Win
	}
	if opt.Margin == 0 {
		opt.Margin = d.Margin
	}
	if opt.Swing == 0 {
		opt.Swing = d.Swing
	}
	return &Generator{e: e, opt: opt}
}

func (g *Generator) analyse(pos cc.Position, nodes uint64, multiPV int) []engine.Line {
	lines, err := g.e.Analyse(pos, nil, engine.Limits{Nodes: nodes}, multiPV)
	if err != nil {
		return nil
	}
	return lines
}

// FromGame returns the puzzles found in the game, each with the given source and an id
// made from idPrefix and a hash of the puzzle's position and line (so the same puzzle
// mined twice has the same id).
func (g *Generator) FromGame(game *cc.Game, idPrefix, source string) []Puzzle {
	moves := game.Moves()
	var out []Puzzle
	prev := engine.Score(0) // the previous position's score for its side to move
	havePrev := false
	for ply := 1; ply < len(moves); ply++ {
		before := game.PositionAt(ply - 1)
		shown := game.PositionAt(ply)
		scan := g.analyse(shown, g.opt.ScanNodes, 2)
		if len(scan) == 0 {
			havePrev = false
			continue
		}
		best := scan[0].Score
		worsened := !havePrev || -prev+g.opt.Swing <= best || best.IsMate() && !(-prev).IsMate()
		prev, havePrev = best, true
		if !worsened || !g.winning(best) || (len(scan) > 1 && !g.unique(scan[0], scan[1])) {
			continue
		}
		line, mate, ok := g.line(shown)
		if !ok {
			continue
		}
		p := Puzzle{
			FEN:    before.FEN(),
			Moves:  append([]string{moves[ply-1].UCI()}, uciAll(line)...),
			Source: source,
		}
		h := fnv.New64a()
		h.Write([]byte(p.FEN + " " + strings.Join(p.Moves, " ")))
		p.ID = fmt.Sprintf("%s%010x", idPrefix, h.Sum64()>>24)
		l, err := p.Validate()
		if err != nil {
			continue
		}
		p.Themes = Themes(l, mate)
		p.Rating = EstimateRating(l, p.Themes)
		out = append(out, p)
		ply += len(line) // the next puzzle starts after this line's moves at the earliest
		havePrev = false
	}
	return out
}

func uciAll(ms []cc.Move) []string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.UCI()
	}
	return s
}

func (g *Generator) winning(s engine.Score) bool {
	return s.MateIn() > 0 || !s.IsMate() && s >= g.opt.Win
}

// unique reports whether best is clearly better than second: a mate against no mate, or a
// winning score against one that is not winning and at least Margin lower.
func (g *Generator) unique(best, second engine.Line) bool {
	if best.Score.MateIn() > 0 {
		if best.Score.MateIn() == 1 {
			return true // any mate in one is accepted as a solution
		}
		return second.Score.MateIn() <= 0
	}
	return !g.winning(second.Score) && best.Score-second.Score >= g.opt.Margin
}

// line builds the solution from the shown position: at every solver move the engine's
// best move must be the only winning one; the opponent answers with the engine's best
// reply. It stops at mate, or once the material won is kept after the best reply.
func (g *Generator) line(shown cc.Position) ([]cc.Move, bool, bool) {
	solver := shown.Turn()
	start := material(&shown, solver)
	pos := shown
	var line []cc.Move
	for step := 0; step < g.opt.MaxSolverMoves; step++ {
		cand := g.analyse(pos, g.opt.VerifyNodes, 2)
		if len(cand) == 0 || !g.winning(cand[0].Score) || (len(cand) > 1 && !g.unique(cand[0], cand[1])) {
			return nil, false, false
		}
		mating := cand[0].Score.MateIn() > 0
		line = append(line, cand[0].Move)
		pos = pos.Play(cand[0].Move)
		if !pos.HasLegalMove() {
			return line, pos.InCheck(), pos.InCheck()
		}
		reply := g.analyse(pos, g.opt.VerifyNodes/2, 1)
		if len(reply) == 0 {
			return nil, false, false
		}
		after := pos.Play(reply[0].Move)
		if !mating && material(&after, solver)-start >= int(g.opt.Win)-100 {
			return line, false, true
		}
		line = append(line, reply[0].Move)
		pos = after
	}
	return nil, false, false
}

var pieceValue = [7]int{0, 100, 300, 300, 500, 900, 0}

// material returns c's material minus the opponent's, in centipawns.
func material(p *cc.Position, c cc.Color) int {
	v := 0
	for t := cc.Pawn; t <= cc.Queen; t++ {
		v += pieceValue[t] * (p.Pieces(c, t).Count() - p.Pieces(c.Other(), t).Count())
	}
	return v
}

// Themes tags what the generator can detect in a validated line.
func Themes(l Line, mate bool) []string {
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

// EstimateRating guesses a puzzle's rating from its length and themes, before anyone has
// played it (players' attempts then move it by Glicko-2): 900 for a one-move mate, about
// 250 more per further solver move, more for material wins than mates, for quiet
// finishes and for under-promotions. Clamped to 600..2600.
func EstimateRating(l Line, themes []string) int {
	r := 900 + 250*(l.Steps()-1)
	has := func(t string) bool {
		for _, x := range themes {
			if strings.EqualFold(x, t) {
				return true
			}
		}
		return false
	}
	if !has("mate") {
		r += 150
	}
	if has("underPromotion") {
		r += 250
	}
	if has("backRankMate") {
		r -= 100
	}
	if has("fork") {
		r -= 50
	}
	return min(max(r, 600), 2600)
}
