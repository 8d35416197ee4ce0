// ratings.go: the ladders: one player record per guild, category and user, and the rated
// results they are computed from.
//
// Rated results are written by the ladder service in the transaction that ends the game
// (the games service's OnFinish hook, through its Tx): the result and the ratings it
// moved commit together or not at all, and AddRatedResult refuses a game it already
// has, so no retry or replay counts a game twice. How a ladder is ordered is the ladder
// service's business: the store lists players by user id.

package storage

import (
	"fmt"
	"math"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/rating"
)

// LadderPlayer is one player's standing in one ladder: a guild's category.
type LadderPlayer struct {
	// GuildID, Category and UserID name the ladder and the player (the record's key).
	GuildID  string
	Category clock.Category
	UserID   string
	// Rating is the rating (whole under FIDE); RD and Volatility are Glicko-2's.
	Rating, RD, Volatility float64
	// Peak is the highest rating reached.
	Peak float64
	// Games, Wins, Draws and Losses count the rated games played in the ladder.
	Games, Wins, Draws, Losses int
	// Seed is the known rating an admin seeded the player with (0: none); a recompute
	// starts the player there.
	Seed int
	// History is the rating after each rated game, oldest first.
	History []RatingPoint
}

// RatingPoint is a rating at one instant.
type RatingPoint struct {
	At     time.Time
	Rating float64
}

// RatedResult is one finished rated game as the ladders count it, with the ratings it
// moved.
type RatedResult struct {
	GuildID  string         `json:"guild"`
	GameID   uint64         `json:"game"`
	White    string         `json:"white"`
	Black    string         `json:"black"`
	Score    float64        `json:"score"` // White's: 1, 0.5 or 0
	Category clock.Category `json:"category"`
	Ended    time.Time      `json:"ended"`
	// WhiteBefore, WhiteAfter, BlackBefore and BlackAfter are the players' ratings
	// before and after the game, as last computed (a recompute rewrites them).
	WhiteBefore float64 `json:"white_before"`
	WhiteAfter  float64 `json:"white_after"`
	BlackBefore float64 `json:"black_before"`
	BlackAfter  float64 `json:"black_after"`
}

// MaxRatingHistory bounds the points a player record keeps.
const MaxRatingHistory = 1000

// CheckLadderKey checks the parts of a ladder player's key.
func CheckLadderKey(guildID string, cat clock.Category, userID string) error {
	if guildID == "" || len(guildID) > MaxIDLen {
		return fmt.Errorf("ladder: guild id %q: want 1 to %d bytes", guildID, MaxIDLen)
	}
	if cat <= clock.NoCategory || cat > clock.Chess960 {
		return fmt.Errorf("ladder of guild %s: category %d: want bullet to correspondence, or chess960", guildID, cat)
	}
	if userID == "" || len(userID) > MaxIDLen {
		return fmt.Errorf("ladder of guild %s: user id %q: want 1 to %d bytes", guildID, userID, MaxIDLen)
	}
	return nil
}

// ValidateLadders checks the player records that are to replace a guild's ladders
// (ReplaceLadders) before any is written: a valid guild id, every player valid and of
// that guild.
func ValidateLadders(guildID string, players []LadderPlayer) error {
	if guildID == "" || len(guildID) > MaxIDLen {
		return fmt.Errorf("replace ladders: guild id %q: want 1 to %d bytes", guildID, MaxIDLen)
	}
	for i := range players {
		if players[i].GuildID != guildID {
			return fmt.Errorf("replace ladders of guild %s: a player of guild %q", guildID, players[i].GuildID)
		}
		if err := players[i].Validate(); err != nil {
			return fmt.Errorf("replace ladders of guild %s: %w", guildID, err)
		}
	}
	return nil
}

// Validate checks a player record before it is written.
func (p *LadderPlayer) Validate() error {
	if err := CheckLadderKey(p.GuildID, p.Category, p.UserID); err != nil {
		return err
	}
	if math.IsNaN(p.Rating) || p.Rating < rating.LadderFloor || p.Rating > rating.LadderCeiling {
		return fmt.Errorf("ladder player %s in guild %s: rating %v: want %d to %d (rating.LadderFloor to rating.LadderCeiling)",
			p.UserID, p.GuildID, p.Rating, rating.LadderFloor, rating.LadderCeiling)
	}
	for _, f := range []float64{p.RD, p.Volatility, p.Peak} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fmt.Errorf("ladder player %s in guild %s: rating fields must be finite and not negative", p.UserID, p.GuildID)
		}
	}
	if p.Games < 0 || p.Wins < 0 || p.Draws < 0 || p.Losses < 0 || p.Wins+p.Draws+p.Losses != p.Games {
		return fmt.Errorf("ladder player %s in guild %s: record %d games = %d+%d+%d does not add up",
			p.UserID, p.GuildID, p.Games, p.Wins, p.Draws, p.Losses)
	}
	if len(p.History) > MaxRatingHistory {
		return fmt.Errorf("ladder player %s in guild %s: %d history points, at most %d", p.UserID, p.GuildID, len(p.History), MaxRatingHistory)
	}
	return nil
}

// Validate checks a rated result before it is written.
func (r *RatedResult) Validate() error {
	if r.GameID == 0 {
		return fmt.Errorf("rated result: no game id")
	}
	if err := CheckLadderKey(r.GuildID, r.Category, r.White); err != nil {
		return fmt.Errorf("rated result of game %d: %w", r.GameID, err)
	}
	if r.Black == "" || len(r.Black) > MaxIDLen || r.Black == r.White {
		return fmt.Errorf("rated result of game %d: black %q: want another player than white", r.GameID, r.Black)
	}
	if r.Score != 0 && r.Score != 0.5 && r.Score != 1 {
		return fmt.Errorf("rated result of game %d: score %v: want 0, 0.5 or 1", r.GameID, r.Score)
	}
	if r.Ended.UnixNano() <= 0 {
		return fmt.Errorf("rated result of game %d: end time %v: want an instant after 1970", r.GameID, r.Ended)
	}
	return nil
}
