package votechess

import (
	"fmt"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// TestTallyOrder: most ballots first; a tie goes to the move whose earliest standing
// ballot came first, then to the lower UCI text; SAN comes from the position.
func TestTallyOrder(t *testing.T) {
	pos := chesscore.StartPosition()
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	for _, c := range []struct {
		name    string
		ballots []storage.Ballot
		want    []string // SAN:votes, in order
	}{
		{"none", nil, nil},
		{"most votes", []storage.Ballot{{UserID: "1", Move: "d2d4", At: at(0)}, {UserID: "2", Move: "e2e4", At: at(1)}, {UserID: "3", Move: "e2e4", At: at(2)}},
			[]string{"e4:2", "d4:1"}},
		{"tie: earliest ballot", []storage.Ballot{{UserID: "1", Move: "g1f3", At: at(5)}, {UserID: "2", Move: "a2a3", At: at(3)}},
			[]string{"a3:1", "Nf3:1"}},
		{"tie at one instant: lower UCI", []storage.Ballot{{UserID: "1", Move: "e2e4", At: at(0)}, {UserID: "2", Move: "d2d4", At: at(0)}},
			[]string{"d4:1", "e4:1"}},
		{"a changed ballot counts from its change", []storage.Ballot{{UserID: "1", Move: "c2c4", At: at(9)}, {UserID: "2", Move: "b1c3", At: at(4)}},
			[]string{"Nc3:1", "c4:1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, n := range tallyOf(c.ballots, &pos) {
				got = append(got, fmt.Sprintf("%s:%d", n.SAN, n.Votes))
			}
			if len(got) != len(c.want) {
				t.Fatalf("tally %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("tally %v, want %v", got, c.want)
				}
			}
		})
	}
}
