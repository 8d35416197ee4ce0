// partitions.go: a service's share of the deadlines when several processes divide the
// servers between them (Options.Owns), and the adoption of a share it gains.

package games

import (
	"context"
	"fmt"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
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
	games, err := storage.Read(ctx, s.db, storage.Tx.OpenGames)
	if err != nil {
		return 0, fmt.Errorf("adopt games: %w", err)
	}
	n := 0
	for _, rec := range games {
		if !s.inScope(rec) || !s.owns(rec) {
			continue
		}
		if s.reload(ctx, rec.ID, "adopt") {
			n++
		}
	}
	if err := s.adoptVacations(ctx); err != nil {
		return n, err
	}
	return n, nil
}

// discoverEvery is how often a service that owns part of the servers (Options.Owns)
// looks in the store for the work of its servers that another process wrote: a game
// started or moved there fires its deadlines in that process (it wrote them), and here
// too once seen; should that process stop first, the deadline falls here at most this
// late.
const discoverEvery = 30 * time.Second

// discover loads and schedules every owned live game whose stored version this service
// does not hold, and schedules every owned pending challenge. It returns how many games
// it took up.
func (s *Service) discover(ctx context.Context) (int, error) {
	games, err := storage.Read(ctx, s.db, storage.Tx.OpenGames)
	if err != nil {
		return 0, fmt.Errorf("discover games: %w", err)
	}
	n := 0
	for _, rec := range games {
		if !s.inScope(rec) || !s.owns(rec) {
			continue
		}
		if e := s.cached(rec.ID); e != nil && e.rec.Version == rec.Version {
			continue // known as stored: its timers are set
		}
		if c := rec.Clock; c != nil && c.State == clock.Running {
			if at, ok := s.sched.Deadline(timers.Key{Kind: kindFlag, ID: rec.ID}); ok && at.Equal(c.FlagAt()) {
				continue // out of the cache, but its flag is set where the store has it
			}
		}
		if s.reload(ctx, rec.ID, "discover") {
			n++
		}
	}
	pending, err := storage.Read(ctx, s.db, storage.Tx.PendingChallenges)
	if err != nil {
		return n, fmt.Errorf("discover challenges: %w", err)
	}
	for _, c := range pending {
		if s.opts.Owns(c.GuildID) {
			s.scheduleChallenge(c)
		}
	}
	open, err := storage.Read(ctx, s.db, storage.Tx.OpenVacations)
	if err != nil {
		return n, fmt.Errorf("discover vacations: %w", err)
	}
	for _, v := range open { // a vacation another process started ends here
		if s.opts.Owns(v.GuildID) {
			s.sched.Set(s.vacationKey(v.GuildID, v.UserID), v.Until)
		}
	}
	return n, nil
}

// reload replaces the cached copy of game id with the stored one and schedules its
// deadlines; it reports whether it could, logging why not under what.
func (s *Service) reload(ctx context.Context, id uint64, what string) bool {
	unlock := s.lockGame(id)
	defer unlock()
	s.forget(id)
	e, err := s.load(ctx, id)
	if err != nil {
		s.log.Error("games: "+what, "game", id, "err", err)
		return false
	}
	s.schedule(e)
	return true
}
