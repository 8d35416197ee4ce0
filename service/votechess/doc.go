// Package votechess runs vote chess: a server's team plays the engine, each of the
// team's moves chosen by the votes of the members who joined it. It knows nothing of
// Discord: the game is an ordinary game against the engine (service/engineplay plays
// the engine's side, service/games keeps the board, the events and the thread), with
// the team as the other player under an id that is nobody's (storage.VoteGame.TeamID),
// so that no person can move for the team except through the vote.
//
// # The vote
//
// Start creates the game and its vote record (storage.VoteGame) in one transaction;
// the member who started it is the team's first member, and anyone on the server may
// Join. When the team is to move, a vote opens for that ply and stays open for the
// game's window (the team's correspondence clock: every move has the same time). A
// member casts one ballot per vote (Vote); a member who votes again changes the
// ballot, which replaces the first. Ballots from outside the team, for a vote that has
// closed (by time, or another ply's), or for a move that is not legal are refused with
// a specific error, and change nothing.
//
// When the window ends, the vote closes: the move with the most ballots is played as
// the team's. A tie goes to the move whose earliest standing ballot came first (the
// move the team thought of first), then to the lower UCI text, so the same ballots
// always choose the same move. The close and the move are one transaction (the vote
// record is written in the move's commit, games.Action.After): there is no state in
// which the vote closed but its move is lost, or the move was played twice. The engine
// then replies (service/engineplay, as in every game against it), and the next vote
// opens when the game's event says the team is to move again.
//
// A vote that closes without a ballot moves its close on by one window. After
// MaxEmptyVotes (3) such votes in a row, the team resigns: nobody is playing any more,
// and a game that waits for ever holds the channel. A game that ends otherwise
// (checkmate, a draw, the engine's win) marks the record over, and nothing more is
// voted.
//
// # Deadlines and several processes
//
// The closes are entries of one scheduler (internal/timers), rebuilt from the store's
// live vote games at start-up and at Adopt, and looked at again every DiscoverEvery
// for work another process wrote (an engine reply played there). Every change to a
// vote record is written from the version read (storage.PutVoteGame), so of two
// processes (or two ballots, or a ballot and the close) acting on one read exactly one
// lands and the other reads again; the team's move carries the request id of its game
// and ply, so the games service plays it once. A process killed between two steps
// leaves a record the next reconcile finishes: a vote due to close is closed, a vote
// owed to the team is opened, a vote opened but never announced is announced again
// (at least once: a post made just before the kill may be made twice).
//
// # What a member sees
//
// The tally of a vote counts ballots per move and never says who voted what: a ballot
// is the member's own business, and nobody is pressed to follow a friend's choice.
// The choices are every legal move when there are at most MaxChoices; otherwise the
// built-in engine's best candidates (a search bounded by nodes, so every process
// offers the same ones) and the moves already voted for. Any legal move may be voted
// for by its notation (SAN or UCI) all the same.
package votechess
