package chesscore

import "testing"

// replaysToPosition accepts the moves of every real game, and every prefix of them, with
// the position they reach, and refuses another position (one ply on) and a line with a
// move made twice (illegal once made).
func TestReplaysToPosition(t *testing.T) {
	games := loadRealGameMoves(t)
	checked := 0
	for _, g := range games {
		q := g.start
		for i, m := range g.moves {
			next := q.Play(m)
			if !replaysToPosition(&g.start, g.moves[:i+1], &next) {
				t.Fatalf("%s: the first %d moves do not replay to %s", g.start.FEN(), i+1, next.FEN())
			}
			if replaysToPosition(&g.start, g.moves[:i], &next) {
				t.Fatalf("%s: the first %d moves replay to the position one ply on, %s", g.start.FEN(), i, next.FEN())
			}
			twice := append(append([]Move(nil), g.moves[:i+1]...), m)
			if replaysToPosition(&g.start, twice, &next) {
				t.Fatalf("%s: %v made twice replays", g.start.FEN(), m)
			}
			q = next
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d prefixes checked", checked)
	}
}
