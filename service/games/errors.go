// errors.go: the errors a player can cause, each specific, so the bot can answer them.

package games

import (
	"errors"

	"github.com/gambitchess/gambit/chesscore"
)

// Errors of the service, for errors.Is. Every one leaves the stored state as it was,
// except that a request finding a fallen flag records the flag fall first (the game
// was already lost on time; the answer is ErrGameOver, with ErrTimeUp for the player
// whose time ran out). Error texts are written for the player.
var (
	// ErrNoSuchGame: no game has that id.
	ErrNoSuchGame = errors.New("no such game")
	// ErrNoSuchChallenge: no challenge has that id.
	ErrNoSuchChallenge = errors.New("no such challenge")
	// ErrNotAPlayer: the user does not play in the game.
	ErrNotAPlayer = errors.New("you are not playing in this game")
	// ErrNotYourTurn: the request needs the user to have the move.
	ErrNotYourTurn = errors.New("it is not your turn")
	// ErrGameOver: the game has ended (the same error as chesscore's).
	ErrGameOver = chesscore.ErrGameOver
	// ErrTimeUp: the player's time ran out before the request (with ErrGameOver).
	ErrTimeUp = errors.New("your time ran out")
	// ErrStale: the request was made on a position that is no longer on the board (a
	// button under an old board).
	ErrStale = errors.New("the game has moved on since that message; look at the latest board")
	// ErrIllegalMove: the move text is unreadable, illegal or ambiguous; it wraps
	// chesscore's *MoveError, whose Reason says why.
	ErrIllegalMove = errors.New("illegal move")
	// ErrCannotAcceptOwn: accepting one's own challenge, draw offer or takeback request.
	ErrCannotAcceptOwn = errors.New("you cannot accept your own offer")
	// ErrNotYourChallenge: answering a direct challenge made to someone else, or
	// cancelling someone else's challenge.
	ErrNotYourChallenge = errors.New("this challenge is not yours to answer")
	// ErrSelfChallenge: a challenge (or a game) with the same user on both sides.
	ErrSelfChallenge = errors.New("you cannot play against yourself")
	// ErrChallengeExpired: the challenge expired before it was answered.
	ErrChallengeExpired = errors.New("the challenge has expired")
	// ErrChallengeClosed: the challenge was already accepted, declined or cancelled.
	ErrChallengeClosed = errors.New("the challenge is no longer open")
	// ErrNotAllowed: the guild's settings do not let the user challenge.
	ErrNotAllowed = errors.New("you are not allowed to challenge in this server")
	// ErrTooManyDrawOffers: a draw offer beyond the limit (FIDE 11.5 forbids repeated
	// offers): at most Options.MaxDrawOffers per game and one per own move.
	ErrTooManyDrawOffers = errors.New("too many draw offers")
	// ErrOfferWithMove: a draw offer while the opponent is to move, longer than
	// Options.DrawOfferWindow after one's move: an offer goes with one's move (FIDE
	// 9.1.2.1).
	ErrOfferWithMove = errors.New("offer a draw together with your move")
	// ErrOfferPending: an offer or request is already waiting for an answer.
	ErrOfferPending = errors.New("an offer is already waiting for an answer")
	// ErrNoDrawOffer: accepting or declining a draw that nobody offered.
	ErrNoDrawOffer = errors.New("there is no draw offer to answer")
	// ErrTooEarly: a draw before both players have moved (chesscore's error).
	ErrTooEarly = chesscore.ErrTooEarly
	// ErrIncorrectClaim: a draw claim the position does not support (chesscore's
	// error). The intended move of a refused claim is not played.
	ErrIncorrectClaim = chesscore.ErrIncorrectClaim
	// ErrNoTakeback: accepting or declining a takeback nobody asked for.
	ErrNoTakeback = errors.New("there is no takeback request to answer")
	// ErrNothingToTakeBack: a takeback request without a move of one's own to undo.
	ErrNothingToTakeBack = errors.New("you have no move to take back")
	// ErrNoTakebacks: a takeback in a game whose moves are final (FIDE 4.7): a
	// tournament game, or a rated game where the guild has not allowed them.
	ErrNoTakebacks = errors.New("takebacks are not allowed in this game")
	// ErrAlreadyAsked: a second takeback request before one's next move.
	ErrAlreadyAsked = errors.New("you have already asked on this move")
	// ErrTooLateToAbort: abort after both sides have moved (resign instead).
	ErrTooLateToAbort = errors.New("too late to abort: both sides have moved (resign instead)")
	// ErrBadRequest: a malformed request (time control, FEN, colour, missing user).
	ErrBadRequest = errors.New("bad request")
	// ErrClosed: the service was closed.
	ErrClosed = errors.New("the game service is shut down")
)
