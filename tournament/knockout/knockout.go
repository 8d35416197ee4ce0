// Package knockout runs a knockout match between two players: a main match
// of N games, then, while the score is level, the tie-break ladder: a rapid
// mini-match, one or more blitz mini-matches, and a single Armageddon game in
// which White has more time and Black wins the match with a draw.
//
// Colours alternate over the whole match: side A has White in the first game
// and in every other game after it; the Armageddon colours are an event
// setting (usually drawn by lot). A mini-match ends early once one side
// cannot be caught. The package is pure: time controls are values and the
// caller records each result.
package knockout

import (
	"errors"
	"fmt"
	"time"
)

// Side names one of the two players.
type Side int

// The two sides of the match.
const (
	A Side = iota
	B
)

// Other returns the opponent side.
func (s Side) Other() Side { return 1 - s }

func (s Side) String() string {
	if s == A {
		return "A"
	}
	return "B"
}

// Stage is a phase of the match.
type Stage int

// Stages in the order they are played.
const (
	Main Stage = iota
	Rapid
	Blitz
	Armageddon
)

func (s Stage) String() string {
	return [...]string{"main", "rapid", "blitz", "armageddon"}[s]
}

// TimeControl is a base time and an increment per move.
type TimeControl struct {
	Base, Increment time.Duration
}

// Result is a game result from White's point of view.
type Result int

// Game results (Pending for a game not yet played).
const (
	Pending Result = iota
	WhiteWins
	Draw
	BlackWins
)

// Config describes the match and its tie-break ladder.
type Config struct {
	Games       int // games of the main match (at least 1)
	Main        TimeControl
	RapidGames  int // games per rapid mini-match (0 skips rapid)
	Rapid       TimeControl
	BlitzGames  int // games per blitz mini-match (0 skips blitz)
	BlitzRounds int // blitz mini-matches before Armageddon (default 1)
	Blitz       TimeControl
	// Armageddon: White must have more time than Black.
	ArmageddonWhite, ArmageddonBlack TimeControl
	ArmageddonWhiteSide              Side
}

// Validate checks the configuration.
func (c Config) Validate() error {
	if c.Games < 1 {
		return fmt.Errorf("knockout: %d main games: want at least 1", c.Games)
	}
	if c.RapidGames < 0 || c.BlitzGames < 0 || c.BlitzRounds < 0 {
		return errors.New("knockout: negative number of tie-break games")
	}
	if c.ArmageddonWhite.Base <= c.ArmageddonBlack.Base {
		return fmt.Errorf("knockout: Armageddon White has %v, Black %v: White must have more time", c.ArmageddonWhite.Base, c.ArmageddonBlack.Base)
	}
	return nil
}

// Game is one game of the match.
type Game struct {
	Stage  Stage
	Round  int // mini-match number within the stage (1-based)
	Number int // game number within the mini-match (1-based)
	White  Side
	Time   TimeControl // White's time; Black's differs only in Armageddon
	Black  TimeControl
	Result Result
}

// Match is the state of one knockout match.
type Match struct {
	cfg   Config
	games []Game
}

// New starts a match.
func New(cfg Config) (*Match, error) {
	if cfg.BlitzRounds == 0 && cfg.BlitzGames > 0 {
		cfg.BlitzRounds = 1
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Match{cfg: cfg}, nil
}

// Games returns the games played or scheduled so far.
func (m *Match) Games() []Game { return append([]Game(nil), m.games...) }

// points returns the half-points of each side over the games of one
// mini-match.
func (m *Match) points(st Stage, round int) (a, b int, n int) {
	for _, g := range m.games {
		if g.Stage != st || g.Round != round || g.Result == Pending {
			continue
		}
		n++
		w, bl := 0, 0
		switch g.Result {
		case WhiteWins:
			w = 2
		case BlackWins:
			bl = 2
		case Draw:
			w, bl = 1, 1
		}
		if g.White == A {
			a, b = a+w, b+bl
		} else {
			a, b = a+bl, b+w
		}
	}
	return
}

// phases lists the mini-matches in order.
func (m *Match) phases() []struct {
	st    Stage
	round int
	games int
	tc    TimeControl
} {
	type ph = struct {
		st    Stage
		round int
		games int
		tc    TimeControl
	}
	out := []ph{{Main, 1, m.cfg.Games, m.cfg.Main}}
	if m.cfg.RapidGames > 0 {
		out = append(out, ph{Rapid, 1, m.cfg.RapidGames, m.cfg.Rapid})
	}
	for r := 1; m.cfg.BlitzGames > 0 && r <= m.cfg.BlitzRounds; r++ {
		out = append(out, ph{Blitz, r, m.cfg.BlitzGames, m.cfg.Blitz})
	}
	out = append(out, ph{Armageddon, 1, 1, m.cfg.ArmageddonWhite})
	return out
}

// Winner returns the winner once the match is decided.
func (m *Match) Winner() (Side, bool) {
	for _, ph := range m.phases() {
		a, b, n := m.points(ph.st, ph.round)
		if ph.st == Armageddon {
			if n == 0 {
				return 0, false
			}
			g := m.games[len(m.games)-1]
			if g.Result == WhiteWins {
				return g.White, true
			}
			return g.White.Other(), true // a draw counts as a win for Black
		}
		left := 2 * (ph.games - n)
		if a-b > left {
			return A, true
		}
		if b-a > left {
			return B, true
		}
		if n < ph.games {
			return 0, false
		}
	}
	return 0, false
}

// Next returns the next game to play, or false when the match is decided.
func (m *Match) Next() (Game, bool) {
	if _, done := m.Winner(); done {
		return Game{}, false
	}
	for _, ph := range m.phases() {
		_, _, n := m.points(ph.st, ph.round)
		if n >= ph.games {
			continue
		}
		g := Game{Stage: ph.st, Round: ph.round, Number: n + 1, Time: ph.tc, Black: ph.tc}
		if ph.st == Armageddon {
			g.White, g.Black = m.cfg.ArmageddonWhiteSide, m.cfg.ArmageddonBlack
		} else if len(m.games)%2 == 0 {
			g.White = A
		} else {
			g.White = B
		}
		return g, true
	}
	return Game{}, false
}

// Record enters the result of the game returned by Next.
func (m *Match) Record(r Result) (Game, error) {
	if r != WhiteWins && r != Draw && r != BlackWins {
		return Game{}, fmt.Errorf("knockout: result %d: want WhiteWins, Draw or BlackWins", r)
	}
	g, ok := m.Next()
	if !ok {
		return Game{}, errors.New("knockout: the match is already decided")
	}
	g.Result = r
	m.games = append(m.games, g)
	return g, nil
}
