// view.go: what callers see of a game (a snapshot), what a request returns, and the
// replay of a stored game.

package games

import (
	"fmt"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/storage"
)

// Game is a snapshot of a game as committed: the stored record (a copy: changing it
// changes nothing) with the position and the SAN of the moves. Snapshots are not
// updated; ask the service again for the latest.
type Game struct {
	storage.Game
	// Position is the position on the board.
	Position chesscore.Position
	// SAN holds the moves in Standard Algebraic Notation.
	SAN []string

	chess *chesscore.Game // shared with the cache: read only
}

// Turn returns the side to move.
func (g *Game) Turn() chesscore.Color { return g.chess.Turn() }

// LastMove returns the last move played, if any.
func (g *Game) LastMove() (chesscore.Move, bool) {
	if len(g.Moves) == 0 {
		return chesscore.NullMove, false
	}
	return g.Moves[len(g.Moves)-1], true
}

// Claimable returns the draws the player to move may claim now (see
// chesscore.Game.Claimable).
func (g *Game) Claimable() []chesscore.Claim { return g.chess.Claimable() }

// Chess returns the game as a chesscore.Game of its own, to analyse or export.
func (g *Game) Chess() *chesscore.Game { return g.chess.Clone() }

// Remaining returns the time c has left at now; false for an untimed game.
func (g *Game) Remaining(c chesscore.Color, now time.Time) (time.Duration, bool) {
	if g.Clock == nil {
		return 0, false
	}
	return g.Clock.Remaining(c, now), true
}

// Deadline returns the instant the side to move's flag falls if nothing changes (the
// correspondence deadline for a correspondence game), or zero when no clock runs.
func (g *Game) Deadline() time.Time {
	if g.Clock == nil || !g.Live() {
		return time.Time{}
	}
	return g.Clock.FlagAt()
}

// PGN returns the game in PGN export format, with [%clk] comments for a timed game.
func (g *Game) PGN() string {
	pg := chesscore.NewPGNGame(g.Chess())
	pg.Tags["Event"] = "Gambit game"
	if g.GuildID == "" {
		pg.Tags["Site"] = "Gambit terminal"
	} else {
		pg.Tags["Site"] = "Discord guild " + g.GuildID
	}
	pg.Tags["Date"] = g.Created.UTC().Format("2006.01.02")
	pg.Tags["White"] = g.White.Name
	pg.Tags["Black"] = g.Black.Name
	pg.Tags["GameId"] = fmt.Sprint(g.ID)
	if k := g.Control.Kind(); k != clock.KindUnknown {
		pg.Tags["TimeControl"] = g.Control.PGN()
	}
	if len(g.MoveClocks) == len(pg.Moves) {
		for i := range pg.Moves {
			pg.Moves[i].Clock, pg.Moves[i].HasClock = g.MoveClocks[i], true
		}
	}
	for _, n := range g.Notes { // after the move they followed, or before the first
		text := NoteText(n)
		if n.Ply > 0 && n.Ply <= len(pg.Moves) {
			pg.Moves[n.Ply-1].Comment = joinText(pg.Moves[n.Ply-1].Comment, text)
		} else {
			pg.Comment = joinText(pg.Comment, text)
		}
	}
	var b strings.Builder
	if err := chesscore.WritePGN(&b, pg); err != nil {
		return fmt.Sprintf("[Event \"Gambit game\"]\n\n{ cannot write PGN: %v } *\n", err)
	}
	return b.String()
}

// NoteText is an arbiter's note as one line: "Arbiter Ann added 2 min to Black's
// clock: a power cut." The text is made safe for a PGN comment: no braces, no word
// that a reader could take for an escape or a command ("%", "[%"), no word longer than
// 60 characters (PGN lines stay short).
func NoteText(n storage.Note) string {
	text := fmt.Sprintf("Arbiter %s %s: %s", n.By.Name, n.Action, n.Reason)
	if !strings.HasSuffix(text, ".") {
		text += "."
	}
	text = strings.NewReplacer("{", "(", "}", ")", "%", "％").Replace(text)
	words := strings.Fields(text)
	for i, w := range words {
		if r := []rune(w); len(r) > 60 {
			var parts []string
			for len(r) > 60 {
				parts, r = append(parts, string(r[:60])), r[60:]
			}
			words[i] = strings.Join(append(parts, string(r)), " ")
		}
	}
	return strings.Join(words, " ")
}

func joinText(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// entry is a committed game: the record and its replayed chess. Entries are never
// changed once made; a change makes a new entry.
type entry struct {
	rec   *storage.Game
	chess *chesscore.Game
	// wrote: this process made the game's last write, so it knows the game's deadlines
	// first-hand and fires them even for a server it does not own (the owner may not
	// have seen the game yet); the stored version lets one of the two write the result.
	wrote bool
}

// view returns a snapshot of e.
func (e *entry) view() *Game {
	return &Game{Game: *e.rec.Clone(), Position: e.chess.Position(), SAN: e.chess.SAN(), chess: e.chess}
}

// Replay plays a stored game's moves from its start position and checks that the
// record's outcome agrees with the board: every stored game must replay. The
// dead-position test runs only on the final position of a game that is over: a live
// game's position is decided by the next question asked of it (a move, a flag fall, a
// resignation), so that loading one costs no search (chesscore.ReplayGame), unless the
// record carries the decision made after its last move (storage.Game.Mates), which the
// game takes back.
func Replay(rec *storage.Game) (*chesscore.Game, error) {
	start := chesscore.StartPosition()
	if rec.StartFEN != "" {
		var err error
		if start, err = chesscore.ParseFEN(rec.StartFEN); err != nil {
			return nil, fmt.Errorf("replay game %d: start position: %w", rec.ID, err)
		}
	}
	if err := start.SetVariant(rec.Variant); err != nil {
		return nil, fmt.Errorf("replay game %d: %w", rec.ID, err)
	}
	g, err := chesscore.ReplayGame(start, rec.Moves, dead.Decider{})
	if err != nil {
		return nil, fmt.Errorf("replay game %d: %w", rec.ID, err)
	}
	if rec.Outcome.Over() {
		g.SettleDeadPosition() // a game over by a dead position shows it
	} else {
		g.AddMateKnowledge(rec.Mates) // what was decided after the last move
	}
	switch {
	case rec.Outcome.Over() && !g.Over():
		if err := g.End(rec.Outcome); err != nil {
			return nil, fmt.Errorf("replay game %d: recorded outcome %s: %w", rec.ID, rec.Outcome, err)
		}
	case rec.Outcome.Over() && g.Outcome() != rec.Outcome:
		return nil, fmt.Errorf("replay game %d: recorded %s, but the board says %s", rec.ID, rec.Outcome, g.Outcome())
	case !rec.Outcome.Over() && g.Over():
		return nil, fmt.Errorf("replay game %d: recorded as live, but the board says %s", rec.ID, g.Outcome())
	}
	return g, nil
}

// Ply is the ply a request expects the game to be at (the board the player saw). The
// zero Ply expects nothing.
type Ply struct {
	n   int
	set bool
}

// AtPly returns the expectation that the game is at ply n.
func AtPly(n int) Ply { return Ply{n: n, set: true} }

// Effect says what a request did.
type Effect string

// The effects of requests.
const (
	EffectChallenged        Effect = "challenged"
	EffectAccepted          Effect = "accepted"
	EffectDeclined          Effect = "declined"
	EffectCancelled         Effect = "cancelled"
	EffectStarted           Effect = "started"
	EffectMoved             Effect = "moved"
	EffectDrawOffered       Effect = "draw offered"
	EffectDrawWithMove      Effect = "draw offer with the next move"
	EffectDrawAccepted      Effect = "draw accepted"
	EffectDrawDeclined      Effect = "draw declined"
	EffectDrawClaimed       Effect = "draw claimed"
	EffectResigned          Effect = "resigned"
	EffectAborted           Effect = "aborted"
	EffectTakebackRequested Effect = "takeback requested"
	EffectTakebackAccepted  Effect = "takeback accepted"
	EffectTakebackDeclined  Effect = "takeback declined"
	EffectBerserk           Effect = "berserk"
	EffectArbiter           Effect = "arbiter's decision"
)

// Result is the answer to a request that changed something.
type Result struct {
	// Effect is what the request did.
	Effect Effect
	// Game is the game the request was about, as it is now (for a replayed request,
	// as it is at the replay, which may be later than the first answer).
	Game *Game
	// Challenge is the challenge the request was about, if any, as it is now.
	Challenge *storage.Challenge
	// SAN is the move the request played, if any; Ply is the game's ply right after the
	// request, and Outcome the game's outcome right after it.
	SAN     string
	Ply     int
	Outcome chesscore.Outcome
	// Replayed is true when the request id had been seen before: nothing was done now,
	// and the fields above come from the first request's receipt.
	Replayed bool
}

// Action is a request about a game by one of its players.
type Action struct {
	// RequestID is the idempotency key (the Discord interaction id): a request with a
	// known id returns the first answer without acting again. Empty disables it.
	RequestID string
	GameID    uint64
	UserID    string
	// Expect, when set, refuses the request with ErrStale unless the game is at that ply.
	Expect Ply
	// After, if set, runs in the transaction that commits the request, with the game's
	// record as it is committed: a vote game records the close of its vote with the
	// team's move, so the two land together or not at all. An error fails the request
	// and nothing is written. It may run more than once (a retried group commit), so
	// it must write only through tx; a replayed request runs nothing.
	After func(tx storage.Tx, rec *storage.Game) error
}

// MoveRequest is a move, optionally with a draw offer.
type MoveRequest struct {
	Action
	// Move is the move in SAN, UCI or long algebraic notation.
	Move string
	// OfferDraw offers a draw with the move (FIDE 9.1.2.1).
	OfferDraw bool
}

// ClaimRequest is a draw claim by the player to move: on the position on the board
// (Move empty) or by announcing Move, which produces the third repetition or completes
// the fifty moves (FIDE 9.2, 9.3).
type ClaimRequest struct {
	Action
	Move string
}
