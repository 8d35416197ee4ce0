// analyze.go: the analysis of a finished game, move by move, with a bounded budget and
// a cache (analysisqueue.go says who analyses when).

package engineplay

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/games"
)

// Analysis is a finished game evaluated move by move.
type Analysis struct {
	GameID uint64
	// Engine names the engine that analysed ("Gambit engine", or the external engine's
	// name).
	Engine string
	// PerPosition is the time (or, for a node-bounded analysis, zero) each position got.
	PerPosition time.Duration
	// Notes holds one note per move; scores are from White's point of view.
	Notes []engine.PlyNote
	// Took is how long the analysis took.
	Took time.Duration
}

// Summary is one side's account of a game: how many of its moves fell in each class,
// its mean loss and its accuracy (engine.Accuracy).
type Summary struct {
	// Counts holds the number of moves of each judgement, indexed by engine.Judgement.
	Counts [len(engine.Judgements)]int
	// Moves is the number of moves the side made.
	Moves int
	// AverageLoss is the mean drop in expected points per move, in percent.
	AverageLoss float64
	// Accuracy is engine.Accuracy of the side's moves, in percent (0 without moves).
	Accuracy float64
}

// Count returns the number of moves judged j.
func (s Summary) Count(j engine.Judgement) int { return s.Counts[j] }

// Summary returns side c's account of the game.
func (a *Analysis) Summary(c chesscore.Color) Summary {
	var s Summary
	for _, note := range a.Notes {
		if note.Color != c {
			continue
		}
		s.Moves++
		s.AverageLoss += note.Drop
		s.Counts[note.Judgement]++
	}
	if s.Moves > 0 {
		s.AverageLoss = 100 * s.AverageLoss / float64(s.Moves)
	}
	s.Accuracy, _ = engine.Accuracy(a.Notes, c)
	return s
}

// Analyze returns the analysis of a finished game: ErrNotFinished while it is being
// played, ErrNoMoves for a game without moves. A game analysed before comes from the
// cache at once; any other analysis queues in its server's line (see analyses) and
// is refused with ErrAnalysisPending while the person's previous one is queued or
// running, and with a *CooldownError within Options.AnalysisCooldown of its end. An
// analysis still queued when ctx ends is withdrawn; a running one stops.
func (s *Service) Analyze(ctx context.Context, r AnalysisRequest) (*Analysis, error) {
	g := r.Game
	if g.Live() {
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrNotFinished)
	}
	if len(g.Moves) == 0 {
		return nil, fmt.Errorf("game %d: %w", g.ID, ErrNoMoves)
	}
	if a, ok := s.cache.get(g.ID); ok {
		return a, nil
	}
	j, err := s.analyses.submit(ctx, r)
	if err != nil {
		return nil, err
	}
	select {
	case <-j.done:
		return j.res, j.err
	case <-ctx.Done():
		if s.analyses.withdraw(j) {
			return nil, fmt.Errorf("analyse game %d: gave up in the queue: %w", g.ID, ctx.Err())
		}
		<-j.done // running on ctx: it stops promptly
		return j.res, j.err
	}
}

// analyse runs the analysis of g on an; ran is false when it came from the cache (an
// analysis of the same game that ran meanwhile).
func (s *Service) analyse(ctx context.Context, an *analyser, g *games.Game) (_ *Analysis, ran bool, _ error) {
	if a, ok := s.cache.get(g.ID); ok {
		return a, false, nil
	}
	started := time.Now()
	chess := g.Chess()
	positions := len(g.Moves) + 1
	per := min(s.opts.AnalysisTime, s.opts.AnalysisBudget/time.Duration(positions))
	per = max(per, 20*time.Millisecond)
	var a *Analysis
	if an.ext != nil {
		notes, err := s.annotateExternal(ctx, an.ext, chess, per)
		if err == nil {
			a = &Analysis{GameID: g.ID, Engine: an.ext.name(), PerPosition: per, Notes: notes}
		} else if ctx.Err() != nil {
			return nil, true, err
		} else {
			s.log.Warn("external engine failed to analyse: the built-in engine analyses", "game", g.ID, "err", err)
		}
	}
	if a == nil {
		lim := engine.Limits{MoveTime: per, Now: time.Now, Done: ctx.Done()}
		if s.opts.AnalysisNodes > 0 {
			lim = engine.Limits{Nodes: s.opts.AnalysisNodes, Done: ctx.Done()}
			per = 0
		}
		if an.builtin == nil {
			an.builtin = engine.New(engine.Options{HashMB: s.opts.HashMB})
		}
		notes, err := an.builtin.Annotate(chess, lim)
		if err != nil {
			return nil, true, fmt.Errorf("analyse game %d: %w", g.ID, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, true, err // cut short: the scores of the last positions are not worth keeping
		}
		a = &Analysis{GameID: g.ID, Engine: "Gambit engine", PerPosition: per, Notes: notes}
	}
	a.Took = time.Since(started)
	s.cache.put(g.ID, a)
	s.log.Info("game analysed", "game", g.ID, "engine", a.Engine, "positions", positions, "took", a.Took)
	return a, true, nil
}

// annotateExternal evaluates every position with the external engine and classifies the
// moves as engine.Annotate does.
func (s *Service) annotateExternal(ctx context.Context, x *external, g *chesscore.Game, per time.Duration) ([]engine.PlyNote, error) {
	moves := g.Moves()
	start := g.Start()
	walk := chesscore.NewGame(start, dead.Decider{})
	scores := make([]engine.Score, len(moves)+1) // White's view
	best := make([]chesscore.Move, len(moves)+1)
	for i := 0; i <= len(moves); i++ {
		pos := walk.Position()
		var sc engine.Score
		switch {
		case i == len(moves) && g.Over() && g.Outcome().Termination == chesscore.Checkmate:
			sc = -engine.MateScore
		case i == len(moves) && g.Over() && g.Outcome().Result == chesscore.Draw:
			sc = 0
		default:
			lines, err := x.analyse(ctx, walk, per)
			if err != nil {
				return nil, fmt.Errorf("ply %d: %w", i, err)
			}
			sc, best[i] = lines[0].Score, lines[0].Move
		}
		if pos.Turn() == chesscore.Black {
			sc = -sc
		}
		scores[i] = sc
		if i < len(moves) {
			if err := walk.Play(moves[i]); err != nil {
				return nil, fmt.Errorf("replay ply %d: %w", i+1, err)
			}
		}
	}
	return Classify(g, scores, best), nil
}

// Classify turns the evaluations of a game's positions (White's view, one more than the
// moves) and the best moves into notes, judged as engine.Annotate judges (engine.Judge).
func Classify(g *chesscore.Game, scores []engine.Score, best []chesscore.Move) []engine.PlyNote {
	moves := g.Moves()
	san := g.SAN()
	notes := make([]engine.PlyNote, len(moves))
	pos := g.Start()
	for i, m := range moves {
		c := pos.Turn()
		n := engine.PlyNote{Ply: i, Color: c, Move: m, SAN: san[i], Before: scores[i], After: scores[i+1], Best: best[i]}
		if best[i] != chesscore.NullMove {
			n.BestSAN = pos.SAN(best[i])
		}
		n.Drop, n.Judgement = engine.Judge(c, scores[i], scores[i+1], m == best[i])
		notes[i] = n
		pos = pos.Play(m)
	}
	return notes
}

// analysisCache keeps the latest analyses, by game.
type analysisCache struct {
	mu    sync.Mutex
	max   int
	order []uint64
	byID  map[uint64]*Analysis
}

func newAnalysisCache(n int) *analysisCache {
	return &analysisCache{max: n, byID: map[uint64]*Analysis{}}
}

func (c *analysisCache) get(id uint64) (*Analysis, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.byID[id]
	return a, ok
}

func (c *analysisCache) put(id uint64, a *Analysis) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byID[id]; !ok {
		c.order = append(c.order, id)
	}
	c.byID[id] = a
	for len(c.order) > c.max {
		delete(c.byID, c.order[0])
		c.order = c.order[1:]
	}
}
