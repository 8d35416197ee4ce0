// schema.go: the schema version in the meta bucket of the bbolt file and the
// ordered migrations that bring an older file up to date when it is opened.

package bolt

import (
	"encoding/binary"
	"fmt"
	"log/slog"

	bbolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// SchemaVersion is the layout this code reads and writes. A file without a meta bucket
// (a new, empty file) is at version 0.
const SchemaVersion = 12

// migration is one step: it turns a file at version-1 into one at version. Each step
// runs in its own transaction, which also writes the new version, so a crash between two
// steps leaves a file at a known version.
type migration struct {
	version int
	name    string
	up      func(tx *bbolt.Tx) error
}

// migrations are in order; migrations[i].version is i+1.
var migrations = []migration{
	{1, "record buckets", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketMeta, bucketGames, bucketChallenges, bucketGuilds, bucketUsers, bucketRequests)
	}},
	{2, "secondary indexes (live games, games by user, channel and guild, pending challenges, receipts by time)", func(tx *bbolt.Tx) error {
		if err := createBuckets(tx, bucketLiveGames, bucketUserGames, bucketChannelGames, bucketGuildGames,
			bucketPendingChallenges, bucketRequestsByTime); err != nil {
			return err
		}
		return rebuildIndexes(tx)
	}},
	{3, "ladders (ratings per guild, category and user; rated results)", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketRatings, bucketRatedResults)
	}},
	{4, "puzzles (puzzles, per-guild daily posts, per-user puzzle records and attempts)", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketPuzzles, bucketPuzzleDaily, bucketPuzzleUsers, bucketPuzzleAttempts)
	}},
	{5, "engine games (the engine's side and level in games against the bot)", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketEngineGames)
	}},
	{6, "tournaments (events, and the tournament game of each game id)", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketTournaments, bucketTournamentGames)
	}},
	{7, "leases (the partitions of each lease set, their holders and epochs; the holders' beats)", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketLeases, bucketLeaseBeats)
	}},
	{8, "mate knowledge in game records (no data changes: a gambit of version 7 must not read them)", func(*bbolt.Tx) error {
		return nil
	}},
	{9, "conditional moves (each player's plan of replies in a game)", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketPlans)
	}},
	{10, "vote chess (the teams, votes and ballots of games played by vote)", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketVoteGames)
	}},
	{11, "vacations (the players' vacation days and the vacations they are on)", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketVacations)
	}},
	{12, "linked roles (the users' sealed OAuth2 grants and the metadata pushed)", func(tx *bbolt.Tx) error {
		return createBuckets(tx, bucketLinkedAccounts)
	}},
}

func createBuckets(tx *bbolt.Tx, names ...string) error {
	for _, n := range names {
		if _, err := tx.CreateBucketIfNotExists([]byte(n)); err != nil {
			return fmt.Errorf("create bucket %s: %w", n, err)
		}
	}
	return nil
}

// readVersion returns the schema version of the file (0 without a meta bucket).
func readVersion(tx *bbolt.Tx) (int, error) {
	b := tx.Bucket([]byte(bucketMeta))
	if b == nil {
		return 0, nil
	}
	v := b.Get([]byte(metaSchema))
	if v == nil {
		return 0, nil
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("%w: schema version is %d bytes", storage.ErrCorrupt, len(v))
	}
	return int(binary.BigEndian.Uint64(v)), nil
}

func writeVersion(tx *bbolt.Tx, v int) error {
	return tx.Bucket([]byte(bucketMeta)).Put([]byte(metaSchema), binary.BigEndian.AppendUint64(nil, uint64(v)))
}

// migrate runs the migrations the file has not had.
func (db *DB) migrate() error {
	var current int
	if err := db.bbolt.View(func(tx *bbolt.Tx) (err error) {
		current, err = readVersion(tx)
		return err
	}); err != nil {
		return err
	}
	if current > SchemaVersion {
		return fmt.Errorf("%w: schema version %d, this gambit knows up to %d", storage.ErrNewerSchema, current, SchemaVersion)
	}
	for _, m := range migrations[current:] {
		err := db.bbolt.Update(func(tx *bbolt.Tx) error {
			if err := m.up(tx); err != nil {
				return err
			}
			return writeVersion(tx, m.version)
		})
		if err != nil {
			return fmt.Errorf("migrate schema to version %d (%s): %w", m.version, m.name, err)
		}
		if current > 0 { // a new file is not news
			slog.Info("storage: migrated schema", "file", db.path, "version", m.version, "step", m.name)
		}
	}
	return nil
}

// checkSchema verifies that a read-only file is at the current version (it cannot be
// migrated without writing).
func (db *DB) checkSchema() error {
	return db.bbolt.View(func(tx *bbolt.Tx) error {
		v, err := readVersion(tx)
		if err != nil {
			return err
		}
		if v > SchemaVersion {
			return fmt.Errorf("%w: schema version %d, this gambit knows up to %d", storage.ErrNewerSchema, v, SchemaVersion)
		}
		if v < SchemaVersion {
			return fmt.Errorf("schema version %d is older than %d: open the file for writing once to migrate it", v, SchemaVersion)
		}
		return nil
	})
}

// rebuildIndexes empties the index buckets and fills them again from the records.
func rebuildIndexes(tx *bbolt.Tx) error {
	for _, n := range []string{bucketLiveGames, bucketUserGames, bucketChannelGames, bucketGuildGames, bucketPendingChallenges, bucketRequestsByTime} {
		if err := tx.DeleteBucket([]byte(n)); err != nil {
			return fmt.Errorf("empty index %s: %w", n, err)
		}
		if _, err := tx.CreateBucket([]byte(n)); err != nil {
			return fmt.Errorf("create index %s: %w", n, err)
		}
	}
	err := tx.Bucket([]byte(bucketGames)).ForEach(func(k, v []byte) error {
		g, err := codec.DecodeGame(codec.KeyID(k), v)
		if err != nil {
			return err
		}
		return indexGame(tx, g, true)
	})
	if err != nil {
		return err
	}
	err = tx.Bucket([]byte(bucketChallenges)).ForEach(func(k, v []byte) error {
		var c storage.Challenge
		if err := codec.DecodeJSON(v, &c); err != nil {
			return fmt.Errorf("challenge %d: %w", codec.KeyID(k), err)
		}
		if c.Status == storage.ChallengePending {
			return tx.Bucket([]byte(bucketPendingChallenges)).Put(k, present)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return tx.Bucket([]byte(bucketRequests)).ForEach(func(k, v []byte) error {
		var r storage.Receipt
		if err := codec.DecodeJSON(v, &r); err != nil {
			return fmt.Errorf("receipt %q: %w", k, err)
		}
		return tx.Bucket([]byte(bucketRequestsByTime)).Put(receiptTimeKey(r.At, string(k)), present)
	})
}
