// bolt_dump.go: every record of a family of the bbolt file, in key order (Copy reads a
// store through these).

package storage

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

var _ dumper = boltTx{}

// records calls fn with each key and value of a bucket.
func (t boltTx) records(bucket string, fn func(k, v []byte) error) error {
	return t.tx.Bucket([]byte(bucket)).ForEach(fn)
}

// recordsNoIndex calls fn with each key and value of a bucket that keeps an index
// family under keys starting with 0x00 (rated results), but for those.
func (t boltTx) recordsNoIndex(bucket string, fn func(k, v []byte) error) error {
	return t.records(bucket, func(k, v []byte) error {
		if len(k) > 0 && k[0] == 0 {
			return nil
		}
		return fn(k, v)
	})
}

func (t boltTx) eachGame(fn func(*Game) error) error {
	return t.records(bucketGames, func(k, v []byte) error {
		g, err := decodeGame(keyID(k), v)
		if err != nil {
			return err
		}
		return fn(g)
	})
}

func (t boltTx) eachChallenge(fn func(*Challenge) error) error {
	return t.records(bucketChallenges, func(k, _ []byte) error {
		c, err := t.Challenge(keyID(k))
		if err != nil {
			return err
		}
		return fn(c)
	})
}

func (t boltTx) eachUser(fn func(User) error) error {
	return t.records(bucketUsers, func(k, _ []byte) error {
		u, err := t.User(string(k))
		if err != nil {
			return err
		}
		return fn(u)
	})
}

func (t boltTx) eachReceipt(fn func(*Receipt) error) error {
	return t.records(bucketRequests, func(k, _ []byte) error {
		r, err := t.Receipt(string(k))
		if err != nil {
			return err
		}
		return fn(r)
	})
}

func (t boltTx) eachHeartbeat(fn func(string, time.Time) error) error {
	return t.records(bucketMeta, func(k, v []byte) error {
		instance, ok := strings.CutPrefix(string(k), metaHeartbeat)
		if !ok {
			return nil
		}
		if len(v) != 8 {
			return fmt.Errorf("%w: heartbeat of %s is %d bytes", ErrCorrupt, instance, len(v))
		}
		return fn(instance, time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC())
	})
}

func (t boltTx) eachLadderPlayer(fn func(LadderPlayer) error) error {
	return t.records(bucketRatings, func(k, v []byte) error {
		p, err := decodeLadderPlayer(k, v)
		if err != nil {
			return err
		}
		return fn(p)
	})
}

func (t boltTx) eachRatedResult(fn func(RatedResult) error) error {
	return t.recordsNoIndex(bucketRatedResults, func(k, v []byte) error {
		var r RatedResult
		if err := decodeJSON(v, &r); err != nil {
			return fmt.Errorf("rated result %x: %w", k, err)
		}
		return fn(r)
	})
}

func (t boltTx) eachDaily(fn func(*Daily) error) error {
	return t.records(bucketPuzzleDaily, func(k, v []byte) error {
		d, err := decodeDaily(k, v)
		if err != nil {
			return err
		}
		return fn(d)
	})
}

func (t boltTx) eachPuzzlePlayer(fn func(PuzzlePlayer) error) error {
	return t.records(bucketPuzzleUsers, func(k, v []byte) error {
		p, err := decodePuzzlePlayer(k, v)
		if err != nil {
			return err
		}
		return fn(p)
	})
}

func (t boltTx) eachAttempt(fn func(PuzzleAttempt) error) error {
	return t.records(bucketPuzzleAttempts, func(k, v []byte) error {
		// len·guild · len·user · puzzle id
		if len(k) < 1 || int(k[0])+2 > len(k) {
			return fmt.Errorf("%w: attempt key %x", ErrCorrupt, k)
		}
		g := int(k[0])
		rest := k[1+g:]
		u := int(rest[0])
		if u+1 > len(rest) {
			return fmt.Errorf("%w: attempt key %x", ErrCorrupt, k)
		}
		a := PuzzleAttempt{GuildID: string(k[1 : 1+g]), UserID: string(rest[1 : 1+u]), PuzzleID: string(rest[1+u:])}
		if err := decodeJSON(v, &a); err != nil {
			return fmt.Errorf("attempt of %s at puzzle %s: %w", a.UserID, a.PuzzleID, err)
		}
		return fn(a)
	})
}

func (t boltTx) eachEngineGame(fn func(EngineGame) error) error {
	return t.records(bucketEngineGames, func(k, _ []byte) error {
		e, err := t.EngineGame(keyID(k))
		if err != nil {
			return err
		}
		return fn(e)
	})
}

func (t boltTx) eachTournament(fn func(*Tournament) error) error {
	return t.records(bucketTournaments, func(k, _ []byte) error {
		tm, err := t.Tournament(keyID(k))
		if err != nil {
			return err
		}
		return fn(tm)
	})
}

func (t boltTx) eachTournamentGame(fn func(TournamentGame) error) error {
	return t.records(bucketTournamentGames, func(k, _ []byte) error {
		tg, err := t.TournamentGame(keyID(k))
		if err != nil {
			return err
		}
		return fn(*tg)
	})
}

// keepSequence moves a bucket's sequence past an id written as it is (a copied
// record), so the ids NextSequence gives later do not collide with it.
func keepSequence(b *bolt.Bucket, id uint64) error {
	if id > b.Sequence() {
		return b.SetSequence(id)
	}
	return nil
}
