package testrecords

import "github.com/gambitchess/gambit/storage"

// SamplePuzzle is a puzzle of every field, with id and rating.
func SamplePuzzle(id string, rating int) *storage.Puzzle {
	return &storage.Puzzle{
		ID: id, FEN: "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
		Moves: []string{"g8f6", "h5f7"}, Rating: rating, RD: 80, Volatility: 0.06, Popularity: -3, Plays: 12,
		Themes: []string{"mate", "mateIn1"}, GameURL: "https://example.org/x#5", Openings: []string{"Italian_Game"},
		Source: "lichess", Added: T0,
	}
}
