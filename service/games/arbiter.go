// arbiter.go: the arbiter's decisions on a game (FIDE 12): adjudicate the result, add
// time to a clock, forfeit a player who has left, abort; each recorded in the game.

package games

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// ArbiterAction is what an arbiter does to a game.
type ArbiterAction int

// The arbiter's actions.
const (
	// Adjudicate ends the game with ArbiterRequest.Result (chesscore.Adjudication).
	Adjudicate ArbiterAction = iota + 1
	// AddTime adds ArbiterRequest.Time to the clock of ArbiterRequest.Color.
	AddTime
	// Forfeit ends the game against ArbiterRequest.Color, a player who has left: the
	// opponent wins (chesscore.Abandoned).
	Forfeit
	// AbortGame calls the game off without a result, whatever its stage.
	AbortGame
)

// Bounds of an arbiter's request.
const (
	// MaxReason is the longest reason, in characters.
	MaxReason = 200
	// MaxAddedTime is the most time one request adds to a clock (a correspondence
	// deadline may need days).
	MaxAddedTime = 30 * 24 * time.Hour
)

// ErrNoReason: an arbiter's decision without a reason.
var ErrNoReason = errors.New("give the reason for the decision")

// ErrArbiterPlays: an arbiter's decision on a game they play in. Nobody arbitrates
// their own game, whatever their authority: a server owner who plays needs another
// arbiter.
var ErrArbiterPlays = errors.New("an arbiter does not decide a game they play in")

// ArbiterRequest is an arbiter's decision on a game.
type ArbiterRequest struct {
	// RequestID is the idempotency key, as in Action.
	RequestID string
	// GameID is the game; GuildID the server the arbiter acts for. A game of another
	// server (or of none) is answered exactly as a game that does not exist.
	GameID  uint64
	GuildID string
	// Arbiter is who decides; the caller has checked their authority.
	Arbiter storage.Player
	Action  ArbiterAction
	// Result is the adjudicated result (1-0, 0-1 or 1/2-1/2).
	Result chesscore.Result
	// Color is the player whose clock gets time, or who forfeits.
	Color chesscore.Color
	// Time is the time added, from a second to MaxAddedTime.
	Time time.Duration
	// Reason says why, in at most MaxReason characters; it is recorded.
	Reason string
	// Expect, when set, refuses the request with ErrStale unless the game is at that
	// ply (the bot reserves its posts at the ply it saw).
	Expect Ply
}

// Arbitrate applies an arbiter's decision to a live game and records it in the game
// (storage.Note, a comment of the exported PGN). A decision that ends the game ends it
// like any other ending: the OnFinish hook (ladder, tournament) and GameOver follow.
// The ladder rates an adjudicated or forfeited game only if both sides had moved.
func (s *Service) Arbitrate(ctx context.Context, r ArbiterRequest) (*Result, error) {
	reason := strings.Join(strings.Fields(r.Reason), " ")
	switch {
	case r.GuildID == "":
		return nil, fmt.Errorf("%w: an arbiter acts for a server", ErrBadRequest)
	case reason == "":
		return nil, ErrNoReason
	case utf8.RuneCountInString(reason) > MaxReason:
		return nil, fmt.Errorf("%w: the reason is %d characters long (at most %d)", ErrBadRequest, utf8.RuneCountInString(reason), MaxReason)
	case r.Arbiter.ID == "" || len(r.Arbiter.ID) > storage.MaxIDLen || len(r.Arbiter.Name) > storage.MaxNameLen:
		return nil, fmt.Errorf("%w: the arbiter's id or name", ErrBadRequest)
	case r.Color != chesscore.White && r.Color != chesscore.Black:
		return nil, fmt.Errorf("%w: colour %d", ErrBadRequest, r.Color)
	}
	guild := func(rec *storage.Game) (chesscore.Color, bool, error) {
		if rec.GuildID != r.GuildID {
			return chesscore.White, false, fmt.Errorf("game %d: %w", r.GameID, ErrNoSuchGame) // as load says it
		}
		if rec.White.ID == r.Arbiter.ID || rec.Black.ID == r.Arbiter.ID {
			return chesscore.White, false, fmt.Errorf("game %d: %w", r.GameID, ErrArbiterPlays)
		}
		return chesscore.White, false, nil
	}
	return s.op(ctx, r.RequestID, r.GameID, r.Expect, EffectArbiter, guild, func(st *opState) error {
		if len(st.rec.Notes) >= storage.MaxNotes {
			return fmt.Errorf("%w: game %d already has %d arbiter's decisions, the most one game keeps", ErrBadRequest, r.GameID, storage.MaxNotes)
		}
		action, err := st.arbitrate(r)
		if err != nil {
			return err
		}
		st.rec.Notes = append(st.rec.Notes, storage.Note{Ply: st.rec.Ply(), At: st.now, By: r.Arbiter, Action: action, Reason: reason})
		return nil
	})
}

// arbitrate applies the decision to the working copies and says what was done.
func (st *opState) arbitrate(r ArbiterRequest) (string, error) {
	switch r.Action {
	case Adjudicate:
		if r.Result != chesscore.WhiteWins && r.Result != chesscore.BlackWins && r.Result != chesscore.Draw {
			return "", fmt.Errorf("%w: adjudicate 1-0, 0-1 or 1/2-1/2, not %s", ErrBadRequest, r.Result)
		}
		if err := st.chess.End(chesscore.Outcome{Result: r.Result, Termination: chesscore.Adjudication}); err != nil {
			return "", err
		}
		return "adjudicated the game " + r.Result.String(), nil
	case AddTime:
		c := st.rec.Clock
		switch {
		case c == nil:
			return "", fmt.Errorf("%w: game %d has no clock", ErrBadRequest, r.GameID)
		case r.Time < time.Second || r.Time > MaxAddedTime:
			return "", fmt.Errorf("%w: add from 1 second to %d days", ErrBadRequest, int(MaxAddedTime/(24*time.Hour)))
		}
		// Left is the main time of the side to move as its turn began, and of the other
		// side as it is: either way the remaining time grows by exactly r.Time.
		c.Left[r.Color] += r.Time
		return fmt.Sprintf("added %s to %s's clock", DurationText(r.Time), side(r.Color)), nil
	case Forfeit:
		if err := st.chess.Abandon(r.Color); err != nil {
			return "", err
		}
		return fmt.Sprintf("forfeited %s, who has left the game", side(r.Color)), nil
	case AbortGame:
		if err := st.chess.Abort(); err != nil {
			return "", err
		}
		return "aborted the game", nil
	}
	return "", fmt.Errorf("%w: unknown arbiter's action %d", ErrBadRequest, r.Action)
}

// side names a colour as a player: "White" or "Black".
func side(c chesscore.Color) string {
	if c == chesscore.White {
		return "White"
	}
	return "Black"
}

// DurationText writes a duration as people read it: "2 min", "1 h 30 min", "45 s",
// "3 days 2 h".
func DurationText(d time.Duration) string {
	d = d.Round(time.Second)
	parts := []struct {
		n    time.Duration
		unit string
	}{{d / (24 * time.Hour), " days"}, {d % (24 * time.Hour) / time.Hour, " h"}, {d % time.Hour / time.Minute, " min"}, {d % time.Minute / time.Second, " s"}}
	var out []string
	for _, p := range parts {
		if p.n == 0 {
			continue
		}
		unit := p.unit
		if p.n == 1 && unit == " days" {
			unit = " day"
		}
		out = append(out, fmt.Sprint(int64(p.n))+unit)
	}
	if len(out) == 0 {
		return "0 s"
	}
	return strings.Join(out, " ")
}
