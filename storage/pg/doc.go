// Package pg is the store in a PostgreSQL database: the storage.Store of Open.
//
// pg.go holds DB (the pool and the transactions, retried when they fail to serialize),
// schema.go the tables and migrations; games.go, records.go, ratings.go, puzzles.go,
// dailies.go, tournaments.go and leases.go implement storage.Tx (leases.go also the
// single-statement leases of storage.AtomicLeases); dump.go lists the records
// (transfer.Lister) and backup.go writes a backup as a bbolt file (storage/bolt).
// pgtest gives tests a fresh schema of the test cluster.
//
// # Transactions
//
// Open connects a pool (pgx) to a database, or to one schema of it (the DSN's
// search_path). Many gambit processes may share it. Every write transaction (Update,
// Bulk, Commit, CommitAll) runs at SERIALIZABLE isolation: whatever commits acts as if
// the transactions had run one at a time, as they do in the bbolt file, so no call site
// needs its own locking to be correct with other processes. A transaction that fails to
// serialize (SQLSTATE 40001) or deadlocks (40P01) is run again in a fresh transaction,
// after a random pause that grows with the attempts, up to Options.MaxAttempts:
// the reason fn may run more than once. Readers (View) run at REPEATABLE READ, read only:
// one snapshot, no predicate locks, so they never fail to serialize and never make a
// writer fail. Concurrent requests are concurrent transactions (group commit is the bbolt
// backend's answer to one writer at a time; PostgreSQL shares WAL flushes by itself).
//
// Across processes: ids come from identity sequences (unique whoever asks); a game is
// written only from its stored Version (PutGame's UPDATE checks it, ErrConflict
// otherwise), so a process holding a stale copy cannot overwrite another's move; a
// receipt is inserted, never overwritten (storage.ErrRepeatedRequest), so a request acts once
// whichever process gets it; and every effect of one request (move, result, rating
// change, receipt) is one transaction.
//
// Each record family is one table holding the record as the bbolt backend encodes it
// (storage/internal/codec: binary games, ladder players and puzzles; JSON envelopes for the rest) in a
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
//	version 9: conditional_plans (game_id, color → record)
//	version 10: vote_games (game_id → live, record)
//	version 11: vacations (guild_id, user_id → open, record)
//	version 12: linked_accounts (user_id → record; the grant sealed by the service), and
//	           the index ladder_players_user (a user's ladders in every guild)
//
// A database at a newer version is refused (storage.ErrNewerSchema); a read-only open of an older
// one too. Backup writes a bbolt file of every record from one snapshot (transfer.Copy into a
// temporary file), so /backup and the scheduled copies work on either backend; pg_dump
// remains the tool for the database itself.
package pg
