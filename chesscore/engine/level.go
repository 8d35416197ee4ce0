// level.go: playing levels for people: weaker levels search less and choose among the
// best few moves with controlled randomness, so their mistakes look human.

package engine

import (
	"fmt"
	"math"
	"math/rand/v2"

	cc "github.com/gambitchess/gambit/chesscore"
)

// Level is a playing strength. Level 8 is the full engine at the time it is given;
// levels 1 to 7 cap the search and then choose among the best candidate moves:
//
//  1. search with MultiPV candidates, within Depth plies and Nodes nodes (and the time
//     the clock allows);
//  2. add Gaussian noise of Noise centipawns to each candidate's score (a misjudgement);
//  3. drop candidates that lose more than MaxLoss centipawns against the best one (the
//     blunder check: a level never throws away more than that, by its own search);
//  4. draw one candidate with probability proportional to exp(score/Temperature).
//
// The mistakes left are the ones a shallow search makes (a tactic beyond its horizon)
// and small inaccuracies among near-equal moves, which is how people lose too.
type Level struct {
	Number      int    // 1 to 8
	Depth       int    // deepest iteration (0: no cap)
	Nodes       uint64 // node cap per move (0: no cap)
	MultiPV     int    // candidate moves considered
	Noise       int    // standard deviation of the noise added to candidate scores, cp
	Temperature int    // softmax temperature over candidate scores, cp (0: take the best)
	MaxLoss     int    // candidates worse than the best by more than this are never chosen, cp
	// Rating is the level's estimated Elo on the UCI_Elo scale of Stockfish 15.1 with
	// UCI_LimitStrength, fitted to matches at 10 s + 0.1 s against it and between levels
	// (scripts/calibrate.sh; the figures are in docs/calibration and the README).
	Rating int
}

// MinLevel and MaxLevel bound the level numbers.
const (
	MinLevel = 1
	MaxLevel = 8
)

// levels holds the definition of each level, index = number.
var levels = [MaxLevel + 1]Level{
	1: {Number: 1, Depth: 1, Nodes: 10000, MultiPV: 8, Noise: 90, Temperature: 130, MaxLoss: 550, Rating: 660},
	2: {Number: 2, Depth: 2, Nodes: 12000, MultiPV: 8, Noise: 70, Temperature: 100, MaxLoss: 380, Rating: 850},
	3: {Number: 3, Depth: 3, Nodes: 14000, MultiPV: 6, Noise: 55, Temperature: 75, MaxLoss: 260, Rating: 1040},
	4: {Number: 4, Depth: 4, Nodes: 16000, MultiPV: 5, Noise: 40, Temperature: 55, MaxLoss: 180, Rating: 1260},
	5: {Number: 5, Depth: 5, Nodes: 18000, MultiPV: 4, Noise: 35, Temperature: 48, MaxLoss: 150, Rating: 1420},
	6: {Number: 6, Depth: 7, Nodes: 27000, MultiPV: 3, Noise: 22, Temperature: 30, MaxLoss: 90, Rating: 1700},
	7: {Number: 7, Depth: 8, Nodes: 30000, MultiPV: 3, Noise: 18, Temperature: 24, MaxLoss: 80, Rating: 1920},
	8: {Number: 8, Rating: 2070},
}

// LevelByNumber returns level n (1 to 8).
func LevelByNumber(n int) (Level, error) {
	if n < MinLevel || n > MaxLevel {
		return Level{}, fmt.Errorf("level %d: want %d to %d", n, MinLevel, MaxLevel)
	}
	return levels[n], nil
}

// LevelForRating returns the level whose estimated rating is nearest elo.
func LevelForRating(elo int) Level {
	best := levels[MinLevel]
	for _, l := range levels[MinLevel:] {
		if abs(l.Rating-elo) < abs(best.Rating-elo) {
			best = l
		}
	}
	return best
}

// Full reports whether the level is the full-strength engine.
func (l Level) Full() bool { return l.Number >= MaxLevel || l.Number == 0 }

// apply caps lim by the level.
func (l Level) apply(lim Limits) Limits {
	if l.Full() {
		return lim
	}
	if l.Depth > 0 && (lim.Depth == 0 || lim.Depth > l.Depth) {
		lim.Depth = l.Depth
	}
	if l.Nodes > 0 && (lim.Nodes == 0 || lim.Nodes > l.Nodes) {
		lim.Nodes = l.Nodes
	}
	lim.MultiPV = max(lim.MultiPV, l.MultiPV)
	return lim
}

// choose picks a candidate from lines (best first) as the level plays. rng may be nil
// only for the full level.
func (l Level) choose(lines []Line, rng *rand.Rand) Line {
	if len(lines) == 0 {
		return Line{}
	}
	if l.Full() || len(lines) == 1 || rng == nil {
		return lines[0]
	}
	type cand struct {
		line  Line
		score float64
	}
	var cands [64]cand
	n := 0
	best := math.Inf(-1)
	for _, ln := range lines {
		if n == len(cands) {
			break
		}
		s := float64(clampScore(ln.Score))
		if l.Noise > 0 && !ln.Score.IsMate() {
			s += rng.NormFloat64() * float64(l.Noise)
		}
		cands[n] = cand{ln, s}
		best = max(best, s)
		n++
	}
	// The blunder check uses the searched scores, not the noisy ones.
	top := float64(clampScore(lines[0].Score))
	var weights [64]float64
	total := 0.0
	for i := 0; i < n; i++ {
		if top-float64(clampScore(cands[i].line.Score)) > float64(l.MaxLoss) {
			continue
		}
		w := 1.0
		if l.Temperature > 0 {
			w = math.Exp((cands[i].score - best) / float64(l.Temperature))
		} else if cands[i].score < best {
			w = 0
		}
		weights[i] = w
		total += w
	}
	if total == 0 {
		return lines[0]
	}
	x := rng.Float64() * total
	for i := 0; i < n; i++ {
		x -= weights[i]
		if x < 0 && weights[i] > 0 {
			return cands[i].line
		}
	}
	return lines[0]
}

// clampScore maps mate scores to ±2000 so that they weigh like a big material edge.
func clampScore(s Score) Score {
	return max(min(s, 2000), -2000)
}

// Play searches pos as level l plays: the full engine at level 8, a capped search and a
// randomised choice below. rng supplies the randomness (required below level 8; seed it
// to make games reproducible). The Result's Move is the move chosen; Lines are the
// candidates the choice was made from.
func (e *Engine) Play(pos cc.Position, prior []uint64, lim Limits, l Level, rng *rand.Rand) (Result, error) {
	if !l.Full() && rng == nil {
		return Result{}, fmt.Errorf("level %d: needs a random source", l.Number)
	}
	res, err := e.Search(pos, prior, l.apply(lim))
	if err != nil || l.Full() || len(res.Lines) < 2 {
		return res, err
	}
	pick := l.choose(res.Lines, rng)
	if pick.Move != res.Move {
		res.Move, res.Score, res.PV = pick.Move, pick.Score, pick.PV
		res.Ponder = cc.NullMove
		if len(pick.PV) > 1 {
			res.Ponder = pick.PV[1]
		}
	}
	return res, nil
}
