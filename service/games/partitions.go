// partitions.go: a service's share of the deadlines when several processes divide the
// servers between them (Options.Owns), and the adoption of a share it gains.

package games

import (
	"context"
	"fmt"

	"github.com/gambitchess/gambit/storage"
)

// owns reports whether this service fires the deadlines of game rec.
func (s *Service) owns(rec *storage.Game) bool { return s.opts.Owns == nil || s.opts.Owns(rec.GuildID) }

// Adopt reloads from the store every live game this service now owns (Options.Owns),
// replacing any cached copy, and schedules its deadlines: a flag that fell while no
// process owned the game falls at the next timer pass (Run, or FireDue), once, since the
// write is checked against the stored version. It returns how many games it adopted.
// Call it when the service gains servers (a partition's lease).
func (s *Service) Adopt(ctx context.Context) (int, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return 0, err
	}
	defer done()
	games, err := storage.Read(s.db, storage.Tx.OpenGames)
	if err != nil {
		return 0, fmt.Errorf("adopt games: %w", err)
	}
	n := 0
	for _, rec := range games {
		if !s.inScope(rec) || !s.owns(rec) {
			continue
		}
		unlock := s.lockGame(rec.ID)
		s.forget(rec.ID)
		e, err := s.load(rec.ID)
		if err == nil {
			s.schedule(e)
			n++
		}
		unlock()
		if err != nil {
			s.log.Error("games: adopt", "game", rec.ID, "err", err)
		}
	}
	return n, nil
}
