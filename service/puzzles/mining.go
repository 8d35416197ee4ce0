// mining.go: mining a guild's finished games for puzzles, in the background.
//
// With several processes on one store, a game is mined by the process that ended it
// (GameOver follows the game's end, which one process writes), and mining is idempotent
// all the same: a puzzle's id comes from the game and the position, and the store adds
// only the ids it does not hold, so a game mined twice stores each puzzle once.

package puzzles

import (
	"context"
	"fmt"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/puzzle/mine"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// MineOptions tune the mining of finished games.
type MineOptions struct {
	// Off turns mining off.
	Off bool
	// ScanNodes and VerifyNodes are the engine's budgets (defaults 3,000 and 40,000: a
	// low budget, so a game takes well under a second of one core).
	ScanNodes, VerifyNodes uint64
	// MinPlies skips shorter games (default 16).
	MinPlies int
	// Queue bounds the games waiting to be mined (default 256); more are dropped.
	Queue int
}

// GameOver queues a finished game to be mined for puzzles in the background (a guild's
// games only; aborted and short games are skipped; when the queue is full the game is
// dropped). The puzzles found are stored with the source game:<guild>:<id> and the
// players in their description, and are only shown in that guild.
func (s *Service) GameOver(g *storage.Game) {
	if s.opts.Mine.Off || g == nil || g.GuildID == "" || g.Live() || g.Ply() < s.opts.Mine.MinPlies ||
		g.Outcome.Termination == cc.Aborted {
		return
	}
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return
	}
	s.mineMu.Lock()
	if s.mineQ == nil {
		s.mineQ = make(chan *storage.Game, s.opts.Mine.Queue)
		s.mineDone = make(chan struct{})
		go s.miner(s.mineQ, s.mineDone)
	}
	q := s.mineQ
	s.mineMu.Unlock()
	select {
	case q <- g.Clone():
	default:
		s.log.Warn("puzzles: mining queue full, game not mined", "game", g.ID, "guild", g.GuildID)
	}
}

// mineTimeout bounds the work on one queued game (the search and the store writes):
// background work gets its own deadline, so a database that does not answer holds the
// miner for a while, not for ever.
const mineTimeout = 2 * time.Minute

// miner mines queued games one at a time with one engine.
func (s *Service) miner(q <-chan *storage.Game, done chan<- struct{}) {
	defer close(done)
	gen := mine.NewGenerator(engine.New(engine.Options{HashMB: 8}), mine.Options{ScanNodes: s.opts.Mine.ScanNodes, VerifyNodes: s.opts.Mine.VerifyNodes})
	for g := range q {
		if s.ctx.Err() != nil {
			continue // closing: drain
		}
		ctx, cancel := context.WithTimeout(s.ctx, mineTimeout)
		n, err := s.mineGame(ctx, gen, g)
		cancel()
		if err != nil {
			s.log.Error("puzzles: mine a finished game", "game", g.ID, "guild", g.GuildID, "err", err)
			continue
		}
		if n > 0 {
			s.log.Info("puzzles: mined a finished game", "game", g.ID, "guild", g.GuildID, "puzzles", n)
		}
	}
}

// MineGame mines one finished game now (on the caller's goroutine) and stores what it
// finds; it returns how many puzzles were added.
func (s *Service) MineGame(ctx context.Context, g *storage.Game) (int, error) {
	gen := mine.NewGenerator(engine.New(engine.Options{HashMB: 8}), mine.Options{ScanNodes: s.opts.Mine.ScanNodes, VerifyNodes: s.opts.Mine.VerifyNodes})
	return s.mineGame(ctx, gen, g)
}

// mineGame replays a stored game, mines it and stores the puzzles found, with the
// game's players and end.
func (s *Service) mineGame(ctx context.Context, gen *mine.Generator, g *storage.Game) (int, error) {
	game, err := games.Replay(g)
	if err != nil {
		return 0, err
	}
	found := gen.FromGame(game, fmt.Sprintf("gm%d-", g.ID), fmt.Sprintf("game:%s:%d", g.GuildID, g.ID))
	if len(found) == 0 {
		return 0, nil
	}
	now := s.clock.Now()
	batch := make([]*storage.Puzzle, 0, len(found))
	for i := range found {
		p := &found[i]
		p.White, p.Black, p.Played, p.Added = g.White.ID, g.Black.ID, g.Ended, now
		batch = append(batch, p)
	}
	return addPuzzles(ctx, s.db, batch)
}
