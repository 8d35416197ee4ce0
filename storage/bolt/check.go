// check.go: verifying a bbolt store: bbolt's consistency check of the pages, then
// every record of every bucket decoded, and the simple indexes held to their records.

package bolt

import (
	"context"
	"errors"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// maxCheckProblems caps the problems Check lists: past it, the file is beyond repair
// by hand and the rest would only flood the report.
const maxCheckProblems = 100

// CheckResult is what CheckFile found.
type CheckResult struct {
	// Records counts the records read, by bucket.
	Records map[string]int
	// Problems are what is wrong, one sentence each (at most maxCheckProblems).
	Problems []string
	// More is how many problems were found beyond those listed.
	More int
}

// OK reports whether nothing is wrong.
func (r CheckResult) OK() bool { return len(r.Problems) == 0 }

func (r *CheckResult) add(format string, a ...any) {
	if len(r.Problems) >= maxCheckProblems {
		r.More++
		return
	}
	r.Problems = append(r.Problems, fmt.Sprintf(format, a...))
}

// recordDecoders decode the value of each record bucket, by bucket name: what the
// reads of the store do with them.
var recordDecoders = map[string]func(k, v []byte) error{
	bucketGames: func(k, v []byte) error {
		if len(k) != 8 {
			return errors.New("key is not a game id")
		}
		_, err := codec.DecodeGame(codec.KeyID(k), v)
		return err
	},
	bucketChallenges: jsonRecord[storage.Challenge],
	bucketGuilds:     jsonRecord[storage.GuildSettings],
	bucketUsers:      jsonRecord[storage.User],
	bucketRequests:   jsonRecord[storage.Receipt],
	bucketRatings:    func(k, v []byte) error { _, err := decodeLadderPlayer(k, v); return err },
	bucketRatedResults: func(k, v []byte) error {
		if len(k) > 0 && k[0] == 0 {
			return nil // the game index: 0x00·game id → the result's key (ratings.go)
		}
		return jsonRecord[storage.RatedResult](k, v)
	},
	bucketPuzzleDaily:     func(k, v []byte) error { _, err := decodeDaily(k, v); return err },
	bucketPuzzleUsers:     func(k, v []byte) error { _, err := decodePuzzlePlayer(k, v); return err },
	bucketPuzzleAttempts:  jsonRecord[storage.PuzzleAttempt],
	bucketEngineGames:     jsonRecord[storage.EngineGame],
	bucketTournaments:     jsonRecord[storage.Tournament],
	bucketTournamentGames: jsonRecord[storage.TournamentGame],
	bucketLeases:          func(k, v []byte) error { _, err := decodeLease(k, v); return err },
	bucketLeaseBeats:      func(k, v []byte) error { _, err := decodeLeaseBeat(k, v); return err },
	bucketPlans:           func(k, v []byte) error { _, err := decodePlan(k, v); return err },
	bucketVoteGames:       func(k, v []byte) error { _, err := codec.DecodeVoteGame(codec.KeyID(k), v); return err },
	bucketVacations:       func(k, v []byte) error { _, err := decodeVacation(k, v); return err },
	bucketLinkedAccounts:  func(k, v []byte) error { _, err := codec.DecodeLinkedAccount(string(k), v); return err },
	bucketPuzzles: func(k, v []byte) error {
		if len(k) > 0 && k[0] == 0 {
			return nil // the bucket's own index and count entries (EachPuzzle starts past them)
		}
		_, err := codec.DecodePuzzle(string(k), v)
		return err
	},
}

// jsonRecord decodes a JSON record as a T.
func jsonRecord[T any](_, v []byte) error {
	var x T
	return codec.DecodeJSON(v, &x)
}

// indexOf names, for each index keyed by a record's id alone, the bucket of its records.
var indexOf = map[string]string{
	bucketLiveGames:         bucketGames,
	bucketPendingChallenges: bucketChallenges,
}

// CheckFile verifies the store: bbolt's check of the pages (every page reachable once,
// none both used and free), then every record of every bucket decoded as the store
// reads it, and every entry of the live games and pending challenges indexes pointing at
// a record. A damaged page that stops bbolt is a problem too, not a crash. The error is
// for a check that could not run at all.
func (db *DB) CheckFile() (res CheckResult, err error) {
	res.Records = map[string]int{}
	defer restoreFaults(guardFaults())
	defer recoverDamage(&err, "check", db.path)
	err = db.bbolt.View(func(tx *bbolt.Tx) error {
		for cerr := range tx.Check() { // drain: the checker goroutine sends every error
			res.add("pages: %v", cerr)
		}
		for _, name := range recordBuckets() {
			db.checkBucket(tx, name, &res)
		}
		return nil
	})
	return res, err
}

// recordBuckets are the buckets Check reads, in a fixed order.
func recordBuckets() []string {
	return []string{bucketMeta, bucketGames, bucketChallenges, bucketGuilds, bucketUsers, bucketRequests,
		bucketRatings, bucketRatedResults, bucketPuzzles, bucketPuzzleDaily, bucketPuzzleUsers, bucketPuzzleAttempts,
		bucketEngineGames, bucketTournaments, bucketTournamentGames, bucketLeases, bucketLeaseBeats, bucketPlans, bucketVoteGames,
		bucketVacations, bucketLinkedAccounts,
		bucketLiveGames, bucketPendingChallenges}
}

// checkBucket reads one bucket, recording what is wrong; a panic on a damaged page
// stops this bucket only.
func (db *DB) checkBucket(tx *bbolt.Tx, name string, res *CheckResult) {
	defer func() {
		if p := recover(); p != nil {
			res.add("bucket %s: unreadable (damaged page): %v", name, p)
		}
	}()
	b := tx.Bucket([]byte(name))
	if b == nil {
		res.add("bucket %s: missing", name)
		return
	}
	decode := recordDecoders[name]
	records := indexOf[name]
	b.ForEach(func(k, v []byte) error {
		res.Records[name]++
		switch {
		case v == nil:
			res.add("bucket %s: key %x: a nested bucket where a record belongs", name, k)
		case name == bucketMeta:
			if len(v) != 8 {
				res.add("bucket meta: key %q: a %d-byte value, want 8", k, len(v))
			}
		case decode != nil:
			if err := decode(k, v); err != nil {
				res.add("bucket %s: key %x: %v", name, k, err)
			}
		case records != "":
			if tx.Bucket([]byte(records)).Get(k) == nil {
				res.add("bucket %s: key %x: no such record in %s", name, k, records)
			}
		}
		return nil
	})
}

// Check verifies the store as CheckFile does and returns its problems as one error
// wrapping ErrCorrupt (nil when there are none).
func (db *DB) Check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("check %s: %w", db.path, err)
	}
	res, err := db.CheckFile()
	if err != nil {
		return err
	}
	if res.OK() {
		return nil
	}
	errs := make([]error, 0, len(res.Problems)+1)
	for _, p := range res.Problems {
		errs = append(errs, errors.New(p))
	}
	if res.More > 0 {
		errs = append(errs, fmt.Errorf("and %d more", res.More))
	}
	return fmt.Errorf("check %s: %w: %w", db.path, storage.ErrCorrupt, errors.Join(errs...))
}
