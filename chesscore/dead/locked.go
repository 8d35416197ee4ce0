// locked.go: the proof for locked pawn structures. When no pawn can ever move or be
// captured, the pawns are fixed walls, every other piece is confined to the squares it
// can reach around them, and whether a side can ever mate is a question about those
// squares alone; LockedDead answers it.

package dead

import (
	"slices"
	"sync"

	cc "github.com/gambitchess/gambit/chesscore"
)

// lockedBoard is a position whose pawns are proven never to move nor to be captured,
// whatever both sides play: the pawns (and the pieces shut in by them, fixed) are walls,
// and every other piece is confined to the squares it can reach without crossing them.
type lockedBoard struct {
	walls      cc.Bitboard    // every pawn of the position, and the pieces of fixed
	pawns      [2]cc.Bitboard // by colour
	pawnAtt    [2]cc.Bitboard // squares each side's pawns attack, for ever
	kingRegion [2]cc.Bitboard // squares each king can ever stand on, its square now included
	kingSafe   [2]cc.Bitboard // the squares of kingRegion no enemy pawn attacks: where it can stand after any move
	fixed      [2]cc.Bitboard // by colour: the pieces among the walls, which never move nor are taken
	colors     [2]cc.Bitboard // by colour: every piece of the position
	pieces     []lockedPiece  // the pieces other than kings and pawns
}

// lockedPiece is a knight, bishop, rook or queen of a locked board with the squares it
// can ever stand on.
type lockedPiece struct {
	color  cc.Color
	kind   cc.PieceType
	square cc.Square
	reach  cc.Bitboard
}

// lockBoard proves, if it can, that no pawn of p will ever move or be captured, and
// returns the locked board. The proof is an induction on the moves of any game from p:
// while every pawn stands, each king steps only through squares that are no pawn's and
// that no enemy pawn attacks (its region), and every other piece moves along lines the
// pawns do not block (its reach). No pawn can then be the first to change:
//
//   - a push: every pawn has a pawn right in front of it;
//   - a capture by a pawn: no enemy pawn stands on a square it attacks (checked), no
//     enemy king can legally stand there, and no enemy piece's reach meets those
//     squares (checked);
//   - en passant: p has no en passant right, and no pawn ever advances two squares;
//   - a pawn taken by a piece: no enemy piece attacks it from anywhere in its reach
//     (checked); by a king: every pawn next to the enemy king's region is protected by
//     a pawn of its own, so taking it is never legal (checked).
//
// Castling moves the king through squares of its region and the rook along its reach,
// and captures among the pieces only remove pieces: the induction holds for them too.
//
// Pieces that can never move nor be taken are walls too: a piece whose every move would
// land on a pawn or another such piece of its own colour, on a square no enemy pawn
// attacks, that no enemy piece attacks from anywhere in its reach, and that the enemy
// king can never stand next to unless a pawn protects it. The induction then covers
// them as well: none of them can be the first wall to move or be taken.
func lockBoard(p *cc.Position) (lockedBoard, bool) {
	if !pawnsLocked(p) {
		return lockedBoard{}, false
	}
	b := wallBoard(p)
	for c := cc.White; c <= cc.Black; c++ {
		if b.pawnAtt[c]&b.pawns[c^1] != 0 {
			return b, false // a pawn may take another
		}
	}
	pawns := b.walls
	var banned cc.Bitboard // pieces that could be taken: never walls
	for {
		fixed := lockedStuckPieces(&b, banned)
		fb := b
		if fixed != 0 {
			fb = wallBoardWith(p, pawns|fixed)
			fb.fixed = [2]cc.Bitboard{fixed & p.ColorPieces(cc.White), fixed & p.ColorPieces(cc.Black)}
		}
		unsafe, ok := fb.standsForEver()
		if !ok || unsafe == 0 {
			return fb, ok
		}
		banned |= unsafe
	}
}

// standsForEver checks the conditions of lockBoard's induction on b: ok is false when a
// pawn could move or be taken; otherwise unsafe holds the fixed pieces that could be
// taken after all (none: b is proven).
func (b *lockedBoard) standsForEver() (unsafe cc.Bitboard, ok bool) {
	for c := cc.White; c <= cc.Black; c++ {
		if lockedKingSpread(b.kingRegion[c])&b.pawns[c^1]&^b.pawnAtt[c^1] != 0 {
			return 0, false // the king may take an unprotected pawn
		}
	}
	var attacked [2]cc.Bitboard // by colour: squares its pieces can ever attack
	for _, pc := range b.pieces {
		_, attack := lockedPieceFlood(pc.kind, pc.square, b.walls)
		if pc.reach&b.pawnAtt[pc.color^1] != 0 || attack&b.pawns[pc.color^1] != 0 {
			if b.fixed[pc.color].Has(pc.square) {
				unsafe |= pc.square.Bitboard() // a pawn may take it
				continue
			}
			return 0, false // the piece may be taken by a pawn, or take one
		}
		attacked[pc.color] |= attack
	}
	for c := cc.White; c <= cc.Black; c++ {
		for s := b.fixed[c]; s != 0; {
			sq := s.PopFirst()
			nearKing := lockedKingSpread(b.kingRegion[c^1]).Has(sq) && !b.pawnAtt[c].Has(sq)
			if attacked[c^1].Has(sq) || nearKing {
				unsafe |= sq.Bitboard()
			}
		}
	}
	return unsafe, true
}

// lockedStuckPieces returns the largest set of b's pieces, banned ones excepted, each of whose
// moves would land on a pawn or a piece of the set of its own colour.
func lockedStuckPieces(b *lockedBoard, banned cc.Bitboard) cc.Bitboard {
	var stuck cc.Bitboard
	for _, pc := range b.pieces {
		stuck |= pc.square.Bitboard()
	}
	stuck &^= banned
	for {
		next := stuck
		for _, pc := range b.pieces {
			own := b.pawns[pc.color] | next&b.colors[pc.color]
			if next.Has(pc.square) && lockedAttacks(pc.kind, pc.square, b.walls|next)&^own != 0 {
				next &^= pc.square.Bitboard()
			}
		}
		if next == stuck {
			return stuck
		}
		stuck = next
	}
}

// pawnsLocked reports whether p has pawns, each with a pawn right in front of it, and no
// en passant right: the first condition of lockBoard, checked before anything is built.
func pawnsLocked(p *cc.Position) bool {
	white, black := p.Pieces(cc.White, cc.Pawn), p.Pieces(cc.Black, cc.Pawn)
	pawns := white | black
	return pawns != 0 && p.EnPassant() == cc.NoSquare && white&^(pawns>>8) == 0 && black&^(pawns<<8) == 0
}

// wallBoard returns the board of p with its pawns taken as walls that stand for ever,
// proven or not: the kings' regions and the pieces' reach around them.
func wallBoard(p *cc.Position) lockedBoard {
	return wallBoardWith(p, p.Pieces(cc.White, cc.Pawn)|p.Pieces(cc.Black, cc.Pawn))
}

// wallBoardWith is wallBoard with walls of its own: the pawns and pieces that stand for
// ever.
func wallBoardWith(p *cc.Position, walls cc.Bitboard) lockedBoard {
	var b lockedBoard
	b.pawns = [2]cc.Bitboard{p.Pieces(cc.White, cc.Pawn), p.Pieces(cc.Black, cc.Pawn)}
	b.walls = walls
	b.colors = [2]cc.Bitboard{p.ColorPieces(cc.White), p.ColorPieces(cc.Black)}
	for c := cc.White; c <= cc.Black; c++ {
		for s := b.pawns[c]; s != 0; {
			b.pawnAtt[c] |= cc.PawnAttacks(c, s.PopFirst())
		}
	}
	for c := cc.White; c <= cc.Black; c++ {
		b.kingRegion[c] = lockedKingFlood(p.KingSquare(c), ^b.walls&^b.pawnAtt[c^1])
		b.kingSafe[c] = b.kingRegion[c] &^ b.pawnAtt[c^1]
	}
	others := p.Occupied() &^ b.pawns[cc.White] &^ b.pawns[cc.Black] &^ p.Pieces(cc.White, cc.King) &^ p.Pieces(cc.Black, cc.King)
	for s := others; s != 0; {
		sq := s.PopFirst()
		pc := p.PieceAt(sq)
		reach, _ := lockedPieceFlood(pc.Type(), sq, b.walls)
		b.pieces = append(b.pieces, lockedPiece{color: pc.Color(), kind: pc.Type(), square: sq, reach: reach})
	}
	return b
}

// LockedDead reports whether p is proven to be a position in which winner can never
// checkmate, by any series of legal moves, because its pawns are locked. It is true only
// with a proof in two parts. First, no pawn can ever move or be captured: every pawn is
// blocked by a pawn in front of it, no pawn attacks an enemy pawn, no piece other than a
// king can ever reach a square an enemy pawn attacks or attack an enemy pawn from the
// squares it can reach with the pawns as walls, and every pawn a king could ever step
// next to is protected by a pawn (and there is no en passant right); pieces shut in for
// ever behind them are walls too (see lockBoard). Second, on no square the losing king
// can ever stand on after a move (its region, less the squares enemy pawns attack) can
// a mate be assembled from the places the pieces can ever reach: a check from some
// square of a piece's reach, and every flight square attacked from such squares (each
// piece from one square at once, lines blocked by the walls alone, the winning king from
// a square not next to the losing one) or filled by one of the loser's own pieces (one
// piece a square) or walls. False means nothing proven either way.
func LockedDead(p *cc.Position, winner cc.Color) bool {
	if p.Turn() != winner && p.InCheck() && !p.HasLegalMove() {
		return false // mated already, perhaps by a pawn, which the squares below leave out
	}
	b, ok := lockBoard(p)
	return ok && !b.mateConceivable(winner)
}

// mateConceivable reports whether w could have the loser's king mated on some square of
// its region, judging each flight square by the pieces that could close it: it is false
// only when no choice of one place for each piece (its reach) gives a check and closes
// every flight square. Pieces are allowed to share squares and lines are blocked only by
// the walls, so that every mate reachable in play is among the choices.
func (b *lockedBoard) mateConceivable(w cc.Color) bool {
	l := w ^ 1
	opts := lockedOptionsPool.Get().(*lockedOptions)
	defer lockedOptionsPool.Put(opts)
	for r := b.kingSafe[l]; r != 0; {
		k := r.PopFirst()
		if b.mateConceivableAt(w, k, opts) {
			return true
		}
	}
	return false
}

// lockedOptionsPool keeps the options' buffers from one decision to the next.
var lockedOptionsPool = sync.Pool{New: func() any { return new(lockedOptions) }}

// lockedOption is what one piece placed on one square does for a mate on a given square:
// the flight squares it closes, and whether it gives the check.
type lockedOption struct {
	closes cc.Bitboard
	checks bool
}

// lockedOptions holds, for each piece of a mate under test, the distinct options it has.
type lockedOptions struct {
	byPiece [][]lockedOption
	bufs    [][]lockedOption         // the options' storage, by piece (the winning king first), reused
	failed  map[lockedState]struct{} // the chooser's memory, kept from square to square
}

// mateConceivableAt is mateConceivable for the loser's king on k.
func (b *lockedBoard) mateConceivableAt(w cc.Color, k cc.Square, o *lockedOptions) bool {
	l := w ^ 1
	flights := cc.KingAttacks(k) &^ b.pawns[l] &^ b.fixed[l] &^ b.pawnAtt[w]
	o.byPiece = o.byPiece[:0]
	anyCheck := false
	for len(o.bufs) <= len(b.pieces) {
		o.bufs = append(o.bufs, nil)
	}
	// The winning king: any square of its region not next to k.
	kingOpts := o.bufs[0][:0]
	for z := b.kingSafe[w] &^ cc.KingAttacks(k) &^ k.Bitboard(); z != 0; {
		kingOpts = lockedAddOption(kingOpts, lockedOption{closes: cc.KingAttacks(z.PopFirst()) & flights})
	}
	o.bufs[0] = kingOpts
	if len(kingOpts) == 0 {
		return false // the winning king can never stand anywhere while l's king is on k
	}
	o.byPiece = append(o.byPiece, kingOpts)
	for i := range b.pieces {
		pc := &b.pieces[i]
		opts := append(o.bufs[i+1][:0], lockedOption{}) // elsewhere, or taken
		if pc.color == l {
			for f := pc.reach & flights; f != 0; {
				opts = append(opts, lockedOption{closes: f.PopFirst().Bitboard()})
			}
		} else {
			for s := pc.reach &^ k.Bitboard(); s != 0; {
				att := lockedAttacks(pc.kind, s.PopFirst(), b.walls)
				op := lockedOption{closes: att & flights, checks: att.Has(k)}
				anyCheck = anyCheck || op.checks
				opts = lockedAddOption(opts, op)
			}
		}
		o.bufs[i+1] = opts
		if slices.ContainsFunc(opts, func(op lockedOption) bool { return op.closes != 0 || op.checks }) {
			o.byPiece = append(o.byPiece, opts) // a piece that can do nothing here is left out
		}
	}
	if !anyCheck {
		return false
	}
	// The pieces with the fewest options first: the choices fail soonest there.
	slices.SortStableFunc(o.byPiece, func(a, c []lockedOption) int { return len(a) - len(c) })
	ch := lockedChooser{byPiece: o.byPiece, failed: o.failed, steps: lockedChooseSteps}
	clear(ch.failed)
	if ch.failed == nil {
		ch.failed = make(map[lockedState]struct{})
		o.failed = ch.failed
	}
	return ch.choose(0, flights, false)
}

// lockedChooseSteps bounds the choices a lockedChooser tries for one square of the
// losing king; past it the mate counts as conceivable (nothing is proven).
const lockedChooseSteps = 1000000

// lockedAddOption adds op to opts unless an option there does at least as much; it
// drops the options op does at least as much as.
func lockedAddOption(opts []lockedOption, op lockedOption) []lockedOption {
	for _, q := range opts {
		if op.closes&^q.closes == 0 && (q.checks || !op.checks) {
			return opts
		}
	}
	kept := opts[:0]
	for _, q := range opts {
		if !(q.closes&^op.closes == 0 && (op.checks || !q.checks)) {
			kept = append(kept, q)
		}
	}
	return append(kept, op)
}

// lockedChooser looks for one option of each piece that closes every flight square and
// gives the check. The answer from a piece on depends only on the squares still to close
// and whether the check is given, so the states that failed are remembered: at most the
// pieces times 2 to the power of 8 flight squares times 2, each tried once.
type lockedChooser struct {
	byPiece [][]lockedOption
	failed  map[lockedState]struct{}
	steps   int
}

// lockedState is a state of lockedChooser: the next piece, the squares still to close,
// whether the check is given.
type lockedState struct {
	piece   int
	need    cc.Bitboard
	checked bool
}

// choose reports whether the pieces from i on can close need and, unless checked, give
// the check. It answers true (the mate is conceivable) when its steps run out.
func (ch *lockedChooser) choose(i int, need cc.Bitboard, checked bool) bool {
	if ch.steps--; ch.steps < 0 {
		return true
	}
	if i == len(ch.byPiece) {
		return need == 0 && checked
	}
	st := lockedState{piece: i, need: need, checked: checked}
	if _, ok := ch.failed[st]; ok {
		return false
	}
	var can cc.Bitboard
	canCheck := checked
	for _, opts := range ch.byPiece[i:] {
		for _, op := range opts {
			can |= op.closes
			canCheck = canCheck || op.checks
		}
	}
	if need&^can == 0 && canCheck {
		for _, op := range ch.byPiece[i] {
			if ch.choose(i+1, need&^op.closes, checked || op.checks) {
				return true
			}
		}
	}
	ch.failed[st] = struct{}{}
	return false
}

// lockedKingFlood returns the squares a king on sq reaches by steps through allowed
// squares (sq itself included).
func lockedKingFlood(sq cc.Square, allowed cc.Bitboard) cc.Bitboard {
	region := sq.Bitboard()
	for {
		next := region | lockedKingSpread(region)&allowed
		if next == region {
			return region
		}
		region = next
	}
}

// lockedKingSpread returns the squares one king step from any square of b.
func lockedKingSpread(b cc.Bitboard) cc.Bitboard {
	var out cc.Bitboard
	for b != 0 {
		out |= cc.KingAttacks(b.PopFirst())
	}
	return out
}

// lockedPieceFlood returns the squares a piece of kind t on sq can reach with walls
// standing for ever (and nothing else in its way), and every square it attacks from
// them.
func lockedPieceFlood(t cc.PieceType, sq cc.Square, walls cc.Bitboard) (reach, attack cc.Bitboard) {
	reach = sq.Bitboard()
	for todo := reach; todo != 0; {
		a := lockedAttacks(t, todo.PopFirst(), walls)
		attack |= a
		if n := a &^ walls &^ reach; n != 0 {
			reach |= n
			todo |= n
		}
	}
	return reach, attack
}

// lockedAttacks returns the squares a knight, bishop, rook or queen on sq attacks with
// occ occupied.
func lockedAttacks(t cc.PieceType, sq cc.Square, occ cc.Bitboard) cc.Bitboard {
	switch t {
	case cc.Knight:
		return cc.KnightAttacks(sq)
	case cc.Bishop:
		return cc.BishopAttacks(sq, occ)
	case cc.Rook:
		return cc.RookAttacks(sq, occ)
	case cc.Queen:
		return cc.QueenAttacks(sq, occ)
	}
	return 0
}
