// games.go: reading games and their indexes.

package storage

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// indexKey returns len(s)·s·id, the key of an index by a string (user, channel, guild).
func indexKey(s string, id uint64) []byte {
	k := make([]byte, 0, 1+len(s)+8)
	k = append(k, byte(len(s)))
	k = append(k, s...)
	return append(k, idKey(id)...)
}

// indexGame writes the index entries of g. created says the game is new (its user,
// channel and guild entries are written; they never change afterwards).
func indexGame(tx *bolt.Tx, g *Game, created bool) error {
	key := idKey(g.ID)
	live := tx.Bucket([]byte(bucketLiveGames))
	var err error
	if g.Live() {
		err = live.Put(key, present)
	} else {
		err = live.Delete(key)
	}
	if err != nil || !created {
		return err
	}
	users := tx.Bucket([]byte(bucketUserGames))
	if err := users.Put(indexKey(g.White.ID, g.ID), present); err != nil {
		return err
	}
	if g.Black.ID != g.White.ID {
		if err := users.Put(indexKey(g.Black.ID, g.ID), present); err != nil {
			return err
		}
	}
	if g.ChannelID != "" {
		if err := tx.Bucket([]byte(bucketChannelGames)).Put(indexKey(g.ChannelID, g.ID), present); err != nil {
			return err
		}
	}
	if g.GuildID != "" {
		if err := tx.Bucket([]byte(bucketGuildGames)).Put(indexKey(g.GuildID, g.ID), present); err != nil {
			return err
		}
	}
	return nil
}

func getGame(tx *bolt.Tx, id uint64) (*Game, error) {
	v := tx.Bucket([]byte(bucketGames)).Get(idKey(id))
	if v == nil {
		return nil, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	return decodeGame(id, v)
}

// Game returns the stored game id (ErrNotFound if there is none).
func (db *DB) Game(id uint64) (*Game, error) {
	var g *Game
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		g, err = getGame(tx, id)
		return err
	})
	return g, err
}

// OpenGames returns every game that is not over, in id order.
func (db *DB) OpenGames() ([]*Game, error) {
	var out []*Game
	err := db.bolt.View(func(tx *bolt.Tx) error {
		games := tx.Bucket([]byte(bucketGames))
		return tx.Bucket([]byte(bucketLiveGames)).ForEach(func(k, _ []byte) error {
			v := games.Get(k)
			if v == nil {
				return fmt.Errorf("%w: live index names game %d, which is not stored", ErrCorrupt, keyID(k))
			}
			g, err := decodeGame(keyID(k), v)
			if err != nil {
				return err
			}
			out = append(out, g)
			return nil
		})
	})
	return out, err
}

// CountGames returns the number of stored games and how many of them are live.
func (db *DB) CountGames() (total, live int, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		total = tx.Bucket([]byte(bucketGames)).Stats().KeyN
		live = tx.Bucket([]byte(bucketLiveGames)).Stats().KeyN
		return nil
	})
	return total, live, err
}

// Query selects games from an index.
type Query struct {
	// LiveOnly keeps the games that are not over.
	LiveOnly bool
	// Limit is the most games returned (0: no limit).
	Limit int
	// BeforeID keeps games with a smaller id (0: no bound), to page through a list.
	BeforeID uint64
}

// GamesByUser returns the games userID plays, newest first.
func (db *DB) GamesByUser(userID string, q Query) ([]*Game, error) {
	return db.indexed(bucketUserGames, userID, q)
}

// GamesInChannel returns the games created in a channel, newest first.
func (db *DB) GamesInChannel(channelID string, q Query) ([]*Game, error) {
	return db.indexed(bucketChannelGames, channelID, q)
}

// GamesInGuild returns the games of a guild, newest first.
func (db *DB) GamesInGuild(guildID string, q Query) ([]*Game, error) {
	return db.indexed(bucketGuildGames, guildID, q)
}

// indexed walks an index by a string backwards from BeforeID.
func (db *DB) indexed(bucket, s string, q Query) ([]*Game, error) {
	if len(s) > MaxIDLen {
		return nil, nil
	}
	var out []*Game
	err := db.bolt.View(func(tx *bolt.Tx) error {
		games := tx.Bucket([]byte(bucketGames))
		var live *bolt.Bucket
		if q.LiveOnly {
			live = tx.Bucket([]byte(bucketLiveGames))
		}
		prefix := indexKey(s, 0)[:1+len(s)]
		start := q.BeforeID
		if start == 0 {
			start = ^uint64(0)
		} else {
			start--
		}
		c := tx.Bucket([]byte(bucket)).Cursor()
		target := indexKey(s, start)
		k, _ := c.Seek(target)
		switch {
		case k == nil:
			k, _ = c.Last()
		case !bytes.Equal(k, target):
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, _ = c.Prev() {
			key := k[len(prefix):]
			if live != nil && live.Get(key) == nil {
				continue
			}
			v := games.Get(key)
			if v == nil {
				return fmt.Errorf("%w: index %s names game %d, which is not stored", ErrCorrupt, bucket, keyID(key))
			}
			g, err := decodeGame(keyID(key), v)
			if err != nil {
				return err
			}
			out = append(out, g)
			if q.Limit > 0 && len(out) >= q.Limit {
				break
			}
		}
		return nil
	})
	return out, err
}

// present is the value of an index entry (the key says everything).
var present = []byte{1}
