// eval.go: the static evaluation: tapered material and piece-square tables, pawn
// structure, threats, mobility, king safety and a few endgame rules.

package engine

import (
	"math/bits"

	cc "github.com/gambitchess/gambit/chesscore"
)

// psq[phase][piece][square] is material plus piece-square bonus, signed: positive for
// White's pieces, negative for Black's.
var psq [2][16][64]int32

// Pawn-structure and piece terms, middlegame and endgame, in centipawns.
var (
	passedBonus   = [2][8]int32{{0, 0, 2, 8, 18, 34, 56, 0}, {0, 6, 10, 18, 34, 60, 92, 0}}
	doubledPawn   = [2]int32{-8, -18}
	isolatedPawn  = [2]int32{-9, -11}
	bishopPair    = [2]int32{28, 52}
	rookOpen      = [2]int32{24, 8}
	rookSemiOpen  = [2]int32{11, 5}
	tempo         = int32(12)
	mobilityScale = [2][7]int32{{0, 0, 4, 4, 2, 1, 0}, {0, 0, 4, 4, 4, 2, 0}}
	mobilityMid   = [7]int32{0, 0, 4, 6, 6, 12, 0}
	shieldMissing = int32(-14)
	attackUnits   = [7]int32{0, 0, 2, 2, 3, 5, 0}
	pawnThreat    = [2]int32{40, 25}
	minorThreat   = [2]int32{20, 15} // a knight or bishop attacking a rook or queen
	connectedPawn = [2][8]int32{{0, 3, 5, 8, 14, 24, 40, 0}, {0, 2, 4, 6, 10, 18, 30, 0}}
)

// Geometry masks built once.
var (
	fileMask      [8]cc.Bitboard
	adjacentFiles [8]cc.Bitboard
	passedMask    [2][64]cc.Bitboard // squares in front of a pawn on its own and adjacent files
	frontSpan     [2][64]cc.Bitboard // squares in front of a pawn on its own file
	kingZone      [2][64]cc.Bitboard // king square, neighbours, and two squares forward
	shieldMask    [2][64]cc.Bitboard // the two ranks in front of a king on its own and adjacent files
	kingDanger    [128]int32
	distanceTable [64][64]int32
)

func init() {
	for pt := cc.Pawn; pt <= cc.King; pt++ {
		for sq := 0; sq < 64; sq++ {
			for ph := 0; ph < 2; ph++ {
				v := pieceValue[ph][pt] + pstRaw[ph][pt][sq^56]
				psq[ph][cc.MakePiece(cc.White, pt)][sq] = v
				psq[ph][cc.MakePiece(cc.Black, pt)][sq^56] = -v
			}
		}
	}
	for f := 0; f < 8; f++ {
		fileMask[f] = cc.FileA << f
	}
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjacentFiles[f] |= fileMask[f-1]
		}
		if f < 7 {
			adjacentFiles[f] |= fileMask[f+1]
		}
	}
	for sq := cc.Square(0); sq < 64; sq++ {
		f, r := sq.File(), sq.Rank()
		for r2 := 0; r2 < 8; r2++ {
			ahead := [2]bool{r2 > r, r2 < r}
			for c := 0; c < 2; c++ {
				if !ahead[c] {
					continue
				}
				frontSpan[c][sq] |= cc.MakeSquare(f, r2).Bitboard()
				passedMask[c][sq] |= (fileMask[f] | adjacentFiles[f]) & rankMask(r2)
			}
		}
		for c := 0; c < 2; c++ {
			zone := cc.KingAttacks(sq) | sq.Bitboard()
			if c == 0 {
				zone |= zone << 8
			} else {
				zone |= zone >> 8
			}
			kingZone[c][sq] = zone
			dir := 1
			if c == 1 {
				dir = -1
			}
			for _, dr := range []int{dir, 2 * dir} {
				r2 := r + dr
				if r2 < 0 || r2 > 7 {
					continue
				}
				shieldMask[c][sq] |= (fileMask[f] | adjacentFiles[f]) & rankMask(r2)
			}
		}
		for sq2 := cc.Square(0); sq2 < 64; sq2++ {
			distanceTable[sq][sq2] = int32(max(abs(sq.File()-sq2.File()), abs(sq.Rank()-sq2.Rank())))
		}
	}
	// King danger grows with the square of the attack units, then levels off.
	for i := range kingDanger {
		kingDanger[i] = min(int32(i*i)/5, 520)
	}
}

func rankMask(r int) cc.Bitboard { return cc.Rank1 << (8 * r) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func popcount(b cc.Bitboard) int32 { return int32(bits.OnesCount64(uint64(b))) }

// pawnAttacksOf returns the squares the pawns b of colour c attack.
func pawnAttacksOf(b cc.Bitboard, c cc.Color) cc.Bitboard {
	if c == cc.White {
		return (b&^cc.FileA)<<7 | (b&^cc.FileH)<<9
	}
	return (b&^cc.FileA)>>9 | (b&^cc.FileH)>>7
}

// Evaluate returns the static evaluation of the position in centipawns from the point
// of view of the side to move. It does not look for checkmate or stalemate.
func Evaluate(p *cc.Position) Score { return Score(evaluate(p)) }

// phaseOf returns the game phase, maxPhase in the opening down to 0 in a pawn ending.
func phaseOf(p *cc.Position) int32 {
	ph := popcount(p.TypePieces(cc.Knight))*phaseWeight[cc.Knight] +
		popcount(p.TypePieces(cc.Bishop))*phaseWeight[cc.Bishop] +
		popcount(p.TypePieces(cc.Rook))*phaseWeight[cc.Rook] +
		popcount(p.TypePieces(cc.Queen))*phaseWeight[cc.Queen]
	return min(ph, maxPhase)
}

// evaluate is Evaluate as an int32.
func evaluate(p *cc.Position) int32 {
	var mg, eg int32
	occ := p.Occupied()
	for b := occ; b != 0; {
		sq := b.PopFirst()
		pc := p.PieceAt(sq)
		mg += psq[0][pc][sq]
		eg += psq[1][pc][sq]
	}
	var side [2][2]int32 // [colour][phase]
	pawns := [2]cc.Bitboard{p.Pieces(cc.White, cc.Pawn), p.Pieces(cc.Black, cc.Pawn)}
	pawnAtt := [2]cc.Bitboard{pawnAttacksOf(pawns[0], cc.White), pawnAttacksOf(pawns[1], cc.Black)}
	kings := [2]cc.Square{p.KingSquare(cc.White), p.KingSquare(cc.Black)}
	for c := cc.White; c <= cc.Black; c++ {
		s := &side[c]
		them := c.Other()
		ours := pawns[c]
		// Pawn structure.
		for f := 0; f < 8; f++ {
			n := popcount(ours & fileMask[f])
			if n == 0 {
				continue
			}
			if n > 1 {
				s[0] += doubledPawn[0] * (n - 1)
				s[1] += doubledPawn[1] * (n - 1)
			}
			if ours&adjacentFiles[f] == 0 {
				s[0] += isolatedPawn[0] * n
				s[1] += isolatedPawn[1] * n
			}
		}
		// Connected pawns: defended by a pawn, or side by side with one.
		connected := ours & (pawnAtt[c] | (ours&^cc.FileH)<<1 | (ours&^cc.FileA)>>1)
		for b := ours; b != 0; {
			sq := b.PopFirst()
			r := sq.Rank()
			if c == cc.Black {
				r = 7 - r
			}
			if connected.Has(sq) {
				s[0] += connectedPawn[0][r]
				s[1] += connectedPawn[1][r]
			}
			if pawns[them]&passedMask[c][sq] != 0 || ours&frontSpan[c][sq] != 0 {
				continue
			}
			s[0] += passedBonus[0][r]
			s[1] += passedBonus[1][r]
			if r >= 3 {
				// The kings' race to the square in front of the passer.
				stop := cc.Square(int(sq) + 8)
				if c == cc.Black {
					stop = cc.Square(int(sq) - 8)
				}
				w := int32(r - 2)
				s[1] += w * (5*distanceTable[kings[them]][stop] - 2*distanceTable[kings[c]][stop])
				if !occ.Has(stop) {
					s[1] += 3 * w
				}
			}
		}
		// Threats: pawns attacking pieces; minors attacking rooks and queens.
		theirPieces := p.ColorPieces(them) &^ pawns[them] &^ p.Pieces(them, cc.King)
		if n := popcount(pawnAtt[c] & theirPieces); n > 0 {
			s[0] += pawnThreat[0] * n
			s[1] += pawnThreat[1] * n
		}
		heavy := p.Pieces(them, cc.Rook) | p.Pieces(them, cc.Queen)
		var minorAtt cc.Bitboard
		for b := p.Pieces(c, cc.Knight); b != 0; {
			minorAtt |= cc.KnightAttacks(b.PopFirst())
		}
		for b := p.Pieces(c, cc.Bishop); b != 0; {
			minorAtt |= cc.BishopAttacks(b.PopFirst(), occ)
		}
		if n := popcount(minorAtt & heavy); n > 0 {
			s[0] += minorThreat[0] * n
			s[1] += minorThreat[1] * n
		}
		// Pieces: mobility, attacks on the enemy king zone, rooks on open files.
		safe := ^(p.ColorPieces(c) | pawnAtt[them])
		zone := kingZone[them][kings[them]]
		var units, attackers int32
		for pt := cc.Knight; pt <= cc.Queen; pt++ {
			for b := p.Pieces(c, pt); b != 0; {
				sq := b.PopFirst()
				var att cc.Bitboard
				switch pt {
				case cc.Knight:
					att = cc.KnightAttacks(sq)
				case cc.Bishop:
					att = cc.BishopAttacks(sq, occ)
				case cc.Rook:
					att = cc.RookAttacks(sq, occ)
					f := sq.File()
					if (pawns[0]|pawns[1])&fileMask[f] == 0 {
						s[0] += rookOpen[0]
						s[1] += rookOpen[1]
					} else if ours&fileMask[f] == 0 {
						s[0] += rookSemiOpen[0]
						s[1] += rookSemiOpen[1]
					}
				default:
					att = cc.QueenAttacks(sq, occ)
				}
				mob := popcount(att&safe) - mobilityMid[pt]
				s[0] += mobilityScale[0][pt] * mob
				s[1] += mobilityScale[1][pt] * mob
				if a := att & zone; a != 0 {
					attackers++
					units += attackUnits[pt] * popcount(a)
				}
			}
		}
		if p.Pieces(c, cc.Queen) == 0 {
			units /= 2
		}
		if attackers >= 2 {
			side[them][0] -= kingDanger[min(units, 127)]
		}
		if popcount(p.Pieces(c, cc.Bishop)) >= 2 {
			s[0] += bishopPair[0]
			s[1] += bishopPair[1]
		}
		// Pawn shield in front of a king that has castled or stays on its wing.
		ksq := kings[c]
		homeRank := 0
		if c == cc.Black {
			homeRank = 7
		}
		if ksq.Rank() == homeRank || ksq.Rank() == homeRank+1-2*int(c) {
			if f := ksq.File(); f <= 2 || f >= 5 {
				shield := ours & shieldMask[c][ksq]
				files := int32(0)
				for ff := max(f-1, 0); ff <= min(f+1, 7); ff++ {
					if shield&fileMask[ff] != 0 {
						files++
					}
				}
				s[0] += shieldMissing * (3 - files)
			}
		}
	}
	mg += side[0][0] - side[1][0]
	eg += side[0][1] - side[1][1]
	if p.Turn() == cc.White {
		mg += tempo
	} else {
		mg -= tempo
	}
	phase := phaseOf(p)
	score := (mg*phase + eg*(maxPhase-phase)) / maxPhase
	score = scaleEndgame(p, score)
	if p.Turn() == cc.Black {
		return -score
	}
	return score
}

// nonPawnMaterial returns the middlegame value of c's knights, bishops, rooks and queens.
func nonPawnMaterial(p *cc.Position, c cc.Color) int32 {
	return popcount(p.Pieces(c, cc.Knight))*pieceValue[0][cc.Knight] +
		popcount(p.Pieces(c, cc.Bishop))*pieceValue[0][cc.Bishop] +
		popcount(p.Pieces(c, cc.Rook))*pieceValue[0][cc.Rook] +
		popcount(p.Pieces(c, cc.Queen))*pieceValue[0][cc.Queen]
}

// scaleEndgame applies endgame knowledge to a White-relative score: a side without pawns
// and at most a minor piece more cannot win; drawish material shrinks the score; a lone
// king is driven to the edge.
func scaleEndgame(p *cc.Position, score int32) int32 {
	strong := cc.White
	if score < 0 {
		strong = cc.Black
	}
	weak := strong.Other()
	strongPawns := p.Pieces(strong, cc.Pawn)
	if strongPawns == 0 {
		sm, wm := nonPawnMaterial(p, strong), nonPawnMaterial(p, weak)
		switch {
		case sm < pieceValue[0][cc.Rook]:
			// A lone minor (or nothing) cannot mate.
			return 0
		case sm-wm <= pieceValue[0][cc.Bishop]:
			// KR v KB, KRN v KR and the like: hard to win.
			score /= 4
		}
	}
	// Opposite-coloured bishops with nothing else but pawns.
	wb, bb := p.Pieces(cc.White, cc.Bishop), p.Pieces(cc.Black, cc.Bishop)
	if wb.Count() == 1 && bb.Count() == 1 && nonPawnMaterial(p, cc.White) == pieceValue[0][cc.Bishop] &&
		nonPawnMaterial(p, cc.Black) == pieceValue[0][cc.Bishop] {
		light := cc.Bitboard(0x55AA55AA55AA55AA)
		if (wb&light != 0) != (bb&light != 0) {
			score /= 2
		}
	}
	// Mop-up: drive a bare king to the edge and bring the other king close.
	if p.ColorPieces(weak) == p.Pieces(weak, cc.King) && nonPawnMaterial(p, strong) >= pieceValue[0][cc.Rook] {
		wk, sk := p.KingSquare(weak), p.KingSquare(strong)
		centre := int32(max(3-wk.File(), wk.File()-4) + max(3-wk.Rank(), wk.Rank()-4))
		bonus := 100 + 20*centre + 8*(7-distanceTable[wk][sk])
		if strong == cc.White {
			score += bonus
		} else {
			score -= bonus
		}
	}
	return score
}
