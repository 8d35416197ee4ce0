package rating

import (
	"errors"
	"testing"
)

// Seed 003's worked example: a 1600 player meets an 1800 player with K = 20.
func TestFIDEChangeSeedExample(t *testing.T) {
	p := FIDEPlayer{Rating: 1600, GamesPlayed: 40}
	tests := []struct {
		score   float64
		change  float64
		rounded int
	}{
		{1, 15.2, 15},
		{0.5, 5.2, 5},
		{0, -4.8, -5},
	}
	for _, tt := range tests {
		got, err := FIDEChange(p, []Game{{Opponent: 1800, Score: tt.score}})
		if err != nil {
			t.Fatal(err)
		}
		want := FIDEResult{K: 20, Score: tt.score, Expected: 0.24, Change: tt.change,
			RoundedChange: tt.rounded, NewRating: 1600 + tt.rounded}
		if got != want {
			t.Errorf("score %v: got %+v, want %+v", tt.score, got, want)
		}
	}
	// The 1800 player loses 15 for the loss.
	got, err := FIDEChange(FIDEPlayer{Rating: 1800, GamesPlayed: 40}, []Game{{Opponent: 1600, Score: 0}})
	if err != nil {
		t.Fatal(err)
	}
	if got.RoundedChange != -15 || got.Change != -15.2 {
		t.Errorf("1800 losing to 1600: %+v, want -15.2 / -15", got)
	}
}

func TestFIDEK(t *testing.T) {
	tests := []struct {
		name string
		p    FIDEPlayer
		want int
	}{
		{"new player", FIDEPlayer{Rating: 1700, GamesPlayed: 0}, 40},
		{"29 games", FIDEPlayer{Rating: 1700, GamesPlayed: 29}, 40},
		{"30 games", FIDEPlayer{Rating: 1700, GamesPlayed: 30}, 20},
		{"2399", FIDEPlayer{Rating: 2399, GamesPlayed: 100}, 20},
		{"2400", FIDEPlayer{Rating: 2400, GamesPlayed: 100}, 10},
		{"dropped below 2400", FIDEPlayer{Rating: 2350, GamesPlayed: 100, Peak: 2400}, 10},
		{"peak 2399", FIDEPlayer{Rating: 2350, GamesPlayed: 100, Peak: 2399}, 20},
		{"new player rated 2400", FIDEPlayer{Rating: 2450, GamesPlayed: 5}, 10},
		{"junior under 2300", FIDEPlayer{Rating: 2299, GamesPlayed: 200, Junior: true}, 40},
		{"junior at 2300", FIDEPlayer{Rating: 2300, GamesPlayed: 200, Junior: true}, 20},
		{"junior once 2300", FIDEPlayer{Rating: 2250, GamesPlayed: 200, Peak: 2310, Junior: true}, 20},
		{"junior once 2300, new", FIDEPlayer{Rating: 2250, GamesPlayed: 10, Peak: 2310, Junior: true}, 40},
		{"junior once 2400", FIDEPlayer{Rating: 2250, GamesPlayed: 10, Peak: 2400, Junior: true}, 10},
		{"forced", FIDEPlayer{Rating: 2500, K: 32}, 32},
	}
	for _, tt := range tests {
		if got := FIDEK(tt.p); got != tt.want {
			t.Errorf("%s: FIDEK(%+v) = %d, want %d", tt.name, tt.p, got, tt.want)
		}
	}
}

func TestCapK(t *testing.T) {
	tests := []struct{ k, n, want int }{
		{20, 0, 20}, {20, 35, 20}, {20, 36, 19}, {20, 39, 17},
		{40, 17, 40}, {40, 18, 38}, {10, 70, 10}, {10, 71, 9}, {10, 701, 0},
	}
	for _, tt := range tests {
		if got := CapK(tt.k, tt.n); got != tt.want {
			t.Errorf("CapK(%d, %d) = %d, want %d", tt.k, tt.n, got, tt.want)
		}
	}
}

func TestFIDECappedDifference(t *testing.T) {
	tests := []struct{ player, opponent, want int }{
		{2000, 1500, 400},
		{1500, 2000, -400},
		{2000, 1600, 400},
		{2000, 1601, 399},
		{2649, 2100, 400}, // below 2650: capped
		{2650, 2100, 550}, // 2650 and above: the real difference
		{2800, 1800, 1000},
		{2700, 3200, -500}, // also when the strong player is the lower rated
	}
	for _, tt := range tests {
		if got := FIDECappedDifference(tt.player, tt.opponent); got != tt.want {
			t.Errorf("FIDECappedDifference(%d, %d) = %d, want %d", tt.player, tt.opponent, got, tt.want)
		}
	}
	if got := FIDEExpected(2649, 2100); got != .92 {
		t.Errorf("FIDEExpected(2649, 2100) = %v, want .92", got)
	}
	if got := FIDEExpected(2650, 2100); got != .97 {
		t.Errorf("FIDEExpected(2650, 2100) = %v, want .97", got)
	}
	if got := FIDEExpected(2800, 1800); got != 1 {
		t.Errorf("FIDEExpected(2800, 1800) = %v, want 1", got)
	}
}

func TestFIDEChange(t *testing.T) {
	tests := []struct {
		name  string
		p     FIDEPlayer
		games []Game
		want  FIDEResult
	}{
		{
			name: "no games",
			p:    FIDEPlayer{Rating: 1600, GamesPlayed: 40},
			want: FIDEResult{K: 20, NewRating: 1600},
		},
		{
			name:  "400-point rule below 2650",
			p:     FIDEPlayer{Rating: 2000, GamesPlayed: 40},
			games: []Game{{1500, 1}, {1400, 1}},
			want:  FIDEResult{K: 20, Score: 2, Expected: 1.84, Change: 3.2, RoundedChange: 3, NewRating: 2003},
		},
		{
			name:  "no cap from 2650: a win gains nothing, a loss costs K",
			p:     FIDEPlayer{Rating: 2800, GamesPlayed: 400},
			games: []Game{{1800, 1}, {1800, 0}},
			want:  FIDEResult{K: 10, Score: 1, Expected: 2, Change: -10, RoundedChange: -10, NewRating: 2790},
		},
		{
			name:  "half rounded away from zero, up",
			p:     FIDEPlayer{Rating: 1500, K: 5},
			games: []Game{{1500, 1}},
			want:  FIDEResult{K: 5, Score: 1, Expected: .5, Change: 2.5, RoundedChange: 3, NewRating: 1503},
		},
		{
			name:  "half rounded away from zero, down",
			p:     FIDEPlayer{Rating: 1500, K: 5},
			games: []Game{{1500, 0}},
			want:  FIDEResult{K: 5, Score: 0, Expected: .5, Change: -2.5, RoundedChange: -3, NewRating: 1497},
		},
		{
			name:  "new player, K 40",
			p:     FIDEPlayer{Rating: 1500, GamesPlayed: 10},
			games: []Game{{1600, 1}, {1550, 0.5}},
			want:  FIDEResult{K: 40, Score: 1.5, Expected: .79, Change: 28.4, RoundedChange: 28, NewRating: 1528},
		},
	}
	for _, tt := range tests {
		got, err := FIDEChange(tt.p, tt.games)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestFIDEChangeCapsK(t *testing.T) {
	games := make([]Game, 36)
	for i := range games {
		games[i] = Game{Opponent: 1600, Score: 1}
	}
	got, err := FIDEChange(FIDEPlayer{Rating: 1600, GamesPlayed: 100}, games)
	if err != nil {
		t.Fatal(err)
	}
	// 36 × 20 = 720 > 700, so K = 19; 36 × 0.5 × 19 = 342.
	if got.K != 19 || got.Change != 342 || got.NewRating != 1942 {
		t.Errorf("36 games: %+v, want K 19, change 342", got)
	}
	// A forced K is not capped.
	got, err = FIDEChange(FIDEPlayer{Rating: 1600, K: 20}, games)
	if err != nil {
		t.Fatal(err)
	}
	if got.K != 20 || got.Change != 360 {
		t.Errorf("36 games, K forced to 20: %+v, want K 20, change 360", got)
	}
}

func TestRoundHundredths(t *testing.T) {
	tests := []struct{ c, want int }{
		{0, 0}, {49, 0}, {50, 1}, {-49, 0}, {-50, -1}, {149, 1}, {150, 2},
		{-150, -2}, {249, 2}, {250, 3}, {-249, -2}, {-250, -3}, {1520, 15}, {-480, -5},
	}
	for _, tt := range tests {
		if got := roundHundredths(tt.c); got != tt.want {
			t.Errorf("roundHundredths(%d) = %d, want %d", tt.c, got, tt.want)
		}
	}
}

func TestFIDEChangeErrors(t *testing.T) {
	tests := []struct {
		name  string
		p     FIDEPlayer
		games []Game
		want  error
	}{
		{"score 2", FIDEPlayer{Rating: 1600}, []Game{{1800, 2}}, ErrScore},
		{"score 0.25", FIDEPlayer{Rating: 1600}, []Game{{1800, 1}, {1800, 0.25}}, ErrScore},
		{"opponent too high", FIDEPlayer{Rating: 1600}, []Game{{MaxRating + 1, 1}}, ErrRating},
		{"opponent negative", FIDEPlayer{Rating: 1600}, []Game{{-1, 1}}, ErrRating},
		{"rating negative", FIDEPlayer{Rating: -1}, nil, ErrRating},
		{"rating too high", FIDEPlayer{Rating: 4001}, nil, ErrRating},
		{"games played negative", FIDEPlayer{Rating: 1600, GamesPlayed: -1}, nil, ErrGamesPlayed},
		{"peak below rating", FIDEPlayer{Rating: 1600, Peak: 1500}, nil, ErrPeak},
		{"peak too high", FIDEPlayer{Rating: 1600, Peak: 5000}, nil, ErrRating},
		{"K negative", FIDEPlayer{Rating: 1600, K: -10}, nil, ErrK},
	}
	for _, tt := range tests {
		_, err := FIDEChange(tt.p, tt.games)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
		}
	}
}
