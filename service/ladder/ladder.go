// Package ladder computes a server's rating ladders: one per time category, moved by every
// rated game, under the server's rating system (FIDE Elo or Glicko-2). The arithmetic
// (Apply, Replay, Recompute) is pure; Service keeps the ladders in the store and rates
// each game in the transaction that ends it.
//
// # Bootstrap policy
//
// A new ladder has no rated players, so FIDE's method for a first rating (at least five
// games against rated opponents, Article 7.1) cannot start it. Gambit's rule instead:
//
//   - Everyone enters a category at the server's start rating (default 1500), provisional.
//   - FIDE system: K = 40 for the first 30 games, as FIDE gives new players (Article 8.3.3),
//     then 20, and 10 for ever once 2400 has been reached. A player is provisional, shown as
//     "1500?", until 5 rated games in the category are completed (FIDE's minimum for a first
//     rating). Each rated game is its own rating period: the ladder moves after every game,
//     by the change rounded to a whole number (Article 8.3.4), so ratings stay whole.
//   - Glicko-2 system: start at RD 350, volatility 0.06, τ 0.5; each game is its own rating
//     period (as online servers do); provisional while RD is above 110.
//   - An admin may seed a player's known rating (for example their FIDE or another site's
//     rating): the player then starts there, not provisional under FIDE, and with RD 150
//     under Glicko-2.
//   - Ratings stay between a floor of 100, the lowest start rating (rating.LadderFloor),
//     and a ceiling of 4000 (rating.LadderCeiling), under both systems: a player at the
//     floor who loses stays there, while the winner gains as usual. Under Glicko-2 the
//     deviation stays within 30 to 350 and the volatility within 0.01 to 0.15. The
//     rating arithmetic has no failing case, so a game that ends is always rated.
//
// Casual and aborted games never count, nor do untimed games, games from a set-up
// position or games outside a server (Counts). Both players' changes are computed from
// their ratings before the game, so the order of the two updates does not matter.
//
// # The service
//
// Service keeps the ladders in the store (package storage: one record per server,
// category and player, and one rated result per game). Record is the game service's
// OnFinish hook: it runs inside the transaction that ends the game, so the result and
// both ratings commit together or not at all, and a game already rated (a retried
// request, a replayed ending) is not rated again. A change of the rating system or the
// start rating, or an admin's seed, replays the server's rated results in end order
// (end time, then game id) in one transaction with the change. Live updates follow
// commit order, which is the same except for two games of one player ending at the same
// instant, or a flag that fell during downtime and was recorded at start-up.
package ladder

import (
	"fmt"
	"math"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/rating"
)

// System names a rating system.
type System string

// The rating systems a server can choose.
const (
	FIDE    System = "fide"
	Glicko2 System = "glicko2"
)

// ParseSystem parses "fide" or "glicko2".
func ParseSystem(s string) (System, error) {
	switch System(s) {
	case FIDE, Glicko2:
		return System(s), nil
	}
	return "", fmt.Errorf("rating system %q: want fide or glicko2", s)
}

// Bootstrap and display constants.
const (
	DefaultStartRating  = 1500
	ProvisionalGames    = 5   // FIDE system: provisional until this many rated games
	ProvisionalRD       = 110 // Glicko-2 system: provisional while RD is above this
	SeededRD            = 150 // Glicko-2 RD of an admin-seeded player
	Glicko2Tau          = 0.5
	Glicko2StartRD      = 350
	Glicko2StartSigma   = 0.06
	MinStartRating      = rating.LadderFloor // the lowest start rating is the floor
	MaxStartRating      = 3000
	HistoryMaxPerPlayer = 500 // rating-history points kept per player and category
)

// Settings are a server's ladder settings.
type Settings struct {
	System      System
	StartRating int
}

// DefaultSettings are the settings of a server that chose nothing.
func DefaultSettings() Settings { return Settings{System: FIDE, StartRating: DefaultStartRating} }

// Validate checks the settings.
func (s Settings) Validate() error {
	if _, err := ParseSystem(string(s.System)); err != nil {
		return err
	}
	if s.StartRating < MinStartRating || s.StartRating > MaxStartRating {
		return fmt.Errorf("start rating %d: want %d to %d", s.StartRating, MinStartRating, MaxStartRating)
	}
	return nil
}

// Point is one entry of a rating history.
type Point struct {
	At     time.Time
	Rating float64
}

// Player is one player's standing in one category's ladder.
type Player struct {
	UserID     string
	Rating     float64 // whole under FIDE
	RD         float64 // Glicko-2 only
	Volatility float64 // Glicko-2 only
	Peak       float64 // highest rating reached (FIDE's K = 10 rule)
	Games      int
	Wins       int
	Draws      int
	Losses     int
	Seeded     bool
	History    []Point
}

// NewPlayer returns a player entering the ladder under the settings.
func NewPlayer(s Settings, userID string) Player {
	p := Player{UserID: userID, Rating: float64(s.StartRating), Peak: float64(s.StartRating)}
	if s.System == Glicko2 {
		p.RD, p.Volatility = Glicko2StartRD, Glicko2StartSigma
	}
	return p
}

// Seed returns a player entering at a known rating set by an admin, which must be
// within the ladder bounds (rating.LadderFloor to rating.LadderCeiling).
func Seed(s Settings, userID string, known int) (Player, error) {
	if known < rating.LadderFloor || known > rating.LadderCeiling {
		return Player{}, fmt.Errorf("seed rating %d: want %d to %d", known, rating.LadderFloor, rating.LadderCeiling)
	}
	return seeded(s, userID, known), nil
}

// seeded is Seed for a seed already stored, which cannot fail: a seed out of the ladder
// bounds (one stored before there were bounds) counts as the nearest bound.
func seeded(s Settings, userID string, known int) Player {
	known = min(max(known, rating.LadderFloor), rating.LadderCeiling)
	p := NewPlayer(s, userID)
	p.Rating, p.Peak, p.Seeded = float64(known), float64(known), true
	if s.System == Glicko2 {
		p.RD = SeededRD
	}
	return p
}

// Provisional reports whether the player's rating is still provisional.
func (p Player) Provisional(s Settings) bool {
	if s.System == Glicko2 {
		return p.RD > ProvisionalRD
	}
	return !p.Seeded && p.Games < ProvisionalGames
}

// Display returns the rating as shown to users: "1500?" while provisional.
func (p Player) Display(s Settings) string {
	r := fmt.Sprintf("%d", int(math.Round(p.Rating)))
	if p.Provisional(s) {
		r += "?"
	}
	return r
}

// Change is what one game did to one player.
type Change struct {
	Before, After float64
	K             int // FIDE only
}

// Delta returns After − Before.
func (c Change) Delta() float64 { return c.After - c.Before }

// Game is one finished rated game as the ladder sees it.
type Game struct {
	GameID   uint64
	White    string
	Black    string
	Score    float64 // White's score: 1, 0.5 or 0
	Category clock.Category
	At       time.Time
}

// Apply moves both players' ratings by one game and returns the updated players and the
// changes. white and black must be the players of that game in that category.
//
// The rating arithmetic cannot fail (rating.LadderFIDE, rating.LadderGlicko2): ratings
// stay within rating.LadderFloor and rating.LadderCeiling, so every game that ends is
// rated. A rating stored out of those bounds (before there were bounds) is rated from
// the nearest bound, which is the Before of its change. The only error is a score other
// than 0, 0.5 or 1, which Counts never gives.
func Apply(s Settings, white, black Player, g Game) (Player, Player, Change, Change, error) {
	if g.Score != 0 && g.Score != 0.5 && g.Score != 1 {
		return white, black, Change{}, Change{}, fmt.Errorf("game %d: score %v: want 0, 0.5 or 1", g.GameID, g.Score)
	}
	var nw, nb Player
	var cw, cb Change
	switch s.System {
	case Glicko2:
		nw, cw = glickoStep(white, black, g.Score)
		nb, cb = glickoStep(black, white, 1-g.Score)
	default:
		nw, cw = fideStep(white, black, g.Score)
		nb, cb = fideStep(black, white, 1-g.Score)
	}
	nw, nb = record(nw, g.Score, g.At), record(nb, 1-g.Score, g.At)
	return nw, nb, cw, cb, nil
}

// whole returns a stored rating as FIDE's whole number, within the ladder bounds.
func whole(r float64) int { return int(math.Round(rating.ClampLadderRating(r))) }

func fideStep(p, opp Player, score float64) (Player, Change) {
	fp := rating.FIDEPlayer{Rating: whole(p.Rating), GamesPlayed: p.Games}
	if p.Peak != 0 {
		fp.Peak = max(whole(p.Peak), fp.Rating)
	}
	res := rating.LadderFIDE(fp, rating.Game{Opponent: whole(opp.Rating), Score: score})
	c := Change{Before: float64(res.NewRating - res.RoundedChange), After: float64(res.NewRating), K: res.K}
	p.Rating = float64(res.NewRating)
	return p, c
}

func glickoStep(p, opp Player, score float64) (Player, Change) {
	np := rating.LadderGlicko2(
		rating.Glicko2Player{Rating: p.Rating, RD: p.RD, Volatility: p.Volatility},
		rating.Glicko2Game{Rating: opp.Rating, RD: opp.RD, Score: score}, Glicko2Tau)
	c := Change{Before: rating.ClampLadderRating(p.Rating), After: np.Rating}
	p.Rating, p.RD, p.Volatility = np.Rating, np.RD, np.Volatility
	return p, c
}

// record counts the game in the player's record and history.
func record(p Player, score float64, at time.Time) Player {
	p.Games++
	switch score {
	case 1:
		p.Wins++
	case 0:
		p.Losses++
	default:
		p.Draws++
	}
	if p.Rating > p.Peak {
		p.Peak = p.Rating
	}
	p.History = append(append([]Point(nil), p.History...), Point{At: at, Rating: p.Rating})
	if len(p.History) > HistoryMaxPerPlayer {
		p.History = p.History[len(p.History)-HistoryMaxPerPlayer:]
	}
	return p
}

// Ladder is every player of one category.
type Ladder map[string]Player

// Ladders is a server's ladders by category.
type Ladders map[clock.Category]Ladder

// Recompute rebuilds every ladder from the server's rated games in the order given (by
// end time), starting from the seeds (user id → known rating). Use it when the settings
// change; applied game by game, it gives the same ladders as Apply did.
func Recompute(s Settings, seeds map[string]int, games []Game) (Ladders, error) {
	l, _, err := Replay(s, func(_ clock.Category, id string) (int, bool) {
		known, ok := seeds[id]
		return known, ok
	}, games)
	return l, err
}

// SeedFunc returns the known rating an admin seeded a player with in a category, if any.
type SeedFunc func(cat clock.Category, userID string) (int, bool)

// Replayed is what one game of a replay did to its two players.
type Replayed struct {
	Game         Game
	White, Black Change
}

// Replay is Recompute with seeds per category, also returning what each game did, in
// the order of games. seed may be nil (no seeds); a seed out of the ladder bounds counts
// as the nearest bound. Players who played no game are not in the ladders.
func Replay(s Settings, seed SeedFunc, games []Game) (Ladders, []Replayed, error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	out := Ladders{}
	get := func(cat clock.Category, id string) (Player, error) {
		l := out[cat]
		if l == nil {
			l = Ladder{}
			out[cat] = l
		}
		if p, ok := l[id]; ok {
			return p, nil
		}
		if seed != nil {
			if known, ok := seed(cat, id); ok {
				return seeded(s, id, known), nil
			}
		}
		return NewPlayer(s, id), nil
	}
	done := make([]Replayed, 0, len(games))
	for _, g := range games {
		w, err := get(g.Category, g.White)
		if err != nil {
			return nil, nil, err
		}
		b, err := get(g.Category, g.Black)
		if err != nil {
			return nil, nil, err
		}
		var cw, cb Change
		w, b, cw, cb, err = Apply(s, w, b, g)
		if err != nil {
			return nil, nil, err
		}
		out[g.Category][g.White], out[g.Category][g.Black] = w, b
		done = append(done, Replayed{Game: g, White: cw, Black: cb})
	}
	return out, done, nil
}

// Categories lists the ladders a server keeps, in display order.
func Categories() []clock.Category {
	return []clock.Category{clock.Bullet, clock.Blitz, clock.Rapid, clock.Standard, clock.Correspondence, clock.Chess960}
}
