// Package storage is Gambit's store as the services see it: the records (games,
// challenges, guild settings, users, request receipts, ladders, puzzles, tournaments,
// games against the engine), the small surfaces that read and write them by family, and
// Store, which runs the transactions, whatever database is underneath.
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
// Tx is the union of one small surface per record family: GamesTx, ChallengesTx,
// SettingsTx, UsersTx, ReceiptsTx, HeartbeatsTx, LeasesTx, LaddersTx, PuzzlesTx,
// DailiesTx, PuzzlePlayersTx, AttemptsTx, EngineGamesTx and TournamentsTx. A function
// that works inside a transaction asks for the families it uses (a rating update a
// LaddersTx, ReserveEffect a ReceiptsTx), so its signature says what it may touch; the
// functions a transaction runs, and the hooks one service hands another, get the
// whole Tx.
//
// Services take a Store and never see the database. What a record may hold (ids of at
// most MaxIDLen bytes, counts that add up, known states) is checked here, before any
// backend writes it; the policies on top (how a ladder or leaderboard is ordered, what
// time of day a member typed) are the services'. Errors wrap ErrNotFound, ErrCorrupt,
// ErrLocked, ErrReadOnly and ErrNewerSchema, for errors.Is, in every backend.
//
// # Packages and files
//
// This package is backend-neutral and imports no database: store.go (Store, Read, Write,
// the errors), tx.go (the family surfaces and Tx, their union), change.go (Change, what
// one request writes, and how a backend applies it through a Tx), records.go (games,
// challenges, guild and puzzle settings, users, receipts), ratings.go, puzzles.go,
// dailies.go, puzzleplayers.go, attempts.go, engines.go, tournaments.go and leases.go
// (each a record family and what it may hold); lease_table.go is LeaseTable, the
// lease.Table of one set over a Store; reservations.go is ReserveEffect, the right to
// make one effect once across processes.
//
// The backends are packages of their own, and only they import their driver
// (internal/archtest checks it): storage/bolt (a bbolt file) and storage/pg
// (PostgreSQL, through pgx). storage/internal/codec holds the record encodings both
// store; storage/transfer copies a whole store into another and compares them (gambit
// migrate, PostgreSQL's backups); storage/backend opens the backend a configuration
// names (backend.Open of a Location), the one package that names both. The arrows point
// down: storage ← codec ← transfer ← bolt ← pg ← backend ← storagetest.
// storage/storagetest opens throwaway stores for tests and holds the conformance suite
// every backend's tests run (storagetest.Conformance).
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
// partition's row (storage/pg), atomic under the row's lock at READ COMMITTED, so
// processes renewing their own partitions never fail to serialize with one another. Leases are the processes' state, not records: Copy and
// gambit migrate leave them behind, as a new store starts with none held.
package storage
