// zobrist.go: the Zobrist keys behind Position.Hash.

package chesscore

// Zobrist keys, drawn once from a fixed-seed generator so hashes are the same in every run.
var (
	zobristPiece    [16][64]uint64 // by Piece, then square
	zobristCastling [16]uint64     // by the whole CastlingRights set
	zobristEPFile   [8]uint64      // by the file of a legal en passant capture
	zobristBlack    uint64         // present when Black is to move
)

func init() {
	s := uint64(0x2545F4914F6CDD1D)
	next := func() uint64 { // splitmix64
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for p := range zobristPiece {
		for sq := range zobristPiece[p] {
			zobristPiece[p][sq] = next()
		}
	}
	for i := range zobristCastling {
		zobristCastling[i] = next()
	}
	for i := range zobristEPFile {
		zobristEPFile[i] = next()
	}
	zobristBlack = next()
}
