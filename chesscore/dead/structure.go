// structure.go: the semi-static analysis of blocked pawn structures: which
// pawns can never move again, which squares every other piece can ever reach and attack
// around them, and from that whether a side can never checkmate.

package dead

import cc "github.com/gambitchess/gambit/chesscore"

// structure is the semi-static analysis of a position. Its frozen pieces (pawns, and
// pieces walled in by them) never move and are never captured, whatever both sides play;
// every other piece is confined to the squares it can reach without crossing them.
// All sets over-approximate: a piece may never really get to a square of its reach
// (other pieces stand in the way, or it would be captured first), but it can never get
// anywhere else.
//
// The sets are a fixpoint. Frozen is the largest set of pawns, each blocked by a frozen
// pawn in front of it, and of other pieces (not kings) with no move but onto frozen
// squares, for which the reach computed with those pieces as permanent walls never puts
// an enemy piece on a square a frozen pawn could capture on, never lets an enemy piece
// attack a frozen piece, and never lets the enemy king take one that no frozen piece
// protects. By induction on the moves of any game from the position, no frozen piece can
// be the first of them to move or be taken: until then every piece stays within its
// reach.
type structure struct {
	frozen    cc.Bitboard       // pieces (of both colours, no kings) that never move and are never captured
	colors    [2]cc.Bitboard    // the pieces of each colour in the position analysed
	pawns     cc.Bitboard       // the pawns of the position analysed
	count     [2][6]int         // by colour and type: the pieces that are not frozen
	frozenAtt [2]cc.Bitboard    // squares each side's frozen pieces attack: for ever
	kingReach [2]cc.Bitboard    // squares each king can ever stand on
	reach     [2][6]cc.Bitboard // by colour and type (Pawn to Queen): squares such pieces can ever stand on, promoted pieces under their new type
	occupy    [2]cc.Bitboard    // squares the side's pieces other than the king can ever stand on
	attack    [2]cc.Bitboard    // squares the side's pieces other than the king can ever attack
}

// maxStructureRounds bounds the rounds of the frozen-piece fixpoint (each round unfreezes
// at least one piece, almost always all it will in one or two); past it the analysis
// gives up and proves nothing.
const maxStructureRounds = 16

// proveNoMate reports whether the structure of p proves, for every colour c with
// want[c], that c can never checkmate. It computes the fixpoint round by round and stops
// as soon as a round cannot prove it: each later round has fewer frozen pieces, so
// larger reach everywhere, and can only prove less.
func (s *structure) proveNoMate(p *cc.Position, want [2]bool) bool {
	pawns := p.TypePieces(cc.Pawn)
	if pawns == 0 {
		return false
	}
	wp, bp := pawns&p.ColorPieces(cc.White), pawns&p.ColorPieces(cc.Black)
	cand := wp&(pawns>>8) | bp&(pawns<<8) // every pawn with a pawn right in front of it
	if p.EnPassant() != cc.NoSquare && cand != 0 {
		// The pawn that just advanced two squares may be taken en passant, by the pawns beside it.
		us := p.Turn()
		cand &^= cc.Square(int(p.EnPassant()) - pawnUp[us]).Bitboard()
		cand &^= cc.PawnAttacks(us^1, p.EnPassant()) & p.Pieces(us, cc.Pawn)
	}
	var banned cc.Bitboard
	for round := 0; cand != 0 && round < maxStructureRounds; round++ {
		all := cand | stuckPieces(p, cand, banned)
		s.compute(p, all)
		for c := cc.White; c <= cc.Black; c++ {
			if want[c] && !s.cannotMate(c) {
				return false
			}
		}
		bad := s.unfrozen(all)
		if bad == 0 {
			return true
		}
		cand &^= bad
		banned |= bad
	}
	return false
}

// stuckPieces returns the pieces other than pawns and kings whose every move would land on
// walls (cand, and the stuck pieces found so far), banned pieces excepted.
func stuckPieces(p *cc.Position, walls, banned cc.Bitboard) cc.Bitboard {
	var stuck cc.Bitboard
	pieces := p.Occupied() &^ p.TypePieces(cc.Pawn) &^ p.TypePieces(cc.King) &^ banned
	for {
		w := walls | stuck
		found := cc.Bitboard(0)
		for b := pieces &^ stuck; b != 0; {
			sq := b.PopFirst()
			if cc.PieceAttacks(p.PieceAt(sq).Type(), cc.White, sq, w)&^w == 0 {
				found |= sq.Bitboard()
			}
		}
		if found == 0 {
			return stuck
		}
		stuck |= found
	}
}

// compute fills the reach, occupy and attack sets assuming the pawns of frozen never move.
func (s *structure) compute(p *cc.Position, frozen cc.Bitboard) {
	s.frozen = frozen
	s.colors = [2]cc.Bitboard{p.ColorPieces(cc.White), p.ColorPieces(cc.Black)}
	s.pawns = p.TypePieces(cc.Pawn)
	walls := frozen
	for c := cc.White; c <= cc.Black; c++ {
		s.frozenAtt[c] = cc.PawnSpread(c, frozen&p.ColorPieces(c)&p.TypePieces(cc.Pawn))
		for b := frozen & p.ColorPieces(c) &^ p.TypePieces(cc.Pawn); b != 0; {
			sq := b.PopFirst()
			s.frozenAtt[c] |= cc.PieceAttacks(p.PieceAt(sq).Type(), c, sq, walls)
		}
	}
	var seeds [2][6]cc.Bitboard
	for c := cc.White; c <= cc.Black; c++ {
		s.kingReach[c] = kingRegion(p.KingSquare(c), ^walls&^s.frozenAtt[c^1])
		for t := cc.Pawn; t <= cc.Queen; t++ {
			seeds[c][t] = p.Pieces(c, t) &^ frozen
			s.count[c][t] = seeds[c][t].Count()
		}
		s.occupy[c] = p.ColorPieces(c) &^ p.TypePieces(cc.King)
	}
	// The pieces' floods depend only on where promotions may start: they are made again
	// only when that grows, while the pawns' captures widen round after round.
	var pieceOcc, pieceAtt, promoted [2]cc.Bitboard
	flooded := [2]bool{}
	for {
		var occupy, attack [2]cc.Bitboard
		for c := cc.White; c <= cc.Black; c++ {
			// Pawns first: their captures land where enemy pieces may stand, and where they
			// promote the new pieces start.
			pr := pawnFlood(seeds[c][cc.Pawn], c, walls, s.occupy[c^1]&^walls)
			s.reach[c][cc.Pawn] = pr
			last := pawnLastRank[c]
			if promo := pr & last; !flooded[c] || promo != promoted[c] {
				flooded[c], promoted[c] = true, promo
				pieceOcc[c], pieceAtt[c] = s.floodPieces(c, &seeds[c], promo, walls)
			}
			occupy[c] = pr | frozen&p.ColorPieces(c) | pieceOcc[c]
			attack[c] = cc.PawnSpread(c, pr&^last) | s.frozenAtt[c] | pieceAtt[c]
		}
		s.attack = attack
		if occupy == s.occupy {
			return
		}
		s.occupy[cc.White] |= occupy[cc.White]
		s.occupy[cc.Black] |= occupy[cc.Black]
	}
}

// floodPieces fills the reach of c's knights, bishops, rooks and queens (from seeds, and
// from the promotion squares promo) and returns the squares they can ever stand on and
// attack.
func (s *structure) floodPieces(c cc.Color, seeds *[6]cc.Bitboard, promo, walls cc.Bitboard) (occupy, attack cc.Bitboard) {
	r, a := knightFlood(seeds[cc.Knight]|promo, walls)
	s.reach[c][cc.Knight], occupy, attack = r, r, a
	r, a = sliderFlood(seeds[cc.Bishop]|promo, walls, false)
	s.reach[c][cc.Bishop], occupy, attack = r, occupy|r, attack|a
	r, a = sliderFlood(seeds[cc.Rook]|promo, walls, true)
	s.reach[c][cc.Rook], occupy, attack = r, occupy|r, attack|a
	rq, aq := sliderFlood(seeds[cc.Queen]|promo, walls, true)
	bq, ab := sliderFlood(rq, walls, false)
	for bq != rq { // a queen alternates both kinds of lines
		rq, aq = sliderFlood(bq, walls, true)
		bq, ab = sliderFlood(rq, walls, false)
	}
	s.reach[c][cc.Queen] = rq
	return occupy | rq, attack | aq | ab
}

// unfrozen returns the pawns of cand that the computed reach shows may move or be taken.
func (s *structure) unfrozen(cand cc.Bitboard) cc.Bitboard {
	var bad cc.Bitboard
	for c := cc.White; c <= cc.Black; c++ {
		for b := cand & s.colors[c]; b != 0; {
			sq := b.PopFirst()
			ahead := cc.Square(int(sq) + pawnUp[c])
			pawn := s.pawns.Has(sq)
			switch {
			case pawn && !s.frozen.Has(ahead):
				bad |= sq.Bitboard() // the pawn in front may go: this one may advance
			case pawn && cc.PawnAttacks(c, sq)&s.occupy[c^1] != 0:
				bad |= sq.Bitboard() // an enemy piece may come where it captures
			case s.attack[c^1].Has(sq):
				bad |= sq.Bitboard() // an enemy piece may take it
			case cc.KingSpread(s.kingReach[c^1]).Has(sq) && !s.frozenAtt[c].Has(sq):
				bad |= sq.Bitboard() // the enemy king may take it
			}
		}
	}
	return bad
}

// cannotMate reports whether the structure proves that c can never checkmate: wherever
// the enemy king can ever stand, either no piece of c can ever attack that square, or its
// flight squares cannot all be closed. A flight square is closed by an attack of c's
// pieces, by an enemy piece standing on it, or by c's king from a square not next to the
// enemy king; the enemy needs a piece of its own for every flight square it has to fill,
// and counts at most its pieces (pawns for any piece, they may promote) whose reach meets
// those squares.
func (s *structure) cannotMate(c cc.Color) bool {
	l := c ^ 1
	attackC := s.attack[c]
	occupyL := s.occupy[l]
	kingC := s.kingReach[c]
	frozenL := s.frozen & s.colors[l]
	for r := s.kingReach[l] & attackC; r != 0; {
		k := r.PopFirst()
		flights := cc.KingAttacks(k) &^ attackC &^ frozenL
		if flights&^occupyL&^cc.KingSpread(kingC) != 0 {
			continue // a flight square nothing can ever close
		}
		if s.fillable(l, flights) {
			return false
		}
		for z := kingC &^ cc.KingSpread(k.Bitboard()); z != 0; {
			zs := z.PopFirst()
			if flights&cc.KingAttacks(zs) != 0 && s.fillable(l, flights&^cc.KingAttacks(zs)) {
				return false
			}
		}
	}
	return true
}

// fillable reports whether colour l may have a piece of its own (not its king, not
// frozen) on each square of need at once, by counting pieces by type.
func (s *structure) fillable(l cc.Color, need cc.Bitboard) bool {
	if need&^s.occupy[l] != 0 {
		return false
	}
	n := need.Count()
	if n == 0 {
		return true
	}
	pieces, any := 0, false
	for t := cc.Knight; t <= cc.Queen; t++ {
		if s.reach[l][t]&need != 0 {
			pieces += s.count[l][t]
			any = true
		}
	}
	promotes := s.reach[l][cc.Pawn]&pawnLastRank[l] != 0
	if s.reach[l][cc.Pawn]&need != 0 || promotes && any {
		pieces += s.count[l][cc.Pawn]
	}
	return pieces >= n
}

// knightFlood returns the squares knights starting on seed can reach without landing on
// walls, and every square they attack from there.
func knightFlood(seed, walls cc.Bitboard) (reach, attack cc.Bitboard) {
	reach = seed
	for {
		next := reach | cc.KnightSpread(reach)&^walls
		if next == reach {
			return reach, cc.KnightSpread(reach)
		}
		reach = next
	}
}

// sliderFlood returns the squares rooks (rook) or bishops starting on seed can reach along
// lines that walls block, and every square they attack from there.
func sliderFlood(seed, walls cc.Bitboard, rook bool) (reach, attack cc.Bitboard) {
	reach = seed
	for todo := seed; todo != 0; {
		sq := todo.PopFirst()
		var a cc.Bitboard
		if rook {
			a = cc.RookAttacks(sq, walls)
		} else {
			a = cc.BishopAttacks(sq, walls)
		}
		attack |= a
		if n := a &^ walls &^ reach; n != 0 {
			reach |= n
			todo |= n
		}
	}
	return reach, attack
}

// pawnFlood returns the squares pawns of colour c starting on seed can reach: pushes onto
// squares that are not walls, captures onto squares of capturable, up to the last rank.
func pawnFlood(seed cc.Bitboard, c cc.Color, walls, capturable cc.Bitboard) cc.Bitboard {
	reach := seed
	last := pawnLastRank[c]
	for {
		movers := reach &^ last
		next := reach | cc.PawnPushes(c, movers)&^walls | cc.PawnSpread(c, movers)&capturable
		if next == reach {
			return reach
		}
		reach = next
	}
}

// Pawn geometry by colour: the promotion rank and a push as a square offset.
var (
	pawnLastRank = [2]cc.Bitboard{cc.Rank8, cc.Rank1}
	pawnUp       = [2]int{8, -8}
)
