// bounded.go: rating updates for ladders, which cannot fail: every input is brought into
// range first and every result stays within the ladder bounds.

package rating

import "math"

// Ladder bounds. A ladder (a server's rating list) must be able to rate every game that
// ends, so its updates, [LadderFIDE] and [LadderGlicko2], accept any input and return
// values within these bounds, and a store of ladder ratings accepts exactly that range.
//
// The floor is 100 under FIDE Elo and Glicko-2 alike, for two reasons. It is the lowest
// start rating a server may choose, so no player is ever rated below where a server
// could have started them, and a player who starts there keeps that rating however many
// games they lose. And it keeps zero and negative numbers out of the ladders: a stored 0
// means "none" (a player's seed, a FIDE peak). FIDE's own floor, [RatingFloor] (1400),
// is where FIDE stops listing a player, which a ladder that may start at 100 cannot use.
// A player at the floor who loses stays there while the winner gains as usual: the only
// points a floor creates are the ones a floored player does not lose.
const (
	// LadderFloor is the lowest ladder rating, FIDE Elo or Glicko-2.
	LadderFloor = 100
	// LadderCeiling is the highest ladder rating: [MaxRating], far above any start
	// rating (at most 3000) and any seed a ladder accepts.
	LadderCeiling = MaxRating
	// LadderMinRD is the lowest Glicko-2 rating deviation of a ladder player: however
	// many games they play, their rating keeps some uncertainty and can still move.
	LadderMinRD = 30.0
	// LadderMaxRD is the highest Glicko-2 rating deviation of a ladder player: that of
	// a newcomer, [Glicko2DefaultRD]; no one is less certain than someone never seen.
	LadderMaxRD = Glicko2DefaultRD
	// LadderMinVolatility and LadderMaxVolatility bound a Glicko-2 volatility σ around
	// the newcomer's [Glicko2DefaultVolatility] (0.06); at 0.15 a rating is expected to
	// drift by about 26 points a game, far more than any real player does.
	LadderMinVolatility = 0.01
	LadderMaxVolatility = 0.15
	// LadderMinTau and LadderMaxTau bound the Glicko-2 system constant τ to the
	// range Glickman's paper suggests.
	LadderMinTau = 0.3
	LadderMaxTau = 1.2
)

// clampFloat returns x within [lo, hi], and ifNaN when x is NaN.
func clampFloat(x, lo, hi, ifNaN float64) float64 {
	if math.IsNaN(x) {
		return ifNaN
	}
	return min(max(x, lo), hi)
}

// ClampLadderRating returns r within [LadderFloor, LadderCeiling]; NaN gives
// LadderFloor. The result is always finite.
func ClampLadderRating(r float64) float64 {
	return clampFloat(r, LadderFloor, LadderCeiling, LadderFloor)
}

// clampLadderInt returns r within [LadderFloor, LadderCeiling].
func clampLadderInt(r int) int { return min(max(r, LadderFloor), LadderCeiling) }

// ladderScore returns s taken to the nearest of 0, 0.5 and 1; NaN counts as a draw.
func ladderScore(s float64) float64 {
	if math.IsNaN(s) {
		return 0.5
	}
	return math.Round(min(max(s, 0), 1)*2) / 2
}

// LadderFIDE rates one game under FIDE Elo for a ladder, which makes it one rating
// period: [FIDEChange] of that game, made total. It never fails:
//
//   - the player's rating and peak and the opponent's rating are first brought into
//     [LadderFloor, LadderCeiling] (a peak of 0 still means none, and a peak below the
//     rating counts as the rating); a negative games count counts as 0; a forced K is
//     kept in 0..700 (0: the rules of Article 8.3.3 apply); a score is taken to the
//     nearest of 0, 0.5 and 1 (NaN counts as a draw);
//   - the new rating is kept within the same bounds, and RoundedChange is the change
//     actually made (NewRating minus the rating brought into bounds), while Change is
//     FIDE's unrounded change.
//
// For inputs FIDEChange accepts within the bounds, and a new rating within them, the
// result is FIDEChange's.
func LadderFIDE(p FIDEPlayer, g Game) FIDEResult {
	p.Rating = clampLadderInt(p.Rating)
	p.GamesPlayed = max(p.GamesPlayed, 0)
	if p.Peak != 0 {
		p.Peak = max(clampLadderInt(p.Peak), p.Rating)
	}
	p.K = min(max(p.K, 0), KCapProduct)
	g.Opponent = clampLadderInt(g.Opponent)
	g.Score = ladderScore(g.Score)
	res := fidePeriod(p, []Game{g})
	res.NewRating = clampLadderInt(res.NewRating)
	res.RoundedChange = res.NewRating - p.Rating
	return res
}

// LadderGlicko2 rates one game under Glicko-2 for a ladder, which makes it one rating
// period: [Glicko2Update] of that game, made total. It never fails:
//
//   - the player's and the opponent's ratings are first brought into [LadderFloor,
//     LadderCeiling] (NaN: the floor), their rating deviations into [LadderMinRD,
//     LadderMaxRD] (NaN: the maximum), the player's volatility into
//     [LadderMinVolatility, LadderMaxVolatility] (NaN: [Glicko2DefaultVolatility]) and
//     tau into [LadderMinTau, LadderMaxTau] (NaN: the minimum); a score is taken to the
//     nearest of 0, 0.5 and 1 (NaN counts as a draw);
//   - if the volatility iteration of step 5 does not converge, the volatility stays
//     as it was and the rest of the update is made;
//   - the new rating, deviation and volatility are kept within the same bounds (a
//     value that is not a number keeps the one before the game).
//
// For inputs within the bounds, and a result within them, the result is
// Glicko2Update's.
func LadderGlicko2(p Glicko2Player, g Glicko2Game, tau float64) Glicko2Player {
	p = Glicko2Player{
		Rating:     ClampLadderRating(p.Rating),
		RD:         clampFloat(p.RD, LadderMinRD, LadderMaxRD, LadderMaxRD),
		Volatility: clampFloat(p.Volatility, LadderMinVolatility, LadderMaxVolatility, Glicko2DefaultVolatility),
	}
	g = Glicko2Game{
		Rating: ClampLadderRating(g.Rating),
		RD:     clampFloat(g.RD, LadderMinRD, LadderMaxRD, LadderMaxRD),
		Score:  ladderScore(g.Score),
	}
	tau = clampFloat(tau, LadderMinTau, LadderMaxTau, LadderMinTau)
	np, _ := glicko2Period(p, []Glicko2Game{g}, tau, true) // keepSigma: no error
	return Glicko2Player{
		Rating:     clampFloat(np.Rating, LadderFloor, LadderCeiling, p.Rating),
		RD:         clampFloat(np.RD, LadderMinRD, LadderMaxRD, p.RD),
		Volatility: clampFloat(np.Volatility, LadderMinVolatility, LadderMaxVolatility, p.Volatility),
	}
}
