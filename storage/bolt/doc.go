// Package bolt is the store in one bbolt file: the storage.Store of Open.
//
// bolt.go opens the file and implements storage.Store; its tx implements storage.Tx in
// games.go, records.go, ratings.go, puzzles.go, dailies.go, puzzleplayers.go,
// attempts.go, engines.go, tournaments.go and leases.go; group.go, schema.go,
// backup.go, dump.go, check.go and safe.go are its group commit, migrations, backups,
// record listing (transfer.Lister), consistency check and the panics of a damaged file
// turned into errors. The records are encoded by storage/internal/codec.
//
// # The bbolt backend: files and locking
//
// Open opens one bbolt file (gambit.db by default) and takes an exclusive lock on it:
// a second process opening it fails within Options.LockTimeout (500 ms) with storage.ErrLocked
// instead of hanging. ReadOnly opens share the file with other readers only.
//
// # Durability and group commit
//
// Commit writes one request's Change in a transaction and returns once it is on disk
// (fsync). Concurrent commits and updates are grouped: while one transaction is being
// written, new ones queue, and the queue becomes the next transaction (group.go),
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
//	version 3: ladders (ratings.go)
//	ratings                 len·guild · category byte · user → LadderPlayer (binary)
//	rated_results           len·guild · 8-byte end (unix ns) · game id → RatedResult (JSON);
//	                        0x00 · game id → the key above (a game counts once)
//
//	version 4: puzzles (puzzles.go, dailies.go, puzzleplayers.go,
//	attempts.go)
//	puzzles                 puzzle id → Puzzle (binary); 0x00 'r' · 2-byte rating · id → 0x01;
//	                        0x00 'g' · len·guild · id → 0x01; 0x00 'n' → 8-byte count
//	puzzle_daily            len·guild · date (YYYY-MM-DD) → Daily (JSON)
//	puzzle_users            len·guild · user → PuzzlePlayer (JSON)
//	puzzle_attempts         len·guild · len·user · puzzle id → PuzzleAttempt (JSON)
//
//	version 5: games against the engine (engines.go)
//	engine_games            game id → EngineGame (JSON)
//
//	version 6: tournaments (tournaments.go)
//	tournaments             tournament id → Tournament (JSON)
//	tournament_games        game id → TournamentGame (JSON)
//
//	version 7: leases (leases.go)
//	leases                  len·set · 2-byte partition → 8-byte epoch · 8-byte expiry (unix
//	                        ns, 0 = released) · holder
//	lease_beats             len·set · instance → 8-byte unix ns of its last beat (0 = withdrew)
//
//	version 8: no bucket: game records may carry the mate knowledge (flag 1024 of the
//	game record), so a file a gambit of version 7 could misread is refused by it
//
//	version 9: conditional moves (plans.go)
//	conditional_plans       game id · colour byte → Plan (JSON)
//
//	version 10: vote chess (votegames.go)
//	vote_games              game id → VoteGame (JSON)
//
//	version 11: vacations (vacations.go)
//	vacations               len(guild)·guild · user → Vacation (JSON)
//
//	version 12: linked roles (linkedaccounts.go)
//	linked_accounts         user → LinkedAccount (JSON; the grant sealed by the service)
//
// # Schema version and migrations
//
// The meta bucket holds the schema version (SchemaVersion, 12). Open runs the migrations
// the file lacks, in order, each in its own transaction that also writes the new
// version: version 1 creates the record buckets, version 2 creates the index buckets
// and builds them from the records, versions 3 to 7 create the buckets of ladders,
// puzzles, engine games, tournaments and leases, version 8 only marks the game records'
// mate knowledge, version 9 creates the bucket of conditional moves, version 10 the bucket of vote games, version 11 the bucket of vacations, version 12 the bucket of linked accounts. A file from a newer gambit is refused
// (storage.ErrNewerSchema); a read-only open of an older file is refused (it cannot migrate).
//
// # Backups
//
// Backup and BackupFile copy the bbolt file from one read transaction (bbolt's
// Tx.WriteTo): a consistent copy while writers go on.
package bolt
