// recent.go: a player's recent games in one server, for the web's profile page (which
// may not name the store's types: it reaches the games through this service).

package games

import (
	"context"

	"github.com/gambitchess/gambit/storage"
)

// Record is a stored game as the service's lists return it (an alias, so the front
// ends that may not import the store can name it).
type Record = storage.Game

// RecentGames returns up to limit of a user's games in a guild, newest first, reading
// at most scan of the user's games (in every guild) to find them.
func (s *Service) RecentGames(ctx context.Context, guildID, userID string, limit, scan int) ([]*storage.Game, error) {
	recs, err := s.GamesByUser(ctx, userID, storage.Query{Limit: scan})
	if err != nil {
		return nil, err
	}
	out := make([]*storage.Game, 0, min(limit, len(recs)))
	for _, g := range recs {
		if g.GuildID == guildID && len(out) < limit {
			out = append(out, g)
		}
	}
	return out, nil
}
