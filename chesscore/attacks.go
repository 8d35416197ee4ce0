// attacks.go: attack tables for every piece: leapers by table, bishops by magic bitboards,
// rooks by rank and file tables.

package chesscore

// Leaper and geometry tables, filled once by initAttacks.
var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard
	// betweenBB[a][b] holds the squares strictly between a and b when they share a
	// rank, file or diagonal, else nothing.
	betweenBB [64][64]Bitboard
	// lineBB[a][b] holds the whole line (edge to edge) through a and b when they share a
	// rank, file or diagonal, else nothing.
	lineBB [64][64]Bitboard
)

// magic is one square's entry of a fancy magic table: the relevant occupancy mask, the
// multiplier, the shift, and where the square's slice starts in the shared attack table.
type magic struct {
	mask   Bitboard
	magic  uint64
	offset uint32
	shift  uint8
}

// bishopTableSize is the size of the shared bishop table: the sum over squares of
// 2^(relevant bits) is 5248; the array is rounded up to a power of two so that an index
// can be masked instead of bounds-checked.
const bishopTableSize = 1 << 13

var (
	bishopMagics [64]magic
	bishopTable  [bishopTableSize]Bitboard
)

// Rooks look up their rank and their file apart, in two tables of 32 KiB each
// (rookRankAttacks, rookFileAttacks: by square and by the occupancy of the six inner
// squares of the line), where a fancy magic table takes 800 KiB: searches that look up
// rook attacks on many different occupancies keep the small tables in the processor's
// caches. The rank's six inner squares are contiguous bits of the occupancy; the file's
// are gathered into the top six bits by one multiplication (kindergarten bitboards).
var (
	rookRankAttacks [64][64]Bitboard
	rookFileAttacks [64][64]Bitboard
)

// innerFileA holds a2 to a7, the squares of file A that can block a rook on it.
const innerFileA Bitboard = 0x0001010101010100

// fileGather multiplies the squares of innerFileA (bits 8k, k = 1..6) into bits 57+k:
// bit 8k is carried by the term 2^(57-7k) alone, and no two of the products' lower bits
// coincide, so nothing carries into the top six.
const fileGather uint64 = 1<<50 | 1<<43 | 1<<36 | 1<<29 | 1<<22 | 1<<15

// RookAttacks returns the squares a rook on sq attacks given the occupied squares.
func RookAttacks(sq Square, occ Bitboard) Bitboard {
	s := uint(sq & 63)
	return rookRankAttacks[s][uint64(occ)>>((s&^7|1)&63)&63] |
		rookFileAttacks[s][uint64(occ>>(s&7)&innerFileA)*fileGather>>58]
}

// BishopAttacks returns the squares a bishop on sq attacks given the occupied squares.
func BishopAttacks(sq Square, occ Bitboard) Bitboard {
	m := &bishopMagics[sq&63]
	return bishopTable[(m.offset+uint32(uint64(occ&m.mask)*m.magic>>m.shift))&(bishopTableSize-1)]
}

// QueenAttacks returns the squares a queen on sq attacks given the occupied squares.
func QueenAttacks(sq Square, occ Bitboard) Bitboard {
	return RookAttacks(sq, occ) | BishopAttacks(sq, occ)
}

// KnightAttacks returns the squares a knight on sq attacks.
func KnightAttacks(sq Square) Bitboard { return knightAttacks[sq&63] }

// KingAttacks returns the squares a king on sq attacks.
func KingAttacks(sq Square) Bitboard { return kingAttacks[sq&63] }

// PawnAttacks returns the squares a pawn of colour c on sq attacks.
func PawnAttacks(c Color, sq Square) Bitboard { return pawnAttacks[c&1][sq&63] }

// PieceAttacks returns the squares a piece of type t and colour c on sq attacks given
// the occupied squares (nothing for NoPieceType).
func PieceAttacks(t PieceType, c Color, sq Square, occ Bitboard) Bitboard {
	c, sq = c&1, sq&63 // masked: no bounds checks
	switch t {
	case Pawn:
		return pawnAttacks[c][sq]
	case Knight:
		return knightAttacks[sq]
	case Bishop:
		return BishopAttacks(sq, occ)
	case Rook:
		return RookAttacks(sq, occ)
	case Queen:
		return QueenAttacks(sq, occ)
	case King:
		return kingAttacks[sq]
	}
	return 0
}

// KnightSpread returns the squares one knight jump from any square of b.
func KnightSpread(b Bitboard) Bitboard {
	l1 := (b &^ FileA) >> 1
	l2 := (b &^ (FileA | FileB)) >> 2
	r1 := (b &^ FileH) << 1
	r2 := (b &^ (FileG | FileH)) << 2
	h1, h2 := l1|r1, l2|r2
	return h1<<16 | h1>>16 | h2<<8 | h2>>8
}

// KingSpread returns the squares one king step from any square of b, and b.
func KingSpread(b Bitboard) Bitboard {
	row := b | b.east() | b.west()
	return row | row.north() | row.south()
}

// PawnSpread returns every square the pawns b of colour c attack.
func PawnSpread(c Color, b Bitboard) Bitboard {
	if c == White {
		return b.north().east() | b.north().west()
	}
	return b.south().east() | b.south().west()
}

// PawnPushes returns the squares one step ahead of the pawns b of colour c, occupied or
// not.
func PawnPushes(c Color, b Bitboard) Bitboard { return pushUp(b, c) }

// Between returns the squares strictly between a and b on a shared line, or nothing.
func Between(a, b Square) Bitboard { return betweenBB[a&63][b&63] }

// Line returns the full board line through a and b, or nothing if they share none.
func Line(a, b Square) Bitboard { return lineBB[a&63][b&63] }

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// slowSliderAttacks walks the rays from sq, stopping at the first occupied square of each.
func slowSliderAttacks(sq Square, occ Bitboard, dirs *[4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := sq.File()+d[0], sq.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			s := MakeSquare(f, r)
			att |= s.Bitboard()
			if occ.Has(s) {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return att
}

// relevantMask is the occupancy mask of a slider: its rays without the board edge they end on.
func relevantMask(sq Square, dirs *[4][2]int) Bitboard {
	var mask Bitboard
	for _, d := range dirs {
		f, r := sq.File()+d[0], sq.Rank()+d[1]
		for {
			nf, nr := f+d[0], r+d[1]
			if f < 0 || f > 7 || r < 0 || r > 7 || nf < 0 || nf > 7 || nr < 0 || nr > 7 {
				break
			}
			mask |= MakeSquare(f, r).Bitboard()
			f, r = nf, nr
		}
	}
	return mask
}

func init() { initAttacks() }

// initAttacks fills every table. It runs once at package initialisation; the bishops' magic
// multipliers come from magics_table.go (written by `go generate`), so no search runs here.
func initAttacks() {
	for sq := A1; sq <= H8; sq++ {
		f, r := sq.File(), sq.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if nf, nr := f+d[0], r+d[1]; nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
				knightAttacks[sq] |= MakeSquare(nf, nr).Bitboard()
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if nf, nr := f+df, r+dr; (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
					kingAttacks[sq] |= MakeSquare(nf, nr).Bitboard()
				}
			}
		}
		b := sq.Bitboard()
		pawnAttacks[White][sq] = b.north().east() | b.north().west()
		pawnAttacks[Black][sq] = b.south().east() | b.south().west()
	}
	fillRookLines()
	fillMagics(&bishopMagics, bishopTable[:], &bishopDirs, &bishopMagicNumbers)
	for a := A1; a <= H8; a++ {
		for _, dirs := range []*[4][2]int{&rookDirs, &bishopDirs} {
			full := slowSliderAttacks(a, 0, dirs)
			for b := A1; b <= H8; b++ {
				if a == b || !full.Has(b) {
					continue
				}
				betweenBB[a][b] = slowSliderAttacks(a, b.Bitboard(), dirs) & slowSliderAttacks(b, a.Bitboard(), dirs)
				lineBB[a][b] = (full & slowSliderAttacks(b, 0, dirs)) | a.Bitboard() | b.Bitboard()
			}
		}
	}
}

// fillRookLines fills rookRankAttacks and rookFileAttacks: for each square and each
// occupancy of the six inner squares of its rank (bit k: the square of file k+1) and of its
// file (bit k: the square of rank k+1), the squares a rook there attacks along that line.
func fillRookLines() {
	for sq := A1; sq <= H8; sq++ {
		f, r := sq.File(), sq.Rank()
		for o := 0; o < 64; o++ {
			var onRank, onFile Bitboard
			for k := 0; k < 6; k++ {
				if o>>k&1 != 0 {
					onRank |= MakeSquare(k+1, r).Bitboard()
					onFile |= MakeSquare(f, k+1).Bitboard()
				}
			}
			rookRankAttacks[sq][o] = slowSliderAttacks(sq, onRank, &rookDirs) & (Rank1 << (8 * r))
			rookFileAttacks[sq][o] = slowSliderAttacks(sq, onFile, &rookDirs) & (FileA << f)
		}
	}
}

// fillMagics lays out one slider's table: for each square, every subset of its mask is
// mapped through the magic multiplier to its attack set.
func fillMagics(ms *[64]magic, table []Bitboard, dirs *[4][2]int, numbers *[64]uint64) {
	offset := uint32(0)
	for sq := A1; sq <= H8; sq++ {
		mask := relevantMask(sq, dirs)
		n := mask.Count()
		ms[sq] = magic{mask: mask, magic: numbers[sq], offset: offset, shift: uint8(64 - n)}
		// Carry-Rippler walk over all subsets of mask.
		sub := Bitboard(0)
		for {
			idx := offset + uint32(uint64(sub)*numbers[sq]>>(64-n))
			table[idx] = slowSliderAttacks(sq, sub, dirs)
			sub = (sub - mask) & mask
			if sub == 0 {
				break
			}
		}
		offset += 1 << n
	}
}
