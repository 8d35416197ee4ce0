package mine

import (
	"strings"
	"testing"

	"github.com/gambitchess/gambit/puzzle"
)

// threeGames: a game with a mate in one, a game with an illegal move, and the
// Blackburne Shilling trap.
const threeGames = `[White "alice"]
[Black "bob"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[White "carol"]
[Black "dave"]

1. e4 e5 2. Ke3 Nc6 0-1

[White "erin"]
[Black "frank"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1
`

func TestPGNMinesEveryGameInOrder(t *testing.T) {
	// The service's low mining budgets: the mates here need no more.
	opt := Options{ScanNodes: 3000, VerifyNodes: 40000}
	for _, workers := range []int{1, 3} {
		var got []puzzle.Puzzle
		st, err := PGN(strings.NewReader(threeGames), workers, opt, 16, func(p puzzle.Puzzle) error {
			got = append(got, p)
			return nil
		})
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		if st.Games != 2 || st.Errors != 1 || st.Generated != len(got) || len(got) < 2 {
			t.Fatalf("%d workers: %+v, %d puzzles", workers, st, len(got))
		}
		if got[0].Source != "pgn:alice vs bob" || strings.Join(got[0].Moves, " ") != "g8f6 h5f7" {
			t.Errorf("%d workers: first puzzle %+v", workers, got[0])
		}
		for _, p := range got[1:] {
			if p.Source != "pgn:erin vs frank" {
				t.Errorf("%d workers: puzzle out of order or mislabelled: %+v", workers, p)
			}
		}
	}
}
