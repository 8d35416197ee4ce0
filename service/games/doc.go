// Package games is Gambit's game service, without Discord: challenges, games, moves,
// draw offers and claims, resignations, aborts, takebacks and clocks, over the store
// (package storage) and the rules (package chesscore). The bot turns interactions into
// calls of this package and posts its events; gambit play drives it from a terminal.
//
// # Requests
//
// Every request that changes something takes a request id (the Discord interaction id)
// and returns a *Result. The request's effect and a receipt of it are committed in one
// transaction, so a repeated id returns the first answer (Result.Replayed) without
// acting again, also after a restart; receipts are kept for Options.ReceiptTTL. A
// request that fails changes nothing and leaves no receipt, so it may be retried; the
// errors (errors.go) are specific, for the bot to answer ephemerally. A request may
// carry the ply the player saw (Action.Expect) and is then refused with ErrStale if the
// game has moved on: two clicks on an old board cannot both act.
//
// Requests on one game are serialised by the game's lock (a striped table of mutexes):
// load, validate, apply to working copies, commit, publish. Requests by id and
// challenges have lock tables of their own, taken before a game's and never after, so
// starting a game (the request's or challenge's lock, then the new game's) cannot
// deadlock. Two moves racing on one game
// give one move and one ErrNotYourTurn (or ErrStale). A request is answered only after
// its transaction is on disk. Commits of different games are grouped into shared
// transactions by the store (group commit), so many games moving at once share an
// fsync.
//
// Live games are kept replayed in a cache of immutable entries (a change makes a new
// entry, published after commit), so reads need no lock and a failed commit leaves
// nothing to undo. Options.CacheSize < 0 turns it off: every request then replays the
// game from the store.
//
// # Rules
//
// Outcomes come from chesscore: checkmate, stalemate, dead position, fivefold
// repetition and seventy-five moves end a game by themselves; claims (threefold, fifty
// moves, on the board or with the intended move) are checked before they are made;
// resignation and flag fall against a player who cannot be checkmated are draws
// (FIDE 6.9 via the game's dead.Decider).
//
// A draw is offered with one's move (FIDE 9.1.2.1): with MoveRequest.OfferDraw, or by
// OfferDraw on one's own turn (the offer then waits, unseen, for one's next move and
// is made with it), or by OfferDraw right after one's move (within
// Options.DrawOfferWindow, 15 s by default: the online "before pressing the clock").
// An offer while the opponent thinks, later than that, is refused (ErrOfferWithMove).
// An offer stands until the opponent accepts, declines or moves (9.1.2.3). Against
// repeated offers (11.5) a player may offer at most once per own move and
// Options.MaxDrawOffers times in a game. A draw needs both players to have moved
// (ErrTooEarly), an abort needs one of them not to have (ErrTooLateToAbort).
//
// A completed move is final (4.7), so takebacks are for casual games (games against
// the engine included); a rated game allows them only where the guild's settings say
// so (storage.GuildSettings.RatedTakebacks), a tournament game never
// (ErrNoTakebacks). A takeback request undoes the requester's last move (and the
// reply, if the opponent has made one) once the opponent accepts; the clocks go back to
// what they showed when those moves were made.
//
// A game in which a side has not moved yet is not a game played: resigning it, or a
// flag falling in it (a correspondence clock runs from the first move), aborts it (no
// result, never rated), as on the big chess sites, so that a second account cannot
// hand out rating by resigning at once. Tournament games keep their result (their
// forfeit time covers absence); the ladder rates no game of fewer than two moves.
//
// # The arbiter
//
// Arbitrate carries out an arbiter's decision (FIDE 12) on a live game of the
// arbiter's server: adjudicate the result, add time to a player's clock, forfeit a
// player who has left, abort. Each is recorded in the game (storage.Note: who, what,
// why, when, at which ply) and exported as a PGN comment; a game of another server is
// answered as one that does not exist. Who may be an arbiter is the caller's business
// (the bot: Manage Server, or the guild's arbiter role).
//
// # Conditional moves
//
// In a correspondence game (where the guild's settings allow them), a player queues
// replies while the opponent is to move (AddPlanLine, RemovePlanLines, ClearPlan; Plan
// shows them to their author alone). The opponent's foreseen move and the reply are
// committed together (conditional.go says why), the reply pressing the clock as a move
// of its own; an unforeseen move, a takeback or the end drops the plan.

// # Clocks and timers
//
// Live games use the online custom: each side's first move is untimed, and a game
// whose first moves do not come within Options.FirstMoveTimeout is aborted. The
// increment is added after each move. Correspondence games have a deadline per move and
// a reminder before it (UserPrefs.Reminders, ReminderBefore). Every deadline is an entry
// in one scheduler (package timers), rebuilt from the store at start-up; Run fires
// them. A move that arrives after its flag fell is refused with ErrTimeUp, and the flag
// fall is recorded.
//
// Downtime policy: nobody loses on time because the service was down. A clock is
// charged only while the service is known to be alive, up to its last heartbeat
// (every Options.Heartbeat, 2 s by default, and at Close) or the game's last event if
// later. At start-up each running clock is paused at that instant and resumed at the
// restart: the player to move finds the time they had when the service went down, give
// or take one heartbeat interval in their favour. A flag that fell while the service was
// still up (before its last heartbeat) stands and is recorded at start-up.
// Correspondence deadlines, reminders and first-move abort deadlines move with the
// clocks. Processes that run the same games on one store (Options.Peers) vouch for one
// another: a process that starts credits the time since the latest heartbeat of any of
// them, so a new process started while others run credits nothing, and the first
// process of a cluster that was down credits the whole outage (read before the process
// takes its share of the servers, Options.LastAlive, so that processes started
// together after an outage all credit it). A program that shares
// the file (gambit play) uses its own Options.Instance and Options.Scope and is no
// peer, so its heartbeat never vouches for the bot's games.
//
// # Vacations
//
// A player on vacation in a server (StartVacation, vacation.go) has the clocks of their
// correspondence games there paused on their turns, rated games included; a tournament
// game only where its organiser allows it. The stored vacation record is the truth and
// the clocks follow it (every request on a game, the start-up and the adoption of a
// server bring a clock in line); its days are counted from its instants, and only the
// server's owner closes it at its end, so a restart or a takeover neither loses nor adds
// a day. With auto vacation, a correspondence flag that would fall starts a vacation
// instead (VacationStarted).
//
// # Events
//
// Events (GameStarted, YourTurn, DrawOffered, TakebackRequested, GameOver, FlagFell,
// ReminderDue, ChallengeExpired, ...) go to the Notifier after the commit they report,
// in commit order, from a queue of their own: never inside a transaction, never under a
// game's lock. Flush waits for them (tests).
//
// # The ladder hook
//
// Options.OnFinish runs inside the transaction that ends a game, with a
// storage.Tx: ratings written there commit atomically with the result.
package games
