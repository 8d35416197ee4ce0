// webfanout.go: the web's fan-out between the processes sharing a PostgreSQL store,
// over PostgreSQL's own LISTEN and NOTIFY: each process publishes the number of a game
// its service changed, and every process's web server reloads it for its pages.

package serve

import (
	"context"
	"strconv"

	"github.com/gambitchess/gambit/storage/pg"
)

// webChannel is the channel the games' changes are published on.
const webChannel = "gambit_web_games"

// pgFanout implements web.Fanout on a PostgreSQL store.
type pgFanout struct{ db *pg.DB }

// Publish implements web.Fanout.
func (f pgFanout) Publish(ctx context.Context, gameID uint64) error {
	return f.db.Notify(ctx, webChannel, strconv.FormatUint(gameID, 10))
}

// Listen implements web.Fanout; payloads that are not game numbers are ignored.
func (f pgFanout) Listen(ctx context.Context, changed func(gameID uint64)) error {
	return f.db.Listen(ctx, webChannel, func(payload string) {
		if id, err := strconv.ParseUint(payload, 10, 64); err == nil && id > 0 {
			changed(id)
		}
	})
}
