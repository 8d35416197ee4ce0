// The flag that falls within a minute of the opponent's move: announced like any other.
package serve

import (
	"strings"
	"testing"
	"time"
)

// TestStoryFlagSoonAfterMove: in a 30-second game, White's flag falls 31 s after
// Black's /move, well within the minute the answer's reservations in the post ledger
// would live: the move's answer showed the turn, not the end, so the flag is posted.
func TestStoryFlagSoonAfterMove(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	g := w.startGame("30s+0")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	w.clock.Advance(31 * time.Second)
	if n := r.bot.Games.FireDue(); n == 0 {
		t.Fatal("no timer was due after White's 30 seconds")
	}
	w.waitFor("the flag-fall message", func() bool {
		for _, m := range w.messagesWith(g.thread, "gambit-game-1.pgn") {
			return strings.Contains(m.Content, "flag fell")
		}
		return false
	})
}
