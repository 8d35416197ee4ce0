// partitions.go: the service's share of the games against the engine when several
// processes divide the guilds between them (Options.Owns), and the adoption of a share
// it gains.

package engineplay

import (
	"context"
	"fmt"

	"github.com/gambitchess/gambit/storage"
)

// owns reports whether the service takes up the games of guild at start-up and on
// Adopt (Options.Owns).
func (s *Service) owns(guild string) bool { return s.opts.Owns == nil || s.opts.Owns(guild) }

// Adopt reads from the store the live games against the engine of the guilds the
// service owns (Options.Owns), including those started in other processes, and queues
// them: a game whose engine was to move while no process owned its guild gets its move.
// The move is played once even if another process plays the same turn (the request id
// names the position). It returns how many games it queued. Call it when the service
// gains guilds (a partition's lease).
func (s *Service) Adopt(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	live, err := storage.Read(ctx, s.db, func(tx storage.Tx) ([]engineGame, error) {
		recs, err := tx.LiveEngineGames()
		if err != nil {
			return nil, err
		}
		var out []engineGame
		for _, e := range recs {
			g, err := tx.Game(e.GameID)
			if err != nil {
				return nil, fmt.Errorf("game %d: %w", e.GameID, err)
			}
			if g.Live() && s.owns(g.GuildID) {
				out = append(out, engineGame{EngineGame: e, guild: g.GuildID, human: g.Player(e.Color.Other()).ID})
			}
		}
		return out, nil
	})
	if err != nil {
		return 0, fmt.Errorf("adopt the games against the engine: %w", err)
	}
	s.mu.Lock()
	for _, e := range live {
		if _, ok := s.known[e.GameID]; !ok {
			s.known[e.GameID] = e
		}
	}
	s.mu.Unlock()
	for _, e := range live {
		s.enqueue(e.GameID, false)
	}
	return len(live), nil
}
