// Package storage is Gambit's store: one bbolt file (gambit.db by default) holding
// games, challenges, guild settings, users and request receipts. It is the only package
// that imports bbolt; services use its typed methods (Commit, Game, OpenGames,
// GamesByUser, GuildSettings, ...) and never see a transaction.
//
// # Files and locking
//
// Open takes an exclusive lock on the file: a second process opening it fails within
// Options.LockTimeout (500 ms) with ErrLocked instead of hanging. ReadOnly opens share
// the file with other readers only.
//
// # Durability and group commit
//
// Commit writes one request's Change in a transaction and returns once it is on disk
// (fsync). Concurrent commits are grouped: while one transaction is being written, new
// commits queue, and the queue becomes the next transaction (group.go), so many games
// committing moves at once share one transaction and one fsync, and a lone commit waits
// for nothing. A change whose write fails is taken out and retried alone, so one failure
// does not fail the others. Options.BoltBatch uses bbolt's DB.Batch instead (batches
// close a fixed delay after their first writer) and Options.SoloCommits one transaction
// per commit, to measure what grouping gains (BenchmarkDurableMoves in service/games).
//
// # Buckets and keys
//
// Ids of games and challenges come from the bucket's sequence and are keyed as 8-byte
// big-endian integers, so keys sort as numbers. Strings (user, guild, channel ids) are
// keys as they are.
//
//	meta                     "schema" → 8-byte version; "heartbeat/<instance>" → 8-byte unix ns
//	games                    id → game record (binary, below)
//	challenges               id → challenge (JSON envelope)
//	guilds                   guild id → GuildSettings (JSON envelope)
//	users                    user id → User (JSON envelope)
//	requests                 request id → Receipt (JSON envelope)
//	idx_live_games           game id → 0x01, for every game not over
//	idx_user_games           len(user)·user·game id → 0x01
//	idx_channel_games        len(channel)·channel·game id → 0x01
//	idx_guild_games          len(guild)·guild·game id → 0x01
//	idx_pending_challenges   challenge id → 0x01
//	idx_requests_by_time     8-byte unix ns·request id → 0x01 (to expire receipts)
//
// Index buckets are derived from the records and written in the same transaction.
// The len·string prefix keeps one user's keys apart from another's whose id extends
// it; ids are at most MaxIDLen bytes.
//
// # Schema version and migrations
//
// The meta bucket holds the schema version (SchemaVersion). Open runs the migrations
// the file lacks, in order, each in its own transaction that also writes the new
// version: version 1 creates the record buckets, version 2 creates the index buckets
// and builds them from the records. A file from a newer gambit is refused
// (ErrNewerSchema); a read-only open of an older file is refused (it cannot migrate).
//
// # The game record
//
// A game is one binary record, rewritten whole at each change (a 60-move game is
// about 300 bytes). Integers are varints (encoding/binary: uvarint for counts, zig-zag
// varint for durations and instants), strings are a uvarint length and the bytes,
// instants are unix nanoseconds (0 is the zero time), durations nanoseconds:
//
//	byte     format = 1
//	uvarint  flags: 1 rated, 2 has clock, 4 free first moves, 8 draw offer pending,
//	         16 takeback pending, 32 no-show time present
//	string   guild id, channel id, thread id
//	string   white id, white name, black id, black name
//	string   time control in canonical notation ("5+3", "3d", "-")
//	string   start FEN ("" = the standard start position)
//	uvarint  challenge id (0 = none)
//	varint   created, ended
//	byte     result (chesscore.Result), termination (chesscore.Termination)
//	if clock: byte state, byte turn, varint white left, black left,
//	          uvarint white moves, black moves, varint since, varint spent
//	if draw offer pending: byte by (0 white, 1 black), uvarint ply
//	if takeback pending:   byte by, uvarint ply
//	uvarint  draw offers by white, by black; last draw offer ply white, black;
//	         last takeback ply white, black
//	varint   abort at
//	uvarint  reminder ply (1 + the ply a reminder was sent for; 0 = none)
//	uvarint  n, then n moves, each a big-endian uint16 (chesscore.Move's packing:
//	         from, to, promotion, kind)
//	uvarint  k (0 or n), then k uvarints: the mover's clock in milliseconds when each
//	         move was made
//	if no-show time present: varint the forfeit time of a tournament game (a later
//	         addition: records without the flag end before it)
//
// A decoder refuses unknown formats, out-of-range values and trailing bytes with
// ErrCorrupt. A later format gets a new format byte; the old one stays readable.
//
// Challenges, guild settings, users and receipts are small and rarely written: each is
// the byte 'J' followed by the JSON of the struct (field names in the struct tags;
// time controls in their canonical notation). Fields added later decode to their
// defaults.
//
// # Receipts
//
// A Receipt records the effect of a request under its request id (the Discord
// interaction id), in the transaction of the effect, so a repeated request is answered
// from it instead of acting twice, across restarts too. PruneReceipts drops old ones.
//
// # Backups
//
// Backup and BackupFile copy the store from one read transaction (bbolt's Tx.WriteTo):
// a consistent copy while writers go on.
package storage
