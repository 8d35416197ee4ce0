// tx.go: the reads and writes of the store, one small surface per record family, and
// Tx, their union: the transaction every backend hands its functions. A function that
// needs only some families asks for those (a GamesTx, or an interface of a few).

package storage

import (
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/lease"
)

// Tx is a transaction of a Store: the reads see the store as of its start plus its own
// writes. It is valid only inside the function it was passed to. It is the union of the
// record families' surfaces below. A read that finds no record returns an error
// wrapping ErrNotFound; a write validates the record and refuses one the store cannot
// keep. Lists come in the order each method states.
type Tx interface {
	GamesTx
	ChallengesTx
	SettingsTx
	UsersTx
	ReceiptsTx
	HeartbeatsTx
	LeasesTx
	LaddersTx
	PuzzlesTx
	DailiesTx
	PuzzlePlayersTx
	AttemptsTx
	EngineGamesTx
	TournamentsTx
	PlansTx
	VoteGamesTx
	VacationsTx
	LinkedAccountsTx
}

// GamesTx reads and writes games and their indexes (records.go).
type GamesTx interface {
	// Game returns game id.
	Game(id uint64) (*Game, error)
	// PutGame writes a game. A game with ID 0 is new: it gets the next id (written into
	// g.ID) and is indexed by user, channel and guild; every write keeps the index of
	// live games in step. A stored game is written only from a copy of its stored
	// version (g.Version, else ErrConflict: someone changed it since it was read), and
	// every write increments g.Version.
	PutGame(g *Game) error
	// OpenGames returns every game that is not over, in id order.
	OpenGames() ([]*Game, error)
	// CountGames returns the number of stored games and how many of them are live.
	CountGames() (total, live int, err error)
	// GamesByUser returns the games a user plays, newest first.
	GamesByUser(userID string, q Query) ([]*Game, error)
	// GamesInChannel returns the games created in a channel, newest first.
	GamesInChannel(channelID string, q Query) ([]*Game, error)
	// GamesInGuild returns the games of a server, newest first, from the server's
	// index: with q.LiveOnly only those in progress are decoded, and no other server's
	// game is read.
	GamesInGuild(guildID string, q Query) ([]*Game, error)
}

// ChallengesTx reads and writes challenges (records.go).
type ChallengesTx interface {
	// Challenge returns challenge id.
	Challenge(id uint64) (*Challenge, error)
	// PutChallenge writes a challenge; ID 0 makes a new one (its id goes to c.ID).
	PutChallenge(c *Challenge) error
	// PendingChallenges returns the challenges waiting for an answer, in id order.
	PendingChallenges() ([]*Challenge, error)
}

// SettingsTx reads and writes the guilds' settings (records.go).
type SettingsTx interface {
	// GuildSettings returns a guild's settings: DefaultGuildSettings for a guild that
	// never saved any.
	GuildSettings(guildID string) (GuildSettings, error)
	// PutGuildSettings validates and writes a guild's settings.
	PutGuildSettings(s GuildSettings) error
	// Guilds returns the settings of every guild that saved some, in guild id order.
	Guilds() ([]GuildSettings, error)
}

// UsersTx reads and writes what the store knows of users (records.go).
type UsersTx interface {
	// User returns what the store knows of a user.
	User(id string) (User, error)
	// PutUser writes a user.
	PutUser(u User) error
	// DigestUsers returns the users whose daily digest is on (UserPrefs.Digest), in id
	// order. It reads every user record: the digest asks for it once an hour.
	DigestUsers() ([]User, error)
}

// ReceiptsTx reads and writes request receipts: a request acts once (records.go).
type ReceiptsTx interface {
	// Receipt returns the receipt of a request (ErrNotFound for a request never seen or
	// whose receipt expired).
	Receipt(requestID string) (*Receipt, error)
	// PutReceipt writes a receipt under its request id; a request id that has one
	// already fails with ErrRepeatedRequest (the request was handled: act once).
	PutReceipt(r *Receipt) error
	// PruneReceipts deletes the receipts stored before the instant and returns how many.
	PruneReceipts(before time.Time) (int, error)
}

// HeartbeatsTx reads and writes the instances' heartbeats: the downtime policy charges
// clocks up to the last heartbeat only.
type HeartbeatsTx interface {
	// Heartbeat returns the instant of the named instance's last heartbeat (zero if it
	// never beat).
	Heartbeat(instance string) (time.Time, error)
	// PutHeartbeat records that the named instance was alive at t.
	PutHeartbeat(instance string, t time.Time) error
	// Heartbeats returns the last heartbeat of every instance that ever beat, in
	// instance order.
	Heartbeats() ([]InstanceBeat, error)
}

// LeasesTx reads and writes the leases of work partitions (leases.go): the partitions
// of a lease set, who holds each until when at which epoch, and the beats of the
// instances in the set. LeaseTable keeps the rules (take, renew, release) over these
// reads and writes.
type LeasesTx interface {
	// Lease returns a set's lease of a partition (ErrNotFound if it was never taken).
	Lease(set string, partition int) (lease.Lease, error)
	// Leases returns a set's leases, in partition order.
	Leases(set string) ([]lease.Lease, error)
	// PutLease writes a set's lease of l.Partition as it is.
	PutLease(set string, l lease.Lease) error
	// LeaseBeats returns the last beat of every instance of a set, in instance order.
	LeaseBeats(set string) ([]InstanceBeat, error)
	// PutLeaseBeat records an instance's beat in a set (the zero instant: it withdrew).
	PutLeaseBeat(set, instance string, at time.Time) error
}

// LaddersTx reads and writes the ladders: players' records and rated results
// (ratings.go).
type LaddersTx interface {
	// LadderPlayer returns a player's record in a guild's ladder.
	LadderPlayer(guildID string, cat clock.Category, userID string) (LadderPlayer, error)
	// PutLadderPlayer writes a player's record.
	PutLadderPlayer(p LadderPlayer) error
	// Ladder returns the players of a guild's category, in user id order.
	Ladder(guildID string, cat clock.Category) ([]LadderPlayer, error)
	// GuildLadders returns every player record of a guild, by category then user id.
	GuildLadders(guildID string) ([]LadderPlayer, error)
	// UserLadders returns every ladder record of a user, in every guild, by guild then
	// category (Linked Roles: the best rating per category across servers).
	UserLadders(userID string) ([]LadderPlayer, error)
	// ReplaceLadders replaces every player record of a guild, in every category, with
	// players (all of that guild): the end of a recompute.
	ReplaceLadders(guildID string, players []LadderPlayer) error
	// RatedResult returns the rated result of a game (ErrNotFound for a game that did
	// not count).
	RatedResult(gameID uint64) (RatedResult, error)
	// RatedResults returns a guild's rated results in end order (end time, then game
	// id).
	RatedResults(guildID string) ([]RatedResult, error)
	// AddRatedResult records a rated result unless its game already has one: added
	// reports whether it was written. Call it in the transaction that ends the game and
	// move the ratings only when it returns true.
	AddRatedResult(r RatedResult) (added bool, err error)
	// ReplaceRatedResult rewrites the rating fields of a game's rated result (a
	// recompute); the game, players, score, category and end time must be those stored.
	ReplaceRatedResult(r RatedResult) error
}

// PuzzlesTx reads and writes puzzles (puzzles.go).
type PuzzlesTx interface {
	// Puzzle returns a stored puzzle.
	Puzzle(id string) (*Puzzle, error)
	// PutPuzzle writes a puzzle (new, or replacing the stored one: a rating moved by an
	// attempt) and reports whether it is new.
	PutPuzzle(p *Puzzle) (isNew bool, err error)
	// AddPuzzles stores the puzzles whose ids are not stored yet and returns how many it
	// added; a stored one is left as it is (its rating moved with the attempts). A
	// puzzle that does not validate fails the whole call, before anything is written.
	AddPuzzles(ps []*Puzzle) (added int, err error)
	// CountPuzzles returns the number of stored puzzles.
	CountPuzzles() (int, error)
	// EachPuzzle calls fn with every stored puzzle in id order until fn returns an
	// error.
	EachPuzzle(fn func(*Puzzle) error) error
	// PickPuzzle chooses a stored puzzle that fits q (ErrNoPuzzle when none does).
	PickPuzzle(q PuzzlePick) (*Puzzle, error)
}

// DailiesTx reads and writes the guilds' puzzles of the day (dailies.go).
type DailiesTx interface {
	// Daily returns a guild's puzzle of a day.
	Daily(guildID, date string) (*Daily, error)
	// PutDaily writes a guild's day.
	PutDaily(d *Daily) error
	// LatestDaily returns a guild's latest day that is not abandoned, at or before date
	// ("" for the latest of all).
	LatestDaily(guildID, date string) (*Daily, error)
	// Dailies returns a guild's days, oldest first.
	Dailies(guildID string) ([]*Daily, error)
}

// PuzzlePlayersTx reads and writes the members' puzzle records (puzzleplayers.go).
type PuzzlePlayersTx interface {
	// PuzzlePlayer returns a member's puzzle record (ErrNotFound, with the key fields
	// set, for a member who never tried one).
	PuzzlePlayer(guildID, userID string) (PuzzlePlayer, error)
	// PutPuzzlePlayer writes a member's puzzle record.
	PutPuzzlePlayer(p PuzzlePlayer) error
	// PuzzlePlayers returns the puzzle records of a guild's members, in user id order.
	PuzzlePlayers(guildID string) ([]PuzzlePlayer, error)
}

// AttemptsTx reads and writes the members' attempts at puzzles (attempts.go).
type AttemptsTx interface {
	// PuzzleAttempt returns a member's attempt at a puzzle (ErrNotFound, with the key
	// fields set, for none).
	PuzzleAttempt(guildID, userID, puzzleID string) (PuzzleAttempt, error)
	// PutPuzzleAttempt writes a member's attempt at a puzzle.
	PutPuzzleAttempt(a PuzzleAttempt) error
}

// EngineGamesTx reads and writes the engine's side of games against it (engines.go).
type EngineGamesTx interface {
	// EngineGame returns the engine's side of a game (ErrNotFound for a game between
	// people).
	EngineGame(gameID uint64) (EngineGame, error)
	// PutEngineGame records the engine's side of a stored game: in the transaction that
	// creates the game (Change.After), so such a game never exists without it.
	PutEngineGame(e EngineGame) error
	// LiveEngineGames returns the engine records of the games not over, in game id
	// order: what the engine takes up again at start-up.
	LiveEngineGames() ([]EngineGame, error)
}

// TournamentsTx reads and writes tournaments and the boards of their games
// (tournaments.go).
type TournamentsTx interface {
	// Tournament returns tournament id.
	Tournament(id uint64) (*Tournament, error)
	// PutTournament writes a tournament and increments its Version; a new one (ID 0)
	// gets the next id, written into t.ID.
	PutTournament(t *Tournament) error
	// Tournaments returns a guild's tournaments, newest first; with liveOnly, only the
	// open and running ones. An empty guild id lists every guild's.
	Tournaments(guildID string, liveOnly bool) ([]*Tournament, error)
	// TournamentGame returns the tournament board a game is played on (ErrNotFound for
	// a game outside any tournament).
	TournamentGame(gameID uint64) (*TournamentGame, error)
	// PutTournamentGame records the tournament board a game is played on.
	PutTournamentGame(tg TournamentGame) error
}

// VoteGamesTx reads and writes vote chess games (votegames.go).
type VoteGamesTx interface {
	// VoteGame returns the vote record of game gameID (ErrNotFound for a game not
	// played by vote).
	VoteGame(gameID uint64) (*VoteGame, error)
	// PutVoteGame writes the vote record of a stored game, from its stored version
	// (ErrConflict otherwise; NextVoteVersion), at the next version. It leaves v as it
	// is: a transaction may run more than once, and the caller counts the version on
	// once the write is committed.
	PutVoteGame(v *VoteGame) error
	// LiveVoteGames returns the vote records not over, in game id order.
	LiveVoteGames() ([]*VoteGame, error)
	// EachVoteGame calls fn with every vote record in game id order until fn returns
	// an error.
	EachVoteGame(fn func(*VoteGame) error) error
}

// VacationsTx reads and writes the players' vacations (vacations.go).
type VacationsTx interface {
	// Vacation returns the vacation record of user in guild (ErrNotFound, with a
	// record of the key at version 0, for one never written).
	Vacation(guildID, userID string) (*Vacation, error)
	// PutVacation writes a vacation record from its stored version (ErrConflict
	// otherwise; NextVacationVersion), at the next version; it leaves v as it is.
	PutVacation(v *Vacation) error
	// OpenVacations returns the records with a vacation not closed, of every guild.
	OpenVacations() ([]*Vacation, error)
	// EachVacation calls fn with every vacation record until fn returns an error.
	EachVacation(fn func(*Vacation) error) error
}

// LinkedAccountsTx reads and writes the users' Linked Roles connections
// (linkedaccounts.go).
type LinkedAccountsTx interface {
	// LinkedAccount returns the connection of a user (ErrNotFound, with a record of the
	// key at version 0, for one never written).
	LinkedAccount(userID string) (*LinkedAccount, error)
	// PutLinkedAccount writes a connection from its stored version (ErrConflict
	// otherwise; NextLinkedAccountVersion), at the next version; it leaves a as it is.
	PutLinkedAccount(a *LinkedAccount) error
	// DeleteLinkedAccount removes a user's connection (none is no error).
	DeleteLinkedAccount(userID string) error
	// EachLinkedAccount calls fn with every connection until fn returns an error.
	EachLinkedAccount(fn func(*LinkedAccount) error) error
}
