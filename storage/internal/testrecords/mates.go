package testrecords

import (
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// Knowing is sampleGames(t)[1] (three moves played, live) with mate knowledge: White's
// line (any moves: the record does not replay it) and Black proven unable.
func Knowing(t testing.TB) *storage.Game {
	g := SampleGames(t)[1]
	g.Mates = chesscore.MateKnowledge{Ply: len(g.Moves), Verdict: [2]chesscore.Verdict{chesscore.Yes, chesscore.No},
		Line: [2][]chesscore.Move{{chesscore.NewMove(chesscore.D1, chesscore.H5), chesscore.NewMove(chesscore.B8, chesscore.C6), chesscore.NewMove(chesscore.H5, chesscore.F7)}}}
	return g
}
