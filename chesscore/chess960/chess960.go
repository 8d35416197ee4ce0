// Package chess960 numbers the 960 start positions of Chess960 by the standard scheme of
// the FIDE Laws' guideline (518 is the standard array) and draws one uniformly.
package chess960

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/gambitchess/gambit/chesscore"
)

// Positions is the number of Chess960 start positions, numbered 0 to 959.
const Positions = 960

// Standard is the number of the standard start position (RNBQKBNR).
const Standard = 518

// knights are the ten placements of the two knights among five empty squares,
// in the order of the numbering scheme.
var knights = [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}

// Start returns start position n (0 to 959) of Chess960, with all four castling
// rights and the variant chesscore.Chess960. The number gives, in turn, the light-square bishop
// (n mod 4, on b, d, f or h), the dark-square bishop (the quotient mod 4, on a, c, e or
// g), the queen (mod 6, among the empty squares), the knights (one of the ten
// placements among the five left); rook, king and rook take the last three squares.
// Black mirrors White.
func Start(n int) (chesscore.Position, error) {
	if n < 0 || n >= Positions {
		return chesscore.Position{}, fmt.Errorf("start position %d does not exist: Chess960 numbers its positions 0 to 959", n)
	}
	var rank [8]chesscore.PieceType
	rank[2*(n%4)+1] = chesscore.Bishop
	n /= 4
	rank[2*(n%4)] = chesscore.Bishop
	n /= 4
	place := func(t chesscore.PieceType, k int) { // on the k-th empty square
		for f := range rank {
			if rank[f] == chesscore.NoPieceType {
				if k == 0 {
					rank[f] = t
					return
				}
				k--
			}
		}
	}
	place(chesscore.Queen, n%6)
	n /= 6
	place(chesscore.Knight, knights[n][1]) // the later one first: the earlier keeps its index
	place(chesscore.Knight, knights[n][0])
	place(chesscore.Rook, 0)
	place(chesscore.King, 0)
	place(chesscore.Rook, 0)
	row := make([]byte, 8)
	for f, t := range rank {
		row[f] = t.Letter()
	}
	black := make([]byte, 8)
	for f := range row {
		black[f] = row[f] + 'a' - 'A'
	}
	p, err := chesscore.ParseFEN(string(black) + "/pppppppp/8/8/8/8/PPPPPPPP/" + string(row) + " w KQkq - 0 1")
	if err != nil {
		return chesscore.Position{}, fmt.Errorf("chess960 position: %w", err)
	}
	if err := p.SetVariant(chesscore.Chess960); err != nil {
		return chesscore.Position{}, fmt.Errorf("chess960 position: %w", err)
	}
	return p, nil
}

// starts maps the FEN of each start position to its number, built on first use.
var starts = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, Positions)
	for n := range Positions {
		p, err := Start(n)
		if err != nil {
			panic("chess960: " + err.Error())
		}
		m[p.FEN()] = n
	}
	return m
})

// Number returns the number of the start position whose FEN is fen (as FEN writes it,
// move counters 0 and 1), and false for any other position.
func Number(fen string) (int, bool) {
	n, ok := starts()[fen]
	return n, ok
}

// Random returns the number of a start position drawn uniformly from the 960 with rng.
func Random(rng *rand.Rand) int { return rng.IntN(Positions) }
