// Package arena runs the online "arena" format: for a fixed duration,
// players who are free are paired again at once, and the winner is the one
// with the most points at the end.
//
// Scoring (documented choice, after the common online convention):
//   - a win is worth Win points (2), a draw Draw (1), a loss Loss (0);
//   - after StreakWins consecutive wins (2) a player is "on fire": every
//     further game scores double until a game is not won (a draw on fire
//     scores 2 and ends the streak);
//   - berserk: before the first move a player may halve their own main time
//     (the increment, shared by both sides' control, stays); winning a
//     berserked game adds BerserkBonus (1).
//
// Pairing: when Pair is called, all waiting players are sorted by score,
// then rating, and paired neighbour with neighbour, avoiding a rematch of the
// previous game when another neighbour is free. The player with fewer Whites
// (then the one who had Black last) gets White. No game starts after the end.
// The package is pure: the caller passes the time in.
package arena

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// Config is the arena's settings.
type Config struct {
	Start        time.Time
	Duration     time.Duration
	Win, Draw    int
	Loss         int
	StreakWins   int
	Berserk      bool
	BerserkBonus int
}

// DefaultConfig returns the documented scoring with the given start and
// duration.
func DefaultConfig(start time.Time, d time.Duration) Config {
	return Config{Start: start, Duration: d, Win: 2, Draw: 1, Loss: 0, StreakWins: 2, Berserk: true, BerserkBonus: 1}
}

// Result of a game from White's point of view.
type Result int

// Game results.
const (
	WhiteWins Result = iota + 1
	Draw
	BlackWins
)

type entrant struct {
	id      string
	rating  int
	score   int
	streak  int
	waiting bool
	playing bool
	whites  int
	games   int
	last    string // last opponent
	lastCol int    // +1 White, -1 Black
}

// Game is a pairing made by the arena.
type Game struct {
	ID           int
	White, Black string
	Started      time.Time
	BerserkWhite bool
	BerserkBlack bool
	Result       Result
}

// Arena is the running state.
type Arena struct {
	cfg     Config
	players map[string]*entrant
	order   []string
	games   []*Game
}

// New creates an arena.
func New(cfg Config) (*Arena, error) {
	if cfg.Duration <= 0 {
		return nil, fmt.Errorf("arena: duration %v: want a positive duration", cfg.Duration)
	}
	if cfg.StreakWins < 0 || cfg.Win < cfg.Draw || cfg.Draw < cfg.Loss {
		return nil, errors.New("arena: scoring must satisfy win >= draw >= loss and a non-negative streak")
	}
	return &Arena{cfg: cfg, players: map[string]*entrant{}}, nil
}

// End returns the end of the arena.
func (a *Arena) End() time.Time { return a.cfg.Start.Add(a.cfg.Duration) }

// Join adds a player (or brings a paused player back) to the waiting pool.
func (a *Arena) Join(id string, rating int, now time.Time) error {
	if !now.Before(a.End()) {
		return errors.New("arena: finished")
	}
	p, ok := a.players[id]
	if !ok {
		p = &entrant{id: id, rating: rating}
		a.players[id] = p
		a.order = append(a.order, id)
	}
	if !p.playing {
		p.waiting = true
	}
	return nil
}

// Pause takes a player out of the waiting pool (their score stays).
func (a *Arena) Pause(id string) {
	if p, ok := a.players[id]; ok {
		p.waiting = false
	}
}

// Pair pairs the waiting players and returns the new games.
func (a *Arena) Pair(now time.Time) []*Game {
	if now.Before(a.cfg.Start) || !now.Before(a.End()) {
		return nil
	}
	var w []*entrant
	for _, id := range a.order {
		if p := a.players[id]; p.waiting && !p.playing {
			w = append(w, p)
		}
	}
	sort.SliceStable(w, func(i, j int) bool {
		if w[i].score != w[j].score {
			return w[i].score > w[j].score
		}
		if w[i].rating != w[j].rating {
			return w[i].rating > w[j].rating
		}
		return w[i].id < w[j].id
	})
	var out []*Game
	for len(w) >= 2 {
		x, k := w[0], 1
		if w[1].id == x.last && len(w) > 2 {
			k = 2
		}
		y := w[k]
		w = append(w[1:k], w[k+1:]...)
		white, black := x, y
		if y.whites < x.whites || (y.whites == x.whites && y.lastCol < x.lastCol) {
			white, black = y, x
		}
		g := &Game{ID: len(a.games) + 1, White: white.id, Black: black.id, Started: now}
		a.games = append(a.games, g)
		for _, p := range []*entrant{x, y} {
			p.playing, p.waiting = true, false
		}
		out = append(out, g)
	}
	return out
}

// Berserk halves the clock of player in game id; it returns the new base time.
func (a *Arena) Berserk(id int, player string, base time.Duration) (time.Duration, error) {
	if !a.cfg.Berserk {
		return base, errors.New("arena: berserk is off")
	}
	g, err := a.game(id)
	if err != nil {
		return base, err
	}
	switch player {
	case g.White:
		g.BerserkWhite = true
	case g.Black:
		g.BerserkBlack = true
	default:
		return base, fmt.Errorf("arena: %s does not play game %d", player, id)
	}
	return base / 2, nil
}

func (a *Arena) game(id int) (*Game, error) {
	if id < 1 || id > len(a.games) {
		return nil, fmt.Errorf("arena: no game %d", id)
	}
	return a.games[id-1], nil
}

// Report records a finished game; both players go back to the waiting pool.
// It returns the points each side scored.
func (a *Arena) Report(id int, r Result) (white, black int, err error) {
	g, err := a.game(id)
	if err != nil {
		return 0, 0, err
	}
	if g.Result != 0 {
		return 0, 0, fmt.Errorf("arena: game %d already reported", id)
	}
	if r != WhiteWins && r != Draw && r != BlackWins {
		return 0, 0, fmt.Errorf("arena: result %d: want WhiteWins, Draw or BlackWins", r)
	}
	g.Result = r
	w, b := a.players[g.White], a.players[g.Black]
	score := func(p *entrant, won, drew, berserk bool) int {
		fire := a.cfg.StreakWins > 0 && p.streak >= a.cfg.StreakWins
		pts := a.cfg.Loss
		switch {
		case won:
			pts = a.cfg.Win
			p.streak++
		case drew:
			pts = a.cfg.Draw
			p.streak = 0
		default:
			p.streak = 0
		}
		if fire {
			pts *= 2
		}
		if won && berserk {
			pts += a.cfg.BerserkBonus
		}
		p.score += pts
		return pts
	}
	white = score(w, r == WhiteWins, r == Draw, g.BerserkWhite)
	black = score(b, r == BlackWins, r == Draw, g.BerserkBlack)
	w.whites++
	w.lastCol, b.lastCol = 1, -1
	w.last, b.last = b.id, w.id
	for _, p := range []*entrant{w, b} {
		p.games++
		p.playing, p.waiting = false, true
	}
	return white, black, nil
}

// Standing is one line of the arena table.
type Standing struct {
	Player string
	Score  int
	Games  int
	OnFire bool
}

// Standings ranks by score, then rating, then id.
func (a *Arena) Standings() []Standing {
	var out []Standing
	ids := append([]string(nil), a.order...)
	sort.SliceStable(ids, func(i, j int) bool {
		p, q := a.players[ids[i]], a.players[ids[j]]
		if p.score != q.score {
			return p.score > q.score
		}
		if p.rating != q.rating {
			return p.rating > q.rating
		}
		return p.id < q.id
	})
	for _, id := range ids {
		p := a.players[id]
		out = append(out, Standing{Player: id, Score: p.score, Games: p.games, OnFire: a.cfg.StreakWins > 0 && p.streak >= a.cfg.StreakWins})
	}
	return out
}
