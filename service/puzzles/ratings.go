// ratings.go: the Glicko-2 puzzle ratings of members and puzzles, moved by each rated
// try.

package puzzles

import (
	"fmt"
	"math"

	"github.com/gambitchess/gambit/chesscore/rating"
	"github.com/gambitchess/gambit/storage"
)

// Glicko-2 parameters of the puzzle ratings: a newcomer starts at 1500 ± 350, like on
// lichess, and τ (how fast volatility moves) is 0.75.
const (
	StartRating = rating.Glicko2DefaultRating
	StartRD     = rating.Glicko2DefaultRD
	StartVol    = rating.Glicko2DefaultVolatility
	Tau         = 0.75
	minRD       = 30.0  // the RD used for a puzzle or player below it
	generatedRD = 200.0 // the RD of a puzzle whose rating is an estimate
)

// newPlayer fills in the rating of a member who never tried a puzzle.
func newPlayer(p storage.PuzzlePlayer) storage.PuzzlePlayer {
	if p.RD == 0 {
		p.Rating, p.RD, p.Volatility = StartRating, StartRD, StartVol
	}
	return p
}

// glickoPlayer is a member's Glicko-2 state.
func glickoPlayer(p storage.PuzzlePlayer) rating.Glicko2Player {
	return rating.Glicko2Player{Rating: p.Rating, RD: max(p.RD, minRD), Volatility: p.Volatility}
}

// puzzleGlicko is a puzzle's Glicko-2 state.
func puzzleGlicko(sp *storage.Puzzle) rating.Glicko2Player {
	rd := float64(sp.RD)
	if rd == 0 {
		rd = generatedRD
	}
	vol := sp.Volatility
	if vol == 0 {
		vol = StartVol
	}
	return rating.Glicko2Player{Rating: float64(sp.Rating), RD: max(rd, minRD), Volatility: vol}
}

// rate plays one rated game between the member and the puzzle (score is the member's)
// and writes the puzzle's new rating.
func rate(w storage.PuzzlesTx, pl *storage.PuzzlePlayer, sp *storage.Puzzle, score float64) error {
	me, them := glickoPlayer(*pl), puzzleGlicko(sp)
	nme, err := rating.Glicko2Update(me, []rating.Glicko2Game{{Rating: them.Rating, RD: them.RD, Score: score}}, Tau)
	if err != nil {
		return fmt.Errorf("rate %s against puzzle %s: %w", pl.UserID, sp.ID, err)
	}
	nthem, err := rating.Glicko2Update(them, []rating.Glicko2Game{{Rating: me.Rating, RD: me.RD, Score: 1 - score}}, Tau)
	if err != nil {
		return fmt.Errorf("rate puzzle %s against %s: %w", sp.ID, pl.UserID, err)
	}
	pl.Rating, pl.RD, pl.Volatility = nme.Rating, nme.RD, nme.Volatility
	pl.Rated++
	if score == 1 {
		pl.Solved++
	}
	sp.Rating = min(max(int(math.Round(nthem.Rating)), 0), 4000)
	sp.RD = min(max(int(math.Round(nthem.RD)), 1), 5000)
	sp.Volatility = nthem.Volatility
	sp.Plays++
	_, err = w.PutPuzzle(sp)
	return err
}
