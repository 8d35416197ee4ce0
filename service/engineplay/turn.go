// turn.go: what the engine does when a game needs it: answer a takeback request,
// answer a draw offer, think and move.

package engineplay

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// turn handles game id once: it is called by a worker with the worker's built-in
// engine; since is when the game was queued (after the person's move). When the
// engine has a move to play, turn returns reply, which waits until Options.ReplyDelay
// after since and plays it: the worker runs it after handing its engine back, so the
// delay holds up no other game.
func (s *Service) turn(ctx context.Context, id uint64, since time.Time, eng *engine.Engine) (reply func()) {
	svc := s.svc.Load()
	rec, ok := s.EngineGame(ctx, id)
	if !ok {
		return nil
	}
	g, err := svc.Game(ctx, id)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("load a game against the engine", "game", id, "err", err)
		}
		return nil
	}
	if !g.Live() {
		s.finished(id)
		return nil
	}
	me := rec.Color
	human := me.Other()
	act := games.Action{GameID: id, UserID: g.Player(me).ID, Expect: games.AtPly(g.Ply())}
	if t := g.Takeback; t.Pending && t.By == human {
		// Granted at once (see the package documentation).
		if _, err := svc.AcceptTakeback(ctx, act); err != nil && !benign(err) && ctx.Err() == nil {
			s.log.Error("engine: accept a takeback", "game", id, "err", err)
		}
		return nil
	}
	if g.Turn() != me {
		return nil
	}
	// answerDraw answers the person's draw offer; true when the game ended in a draw.
	answered := false
	answerDraw := func(g *games.Game) bool {
		if o := g.DrawOffer; !o.Pending || o.By != human || answered {
			return false
		}
		answered = true
		accept, score := s.judgeDraw(ctx, g, rec, eng)
		s.log.Info("engine: draw offer", "game", id, "ply", g.Ply(), "eval", score.String(), "accept", accept)
		call := svc.DeclineDraw
		if accept {
			call = svc.AcceptDraw
		}
		if _, err := call(ctx, act); err != nil {
			if !benign(err) && ctx.Err() == nil {
				s.log.Error("engine: answer a draw offer", "game", id, "accept", accept, "err", err)
			}
			return false
		}
		return accept
	}
	if answerDraw(g) {
		return nil
	}
	started := time.Now()
	tl := s.timeLeft(g, me)
	thinkCtx, stop := context.WithCancel(ctx)
	preemptible, yielded := s.thinking(id, stop)
	if yielded {
		stop()
		return nil // queued again (preemptFor)
	}
	m, err := s.think(thinkCtx, g, rec, tl, eng)
	preempted := preemptible && s.thought(id)
	stop()
	if preempted && ctx.Err() == nil {
		// The search stopped early (its move, if any, is not the level's): think
		// again when the game's turn comes back (preemptFor queued it).
		s.log.Debug("engine: thought preempted for another server's game", "game", id, "ply", g.Ply(), "after", time.Since(started))
		return nil
	}
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("engine: no move", "game", id, "ply", g.Ply(), "err", err)
		}
		return nil
	}
	// The person may have offered a draw (or asked for a takeback) meanwhile.
	if ng, err := svc.Game(ctx, id); err == nil && ng.Ply() == g.Ply() {
		g = ng
	}
	if t := g.Takeback; t.Pending && t.By == human {
		s.enqueue(id, false)
		return nil
	}
	if answerDraw(g) {
		return nil
	}
	return func() { s.play(ctx, g, act, m, since, started, tl) }
}

// play plays the engine's move m in g once Options.ReplyDelay has passed since the
// game was queued; started is when the thought began.
func (s *Service) play(ctx context.Context, g *games.Game, act games.Action, m chesscore.Move, since, started time.Time, tl *engine.TimeLeft) {
	if !s.wait(ctx, since, tl) {
		return
	}
	svc, id := s.svc.Load(), g.ID
	req := games.MoveRequest{Action: act, Move: m.UCI()}
	req.RequestID = moveRequestID(g)
	res, err := svc.Move(ctx, req)
	if err == nil && res.Replayed {
		// The id was used by the same position earlier in the game (before a takeback).
		if cur, gerr := svc.Game(ctx, id); gerr == nil && cur.Ply() == g.Ply() && cur.Live() {
			req.RequestID = fmt.Sprintf("%s/%d", req.RequestID, time.Now().UnixNano())
			res, err = svc.Move(ctx, req)
		}
	}
	switch {
	case err == nil:
		s.log.Debug("engine moved", "game", id, "move", res.SAN, "ply", res.Ply, "queued", started.Sub(since), "took", time.Since(started))
	case benign(err), ctx.Err() != nil:
	default:
		s.log.Error("engine: play its move", "game", id, "move", m.UCI(), "err", err)
	}
}

// benign reports the refusals that mean the engine's request came too late: the game
// moved on or ended meanwhile.
func benign(err error) bool {
	return errors.Is(err, games.ErrStale) || errors.Is(err, games.ErrNotYourTurn) || errors.Is(err, games.ErrGameOver) ||
		errors.Is(err, games.ErrNoTakeback) || errors.Is(err, games.ErrNoDrawOffer) || errors.Is(err, games.ErrClosed)
}

// moveRequestID names the engine's move in a position: the game, the ply and a hash of
// the moves, so the same request is never played twice.
func moveRequestID(g *games.Game) string {
	h := fnv.New64a()
	for _, m := range g.Moves {
		fmt.Fprint(h, m.UCI(), " ")
	}
	return fmt.Sprintf("engine/%d/%d/%016x", g.ID, g.Ply(), h.Sum64())
}

// wait holds the reply until Options.ReplyDelay after since (at most a hundredth of
// the time left); false if ctx ended.
func (s *Service) wait(ctx context.Context, since time.Time, tl *engine.TimeLeft) bool {
	d := s.opts.ReplyDelay
	if d <= 0 {
		return ctx.Err() == nil
	}
	if tl != nil && !tl.Correspondence {
		d = min(d, tl.Remaining/100)
	}
	left := d - time.Since(since)
	if left <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(left)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// gameRand is the randomness of the engine's level in one game and ply: seeded from
// the service's source, so games differ.
func (s *Service) gameRand() *rand.Rand {
	return rand.New(rand.NewPCG(s.rand64(), s.rand64()))
}

// think chooses the engine's move: the external engine at its level, else the built-in
// one at the game's level (level 8 when the external engine failed).
func (s *Service) think(ctx context.Context, g *games.Game, rec storage.EngineGame, tl *engine.TimeLeft, eng *engine.Engine) (chesscore.Move, error) {
	chess := g.Chess()
	level := rec.Level
	if rec.Engine == storage.EngineExternal {
		if s.ext != nil {
			m, err := s.ext.bestMove(ctx, chess, tl)
			if err == nil {
				return m, nil
			}
			if ctx.Err() != nil {
				return chesscore.NullMove, err
			}
			s.log.Warn("external engine failed: the built-in engine moves instead", "game", g.ID, "err", err)
		} else {
			s.log.Warn("no external engine configured: the built-in engine plays its level", "game", g.ID)
		}
		level = engine.MaxLevel
		if tl != nil {
			tl = s.timeLeft(g, rec.Color) // the failure took time
		}
	}
	lv, err := engine.LevelByNumber(min(level, engine.MaxLevel))
	if err != nil {
		return chesscore.NullMove, err
	}
	bot := &engine.Bot{Engine: eng, Level: lv, Rand: s.gameRand(), Now: time.Now, MaxThink: s.opts.MaxThink, Untimed: s.opts.Untimed}
	return bot.BestMove(ctx, chess, tl)
}

// judgeDraw decides a draw offer by the engine's evaluation of the position for itself.
func (s *Service) judgeDraw(ctx context.Context, g *games.Game, rec storage.EngineGame, eng *engine.Engine) (bool, engine.Score) {
	score, err := s.evaluate(ctx, g, rec, eng)
	if err != nil {
		s.log.Warn("engine: evaluate a draw offer (declined)", "game", g.ID, "err", err)
		return false, 0
	}
	moveNo := g.Position.FullmoveNumber()
	return AcceptsDraw(score, moveNo), score
}

// AcceptsDraw is the draw policy: score is the engine's evaluation for itself, moveNo
// the number of the move about to be played.
func AcceptsDraw(score engine.Score, moveNo int) bool {
	if score < DrawAcceptBelow {
		return true
	}
	return moveNo >= DrawLevelAfterMove && score >= -DrawLevelWithin && score <= DrawLevelWithin
}

// evaluate scores the position for the side to move (the engine): with the external
// engine when it plays the game, else the built-in one at full strength.
func (s *Service) evaluate(ctx context.Context, g *games.Game, rec storage.EngineGame, eng *engine.Engine) (engine.Score, error) {
	chess := g.Chess()
	if rec.Engine == storage.EngineExternal && s.ext != nil {
		if sc, err := s.ext.evaluate(ctx, chess, 300*time.Millisecond); err == nil {
			return sc, nil
		}
	}
	keys := chess.Keys()
	res, err := eng.Search(chess.Position(), keys[:len(keys)-1], engine.Limits{Nodes: drawNodes, Done: ctx.Done()})
	if err != nil {
		return 0, err
	}
	return res.Score, nil
}
