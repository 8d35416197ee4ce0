// game.go: one game of a match, its clocks and its adjudication.

package match

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/uci"
)

// playGame plays one game between the engines (clients[i] is engine i), adjudicated by
// chesscore: the Laws' automatic endings, draws claimed as soon as they may be, flag
// falls, and the score adjudications of the config.
func playGame(ctx context.Context, cfg Config, clients [2]*uci.Client, names [2]string, j job) (pg *chesscore.PGNGame, err error) {
	g := chesscore.NewGame(j.opening.Pos, dead.Decider{})
	playing := chesscore.NullMove // the move being played, for the report of a panic
	defer func() {
		// A panic while adjudicating is a bug in the rules code: stop the match with the
		// game that shows it, rather than with a bare stack trace and no position.
		if r := recover(); r != nil {
			start := j.opening.Pos
			var moves []string
			for _, m := range g.Moves() {
				moves = append(moves, m.UCI())
			}
			pg, err = nil, fmt.Errorf("round %d: game from %q, moves %q, playing %s: panic: %v",
				j.round, start.FEN(), strings.Join(moves, " "), playing.UCI(), r)
		}
	}()
	for _, c := range clients {
		if err := c.NewGame(ctx); err != nil {
			return nil, fmt.Errorf("round %d: new game: %w", j.round, err)
		}
	}
	engineOf := func(c chesscore.Color) int {
		if c == chesscore.White {
			return j.white
		}
		return 1 - j.white
	}
	tc := cfg.TimeControl
	remaining := [2]time.Duration{tc.Base, tc.Base}
	var done [2]int
	var notes []chesscore.PGNMove
	var scores []engine.Score // White's view, one per ply; hasScore tells missing ones
	var hasScore []bool
	for !g.Over() {
		side := g.Turn()
		e := engineOf(side)
		gp := uci.GoParams{MoveTime: cfg.MoveTime, Nodes: cfg.Nodes, Depth: cfg.Depth}
		if tc.Base > 0 {
			gp.WTime, gp.BTime = max(remaining[0], time.Millisecond), max(remaining[1], time.Millisecond)
			gp.WInc, gp.BInc = tc.Inc, tc.Inc
			if tc.Moves > 0 {
				gp.MovesToGo = tc.Moves - done[side]%tc.Moves
			}
		}
		start := time.Now()
		res, err := clients[e].Go(ctx, uci.PositionOf(g), gp)
		used := time.Since(start)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			cfg.Log.Warn("engine failed in a game", "engine", names[e], "round", j.round, "err", err)
			if errors.Is(err, uci.ErrIllegalMove) {
				_ = g.End(chesscore.Outcome{Result: chesscore.WinFor(side.Other()), Termination: chesscore.RulesInfraction})
			} else {
				_ = g.Abandon(side)
			}
			break
		}
		if tc.Base > 0 {
			remaining[side] -= used
			if remaining[side] < -cfg.Margin {
				_ = g.FlagFall(side)
				break
			}
			remaining[side] = max(remaining[side], 0) + tc.Inc
			done[side]++
			if tc.Moves > 0 && done[side]%tc.Moves == 0 {
				remaining[side] += tc.Base
			}
		}
		playing = res.BestMove
		if err := g.Play(res.BestMove); err != nil {
			cfg.Log.Warn("engine move refused", "engine", names[e], "round", j.round, "err", err)
			_ = g.End(chesscore.Outcome{Result: chesscore.WinFor(side.Other()), Termination: chesscore.RulesInfraction})
			break
		}
		note := chesscore.PGNMove{Move: res.BestMove, SAN: g.SAN()[g.Ply()-1]}
		ws := res.Info.Score
		if side == chesscore.Black {
			ws = -ws
		}
		if res.Info.HasScore {
			note.Comment = fmt.Sprintf("%s/%d %.2fs", res.Info.Score.String(), res.Info.Depth, used.Seconds())
		}
		if tc.Base > 0 {
			note.Clock, note.HasClock = remaining[side].Round(10*time.Millisecond), true
		}
		notes = append(notes, note)
		scores = append(scores, ws)
		hasScore = append(hasScore, res.Info.HasScore)
		if g.Over() {
			break
		}
		claimDraw(g)
		if !g.Over() {
			adjudicate(g, cfg.Adjudication, scores, hasScore)
		}
	}
	return gamePGN(g, cfg, names, j, notes), nil
}

// gamePGN is the finished game with its move comments (score/depth and time, clock) and
// the match's tags.
func gamePGN(g *chesscore.Game, cfg Config, names [2]string, j job, notes []chesscore.PGNMove) *chesscore.PGNGame {
	pg := chesscore.NewPGNGame(g)
	for i := range pg.Moves {
		if i < len(notes) {
			pg.Moves[i].Comment, pg.Moves[i].Clock, pg.Moves[i].HasClock = notes[i].Comment, notes[i].Clock, notes[i].HasClock
		}
	}
	pg.Tags["Event"] = "gambit match"
	pg.Tags["Site"] = "local"
	pg.Tags["Date"] = time.Now().Format("2006.01.02")
	pg.Tags["Round"] = strconv.Itoa(j.round)
	pg.Tags["White"] = names[j.white]
	pg.Tags["Black"] = names[1-j.white]
	if j.opening.Name != "" {
		pg.Tags["Opening"] = j.opening.Name
	}
	switch {
	case cfg.TimeControl.Base > 0:
		pg.Tags["TimeControl"] = cfg.TimeControl.String()
	case cfg.MoveTime > 0:
		pg.Tags["TimeControl"] = "1/" + strconv.FormatFloat(cfg.MoveTime.Seconds(), 'f', -1, 64)
	default:
		pg.Tags["TimeControl"] = "-"
	}
	return pg
}

// claimDraw claims a threefold repetition or the fifty moves as soon as the position
// allows, as an arbiter would for engines.
func claimDraw(g *chesscore.Game) {
	for _, c := range g.Claimable() {
		if c.Move == chesscore.NullMove {
			_ = g.ClaimDraw(chesscore.NullMove)
			return
		}
	}
}

// adjudicate ends a game the engines agree is decided (both past ResignScore for
// ResignMoves moves each) or dead level (both within DrawScore for DrawMoves moves each
// after DrawAfter), or one that has gone on for MaxMoves moves. scores are White's view,
// one per ply; has tells the plies whose engine gave a score.
func adjudicate(g *chesscore.Game, a Adjudication, scores []engine.Score, has []bool) {
	n := len(scores)
	if a.MaxMoves > 0 && g.Ply() >= 2*a.MaxMoves {
		_ = g.End(chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Adjudication})
		return
	}
	if k := 2 * a.ResignMoves; a.ResignScore > 0 && k > 0 && n >= k {
		sign := 0
		ok := true
		for i := n - k; i < n && ok; i++ {
			s := int(scores[i])
			switch {
			case !has[i]:
				ok = false
			case s >= a.ResignScore && sign >= 0:
				sign = 1
			case s <= -a.ResignScore && sign <= 0:
				sign = -1
			default:
				ok = false
			}
		}
		if ok && sign != 0 {
			winner := chesscore.White
			if sign < 0 {
				winner = chesscore.Black
			}
			_ = g.End(chesscore.Outcome{Result: chesscore.WinFor(winner), Termination: chesscore.Adjudication})
			return
		}
	}
	if k := 2 * a.DrawMoves; a.DrawScore > 0 && k > 0 && n >= k && g.Ply() >= 2*a.DrawAfter {
		for i := n - k; i < n; i++ {
			if !has[i] || int(scores[i]) > a.DrawScore || int(scores[i]) < -a.DrawScore {
				return
			}
		}
		_ = g.End(chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Adjudication})
	}
}
