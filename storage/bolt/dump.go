// dump.go: every record of a family of the bbolt file, in key order (Copy reads a
// store through these).

package bolt

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
	"github.com/gambitchess/gambit/storage/transfer"
)

var _ transfer.Lister = boltTx{}

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

func (t boltTx) EachGame(fn func(*storage.Game) error) error {
	return t.records(bucketGames, func(k, v []byte) error {
		g, err := codec.DecodeGame(codec.KeyID(k), v)
		if err != nil {
			return err
		}
		return fn(g)
	})
}

func (t boltTx) EachChallenge(fn func(*storage.Challenge) error) error {
	return t.records(bucketChallenges, func(k, _ []byte) error {
		c, err := t.Challenge(codec.KeyID(k))
		if err != nil {
			return err
		}
		return fn(c)
	})
}

func (t boltTx) EachUser(fn func(storage.User) error) error {
	return t.records(bucketUsers, func(k, _ []byte) error {
		u, err := t.User(string(k))
		if err != nil {
			return err
		}
		return fn(u)
	})
}

func (t boltTx) EachReceipt(fn func(*storage.Receipt) error) error {
	return t.records(bucketRequests, func(k, _ []byte) error {
		r, err := t.Receipt(string(k))
		if err != nil {
			return err
		}
		return fn(r)
	})
}

func (t boltTx) EachHeartbeat(fn func(string, time.Time) error) error {
	return t.records(bucketMeta, func(k, v []byte) error {
		instance, ok := strings.CutPrefix(string(k), metaHeartbeat)
		if !ok {
			return nil
		}
		if len(v) != 8 {
			return fmt.Errorf("%w: heartbeat of %s is %d bytes", storage.ErrCorrupt, instance, len(v))
		}
		return fn(instance, time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC())
	})
}

func (t boltTx) EachLadderPlayer(fn func(storage.LadderPlayer) error) error {
	return t.records(bucketRatings, func(k, v []byte) error {
		p, err := decodeLadderPlayer(k, v)
		if err != nil {
			return err
		}
		return fn(p)
	})
}

func (t boltTx) EachRatedResult(fn func(storage.RatedResult) error) error {
	return t.recordsNoIndex(bucketRatedResults, func(k, v []byte) error {
		var r storage.RatedResult
		if err := codec.DecodeJSON(v, &r); err != nil {
			return fmt.Errorf("rated result %x: %w", k, err)
		}
		return fn(r)
	})
}

func (t boltTx) EachDaily(fn func(*storage.Daily) error) error {
	return t.records(bucketPuzzleDaily, func(k, v []byte) error {
		d, err := decodeDaily(k, v)
		if err != nil {
			return err
		}
		return fn(d)
	})
}

func (t boltTx) EachPuzzlePlayer(fn func(storage.PuzzlePlayer) error) error {
	return t.records(bucketPuzzleUsers, func(k, v []byte) error {
		p, err := decodePuzzlePlayer(k, v)
		if err != nil {
			return err
		}
		return fn(p)
	})
}

func (t boltTx) EachAttempt(fn func(storage.PuzzleAttempt) error) error {
	return t.records(bucketPuzzleAttempts, func(k, v []byte) error {
		// len·guild · len·user · puzzle id
		if len(k) < 1 || int(k[0])+2 > len(k) {
			return fmt.Errorf("%w: attempt key %x", storage.ErrCorrupt, k)
		}
		g := int(k[0])
		rest := k[1+g:]
		u := int(rest[0])
		if u+1 > len(rest) {
			return fmt.Errorf("%w: attempt key %x", storage.ErrCorrupt, k)
		}
		a := storage.PuzzleAttempt{GuildID: string(k[1 : 1+g]), UserID: string(rest[1 : 1+u]), PuzzleID: string(rest[1+u:])}
		if err := codec.DecodeJSON(v, &a); err != nil {
			return fmt.Errorf("attempt of %s at puzzle %s: %w", a.UserID, a.PuzzleID, err)
		}
		return fn(a)
	})
}

func (t boltTx) EachEngineGame(fn func(storage.EngineGame) error) error {
	return t.records(bucketEngineGames, func(k, _ []byte) error {
		e, err := t.EngineGame(codec.KeyID(k))
		if err != nil {
			return err
		}
		return fn(e)
	})
}

func (t boltTx) EachTournament(fn func(*storage.Tournament) error) error {
	return t.records(bucketTournaments, func(k, _ []byte) error {
		tm, err := t.Tournament(codec.KeyID(k))
		if err != nil {
			return err
		}
		return fn(tm)
	})
}

func (t boltTx) EachTournamentGame(fn func(storage.TournamentGame) error) error {
	return t.records(bucketTournamentGames, func(k, _ []byte) error {
		tg, err := t.TournamentGame(codec.KeyID(k))
		if err != nil {
			return err
		}
		return fn(*tg)
	})
}

// keepSequence moves a bucket's sequence past an id written as it is (a copied
// record), so the ids NextSequence gives later do not collide with it.
func keepSequence(b *bbolt.Bucket, id uint64) error {
	if id > b.Sequence() {
		return b.SetSequence(id)
	}
	return nil
}
