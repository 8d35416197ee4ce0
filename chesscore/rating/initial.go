package rating

import "fmt"

// Rules for the first rating of an unrated player (Articles 7.1.4 and 8.2).
const (
	// InitialMinGames is the number of games against rated opponents a first
	// rating must be based on before it is published (Article 7.1.4).
	InitialMinGames = 5
	// HypotheticalOpponent is the rating of each of the two hypothetical
	// opponents, both counted as draws, added to an unrated player's games
	// (Article 8.2.2).
	HypotheticalOpponent = 1800
	// MaxInitialRating is the highest first rating (Article 8.2.3).
	MaxInitialRating = 2200
)

// FIDEInitial computes the first rating Ru of an unrated player from the pool
// of their results against rated opponents (Article 8.2):
//
//   - Ra is the average rating of the opponents plus two hypothetical
//     opponents rated 1800, and the score p counts both of those games as
//     draws: p = (W + 1) / (n + 2);
//   - p is taken to the nearest hundredth (0.005 up) and Ru = Ra + dp, with
//     dp from table 8.1.1, rounded to the nearest whole number (0.5 up) and
//     limited to 2200.
//
// rating is Ru even when it is not publishable; rated reports whether it is:
// at least 5 games and Ru ≥ 1400 (Article 7.1.4). A pool scoring zero is
// disregarded (Article 8.2.1, a zero first event; see [FIDEInitialEvents]):
// it gives rated false and rating 0, as does an empty pool. Because of the two
// hypothetical draws, 0% and 100% need no other special case.
func FIDEInitial(games []Game) (rated bool, rating int, err error) {
	n := len(games)
	sum, halves := 0, 0
	for i, g := range games {
		if err := checkRating(g.Opponent); err != nil {
			return false, 0, fmt.Errorf("game %d: opponent: %w", i+1, err)
		}
		h, err := halfPoints(g.Score)
		if err != nil {
			return false, 0, fmt.Errorf("game %d: %w", i+1, err)
		}
		sum += g.Opponent
		halves += h
	}
	if halves == 0 {
		return false, 0, nil
	}
	// p = (halves/2 + 1) / (n + 2) = (halves + 2) / (2(n + 2)); in per cent,
	// rounded half up.
	num, den := 100*(halves+2), 2*(n+2)
	percent := (2*num + den) / (2 * den)
	dp := table811[percent]
	// Ru = (sum + 3600) / (n + 2) + dp, rounded half up (it is positive).
	total, m := sum+2*HypotheticalOpponent+dp*(n+2), n+2
	ru := (2*total + m) / (2 * m)
	ru = min(ru, MaxInitialRating)
	return n >= InitialMinGames && ru >= RatingFloor, ru, nil
}

// FIDEInitialEvents is [FIDEInitial] for a pool given event by event, first
// event first: if the player scored zero in the first event, that event is
// disregarded (Article 8.2.1); otherwise all results are pooled.
func FIDEInitialEvents(events [][]Game) (rated bool, rating int, err error) {
	var pool []Game
	for i, ev := range events {
		halves := 0
		for j, g := range ev {
			if err := checkRating(g.Opponent); err != nil {
				return false, 0, fmt.Errorf("event %d: game %d: opponent: %w", i+1, j+1, err)
			}
			h, err := halfPoints(g.Score)
			if err != nil {
				return false, 0, fmt.Errorf("event %d: game %d: %w", i+1, j+1, err)
			}
			halves += h
		}
		if i == 0 && halves == 0 {
			continue
		}
		pool = append(pool, ev...)
	}
	return FIDEInitial(pool)
}
