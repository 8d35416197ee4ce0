// away.go: who of a game's players is on vacation, for the page's clocks, as the boards
// in Discord say it.

package web

import (
	"context"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

// awayTimeout bounds the store reads behind a broadcast's vacation marks: a slow store
// delays the state, it does not hold it.
const awayTimeout = 5 * time.Second

// markAway sets on st when the vacations of g's players end, for a live correspondence
// game a vacation pauses; a failed read leaves the marks out (the clocks still show the
// paused turn as not running).
func (s *Server) markAway(ctx context.Context, g *games.Game, st *stateMsg) {
	if st.Clock == nil || !st.Clock.Days || !g.Live() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, awayTimeout)
	defer cancel()
	vs, err := s.opts.Games.VacationsOf(ctx, &g.Game)
	if err != nil {
		s.log.Warn("web: the vacations of a game's players", "game", g.ID, "err", err)
		return
	}
	if t := vs[chesscore.White]; !t.IsZero() {
		st.Clock.AwayWhite = t.UnixMilli()
	}
	if t := vs[chesscore.Black]; !t.IsZero() {
		st.Clock.AwayBlack = t.UnixMilli()
	}
}
