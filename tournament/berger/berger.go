// Package berger builds round-robin schedules from the FIDE Berger tables
// (C.05 Annex 1): the order of rounds and the colours for every pairing
// number, single or double round robin. With an odd number of players the
// table for one more player is used and the opponent of the extra number has
// a bye.
package berger

import "fmt"

// Game is one pairing of a round by pairing number; Black is 0 for a bye
// (White then names the player who sits out).
type Game struct {
	White, Black int
}

// Schedule returns the rounds of a round robin of n players (2 to 1000). A
// double round robin repeats the cycle with colours reversed.
func Schedule(n int, double bool) ([][]Game, error) {
	if n < 2 || n > 1000 {
		return nil, fmt.Errorf("berger: %d players: want 2 to 1000", n)
	}
	size := n
	if size%2 == 1 {
		size++
	}
	m := size - 1
	wrap := func(x int) int { return ((x-1)%m+m)%m + 1 }
	var rounds [][]Game
	for r := 1; r <= m; r++ {
		var a int // opponent of the fixed last number
		if r%2 == 1 {
			a = (r + 1) / 2
		} else {
			a = r/2 + size/2
		}
		var games []Game
		if r%2 == 1 {
			games = append(games, Game{a, size})
		} else {
			games = append(games, Game{size, a})
		}
		for k := 1; k < size/2; k++ {
			games = append(games, Game{wrap(a + k), wrap(a - k)})
		}
		rounds = append(rounds, games)
	}
	if double {
		for r := 0; r < m; r++ {
			var games []Game
			for _, g := range rounds[r] {
				games = append(games, Game{g.Black, g.White})
			}
			rounds = append(rounds, games)
		}
	}
	if size != n {
		for _, games := range rounds {
			for i, g := range games {
				if g.White == size {
					games[i] = Game{g.Black, 0}
				} else if g.Black == size {
					games[i] = Game{g.White, 0}
				}
			}
		}
	}
	return rounds, nil
}
