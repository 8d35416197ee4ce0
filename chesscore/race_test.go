//go:build race

package chesscore

// raceEnabled is true under the race detector, which slows the move generator tenfold; the
// deep perft depths then run in the separate non-race pass of scripts/test.sh.
const raceEnabled = true
