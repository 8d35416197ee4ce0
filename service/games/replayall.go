// replayall.go: the replay of many stored games at once, on every core (start-up).

package games

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// replayAll replays every record (Replay) on all cores and returns the games and errors
// in the records' order: a start-up with many live games, each replayed move by move.
func replayAll(recs []*storage.Game) ([]*chesscore.Game, []error) {
	games := make([]*chesscore.Game, len(recs))
	errs := make([]error, len(recs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(recs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(recs) {
					return
				}
				games[i], errs[i] = Replay(recs[i])
			}
		}()
	}
	wg.Wait()
	return games, errs
}
