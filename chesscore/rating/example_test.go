package rating_test

import (
	"fmt"

	"github.com/gambitchess/gambit/chesscore/rating"
)

func ExampleFIDEChange() {
	p := rating.FIDEPlayer{Rating: 1600, GamesPlayed: 40}
	res, err := rating.FIDEChange(p, []rating.Game{{Opponent: 1800, Score: 1}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.K, res.Change, res.RoundedChange, res.NewRating)
	// Output: 20 15.2 15 1615
}

func ExampleFIDEInitial() {
	games := []rating.Game{{1900, 1}, {1900, 1}, {1900, 1}, {1900, 0}, {1907, 0}}
	rated, r, err := rating.FIDEInitial(games)
	if err != nil {
		panic(err)
	}
	fmt.Println(rated, r)
	// Output: true 1922
}

func ExampleGlicko2Update() {
	p := rating.Glicko2Player{Rating: 1500, RD: 200, Volatility: 0.06}
	games := []rating.Glicko2Game{
		{Rating: 1400, RD: 30, Score: 1},
		{Rating: 1550, RD: 100, Score: 0},
		{Rating: 1700, RD: 300, Score: 0},
	}
	q, err := rating.Glicko2Update(p, games, 0.5)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.2f %.2f %.5f\n", q.Rating, q.RD, q.Volatility)
	// Output: 1464.05 151.52 0.06000
}
