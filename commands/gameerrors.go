package commands

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

// gameerrors.go: what a refused request tells the player.

// userFacing lists the service's errors whose text is written for players, with a
// better sentence where the bare text would not say what to do.
var userFacing = []struct {
	err error
	msg string // "" keeps the error's own text
}{
	{games.ErrStale, "This board is out of date: the game has moved on since. Use the latest board, or /board for a fresh one."},
	{games.ErrNotAPlayer, "Only the two players can do that. You are welcome to watch!"},
	{games.ErrTimeUp, "Your time ran out before that reached the board, so the game is over."},
	{games.ErrNoSuchGame, "There is no such game. /games lists yours."},
	{games.ErrNoSuchChallenge, "There is no such challenge any more."},
	{games.ErrNotYourTurn, ""},
	{games.ErrGameOver, "That game is over. /pgn gives you its record."},
	{games.ErrCannotAcceptOwn, ""},
	{games.ErrNotYourChallenge, ""},
	{games.ErrSelfChallenge, ""},
	{games.ErrChallengeExpired, "That challenge has expired. Send a new one with /challenge."},
	{games.ErrChallengeClosed, "That challenge has already been answered."},
	{games.ErrNotAllowed, ""},
	{games.ErrTooManyDrawOffers, ""},
	{games.ErrOfferWithMove, "It is your move: offer a draw together with it, e.g. /move e4 offer_draw:true."},
	{games.ErrOfferPending, ""},
	{games.ErrNoDrawOffer, ""},
	{games.ErrTooEarly, "A draw can be agreed once both players have made a move."},
	{games.ErrIncorrectClaim, "That claim is not correct: the position has not appeared three times, and there have not been fifty moves without a capture or pawn move."},
	{games.ErrNoTakeback, ""},
	{games.ErrNothingToTakeBack, ""},
	{games.ErrAlreadyAsked, ""},
	{games.ErrTooLateToAbort, "Too late to abort: both sides have moved. Resign with /resign instead."},
	{games.ErrClosed, "Gambit is restarting. Try again in a minute."},
}

// gameError turns a service error into what the player reads; errors that are not
// the player's to fix pass through (the router apologises and logs them).
func gameError(err error) error {
	if err == nil {
		return nil
	}
	var me *chesscore.MoveError
	if errors.As(err, &me) {
		return Explain(err, sentence(me.Reason)+" Type /move and pick from the list, or use the menu under the board.")
	}
	var role *games.RoleRequiredError
	if errors.As(err, &role) {
		return Explain(err, fmt.Sprintf("You are not allowed to challenge in this server: you need the role %s.", RoleMention(role.Role)))
	}
	if errors.Is(err, games.ErrBadRequest) {
		text := err.Error()
		if _, after, ok := strings.Cut(text, games.ErrBadRequest.Error()+": "); ok {
			text = after
		}
		return Explain(err, sentence(text))
	}
	for _, u := range userFacing {
		if errors.Is(err, u.err) {
			if u.msg != "" {
				return Explain(err, u.msg)
			}
			return Explain(err, sentence(err.Error()))
		}
	}
	return err
}

// sentence capitalises a message and ends it with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = capitalize(s)
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}
