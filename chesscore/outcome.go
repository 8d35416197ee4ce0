// outcome.go: how a game ends: the result (1-0, 0-1, 1/2-1/2), the reason (FIDE Laws 5,
// 6.9 and 9) and their text forms.

package chesscore

import (
	"fmt"
	"strings"
)

// Result is the score of a game as PGN writes it.
type Result uint8

// The four results. NoResult ("*") is a game in progress, or one that ended without a score.
const (
	NoResult Result = iota
	WhiteWins
	BlackWins
	Draw
)

var resultText = [...]string{"*", "1-0", "0-1", "1/2-1/2"}

// String returns "*", "1-0", "0-1" or "1/2-1/2".
func (r Result) String() string {
	if int(r) < len(resultText) {
		return resultText[r]
	}
	return "?"
}

// ParseResult reads "*", "1-0", "0-1" or "1/2-1/2" (also "½-½").
func ParseResult(s string) (Result, error) {
	switch s {
	case "*":
		return NoResult, nil
	case "1-0":
		return WhiteWins, nil
	case "0-1":
		return BlackWins, nil
	case "1/2-1/2", "½-½":
		return Draw, nil
	}
	return NoResult, fmt.Errorf("result %q: want 1-0, 0-1, 1/2-1/2 or *", s)
}

// MarshalText implements encoding.TextMarshaler.
func (r Result) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Result) UnmarshalText(b []byte) error {
	v, err := ParseResult(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// WinFor returns the result of a win by c.
func WinFor(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// Termination is why a game ended.
type Termination uint8

// The reasons a game ends. The first five end it automatically (FIDE 5.1.1, 5.2.1, 5.2.2,
// 9.6.1, 9.6.2); the others need a player's claim or decision, or an outside event.
const (
	// NoTermination: the game is still in progress.
	NoTermination Termination = iota
	// Checkmate ends the game at once (5.1.1); the mating side wins.
	Checkmate
	// Stalemate ends the game at once in a draw (5.2.1).
	Stalemate
	// DeadPosition: neither side can checkmate by any series of legal moves (5.2.2): a draw.
	DeadPosition
	// FivefoldRepetition: the same position a fifth time (9.6.1): a draw without a claim.
	FivefoldRepetition
	// SeventyFiveMoves: 75 moves by each side without a pawn move or capture (9.6.2).
	SeventyFiveMoves
	// ThreefoldRepetition: a draw claimed by the player to move (9.2).
	ThreefoldRepetition
	// FiftyMoves: a draw claimed by the player to move (9.3).
	FiftyMoves
	// Agreement: a draw agreed by both players (9.1).
	Agreement
	// Resignation: a player resigned (5.1.2); a draw when the winner could not checkmate by
	// any series of legal moves.
	Resignation
	// TimeForfeit: a player's flag fell and the opponent could checkmate (6.9).
	TimeForfeit
	// DrawOnTime: a player's flag fell but the opponent could not checkmate by any series
	// of legal moves (6.9): a draw.
	DrawOnTime
	// Abandoned: a player left the game; the opponent wins.
	Abandoned
	// Aborted: the game was called off before it properly began; no result.
	Aborted
	// Adjudication: the result was decided by an arbiter or the server.
	Adjudication
	// RulesInfraction: a player lost by breaking the rules.
	RulesInfraction
	// NoShow: a player did not make their first move within the time an event allows
	// (a tournament's forfeit time); the opponent wins by forfeit and the game does not
	// count as played (TRF codes "+" and "-").
	NoShow
)

// terminationText holds the PGN Termination tag value of each reason: the standard's own
// word where it has one ("time forfeit", "abandoned", "adjudication", "rules infraction",
// "unterminated"), a finer name where the standard only says "normal". The standard has
// no word for a forfeit by absence: NoShow writes "no show" (its "abandoned" is taken by
// Abandoned, a player who left a game under way).
var terminationText = [...]string{
	NoTermination:       "unterminated",
	Checkmate:           "checkmate",
	Stalemate:           "stalemate",
	DeadPosition:        "dead position",
	FivefoldRepetition:  "fivefold repetition",
	SeventyFiveMoves:    "seventy-five moves",
	ThreefoldRepetition: "threefold repetition",
	FiftyMoves:          "fifty moves",
	Agreement:           "agreement",
	Resignation:         "resignation",
	TimeForfeit:         "time forfeit",
	DrawOnTime:          "draw on time",
	Abandoned:           "abandoned",
	Aborted:             "aborted",
	Adjudication:        "adjudication",
	RulesInfraction:     "rules infraction",
	NoShow:              "no show",
}

// String returns the reason in lower case, as the PGN Termination tag carries it, e.g.
// "checkmate", "threefold repetition", "time forfeit".
func (t Termination) String() string {
	if int(t) < len(terminationText) {
		return terminationText[t]
	}
	return fmt.Sprintf("termination(%d)", uint8(t))
}

// ParseTermination reads a Termination tag value, case-insensitively: the names String
// returns, plus the PGN standard's "normal" (reported as ok false: the caller must infer
// the reason from the moves and the result), "death" and "emergency" (as Adjudication).
func ParseTermination(s string) (t Termination, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for i, name := range terminationText {
		if s == name {
			return Termination(i), true
		}
	}
	switch s {
	case "death", "emergency":
		return Adjudication, true
	case "timeout", "time":
		return TimeForfeit, true
	case "no-show", "noshow", "forfeit":
		return NoShow, true
	case "insufficient material":
		return DeadPosition, true
	case "repetition":
		return ThreefoldRepetition, true
	case "50-move rule", "fifty-move rule", "50 moves":
		return FiftyMoves, true
	case "75-move rule", "seventy-five-move rule", "75 moves":
		return SeventyFiveMoves, true
	}
	return NoTermination, false
}

// MarshalText implements encoding.TextMarshaler.
func (t Termination) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; it refuses "normal".
func (t *Termination) UnmarshalText(b []byte) error {
	v, ok := ParseTermination(string(b))
	if !ok {
		return fmt.Errorf("termination %q: not a known reason", b)
	}
	*t = v
	return nil
}

// Automatic reports whether the reason ends a game without any claim or decision: the
// board alone decides it.
func (t Termination) Automatic() bool {
	return t >= Checkmate && t <= SeventyFiveMoves
}

// Outcome is how a game stands: its result and why.
type Outcome struct {
	Result      Result
	Termination Termination
}

// Over reports whether the game has ended (an aborted game has ended without a result).
func (o Outcome) Over() bool { return o.Termination != NoTermination }

// Winner returns the winning colour, and false when there is none (a draw, a game in
// progress, an aborted game).
func (o Outcome) Winner() (Color, bool) {
	switch o.Result {
	case WhiteWins:
		return White, true
	case BlackWins:
		return Black, true
	}
	return White, false
}

// String returns e.g. "1-0 checkmate", "1/2-1/2 stalemate" or "* ongoing".
func (o Outcome) String() string {
	if !o.Over() {
		return "* ongoing"
	}
	return o.Result.String() + " " + o.Termination.String()
}

// Claim is a draw the player to move may claim: threefold repetition (9.2) or the fifty
// moves (9.3), either on the position now on the board (Move is NullMove) or by
// announcing Move, which produces it (9.2.1.1, 9.3.1).
type Claim struct {
	Termination Termination
	Move        Move
}
