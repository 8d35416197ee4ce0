package testrecords

import (
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// LadderPlayer is a player record of a guild's category with a rating and results.
func LadderPlayer(guild string, cat clock.Category, user string, rating float64, w, d, l int) storage.LadderPlayer {
	return storage.LadderPlayer{GuildID: guild, Category: cat, UserID: user, Rating: rating, Peak: rating,
		Games: w + d + l, Wins: w, Draws: d, Losses: l,
		History: []storage.RatingPoint{{At: T0, Rating: rating}}}
}

// Result is a rated result of game id in a guild, ended at ended.
func Result(guild string, id uint64, white, black string, score float64, ended time.Time) storage.RatedResult {
	return storage.RatedResult{GuildID: guild, GameID: id, White: white, Black: black, Score: score,
		Category: clock.Blitz, Ended: ended, WhiteBefore: 1500, WhiteAfter: 1500 + 40*(score-0.5),
		BlackBefore: 1500, BlackAfter: 1500 - 40*(score-0.5)}
}
