// result.go: a match's score, its Elo estimate and the report printed at the end.

package match

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
)

// Result is the score of a match from the first engine's point of view. Its JSON form
// (field names as they are) is what `gambit match --json` writes.
type Result struct {
	// Engine1 and Engine2 are the engines' names.
	Engine1, Engine2 string
	// Games counts the games played; Wins, Draws and Losses are engine 1's.
	Games               int
	Wins, Draws, Losses int
	// Score is engine 1's points; Percent the same as a share of the games.
	Score   float64
	Percent float64
	// Elo is engine 1's Elo difference, EloError the half-width of its 95% interval,
	// LOS the likelihood of superiority in percent (see EloStats).
	Elo, EloError, LOS float64
	// EloBound, for a score of 0 or 100% (whose difference has no finite estimate), is
	// the 95% one-sided bound instead (see EloBound): a lower bound when every game
	// was won, an upper bound when every game was lost. Its sign does not say which:
	// the lower bound of a sweep of four games or fewer is negative.
	EloBound float64 `json:",omitempty"`
	// Terminations counts the games by how they ended.
	Terminations map[string]int
	// WhiteWins and BlackWins count the decisive games by the winner's colour.
	WhiteWins, BlackWins int
	// Pentanomial counts the finished game pairs by engine 1's points in the pair.
	Pentanomial Pentanomial
	// SPRT is the sequential test's outcome when the match ran one.
	SPRT *SPRTResult `json:",omitempty"`
}

// add counts a finished game in which engine white had White and returns engine 1's
// points in it.
func (r *Result) add(g *chesscore.Game, white int) float64 {
	o := g.Outcome()
	r.Games++
	r.Terminations[o.Termination.String()]++
	var score1 float64
	switch o.Result {
	case chesscore.WhiteWins:
		r.WhiteWins++
		score1 = 1 - float64(white)
	case chesscore.BlackWins:
		r.BlackWins++
		score1 = float64(white)
	case chesscore.Draw:
		score1 = 0.5
	}
	switch score1 {
	case 1:
		r.Wins++
	case 0:
		r.Losses++
	default:
		r.Draws++
	}
	r.Score += score1
	return score1
}

// finish computes the percentage, the Elo difference with its 95% error bar, the bound
// of a clean sweep, the likelihood of superiority and, when test is not nil, the SPRT's
// standing.
func (r *Result) finish(test *SPRT) {
	if test != nil {
		sr := SPRTResult{SPRT: *test}
		sr.LLR, sr.Verdict = test.Judge(r.Pentanomial)
		sr.Lower, sr.Upper = test.Bounds()
		r.SPRT = &sr
	}
	r.Elo, r.EloError, r.LOS = EloStats(r.Wins, r.Draws, r.Losses)
	r.EloBound = EloBound(r.Wins, r.Draws, r.Losses)
	if r.Games > 0 {
		r.Percent = 100 * r.Score / float64(r.Games)
	}
}

// EloStats returns the Elo difference of a score of w wins, d draws and l losses, the
// half-width of its 95% confidence interval (from the per-game variance of the score),
// and the likelihood of superiority in percent. A score of 0 or 100% has an infinite
// difference; it is capped at ±1200 (EloBound is the figure to show for it).
func EloStats(w, d, l int) (elo, margin, los float64) {
	n := float64(w + d + l)
	if n == 0 {
		return 0, 0, 50
	}
	s := (float64(w) + float64(d)/2) / n
	variance := (float64(w)*(1-s)*(1-s) + float64(d)*(0.5-s)*(0.5-s) + float64(l)*s*s) / n
	se := math.Sqrt(variance / n)
	toElo := func(p float64) float64 {
		p = math.Max(math.Min(p, 0.999), 0.001)
		return 400 * math.Log10(p/(1-p)) // +0 for an even score, never -0
	}
	elo = toElo(s)
	lo, hi := toElo(s-1.96*se), toElo(s+1.96*se)
	margin = (hi - lo) / 2
	los = 50
	if w+l > 0 {
		los = 50 * (1 + math.Erf(float64(w-l)/math.Sqrt(2*float64(w+l))))
	}
	return elo, margin, los
}

// EloBound returns, when one engine scored every point of n = w+d+l games, the 95%
// one-sided bound of the first engine's Elo difference: the loser's largest per-game
// score that still gives n straight losses with 5% probability is 1 − 0.05^(1/n), and
// the bound is the Elo difference of that score. It is a lower bound when every game was
// won and an upper bound when every game was lost. Under five games the loser's score
// is above one half, so the bound lies on the loser's side of zero: a 2-0 win only
// shows the winner is above −216. It returns 0 for any other score (draws count as half
// a point lost, so a score of 100% needs w = n).
func EloBound(w, d, l int) float64 {
	n := w + d + l
	if n == 0 || (w != n && l != n) {
		return 0
	}
	p := 1 - math.Pow(0.05, 1/float64(n)) // the loser's largest plausible score
	bound := 400 * math.Log10(1/p-1)      // how far above the loser the winner is, at least
	if l == n {
		return -bound
	}
	return bound
}

// Report prints the result: the score, the Elo difference (or the bound of a sweep),
// the likelihood of superiority, and how the games ended.
func (r Result) Report(w io.Writer) error {
	terms := make([]string, 0, len(r.Terminations))
	for t, n := range r.Terminations {
		terms = append(terms, fmt.Sprintf("%s %d", t, n))
	}
	sort.Strings(terms)
	_, err := fmt.Fprintf(w, "%s vs %s: %d games, +%d =%d -%d, score %.1f/%d (%.1f%%)\n"+
		"Elo difference: %s, LOS %.1f%%\n"+
		"white wins %d, black wins %d; %s\n",
		r.Engine1, r.Engine2, r.Games, r.Wins, r.Draws, r.Losses, r.Score, r.Games, r.Percent,
		r.eloText(), r.LOS, r.WhiteWins, r.BlackWins, strings.Join(terms, ", "))
	if err != nil {
		return fmt.Errorf("write match report: %w", err)
	}
	p := r.Pentanomial
	_, err = fmt.Fprintf(w, "pairs %d (pentanomial 0-½-1-1½-2: %d %d %d %d %d)\n", p.Pairs(), p[0], p[1], p[2], p[3], p[4])
	if err == nil && r.SPRT != nil {
		_, err = fmt.Fprintln(w, r.SPRT.String())
	}
	if err != nil {
		return fmt.Errorf("write match report: %w", err)
	}
	return nil
}

// eloText says the Elo difference: the estimate with its error bar, or for a sweep the
// one-sided bound, in the direction the sweep went.
func (r Result) eloText() string {
	const tooFew = "; too few games to tell which engine is stronger"
	switch {
	case r.Games > 0 && r.Wins == r.Games:
		s := fmt.Sprintf("above %+.0f (95%%: every game won", r.EloBound)
		if r.EloBound <= 0 {
			s += tooFew
		}
		return s + ")"
	case r.Games > 0 && r.Losses == r.Games:
		s := fmt.Sprintf("below %+.0f (95%%: every game lost", r.EloBound)
		if r.EloBound >= 0 {
			s += tooFew
		}
		return s + ")"
	}
	return fmt.Sprintf("%+.1f +/- %.1f (95%%)", r.Elo, r.EloError)
}
