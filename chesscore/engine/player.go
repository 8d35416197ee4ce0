// player.go: the Player abstraction the game service plays the bot through, and the
// built-in engine's implementation of it.

package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
)

// Player chooses moves for one side of a game. The built-in engine (Bot) and an
// external UCI engine (uci.Client) both implement it.
type Player interface {
	// BestMove returns the move to play in g's current position. tl is the side to
	// move's clock, or nil for an untimed game (the player then uses its own default
	// thinking time). It returns when ctx is done, with the best move found so far if
	// there is one.
	BestMove(ctx context.Context, g *cc.Game, tl *TimeLeft) (cc.Move, error)
}

// ErrGameOver is returned when asked for a move in a finished game.
var ErrGameOver = errors.New("the game is over")

// Bot is the built-in engine as a Player at a level. It is safe for concurrent use (one
// search at a time).
type Bot struct {
	// Engine searches; New(Options{}) if nil.
	Engine *Engine
	// Level is the playing strength (the zero Level is full strength).
	Level Level
	// Rand supplies the randomness of levels below the top; required for them.
	Rand *rand.Rand
	// Now is the clock for time limits; required.
	Now func() time.Time
	// Untimed is the thinking time per move without a clock (0: one second).
	Untimed time.Duration
	// MaxThink caps the thinking time of one move on any clock (0: no cap beyond the
	// time manager's own).
	MaxThink time.Duration

	mu sync.Mutex
}

var _ Player = (*Bot)(nil)

// BestMove implements Player.
func (b *Bot) BestMove(ctx context.Context, g *cc.Game, tl *TimeLeft) (cc.Move, error) {
	if g.Over() {
		return cc.NullMove, ErrGameOver
	}
	if b.Now == nil {
		return cc.NullMove, ErrNoClock
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.Engine == nil {
		b.Engine = New(Options{})
	}
	lim := Limits{Now: b.Now, Done: ctx.Done()}
	if tl != nil {
		t := *tl
		if b.MaxThink > 0 && (t.MaxThink == 0 || t.MaxThink > b.MaxThink) {
			t.MaxThink = b.MaxThink
		}
		lim.Clock = &t
	} else {
		lim.MoveTime = b.Untimed
		if lim.MoveTime <= 0 {
			lim.MoveTime = time.Second
		}
	}
	keys := g.Keys()
	res, err := b.Engine.Play(g.Position(), keys[:len(keys)-1], lim, b.Level, b.Rand)
	if err != nil {
		return cc.NullMove, fmt.Errorf("built-in engine: %w", err)
	}
	if res.Move == cc.NullMove {
		p := g.Position()
		return cc.NullMove, fmt.Errorf("built-in engine: no move in %s", p.FEN())
	}
	return res.Move, nil
}
