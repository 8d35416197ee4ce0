// Package storage is Gambit's store: the records (games, challenges, guild settings,
// users, request receipts, ladders, puzzles, tournaments, games against the engine) and
// one typed surface to read and write them, whatever database is underneath.
//
// # The surface: Store and Tx
//
// A Store runs transactions: View (read-only), Update (a write, grouped with concurrent
// writers), Bulk (a large write of its own), Commit and CommitAll (a Change: what one
// request writes), Backup and Close. Every read and write of a record is a method of
// the Tx the transaction hands its function (tx.Game, tx.PutGame, tx.GuildSettings,
// tx.LadderPlayer, tx.PutDaily, ...), the same Tx for reads and writes; Read and Write
// are the one-line forms of a transaction with one result:
//
//	g, err := storage.Read(st, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
//
// Services take a Store and never see the database. What a record may hold (ids of at
// most MaxIDLen bytes, counts that add up, known states) is checked here, before any
// backend writes it; the policies on top (how a ladder or leaderboard is ordered, what
// time of day a member typed) are the services'. Errors wrap ErrNotFound, ErrCorrupt,
// ErrLocked, ErrReadOnly and ErrNewerSchema, for errors.Is, in every backend.
//
// # Files
//
// The backend-neutral files hold the surface and the records: store.go (Store, Read,
// Write, the errors), tx.go (Tx), change.go (Change and how it is applied through a
// Tx), records.go (games, challenges, guild and puzzle settings, users, receipts),
// ratings.go, puzzles.go, dailies.go, puzzleplayers.go, attempts.go, engines.go,
// tournaments.go and leases.go (the leases of work partitions, by lease set);
// lease_table.go is LeaseTable, the lease.Table of one set over a Store; codec.go holds the record encodings both backends store, open.go
// opens the configured backend (OpenLocation), and copy.go copies a whole store into
// another (Copy, CountRecords, CompareGames: gambit migrate, and PostgreSQL's backups).
// The bbolt backend is every bolt*.go file, and only those import bbolt (a test checks
// it): bolt.go opens the file and implements Store, its boltTx implements Tx in
// bolt_games.go, bolt_records.go, bolt_ratings.go, bolt_puzzles.go, bolt_dailies.go,
// bolt_puzzleplayers.go, bolt_attempts.go, bolt_engines.go, bolt_tournaments.go and
// bolt_leases.go;
// bolt_group.go, bolt_schema.go, bolt_backup.go and bolt_dump.go are its group commit,
// migrations, backups and record listing. The PostgreSQL backend is every pg*.go file,
// and only those import pgx (a test checks it): pg.go (Postgres, the pool and the
// transactions), pg_schema.go (tables and migrations), pg_games.go, pg_records.go,
// pg_ratings.go, pg_puzzles.go, pg_dailies.go, pg_tournaments.go, pg_leases.go (its
// pgTx), pg_dump.go
// and pg_backup.go. Package storagetest opens throwaway stores of either backend for
// tests.
//
// # The PostgreSQL backend
//
// OpenPostgres connects a pool (pgx) to a database, or to one schema of it (the DSN's
// search_path). Many gambit processes may share it. Every write transaction (Update,
// Bulk, Commit, CommitAll) runs at SERIALIZABLE isolation: whatever commits acts as if
// the transactions had run one at a time, as they do in the bbolt file, so no call site
// needs its own locking to be correct with other processes. A transaction that fails to
// serialize (SQLSTATE 40001) or deadlocks (40P01) is run again in a fresh transaction,
// after a random pause that grows with the attempts, up to PostgresOptions.MaxAttempts:
// the reason fn may run more than once. Readers (View) run at REPEATABLE READ, read only:
// one snapshot, no predicate locks, so they never fail to serialize and never make a
// writer fail. Concurrent requests are concurrent transactions (group commit is the bbolt
// backend's answer to one writer at a time; PostgreSQL shares WAL flushes by itself).
//
// Across processes: ids come from identity sequences (unique whoever asks); a game is
// written only from its stored Version (PutGame's UPDATE checks it, ErrConflict
// otherwise), so a process holding a stale copy cannot overwrite another's move; a
// receipt is inserted, never overwritten (ErrRepeatedRequest), so a request acts once
// whichever process gets it; and every effect of one request (move, result, rating
// change, receipt) is one transaction.
//
// Each record family is one table holding the record as the bbolt backend encodes it
// (codec.go: binary games, ladder players and puzzles; JSON envelopes for the rest) in a
// bytea column, beside the columns its lookups need. Text keys are COLLATE "C", so they
// sort as bytes, as bbolt's keys do. The schema version is the highest version in
// schema_migrations; pgMigrations are ordered steps of SQL, each in its own transaction
// with its version row, taken under an advisory lock (one process migrates; the others
// wait, then find it done). The versions are bbolt's, family for family:
//
//	version 1: heartbeats (instance, at); games (id identity, guild_id, channel_id,
//	           white_id, black_id, live, version, record; fillfactor 50, so a move's
//	           update stays on its page and touches no index); challenges (id
//	           identity, pending, record); guilds; users; receipts (request_id, at,
//	           record)
//	version 2: indexes: live games, games by white, black, channel and guild (each with
//	           the id, newest first), pending challenges, receipts by time
//	version 3: ladder_players (guild_id, category, user_id → record); rated_results
//	           (game_id → guild_id, ended, record; by guild, end, game)
//	version 4: puzzles (id → rating, source_guild, record; by rating and id, by source
//	           guild); puzzle_daily (guild_id, day); puzzle_players (guild_id, user_id);
//	           puzzle_attempts (guild_id, user_id, puzzle_id)
//	version 5: engine_games (game_id → record)
//	version 6: tournaments (id identity, guild_id, live, record); tournament_games
//	version 7: leases (lease_set, partition → holder, expires, epoch); lease_beats
//	           (lease_set, instance → at)
//	version 8: no table: game records may carry the mate knowledge (flag 1024), which
//	           a gambit of version 7 would refuse as corrupt
//
// A database at a newer version is refused (ErrNewerSchema); a read-only open of an older
// one too. Backup writes a bbolt file of every record from one snapshot (Copy into a
// temporary file), so /backup and the scheduled copies work on either backend; pg_dump
// remains the tool for the database itself.
//
// # The bbolt backend: files and locking
//
// Open opens one bbolt file (gambit.db by default) and takes an exclusive lock on it:
// a second process opening it fails within Options.LockTimeout (500 ms) with ErrLocked
// instead of hanging. ReadOnly opens share the file with other readers only.
//
// # Durability and group commit
//
// Commit writes one request's Change in a transaction and returns once it is on disk
// (fsync). Concurrent commits and updates are grouped: while one transaction is being
// written, new ones queue, and the queue becomes the next transaction (bolt_group.go),
// so many games committing moves at once share one transaction and one fsync, and a
// lone commit waits for nothing. A writer whose function fails is taken out and retried
// alone, so one failure does not fail the others; that is why an Update function may
// run more than once and must not act outside its transaction. Options.BoltBatch uses
// bbolt's DB.Batch instead (batches close a fixed delay after their first writer) and
// Options.SoloCommits one transaction per commit, to measure what grouping gains
// (BenchmarkDurableMoves in service/games).
//
// # Buckets and keys
//
// Ids of games, challenges and tournaments come from their bucket's sequence and are
// keyed as 8-byte big-endian integers, so keys sort as numbers. Strings (user, guild,
// channel ids) are keys as they are; len·s is a one-byte length and the string, which
// keeps one id's keys apart from another's that extends it (ids are at most MaxIDLen
// bytes). "JSON" is the envelope below. The 23 buckets, by the schema version that
// created them:
//
//	version 1: the records
//	meta                    "schema" → 8-byte version; "heartbeat/<instance>" → 8-byte unix ns
//	games                   game id → game record (binary, below)
//	challenges              challenge id → Challenge (JSON)
//	guilds                  guild id → GuildSettings (JSON; its Puzzle field holds PuzzleSettings)
//	users                   user id → User (JSON)
//	requests                request id → Receipt (JSON)
//
//	version 2: indexes, derived from the records in the transaction that writes them
//	idx_live_games          game id → 0x01, for every game not over
//	idx_user_games          len·user · game id → 0x01
//	idx_channel_games       len·channel · game id → 0x01
//	idx_guild_games         len·guild · game id → 0x01 (written for every game in a guild; no
//	                        reader yet)
//	idx_pending_challenges  challenge id → 0x01
//	idx_requests_by_time    8-byte unix ns · request id → 0x01 (to expire receipts)
//
//	version 3: ladders (bolt_ratings.go)
//	ratings                 len·guild · category byte · user → LadderPlayer (binary)
//	rated_results           len·guild · 8-byte end (unix ns) · game id → RatedResult (JSON);
//	                        0x00 · game id → the key above (a game counts once)
//
//	version 4: puzzles (bolt_puzzles.go, bolt_dailies.go, bolt_puzzleplayers.go,
//	bolt_attempts.go)
//	puzzles                 puzzle id → Puzzle (binary); 0x00 'r' · 2-byte rating · id → 0x01;
//	                        0x00 'g' · len·guild · id → 0x01; 0x00 'n' → 8-byte count
//	puzzle_daily            len·guild · date (YYYY-MM-DD) → Daily (JSON)
//	puzzle_users            len·guild · user → PuzzlePlayer (JSON)
//	puzzle_attempts         len·guild · len·user · puzzle id → PuzzleAttempt (JSON)
//
//	version 5: games against the engine (bolt_engines.go)
//	engine_games            game id → EngineGame (JSON)
//
//	version 6: tournaments (bolt_tournaments.go)
//	tournaments             tournament id → Tournament (JSON)
//	tournament_games        game id → TournamentGame (JSON)
//
//	version 7: leases (bolt_leases.go)
//	leases                  len·set · 2-byte partition → 8-byte epoch · 8-byte expiry (unix
//	                        ns, 0 = released) · holder
//	lease_beats             len·set · instance → 8-byte unix ns of its last beat (0 = withdrew)
//
//	version 8: no bucket: game records may carry the mate knowledge (flag 1024 of the
//	game record), so a file a gambit of version 7 could misread is refused by it
//
// # Schema version and migrations
//
// The meta bucket holds the schema version (SchemaVersion, 8). Open runs the migrations
// the file lacks, in order, each in its own transaction that also writes the new
// version: version 1 creates the record buckets, version 2 creates the index buckets
// and builds them from the records, versions 3 to 7 create the buckets of ladders,
// puzzles, engine games, tournaments and leases, version 8 only marks the game records'
// mate knowledge. A file from a newer gambit is refused
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
//	         16 takeback pending, 32 no-show time present, 64 a draw offer waits for
//	         its maker's next move, 128 last move's instant present, 256 arbiter notes
//	         present, 512 version present, 1024 mate knowledge present (other bits
//	         are corrupt)
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
//	if last move's instant present: varint the instant of the last move (later still)
//	if arbiter notes present: uvarint count (1 to 50), then for each note: uvarint
//	         ply, varint instant, string arbiter id, arbiter name, action, reason
//	if version present: uvarint Game.Version (1 or more; records without it read as 0)
//	if mate knowledge present (a live game only; schema version 8): for white, then
//	         black, byte verdict (0 unknown, 1 yes, 2 no), and after a yes uvarint n (1
//	         to chesscore.MaxKnownLine) and n moves as above: the helpmate line.
//	         Game.Mates.Ply is the number of moves
//
// A decoder refuses unknown formats, out-of-range values and trailing bytes with
// ErrCorrupt. A later format gets a new format byte; the old one stays readable. The
// ladder player and puzzle records are binary too, laid out in bolt_ratings.go and
// bolt_puzzles.go.
//
// The other records are small and rarely written: each is the byte 'J' followed by the
// JSON of the struct (field names in the struct tags; time controls in their canonical
// notation). Fields added later decode to their defaults.
//
// # Receipts
//
// A Receipt records the effect of a request under its request id (the Discord
// interaction id), in the transaction of the effect, so a repeated request is answered
// from it instead of acting twice, across restarts too. Tx.PruneReceipts drops old
// ones.
//
// # Leases
//
// Several processes on one PostgreSQL store divide background work by leases (package
// internal/lease): a lease set (LeaseSetGames, LeaseSetShards) has numbered partitions,
// each leased to one holder (an instance name) until an expiry, at an epoch that grows
// each time the partition passes to a new holder (a fencing token); each instance of the
// set beats, and the instances with a recent beat share the partitions. LeaseTable keeps
// the rules: on bbolt over Tx.Lease, PutLease, LeaseBeats and PutLeaseBeat, each take,
// renewal or release one write transaction; on PostgreSQL each is one statement on the
// partition's row (pg_leases.go), atomic under the row's lock at READ COMMITTED, so
// processes renewing their own partitions never fail to serialize with one another. Leases are the processes' state, not records: Copy and
// gambit migrate leave them behind, as a new store starts with none held.
//
// # Backups
//
// Backup and BackupFile copy the bbolt file from one read transaction (bbolt's
// Tx.WriteTo): a consistent copy while writers go on.
package storage
