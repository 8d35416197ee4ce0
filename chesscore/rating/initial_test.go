package rating

import (
	"errors"
	"testing"
)

// games returns one game per score against opponents of the given ratings.
func games(opponents []int, scores ...float64) []Game {
	gs := make([]Game, len(scores))
	for i, s := range scores {
		gs[i] = Game{Opponent: opponents[i%len(opponents)], Score: s}
	}
	return gs
}

func TestFIDEInitial(t *testing.T) {
	tests := []struct {
		name   string
		games  []Game
		rated  bool
		rating int
	}{
		{
			// 5 games, 3 points, opponents summing to 9507: Ra = 13107/7 =
			// 1872.43, p = 4/7 → .57, dp = 50, Ru = 1922.43 → 1922.
			name:  "published first rating",
			games: games([]int{1900, 1900, 1900, 1900, 1907}, 1, 1, 1, 0, 0),
			rated: true, rating: 1922,
		},
		{
			name:  "four games are not enough",
			games: games([]int{1900}, 1, 1, 0, 0),
			rated: false, rating: 1867, // Ra = 11200/6 = 1866.67, p = 3/6, dp = 0
		},
		{
			// Ra = (7000 + 3600)/7 = 1514.29, p = 1.5/7 → .21, dp = −230.
			name:  "below 1400 is not published",
			games: games([]int{1400}, 0.5, 0, 0, 0, 0),
			rated: false, rating: 1284,
		},
		{
			// Ra = (24000 + 3600)/12 = 2300, p = 11/12 → .92, dp = 401: 2701.
			name:  "at most 2200",
			games: games([]int{2400}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
			rated: true, rating: 2200,
		},
		{
			// 100%: the two hypothetical draws make p = 6/7 → .86, dp = 309.
			name:  "100% score",
			games: games([]int{1800}, 1, 1, 1, 1, 1),
			rated: true, rating: 2109,
		},
		{
			// p = 3/8 = .375 → .38 (dp −87), not .37 (dp −95).
			name:  "p rounded half up",
			games: games([]int{1800}, 1, 1, 0, 0, 0, 0),
			rated: true, rating: 1713,
		},
		{
			// Ra = (10804 + 3600)/8 = 1800.5, dp −87: 1713.5 → 1714.
			name:  "Ru rounded half up",
			games: games([]int{1800, 1800, 1800, 1800, 1800, 1804}, 1, 1, 0, 0, 0, 0),
			rated: true, rating: 1714,
		},
		{
			name:  "zero score is disregarded",
			games: games([]int{1800}, 0, 0, 0, 0, 0),
			rated: false, rating: 0,
		},
		{
			name:  "no games",
			rated: false, rating: 0,
		},
	}
	for _, tt := range tests {
		rated, rating, err := FIDEInitial(tt.games)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if rated != tt.rated || rating != tt.rating {
			t.Errorf("%s: got (%v, %d), want (%v, %d)", tt.name, rated, rating, tt.rated, tt.rating)
		}
	}
}

func TestFIDEInitialEvents(t *testing.T) {
	zero := games([]int{2000}, 0, 0, 0)
	good := games([]int{1800}, 1, 1, 0, 0, 0, 0)
	tests := []struct {
		name   string
		events [][]Game
		rated  bool
		rating int
	}{
		{"zero first event dropped", [][]Game{zero, good}, true, 1713},
		// Ra = (10800 + 6000 + 3600)/11 = 1854.55, p = 3/11 → .27,
		// dp = −175: 1679.55 → 1680.
		{"zero later event kept", [][]Game{good, zero}, true, 1680},
		{"only a zero event", [][]Game{zero}, false, 0},
	}
	for _, tt := range tests {
		rated, rating, err := FIDEInitialEvents(tt.events)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if rated != tt.rated || rating != tt.rating {
			t.Errorf("%s: got (%v, %d), want (%v, %d)", tt.name, rated, rating, tt.rated, tt.rating)
		}
	}
}

func TestFIDEInitialErrors(t *testing.T) {
	if _, _, err := FIDEInitial([]Game{{1800, 1}, {1800, 0.7}}); !errors.Is(err, ErrScore) {
		t.Errorf("score 0.7: error %v, want ErrScore", err)
	}
	if _, _, err := FIDEInitial([]Game{{99999, 1}}); !errors.Is(err, ErrRating) {
		t.Errorf("opponent 99999: error %v, want ErrRating", err)
	}
	if _, _, err := FIDEInitialEvents([][]Game{{{-5, 0}}}); !errors.Is(err, ErrRating) {
		t.Errorf("bad opponent in a disregarded event: error %v, want ErrRating", err)
	}
}
